"""Where errors become responses, and the only place: JSON under /api/ (and to the page script that asks for
it), else a page in the reader's language. Bad input is a 400 naming the field; nothing here is ever a 500 but
an error nobody foresaw, and that one is logged and still answered in the reader's language."""
from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import HTTPException

from .. import service, sheets
from ..cards import DataError
from ..schema import InputError

PAGES = {
    400: (_l("Please check"), _l("Something in this request is not right.")),
    403: (_l("Read-only link"), _l("This link can only show the sheet. Ask for the edit link to change it.")),
    404: (_l("Not found"), _l("There is nothing at this address. Check the link, or start from the home page.")),
    405: (_l("Not allowed"), _l("This address does not take that kind of request.")),
    409: (_l("Changed on another phone"), _l("This was changed on another phone meanwhile. Open it again to see it.")),
    413: (_l("Too large"), _l("This is larger than the companion takes.")),
    500: (_l("Something went wrong"), _l("The companion could not answer this. Nothing was changed; try again.")),
}


class Refused(HTTPException):
    """An HTTP refusal that names the field at fault in its JSON answer (e.g. a sheet link's token)."""

    def __init__(self, code: int, description: str, field: str = ""):
        super().__init__(description)
        self.code, self.field = code, field


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def said(code: int, message=None) -> dict:
    """What a JSON refusal adds for the page script (JSON asked from a page's address, not /api/): `message`, the
    reason in the reader's language beside the English `error`, shown on the phone that kept the refused entry."""
    if request.path.startswith("/api/"):
        return {}
    return {"message": str(message or PAGES.get(code, PAGES[500])[1])}


def input_json(e: InputError):
    return jsonify(error=str(e), field=e.field, problems=[str(p) for p in e.problems], **said(400)), 400


def conflict_json(e: sheets.Conflict, message=None):
    return jsonify(error=str(e), field="base", kind=e.kind, entry=sheets.entry_view(e.entry) if e.entry else None,
                   **said(409, message)), 409


def _answer(code: int, error: str, field: str = "", problems=()):
    if wants_json():
        return jsonify(error=error, field=field, **said(code)), code
    title, message = PAGES.get(code, PAGES[500])
    return render_template("message.html", title=title, message=message, problems=problems), code


def init_app(app: Flask) -> None:
    @app.errorhandler(InputError)
    def bad_input(e: InputError):
        return input_json(e) if wants_json() else _answer(400, str(e), e.field, e.problems)

    @app.errorhandler(service.UnknownGame)
    def unknown_game(e: service.UnknownGame):
        return _answer(404, str(e), "game")

    @app.errorhandler(sheets.Conflict)
    def conflict(e: sheets.Conflict):
        return conflict_json(e) if wants_json() else _answer(409, str(e), "base")

    @app.errorhandler(sheets.NotFound)
    def no_entry(e: sheets.NotFound):
        return _answer(404, str(e), "entry")

    @app.errorhandler(HTTPException)
    def refused(e: HTTPException):
        error = "the request is too large" if e.code == 413 else e.description or ""
        return _answer(e.code or 500, error, getattr(e, "field", ""))

    @app.errorhandler(DataError)
    @app.errorhandler(Exception)
    def unforeseen(e: Exception):
        current_app.logger.exception("unforeseen error on %s %s", request.method, request.path)
        return _answer(500, "the companion could not answer this request")
