"""The open score sheet: the last scoring page a phone used is remembered in a cookie, so scanning a printed
card's QR code can offer "add this card to my hand" and send the player back with the card filled in."""
from __future__ import annotations

from typing import Callable
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import Blueprint, abort, make_response, redirect, request
from werkzeug.datastructures import MultiDict

from .. import cards
from ..cards import Component

bp = Blueprint("sheet", __name__)
COOKIE = "sheet"
MAX_COOKIE = 3000  # a cookie holds about 4 KB; a longer sheet is not remembered


def keep_open(page: str, game: str, full_path: str):
    response = make_response(page)
    parts = urlsplit(full_path)
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "_added"])
    full_path = f"{parts.path}?{query}"
    if len(full_path) <= MAX_COOKIE:
        response.set_cookie(COOKIE, full_path, samesite="Lax", httponly=True, max_age=12 * 3600)
    return response


def open_sheet(game: str) -> tuple[str, MultiDict] | None:
    """The open sheet's path and form fields, if it is a scoring page of `game`."""
    kept = request.cookies.get(COOKIE, "")
    parts = urlsplit(kept)
    if parts.path != f"/score/{game}" or parts.scheme or parts.netloc:
        return None
    return parts.path, MultiDict(parse_qsl(parts.query, keep_blank_values=True))


# --- Where a card can go, per game: (target field, whose) pairs, and how adding it fills that field ---------------

def _players(form: MultiDict) -> list[tuple[int, str]]:
    """(index, name) of the sheet's players: names typed per player (`players.N.name`) or once (`_names`)."""
    if "_names" in form:
        return [(i, name or str(i + 1)) for i, name in enumerate(form.getlist("_names"))]
    out, i = [], 0
    while f"players.{i}.name" in form:
        out.append((i, form.get(f"players.{i}.name") or str(i + 1)))
        i += 1
    return out


def _duquesa_targets(c: Component, form: MultiDict) -> list[tuple[str, str]]:
    if c.type != "necklace":
        return []
    return [("common", "common")] + [(f"players.{i}.hand:list", name) for i, name in _players(form)]


def _duquesa_add(c: Component, form: MultiDict, target: str) -> None:
    if target == "common":
        form.setlist("common", [c.id])
    elif c.id not in form.getlist(target):
        form.add(target, c.id)


def _qn_targets(c: Component, form: MultiDict) -> list[tuple[str, str]]:
    if c.type != "gem" or form.get("_mode") == "game":  # cards go into a single sale's columns
        return []
    return [(f"players.{i}.shown.{c.data['gem']}:ints", name) for i, name in _players(form)]


def _qn_add(c: Component, form: MultiDict, target: str) -> None:
    form.setlist(target, [f"{form.get(target, '')} {c.data.get('gems', 1)}".strip()])


TARGETS: dict[str, Callable[[Component, MultiDict], list[tuple[str, str]]]] = {
    "duquesa": _duquesa_targets, "queens-necklace": _qn_targets,
}
ADD: dict[str, Callable[[Component, MultiDict, str], None]] = {"duquesa": _duquesa_add, "queens-necklace": _qn_add}


def targets(game: str, c: Component) -> list[tuple[str, str]]:
    """Where this card can be added on the phone's open sheet: (target, who) pairs; empty without a sheet."""
    sheet = open_sheet(game)
    if sheet is None or game not in TARGETS:
        return []
    return TARGETS[game](c, sheet[1])


@bp.get("/sheet/add/<game>/<card_id>")
def add(game: str, card_id: str):
    """Add a scanned card to the open sheet and go back to it, filled in (a GET: it only builds a link)."""
    card_set = cards.load_shipped().get(game)
    sheet = open_sheet(game)
    target = request.args.get("to", "")
    if card_set is None or game not in ADD:
        abort(404)
    try:
        c = card_set.component(card_id.upper())
    except KeyError:
        abort(404)
    if sheet is None:
        abort(400, "no score sheet is open on this phone")
    path, form = sheet
    if target not in dict(TARGETS[game](c, form)):
        abort(400, f"this card cannot go to {target!r}")
    ADD[game](c, form, target)
    form.setlist("_added", [c.id])
    return redirect(f"{path}?{urlencode(list(form.items(multi=True)))}")
