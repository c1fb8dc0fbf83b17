"""Scanned cards: the scoring page a phone used last is remembered in a cookie (its address), so scanning a printed
card's QR code can offer "add this card to my hand" and send the player back with the card filled in. Where a
card can go is each game's page glue (`targets`, `add`)."""
from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import Blueprint, abort, make_response, redirect, request, url_for
from werkzeug.datastructures import MultiDict

from ... import library
from ...cards import Component
from ..games.glue import pages

bp = Blueprint("scan", __name__)
COOKIE = "score_page"
MAX_COOKIE = 3000  # a cookie holds about 4 KB; a longer page address is not remembered


def keep_open(html: str, game: str, full_path: str):
    """The page's response, remembering its address (without the last added card) as this phone's open page."""
    response = make_response(html)
    parts = urlsplit(full_path)
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "_added"])
    full_path = f"{parts.path}?{query}"
    if len(full_path) <= MAX_COOKIE:
        response.set_cookie(COOKIE, full_path, samesite="Lax", httponly=True, max_age=12 * 3600)
    return response


def open_page(game: str) -> tuple[str, MultiDict] | None:
    """The open scoring page's path and form fields, if it is `game`'s."""
    kept = request.cookies.get(COOKIE, "")
    parts = urlsplit(kept)
    if parts.path != url_for("scoring.score", game=game) or parts.scheme or parts.netloc:
        return None
    return parts.path, MultiDict(parse_qsl(parts.query, keep_blank_values=True))


def targets(game: str, c: Component) -> list[tuple[str, str]]:
    """Where this card can be added on the phone's open scoring page: (target, who) pairs; empty without one."""
    glue = pages(game)
    page = open_page(game)
    if page is None or glue.targets is None:
        return []
    return glue.targets(c, page[1])


@bp.get("/scan/add/<game>/<card_id>")
def add(game: str, card_id: str):
    """Add a scanned card to the open scoring page and go back to it, filled in (a GET: it only builds a link)."""
    card_set = library.current().get(game)
    if card_set is None or pages(game).add is None:
        abort(404)
    try:
        c = card_set.component(card_id.upper())
    except KeyError:
        abort(404)
    page = open_page(game)
    if page is None:
        abort(400, "no scoring page is open on this phone")
    path, form = page
    target = request.args.get("to", "")
    if target not in dict(pages(game).targets(c, form)):
        abort(400, f"this card cannot go to {target!r}")
    pages(game).add(c, form, target)
    form.setlist("_added", [c.id])
    return redirect(f"{path}?{urlencode(list(form.items(multi=True)))}")
