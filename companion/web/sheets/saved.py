"""What the saved-sheet API and pages share on the web: opening a sheet by its link's token, the state shown, the
phone's list of sheets, and the on-screen QR codes of the two links. The rest is `companion/sheets/service.py`."""
from __future__ import annotations

import base64
from functools import lru_cache

import qrcode
from flask import current_app, request, session, url_for
from werkzeug.routing import BaseConverter

from ... import games, sheets
from ..shell.errors import Refused
from ..shell.instance import store

HISTORY = 30  # sheets a phone remembers (newest first)


def open_sheet(token: str, write: bool = False) -> sheets.Access:
    """The sheet behind a link: 404 for anything else (malformed tokens are never looked up); 403 when a read-only
    link is used to write."""
    access = store().open(token)
    if access is None:
        raise Refused(404, "no such sheet or entry (check the link)", "token")
    if write and not access.can_edit:
        raise Refused(403, "this is a read-only link: it cannot change the sheet", "token")
    return access


def state(access: sheets.Access, token: str, limit: int | None = None, before: int | None = None) -> dict:
    """The sheet as the API answers and the pages show it: its totals and its newest entries (all, or `limit` of
    them numbered below `before`), plus links for this token's holder. Costs what it shows, not the history."""
    out = store().page(access.sheet_id, limit, before)
    del out["id"]
    out["entries"] = [sheets.entry_view(e) for e in out["entries"]]
    out["can_edit"] = access.can_edit
    out["entry_words"] = games.for_data(out["game"]).entry.words
    out["links"] = links(token, access.can_edit)
    return out


def links(token: str, can_edit: bool) -> dict:
    """The sheet's links to share: `view` (read-only), and `edit` when the token can edit."""
    view = sheets.view_token(token) if can_edit else token
    out = {"view": absolute(url_for("sheet_pages.sheet", token=view))}
    if can_edit:
        out["edit"] = absolute(url_for("sheet_pages.sheet", token=token))
    return out


def absolute(path: str) -> str:
    """A link to share (a sheet's, a setup's): the server's configured address (BASE_URL, which `companion serve`
    sets; COMPANION_BASE_URL for a hosted one) and the path, never the Host header a request happened to carry.
    Only an app that was given no address at all (a test client) falls back to the request's own."""
    base = current_app.config.get("BASE_URL")
    return f"{base.rstrip('/')}{path}" if base else request.host_url.rstrip("/") + path


def remember(token: str) -> None:
    """Keep the link on this phone's list (the signed session), newest first."""
    known = [t for t in session.get("sheets", []) if t != token]
    if session.get("sheets", [None])[:1] != [token]:
        session["sheets"] = [token, *known][:HISTORY]
        session.permanent = True


def forget(token: str) -> list[str]:
    """Take a sheet off this phone's list (both its links, if `token` is its edit link), and off the scoring page's
    "save to the sheet" box; the sheet stays on the server. The tokens forgotten."""
    access = store().open(token)
    tokens = [token, sheets.view_token(token)] if access is not None and access.can_edit else [token]
    if any(t in tokens for t in session.get("sheets", [])):
        session["sheets"] = [t for t in session.get("sheets", []) if t not in tokens]
    if session.get("saving_to") in tokens:
        session.pop("saving_to")
    return tokens


def history() -> list[dict]:
    """This phone's sheets, newest first: open ones and finished ones with their winners (two queries, however
    long the sheets are)."""
    tokens = session.get("sheets", [])
    opened = store().open_many(tokens)
    summaries = store().summaries(a.sheet_id for a in opened.values())
    return [{**summaries[opened[t].sheet_id], "token": t, "can_edit": opened[t].can_edit}
            for t in tokens if t in opened and opened[t].sheet_id in summaries]


@lru_cache(maxsize=512)
def qr_data_uri(text: str) -> str:
    """A QR code as a small SVG data URI (one path; no inline style, so the page's CSP allows it)."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(text)
    code.make(fit=True)
    matrix = code.get_matrix()
    size = len(matrix)
    path = "".join(f"M{x} {y}h1v1h-1z" for y, row in enumerate(matrix) for x, dark in enumerate(row) if dark)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" shape-rendering="crispEdges">'
           f'<rect width="{size}" height="{size}" fill="#fff"/><path d="{path}" fill="#000"/></svg>')
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


class TokenConverter(BaseConverter):
    """`<token:token>`: a link's token, exactly as made (22 URL-safe characters); anything else is a 404."""

    regex = sheets.TOKEN.pattern


SEQ = f"int(min=1, max={sheets.MAX_LOG})"  # an entry number in a URL; anything else is a 404
