"""Phone scoring pages: a form per game whose fields name the score request they fill (see forms.py); the
answer comes from the same service as the API and the command line, and the page shows why."""
from __future__ import annotations

import secrets
from typing import Any, Callable
from urllib.parse import urlencode

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import lazy_gettext as _l
from jinja2 import TemplateNotFound
from werkzeug.datastructures import MultiDict

from .. import cards, service
from ..games.duplicon import round_score
from ..schema import InputError, Problem
from . import forms, sheet, sheet_pages

bp = Blueprint("scoring", __name__)


def _queens_necklace(req: dict, form) -> dict:
    names = forms.typed_names(form)
    if "sales" in req:  # the three-sale game: a sale in which nobody showed a gem was not played (yet)
        sales = []
        for s in forms.filled(req["sales"]):
            if isinstance(s, dict):
                s["players"] = forms.named_rows(names, s.get("players"), shown={})
                if any(p["shown"] for p in s["players"]):
                    sales.append(s)
        return {"sales": sales}
    req["players"] = forms.named_rows(names, req.get("players"), shown={})
    return req


def _duplicon(req: dict, form) -> dict:
    names = forms.typed_names(form)
    rounds = [forms.named_rows(names, entries, won=0, hand=0, zone=0) for entries in forms.filled(req.get("rounds", []))]
    return {**req, "rounds": rounds}


def _gemas(req: dict, form) -> dict:
    req["players"] = forms.filled(req.get("players", []))
    for p in req["players"]:
        if isinstance(p, dict):
            p.setdefault("gems", {})  # no gem typed in: none held
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


@bp.app_template_global()
def player_names(n: int) -> list[str]:
    """The names typed once at the top of this page's form, or "Player k", for `n` seats."""
    typed = forms.typed_names(request.args)
    return [typed[i] if i < len(typed) and typed[i] else str(_l("Player %(n)s", n=i + 1)) for i in range(n)]


@bp.app_template_global()
def has_filled(form, prefix: str) -> bool:
    """Whether any field under `prefix` was filled in (to open that part of a form again)."""
    return any(name.startswith(prefix) and value.strip() for name, value in form.items(multi=True))


RANKS = {"aprendiz": _l("Apprentice"), "artista": _l("Artist"), "oficial": _l("Officer"), "magister": _l("Magister")}
PAGES = ("duquesa", "queens-necklace", "gemas", "nobles", "duplicon")  # games with a scoring page


def _page(game: str, template: str, compute: Callable[[dict], dict] | None = None,
          extras: Callable[[dict | None, dict | None], dict] | None = None, keep_sheet: bool = False, **context):
    """Render `template` for `game`; when the form was sent, score it and show the answer or its problems (400).
    `extras(request, result)` adds what a page shows beside the answer; `keep_sheet` remembers it as the open sheet."""
    card_set = cards.load_shipped().get(game)
    if card_set is None:
        abort(404)
    req, result, problems, status = None, None, [], 200
    if forms.is_submitted(request.args):
        req = PREPARE.get(game, lambda r, f: r)(forms.request_from_form(request.args), request.args)
        try:
            result = (compute or (lambda r: service.score(game, r)))(req)
        except InputError as e:
            if "_added" not in request.args:  # a card just added from its QR code: the sheet is still being filled
                problems, status = e.problems, 400
    if extras:
        context.update(extras(req, result))
    if keep_sheet:
        context["save"] = sheet_pages.save_box(game, req, result)
    try:
        page = render_template(template, card_set=card_set, result=result, problems=problems,
                               form=request.args, bad=_bad_fields(problems), **context)
    except TemplateNotFound:
        abort(404)  # a game without a scoring page (e.g. a designer's own game)
    return (sheet.keep_open(page, game, request.full_path) if keep_sheet else page), status


def _bad_fields(problems: list[Problem]) -> set[str]:
    """Dotted paths of the fields (and their parents) that have a problem, to mark them on the form."""
    out = set()
    for p in problems:
        for i in range(1, len(p.path) + 1):
            out.add(".".join(str(k) for k in p.path[:i]))
    return out


def _nobles_extras(req: dict | None, result: dict | None) -> dict:
    """Blank dice are rolled with a fresh seed (the result's URL keeps the one used), and the court tracker: the
    next duel's form keeps both nobles, their weapons and suits, adds the wounds and resources this duel gave, and
    clears the dice and cards."""
    out = {"fresh_seed": secrets.token_hex(4), "next_url": None}
    if result is None:
        return out
    form = request.args
    keep = MultiDict((k, v) for k, v in form.items(multi=True)
                     if not (".dice" in k or ".cards." in k or k in ("seed", "lang")))
    for side in ("attacker", "defender"):
        wounds = result["wounds"].get(side)
        if wounds:
            keep.setlist(f"{side}.wounds:int", [str(wounds["wounds"])])
        gained = result["resources"].get(side)
        if gained:
            had = form.get(f"{side}.resources:int", "0")
            keep.setlist(f"{side}.resources:int", [str((int(had) if had.isdigit() else 0) + gained)])
    out["next_url"] = url_for("scoring.score", game="nobles") + "?" + urlencode(list(keep.items(multi=True)))
    return out


def _duplicon_extras(req: dict | None, result: dict | None) -> dict:
    """Each round's parts, worked out by the same rule the engine uses."""
    parts = []
    for entries in (req or {}).get("rounds", []):
        row = {}
        for e in entries:
            if all(isinstance(e.get(k), int) for k in ("won", "hand", "zone")):
                row[e["name"]] = (f"{e['won']} − 2×{e['hand']} − 3×{e['zone']} = "
                                  f"{round_score(e['won'], e['hand'], e['zone'])}")
        parts.append(row)
    return {"parts": parts}


EXTRAS = {"nobles": _nobles_extras, "duplicon": _duplicon_extras}


@bp.get("/score/<game>")
def score(game: str):
    return _page(game, f"score/{game}.html", extras=EXTRAS.get(game), keep_sheet=True)


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
    return _page("duquesa", "score/duquesa-turn.html", service.solo_turn)
