"""The saved-sheet JSON API: create, read (with `?since=` for polling), change, export and import a sheet.

Links are capabilities: the edit token writes, the read-only token reads (403 on a write). Every write also needs
this session's CSRF token (`X-CSRF-Token`, from GET /api/v1/csrf). A stale edit is a 409 naming what changed.
"""
from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from ... import service, sheets
from ...core.schema import InputError, Problem, problem, whole_number
from ..shell import csrf
from ..shell.instance import store
from . import saved

bp = Blueprint("sheets_api", __name__, url_prefix="/api/v1")  # errors are answered by errors.py


@bp.get("/csrf")
def csrf_token():
    """This session's CSRF token, which every write sends as X-CSRF-Token."""
    return jsonify(csrf=csrf.token())


def _created(token: str):
    access = store().open(token)
    saved.remember(token)
    return jsonify(token=token, **saved.state(access, token)), 201


@bp.post("/sheets")
def create():
    """A new sheet from the JSON body: 201 with its edit token and its state (this phone remembers it)."""
    return _created(sheets.create(store(), _json()))


@bp.post("/sheets/import")
def import_sheet():
    """A new sheet from an export file in the body (JSON or CSV): 201 with its edit token and its state."""
    request.max_content_length = sheets.IMPORT_LIMIT
    return _created(sheets.import_sheet(store(), request.get_data()))


@bp.get("/sheets/<token:token>")
def read(token: str):
    """The sheet's state (?limit= newest entries, ?before= an entry's number), or that nothing changed since ?since=."""
    access = saved.open_sheet(token)
    since = request.args.get("since", "")
    if whole_number(since, signed=False) == store().version(access.sheet_id):
        return jsonify(version=int(since), changed=False)
    return jsonify(saved.state(access, token, _bounded("limit", 1), _bounded("before", 2)))


def _bounded(name: str, least: int) -> int | None:
    """`?limit=` (entries, newest first) or `?before=` (an entry number): absent, or a whole number in range."""
    text = request.args.get(name)
    if text is None:
        return None
    number = whole_number(text, signed=False)
    if number is None or not least <= number <= sheets.MAX_LOG:
        raise InputError([problem((name,), "must be a whole number from %(lo)s to %(hi)s, got %(got)s", lo=least,
                                  hi=sheets.MAX_LOG, got=repr(text))])
    return number


@bp.get("/sheets/<token:token>/log")
def log(token: str):
    """Every change in the sheet's log, in order."""
    access = saved.open_sheet(token)
    sheet, records = store().load(access.sheet_id)
    return jsonify(log=records)


@bp.get("/sheets/<token:token>/export.<any(json, csv):kind>")
def export(token: str, kind: str):
    """The sheet and its log as a file to download, .json or .csv (both import again)."""
    access = saved.open_sheet(token)
    sheet, records = store().load(access.sheet_id)
    name = f"{sheet['game']}-sheet-{sheet['created'][:10]}.{kind}"
    if kind == "csv":
        response = Response(sheets.export_csv(sheet, records), mimetype="text/csv")
    else:
        response = jsonify(sheets.export_json(sheet, records))
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _write(token: str, action: str, target: int | None = None):
    access = saved.open_sheet(token, write=True)
    return written_answer(sheets.change(store(), access.sheet_id, action, _json(), target), action)


def written_answer(written, action: str):
    """A change's answer: the change itself; 201 when an entry was added now, else 200 (a replay, or a change)."""
    return jsonify(change=written.record, replayed=written.replayed), 201 if action == "add" and not written.replayed \
        else 200


def _json():
    """The request's JSON body, read by the same parser as every other input (deep nesting, duplicate keys and
    bad text are a 400 naming what is wrong)."""
    if not request.is_json:
        raise InputError([Problem((), "the body must be JSON (Content-Type: application/json)")])
    return service.parse_json(request.get_data())


@bp.post("/sheets/<token:token>/entries")
def add(token: str):
    """A new entry from the JSON body: 201 with the change; 200 with the earlier one if its client_id was written."""
    return _write(token, "add")


@bp.put(f"/sheets/<token:token>/entries/<{saved.SEQ}:seq>")
def edit(token: str, seq: int):
    """The entry replaced by the JSON body (`base`: the revision seen; 409 if it changed since): the change."""
    return _write(token, "edit", seq)


@bp.post(f"/sheets/<token:token>/entries/<{saved.SEQ}:seq>/<any(undo, restore):action>")
def undo(token: str, seq: int, action: str):
    """Undo or restore an entry (`action`; `base`: the revision seen): the change."""
    return _write(token, action, seq)


@bp.post("/sheets/<token:token>/<any(finish, reopen):action>")
def finish(token: str, action: str):
    """Finish or reopen the sheet (`action`): the change."""
    return _write(token, action)
