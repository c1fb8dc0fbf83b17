"""Where errors become responses, and the only place: JSON under /api/ (and to the page script that asks for
it), else a page in the reader's language. Bad input is a 400 naming the field; nothing here is ever a 500 but
an error nobody foresaw, and that one is logged and still answered in the reader's language."""
from __future__ import annotations

from flask import Flask, current_app, jsonify, make_response, render_template, request
from flask_babel import lazy_gettext as _l
from sqlalchemy import exc
from werkzeug.exceptions import HTTPException

from ... import service, sheets
from ...cards import DataError
from ...core.schema import InputError

PAGES = {
    400: (_l("Please check"), _l("Something in this request is not right.")),
    403: (_l("Read-only link"), _l("This link can only show the sheet. Ask for the edit link to change it.")),
    404: (_l("Not found"), _l("There is nothing at this address. Check the link, or start from the home page.")),
    405: (_l("Not allowed"), _l("This address does not take that kind of request.")),
    409: (_l("Changed on another phone"), _l("This was changed on another phone meanwhile. Open it again to see it.")),
    413: (_l("Too large"), _l("This is larger than the companion takes.")),
    429: (_l("Too many changes"), _l("Too many changes came from your network in a short time, so this one was not "
                                     "saved. Wait a little and try again.")),
    500: (_l("Something went wrong"), _l("The companion could not answer this. Nothing was changed; try again.")),
    503: (_l("Not saved"), _l("The change could not be saved: the companion's storage is full or cannot be written "
                              "just now. Nothing was changed and everything saved before is kept; try again in a "
                              "few minutes.")),
}
UNREACHABLE = _l("The companion cannot reach its saved sheets just now. Nothing was changed; try again in a few "
                 "minutes.")
RETRY_AFTER_TROUBLE = 60  # seconds a client is asked to wait when the database cannot answer or write


class Refused(HTTPException):
    """An HTTP refusal that names the field at fault in its JSON answer (e.g. a sheet link's token)."""

    def __init__(self, code: int, description: str, field: str = ""):
        super().__init__(description)
        self.code, self.field = code, field


def wants_json() -> bool:
    """Whether the answer is JSON: under /api/, or to a client that prefers application/json (the page's script)."""
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def said(code: int, message=None) -> dict:
    """What a JSON refusal adds for the page script (JSON asked from a page's address, not /api/): `message`, the
    reason in the reader's language beside the English `error`, shown on the phone that kept the refused entry."""
    if request.path.startswith("/api/"):
        return {}
    return {"message": str(message or PAGES.get(code, PAGES[500])[1])}


def input_json(e: InputError):
    """A 400 JSON answer to bad input: the error, the first problem's field and every problem, in English."""
    return jsonify(error=str(e), field=e.field, problems=[str(p) for p in e.problems], **said(400)), 400


def conflict_json(e: sheets.Conflict, message=None):
    """A 409 JSON answer to a stale change: its kind and field, the entry as it is now, and `message` for the page."""
    return jsonify(error=str(e), field=e.field, kind=e.kind, entry=sheets.entry_view(e.entry) if e.entry else None,
                   **said(409, message)), 409


def _answer(code: int, error: str, field: str = "", problems=(), message=None, retry_after: int | None = None,
            title=None):
    """The answer to a refusal: JSON (`error` in English, `field`; `message` in the reader's language for the page
    script), else a page in the reader's language (`title` and `message`, else the code's own); `Retry-After` when
    the client should wait and try again."""
    if wants_json():
        response = make_response(jsonify(error=error, field=field, **said(code, message)), code)
    else:
        default_title, default = PAGES.get(code, PAGES[500])
        response = make_response(render_template("message.html", title=title or default_title,
                                                 message=message or default,
                                                 problems=problems), code)
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response


def init_app(app: Flask) -> None:
    """Register the handlers that answer every refusal: JSON (`wants_json`), else a page in the reader's language."""
    @app.errorhandler(InputError)
    def bad_input(e: InputError):
        return input_json(e) if wants_json() else _answer(400, str(e), e.field, e.problems)

    @app.errorhandler(service.UnknownGame)
    def unknown_game(e: service.UnknownGame):
        return _answer(404, str(e), "game")

    @app.errorhandler(sheets.Conflict)
    def conflict(e: sheets.Conflict):
        return conflict_json(e) if wants_json() else _answer(409, str(e), e.field)

    @app.errorhandler(sheets.NotFound)
    def no_entry(e: sheets.NotFound):
        return _answer(404, str(e), "entry")

    @app.errorhandler(HTTPException)
    def refused(e: HTTPException):
        error = "the request is too large" if e.code == 413 else e.description or ""
        return _answer(e.code or 500, error, getattr(e, "field", ""), message=getattr(e, "message", None),
                       retry_after=getattr(e, "retry_after", None), title=getattr(e, "title", None))

    @app.errorhandler(sheets.CannotWrite)
    def cannot_write(e: sheets.CannotWrite):
        """The database did not take a write (full, read-only, gone): nothing of it was kept. A 503, which the
        phone's queue keeps its entry for, and /healthz says so too (the store remembers)."""
        current_app.logger.error("a write failed on %s %s: %s", request.method, request.path, e.reason)
        return _answer(503, "the companion cannot save changes just now: its database is full, read-only or not "
                            "answering (nothing was changed; try again later)", "database",
                       retry_after=RETRY_AFTER_TROUBLE)

    @app.errorhandler(exc.OperationalError)
    @app.errorhandler(exc.InternalError)
    def unreachable(e: Exception):
        """A read the database did not answer (PostgreSQL down, SQLite locked past its wait)."""
        current_app.logger.error("the database did not answer %s %s: %s", request.method, request.path,
                                 str(getattr(e, "orig", None) or e).strip().splitlines()[:1])
        return _answer(503, "the companion's database does not answer just now (nothing was changed; try again "
                            "later)", "database", message=UNREACHABLE, retry_after=RETRY_AFTER_TROUBLE)

    @app.errorhandler(DataError)
    @app.errorhandler(Exception)
    def unforeseen(e: Exception):
        current_app.logger.exception("unforeseen error on %s %s", request.method, request.path)
        return _answer(500, "the companion could not answer this request")
