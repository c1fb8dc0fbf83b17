"""What the saved-sheet API and pages share: opening a sheet by its link's token, the state shown, the phone's list
of sheets, and the on-screen QR codes of the two links."""
from __future__ import annotations

import base64
from functools import lru_cache
from typing import Any, Mapping

import qrcode
from flask import abort, session, url_for

from werkzeug.routing import BaseConverter

from .. import games, service, sheets
from ..schema import InputError, Int, Problem, Problems
from ..storage import TOKEN, Access, Written, view_token
from .instance import store

HISTORY = 30  # sheets a phone remembers (newest first)
IMPORT_LIMIT = 4 * 1024 * 1024  # bytes; an export of a full sheet (2,000 scored changes) fits with room


def open_sheet(token: str, write: bool = False) -> Access:
    """The sheet behind a link: 404 for anything else (malformed tokens are never looked up); 403 when a read-only
    link is used to write."""
    access = store().open(token)
    if access is None:
        abort(404)
    if write and not access.can_edit:
        abort(403)
    return access


def state(access: Access, token: str) -> dict:
    """The sheet as the API answers and the pages show it: the folded log plus links for this token's holder."""
    sheet, log = store().load(access.sheet_id)
    out = sheets.fold(sheet, log)
    out["entries"] = [entry_view(e) for e in out["entries"]]
    out["can_edit"] = access.can_edit
    out["entry_name"] = games.get(out["game"]).SHEET_ENTRY
    out["created"], out["updated"] = sheet["created"], sheet["updated"]
    out["links"] = links(token, access.can_edit)
    return out


def entry_view(entry: Mapping) -> dict:
    body = entry["body"]
    out = {"seq": entry["seq"], "rev": entry["rev"], "at": entry["at"], "active": entry["active"],
           "changes": entry["changes"], "points": body["points"]}
    for key in ("note", "request", "seats"):
        if key in body:
            out[key] = body[key]
    return out


def links(token: str, can_edit: bool) -> dict:
    view = view_token(token) if can_edit else token
    out = {"view": url_for("sheet_pages.sheet", token=view, _external=True)}
    if can_edit:
        out["edit"] = url_for("sheet_pages.sheet", token=token, _external=True)
    return out


def remember(token: str) -> None:
    """Keep the link on this phone's list (the signed session), newest first."""
    known = [t for t in session.get("sheets", []) if t != token]
    if session.get("sheets", [None])[:1] != [token]:
        session["sheets"] = [token, *known][:HISTORY]
        session.permanent = True


def history() -> list[dict]:
    """This phone's sheets, newest first: open ones and finished ones with their winners."""
    out = []
    for token in session.get("sheets", []):
        access = store().open(token)
        if access is None:
            continue
        sheet, log = store().load(access.sheet_id)
        folded = sheets.fold(sheet, log)
        out.append({"token": token, "can_edit": access.can_edit, "game": folded["game"], "title": folded["title"],
                    "players": folded["players"], "finished": folded["finished"], "winners": folded["winners"],
                    "leaders": folded["leaders"], "totals": folded["totals"], "updated": sheet["updated"]})
    return out


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

    regex = TOKEN.pattern


SEQ = "int(min=1, max=%d)" % sheets.MAX_LOG  # an entry number in a URL; anything else is a 404


def create(data: Any) -> str:
    """A new sheet from `{"game", "title", "players"}`; its edit token."""
    return store().create(sheets.new_sheet(data))


def import_sheet(raw: bytes, path: tuple = ()) -> str:
    """A new sheet from an export, JSON (an object) or CSV (anything else); its edit token. `path` names where
    the file came from in a problem (a form's file field)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError([Problem(path, "is not UTF-8 text")]) from None
    is_json = text.lstrip().startswith("{")
    sheet, log = sheets.import_json(service.parse_json(text, IMPORT_LIMIT)) if is_json else sheets.import_csv(text)
    return store().create(sheet, log)


def change(access: Access, action: str, data: Any, target: int | None = None, meta: Mapping | None = None) -> Written:
    """One change from its fields (`client_id` to make a retry harmless; `base` = the entry's revision seen, for an
    edit, undo or restore; the entry's own fields for an add or edit; `meta` if the caller already read it).
    InputError, Conflict or NotFound."""
    if not isinstance(data, Mapping):
        raise InputError([Problem((), "must be a JSON object")])
    fields = dict(data)
    client_id, base = fields.pop("client_id", None), fields.pop("base", None)
    problems = Problems()
    if client_id is not None:
        sheets.CLIENT_ID.check(client_id, ("client_id",), problems)
    if action in sheets.TARGETED:
        if base is None:
            problems.add(("base",), "is missing: the revision of the entry you saw (its rev)")
        else:
            Int(1, sheets.MAX_LOG).check(base, ("base",), problems)
    body = None
    if action in sheets.WITH_BODY:
        meta = meta or store().meta(access.sheet_id)
        try:
            body = sheets.entry_body(meta["game"], meta["players"], fields)
        except InputError as e:
            problems.extend(e.problems)
    elif fields:
        for key in fields:
            problems.add((key,), f"unknown key; a {action} takes only base and client_id")
    if problems:
        raise InputError(problems)
    return store().append(access.sheet_id, action, target=target, body=body, base=base, client_id=client_id)

