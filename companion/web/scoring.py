"""Phone scoring pages: a form per game whose fields name the score request they fill (see forms.py); the
answer comes from the same service as the API and the command line, and the page shows why."""
from __future__ import annotations

from typing import Any, Callable

from flask import Blueprint, abort, render_template, request
from flask_babel import lazy_gettext as _l
from jinja2 import TemplateNotFound

from .. import cards, service
from ..schema import InputError, Problem
from . import forms, sheet

bp = Blueprint("scoring", __name__)


def _qn_players(players: Any) -> Any:
    players = forms.filled(players)
    for p in players if isinstance(players, list) else ():
        if isinstance(p, dict):
            p.setdefault("shown", {})
    return players


def _queens_necklace(req: dict, form) -> dict:
    if "sales" in req:  # the three-sale game: a sale in which nobody showed a gem was not played (yet)
        sales = []
        for s in forms.filled(req["sales"]):
            if isinstance(s, dict):
                s["players"] = _qn_players(s.get("players", []))
                if any(isinstance(p, dict) and p["shown"] for p in s["players"]):
                    sales.append(s)
        return {"sales": sales}
    if "players" in req:
        req["players"] = _qn_players(req["players"])
    return req


def _duplicon(req: dict, form) -> dict:
    names = [n.strip() for n in form.getlist("_names")]
    rounds = []
    for entries in forms.filled(req.get("rounds", [])):
        entries = entries if isinstance(entries, list) else []
        entries = entries + [None] * (len(names) - len(entries))
        rounds.append([{"name": name, "won": 0, "hand": 0, "zone": 0, **(e if isinstance(e, dict) else {})}
                       for name, e in zip(names, entries)])
    return {**req, "rounds": rounds}


def _gemas(req: dict, form) -> dict:
    req["players"] = forms.filled(req.get("players", []))
    move = req.get("lay_down")
    if isinstance(move, dict) and not (move.get("player") and move.get("set")):
        del req["lay_down"]  # nothing laid down this turn
    return req


def _players(req: dict, form) -> dict:
    if "players" in req:
        req["players"] = forms.filled(req["players"])
    return req


PREPARE: dict[str, Callable[[dict, Any], dict]] = {
    "duquesa": _players, "queens-necklace": _queens_necklace, "duplicon": _duplicon, "gemas": _gemas,
}


RANKS = {"aprendiz": _l("Apprentice"), "artista": _l("Artist"), "oficial": _l("Officer"), "magister": _l("Magister")}
PAGES = ("duquesa", "queens-necklace", "gemas", "nobles", "duplicon")  # games with a scoring page


def _page(game: str, template: str, compute: Callable[[dict], dict] | None = None, **context):
    """Render `template` for `game`; when the form was sent, score it and show the answer or its problems (400)."""
    card_set = cards.load_shipped().get(game)
    if card_set is None:
        abort(404)
    result, problems, status = None, [], 200
    if forms.is_submitted(request.args):
        req = PREPARE.get(game, lambda r, f: r)(forms.request_from_form(request.args), request.args)
        try:
            result = (compute or (lambda r: service.score(game, r)))(req)
        except InputError as e:
            problems, status = e.problems, 400
    try:
        page = render_template(template, card_set=card_set, result=result, problems=problems,
                               form=request.args, bad=_bad_fields(problems), **context)
    except TemplateNotFound:
        abort(404)  # a game without a scoring page (e.g. a designer's own game)
    response = sheet.keep_open(page, game, request.full_path)
    return response, status


def _bad_fields(problems: list[Problem]) -> set[str]:
    """Dotted paths of the fields (and their parents) that have a problem, to mark them on the form."""
    out = set()
    for p in problems:
        for i in range(1, len(p.path) + 1):
            out.add(".".join(str(k) for k in p.path[:i]))
    return out


@bp.get("/score/<game>")
def score(game: str):
    return _page(game, f"score/{game}.html")


@bp.get("/solo/duquesa")
def solo():
    """The solo rank from a final hand (four cards and the common card) or from the florins."""
    def compute(req: dict) -> dict:
        if "florins" in req:
            return service.score("duquesa", {"florins": req["florins"]})
        return service.score("duquesa", {"common": req.get("common"), "players": [
            {"name": str(_l("You")), "hand": req.get("hand", [])}]})
    return _page("duquesa", "score/duquesa-solo.html", compute, ranks=RANKS)


@bp.get("/solo/duquesa/turn")
def solo_turn():
    """The turn helper: given the hand, the common card and the card turned up, keep it or take the hidden one?"""
    card_set = cards.load_shipped()["duquesa"]
    result, problems, status = None, [], 200
    if forms.is_submitted(request.args):
        try:
            result = service.solo_turn(forms.request_from_form(request.args))
        except InputError as e:
            problems, status = e.problems, 400
    page = render_template("score/duquesa-turn.html", card_set=card_set, result=result, problems=problems,
                           form=request.args, bad=_bad_fields(problems))
    return page, status



