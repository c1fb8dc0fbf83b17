"""Phone scoring pages: a form per game whose fields name the score request they fill (see forms.py); the
answer comes from the same service as the API and the command line, and the page shows why."""
from __future__ import annotations

from typing import Callable

from flask import abort, Blueprint, render_template, request
from flask_babel import lazy_gettext as _l

from .. import cards, games, service
from ..schema import InputError, Problem
from . import forms, scan, sheet_pages
from .game_pages import pages

bp = Blueprint("scoring", __name__)


@bp.app_template_global()
def player_names(n: int) -> list[str]:
    """The names typed once at the top of this page's form, or "Player k", for `n` seats."""
    typed = forms.typed_names(request.args)
    return [typed[i] if i < len(typed) and typed[i] else str(_l("Player %(n)s", n=i + 1)) for i in range(n)]


@bp.app_template_global()
def has_filled(form, prefix: str) -> bool:
    """Whether any field under `prefix` was filled in (to open that part of a form again)."""
    return any(name.startswith(prefix) and value.strip() for name, value in form.items(multi=True))


def page(game: str, template: str, compute: Callable[[dict], dict] | None = None,
         extras: Callable[[dict | None, dict | None], dict] | None = None, keep_open: bool = False, **context):
    """Render `template` for `game`; when the form was sent, prepare it with the game's page glue, score it and
    show the answer or its problems (400). `extras(request, result)` adds what a page shows beside the answer;
    `keep_open` remembers the page on this phone (for scanned cards) and offers to save the result to a sheet."""
    card_set = cards.load_all().get(game)
    if card_set is None:
        abort(404)
    glue = pages(game)
    req, result, problems, status = None, None, [], 200
    if forms.is_submitted(request.args):
        req = glue.prepare(forms.request_from_form(request.args), request.args)
        try:
            result = (compute or (lambda r: service.score(game, r)))(req)
        except InputError as e:
            if "_added" not in request.args:  # a card just added from its QR code: the sheet is still being filled
                problems, status = e.problems, 400
    if extras:
        context.update(extras(req, result))
    if keep_open:
        context["save"] = sheet_pages.save_box(game, req, result)
    low, high = card_set.players  # player counts come from the card data, the default from the game
    html = render_template(template, card_set=card_set, result=result, problems=problems, form=request.args,
                           bad=_bad_fields(problems), seats=range(low, high + 1),
                           default_seats=games.for_data(game).players_by_default(card_set), **context)
    return (scan.keep_open(html, game, request.full_path) if keep_open else html), status


def _bad_fields(problems: list[Problem]) -> set[str]:
    """Dotted paths of the fields (and their parents) that have a problem, to mark them on the form."""
    out = set()
    for p in problems:
        for i in range(1, len(p.path) + 1):
            out.add(".".join(str(k) for k in p.path[:i]))
    return out


def has_score_page(game: str) -> bool:
    """Whether a known game has a scoring page: a game with rules, or a data-only game whose components have values."""
    card_set = cards.load_all().get(game)
    return card_set is not None and games.for_data(game).scores(card_set)


@bp.get("/score/<game>")
def score(game: str):
    if not has_score_page(game):
        abort(404)
    glue = pages(game)
    return page(game, glue.template, extras=glue.extras, keep_open=True)
