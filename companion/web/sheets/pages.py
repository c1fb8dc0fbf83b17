"""Saved-sheet pages: start or import a sheet, the sheet itself (totals, entries, undo and edit, finish), its
audit trail, and saving a hand from a scoring page. Plain POST forms (each with its CSRF token) over the same
checks as the API; the page's script sends the add form in the background and keeps it when offline."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, g, jsonify, redirect, render_template, request, session, url_for
from flask_babel import lazy_gettext as _l

from ... import library, service, sheets
from ...core.schema import InputError, Problem, Problems, whole_number
from ..games import glue
from ..play import views
from ..shell import errors
from ..shell.errors import wants_json as _wants_json
from ..shell.instance import store
from ..shell.locale import with_query
from . import api as sheets_api
from . import saved

bp = Blueprint("sheet_pages", __name__)
SAVING_TO = "saving_to"  # session key: the sheet a scoring page saves to
CONFLICTS = {  # what a 409 means, said on the page (the API's message is in English)
    "changed": _l("This entry was changed on another phone after you opened it."),
    "undone": _l("This entry was undone on another phone."),
    "not_undone": _l("This entry was already restored on another phone."),
    "finished": _l("The game was finished on another phone; reopen the sheet to change it."),
    "over": _l("The game is over by its rules: no round is added after its end. Edit or undo a round to change it."),
    "not_over": _l("The sheet is finished, and this change would leave its game no longer over by its rules. Reopen "
                   "the sheet first to make it."),
    "already_finished": _l("The game was already finished on another phone."),
    "not_finished": _l("The sheet was already reopened on another phone."),
    "full": _l("This sheet holds the most changes a sheet can hold; start a new sheet."),
    "reused": _l("This entry was not saved: the id this phone gave it (its client_id) was already used for another "
                 "change of this sheet. Add it again as a new entry."),
}
HEADINGS = {"reused": _l("Not saved")}  # a conflict's page says "Changed on another phone" unless named here


@bp.get("/sheets")
def index(problems=(), status=200):
    """The sheets page: this phone's sheets, the forms to start or import one, and `problems` (with `status`)."""
    return render_template("sheets/index.html", history=saved.history(), problems=problems,
                           form=request.form or request.args,  # (a setup's "keep score" link names game and players)
                           **views.sheet_choices()), status


@bp.post("/sheets")
def create():
    """Start a sheet from the form (game, players, title) and go to it; else the sheets page with the problems."""
    form = request.form
    names = [form.get(f"players.{i}", "").strip() for i in range(sheets.MAX_PLAYERS)]
    data = {"game": form.get("game", ""), "players": [n for n in names if n]}
    if form.get("title", "").strip():
        data["title"] = form["title"]
    try:
        token = sheets.create(store(), data)
    except InputError as e:
        return index(e.problems, 400)
    saved.remember(token)
    return redirect(url_for(".sheet", token=token), 303)


@bp.post("/sheets/import")
def import_sheet():
    """Start a sheet from an uploaded export (.json or .csv) and go to it; else the sheets page with the problems."""
    request.max_content_length = sheets.IMPORT_LIMIT
    upload = request.files.get("file")
    try:
        if upload is None or not upload.filename:
            raise InputError([Problem(("file",), "choose a file exported from a sheet (.json or .csv)")])
        token = sheets.import_sheet(store(), upload.read(), ("file",))
    except InputError as e:
        return index(e.problems, 400)
    saved.remember(token)
    return redirect(url_for(".sheet", token=token), 303)


PAGE = 50  # entries a sheet's page shows, newest first; older ones are a link away (`?before=`)


def _render(token: str, access, template: str = "sheets/sheet.html", status: int = 200, **context):
    before = whole_number(request.args.get("before", ""), signed=False)
    state = saved.state(access, token, PAGE, before if before and before <= sheets.MAX_LOG else None)
    qr = {kind: saved.qr_data_uri(url) for kind, url in state["links"].items()}
    return render_template(template, sheet=state, token=token, qr=qr, card_set=library.current().get(state["game"]),
                           poll=current_app.config["SHEET_POLL_SECONDS"], **context), status


@bp.get("/s/<token:token>")
def sheet(token: str):
    """A sheet's page (totals and entries), put on this phone's list of sheets; 404 for an unknown link."""
    access = saved.open_sheet(token)
    saved.remember(token)
    return _render(token, access, problems=(), form={})


@bp.get("/s/<token:token>/log")
def log(token: str):
    """A sheet's audit trail: every change in its log, in order."""
    access = saved.open_sheet(token)
    _sheet, records = store().load(access.sheet_id)
    return _render(token, access, "sheets/log.html", log=records)


def _entry_fields(players: list[str], form, with_base: bool = False) -> dict[str, Any]:
    """A change's fields from a form: points per player (`points.<seat>`, blank = 0) or a scored `request`
    (JSON) with `seats.<i>`; `note`, `client_id` and `base` as typed."""
    problems = Problems()
    data: dict[str, Any] = {}
    if form.get("request", "").strip():
        try:
            data["request"] = service.parse_json(form["request"])
        except InputError as e:
            problems.extend(p.under("request") for p in e.problems)
        seats = [form.get(f"seats.{i}", "") for i in range(sheets.MAX_PLAYERS)]
        if any(seats):
            data["seats"] = [s for s in seats if s]
    else:
        data["points"] = {}
        for i, name in enumerate(players):
            value = form.get(f"points.{i}", "").strip() or "0"
            number = whole_number(value)
            if number is not None:
                data["points"][name] = number
            else:
                problems.add(("points", name), "must be a whole number, got %(got)s", got=repr(value))
    for key in ("note", "client_id"):
        if form.get(key, "").strip():
            data[key] = form[key].strip()
    if with_base:
        data.update(_base(form))
    if problems:
        raise InputError(problems)
    return data


def _base(form) -> dict:
    """The entry revision the form was made from (a number; anything else is passed on to be named as wrong)."""
    base = form.get("base", "").strip()
    number = whole_number(base, signed=False)
    return {"base": base if number is None else number} if base else {}


def _change(token: str, action: str, target: int | None = None, edit_form: bool = False):
    """Make one change from a form; answer JSON to the page's script, else go back to the sheet (or show why not)."""
    access = saved.open_sheet(token, write=True)
    meta = store().meta(access.sheet_id) if action in sheets.WITH_BODY else None
    try:
        if meta:
            data = _entry_fields(meta["players"], request.form, with_base=action == "edit")
        else:
            data = _base(request.form) if action in sheets.TARGETED else {}
        written = sheets.change(store(), access.sheet_id, action, data, target, meta)
    except InputError as e:
        if _wants_json():
            return errors.input_json(e)
        if edit_form:
            return _render(token, access, "sheets/edit.html", 400, entry=_entry(access, token, target),
                           problems=e.problems, form=request.form, correctable=_correctable(access))
        return _render(token, access, status=400, problems=e.problems, form=request.form)
    except sheets.Conflict as e:
        if _wants_json():
            return errors.conflict_json(e, CONFLICTS[e.kind])
        return _render(token, access, "sheets/conflict.html", 409, message=CONFLICTS[e.kind], action=action,
                       kind=e.kind, target=target, theirs=sheets.entry_view(e.entry) if e.entry else None,
                       mine=request.form, heading=HEADINGS.get(e.kind))
    except sheets.NotFound:
        abort(404)
    if _wants_json():
        return sheets_api.written_answer(written, action)
    anchor = f"entry-{target or written.record['seq']}" if action in sheets.WITH_BODY + sheets.TARGETED else "totals"
    return redirect(url_for(".sheet", token=token, _anchor=anchor), 303)


def _entry(access, token: str, seq: int | None) -> dict:
    entry = store().entry(access.sheet_id, seq) if seq else None
    if entry is None:
        abort(404)
    return sheets.entry_view(entry)


@bp.post("/s/<token:token>/entries")
def add(token: str):
    """Add an entry from the form; JSON for the page's script, else back to the sheet at the entry."""
    return _change(token, "add")


@bp.route(f"/s/<token:token>/entries/<{saved.SEQ}:seq>/edit", methods=("GET", "POST"))
def edit(token: str, seq: int):
    """An entry's edit form (GET), or the entry changed from it (POST); 404 for an entry the sheet lacks."""
    if request.method == "POST":
        return _change(token, "edit", seq, edit_form=True)
    access = saved.open_sheet(token, write=True)
    return _render(token, access, "sheets/edit.html", entry=_entry(access, token, seq), problems=(), form={},
                   correctable=_correctable(access))


def _correctable(access) -> bool:
    """Whether the sheet's entries scored with the calculator are corrected in it: any game with a scoring page
    (its form opens with the entry's request, `glue.as_fields`)."""
    return views.has_score_page(store().meta(access.sheet_id)["game"])


@bp.post(f"/s/<token:token>/entries/<{saved.SEQ}:seq>/<any(undo, restore):action>")
def undo(token: str, seq: int, action: str):
    """Undo or restore an entry (`action`); JSON for the page's script, else back to the sheet at the entry."""
    return _change(token, action, seq)


@bp.post("/s/<token:token>/<any(finish, reopen):action>")
def finish(token: str, action: str):
    """Finish or reopen the sheet (`action`); JSON for the page's script, else back to its totals."""
    return _change(token, action)


@bp.post("/s/<token:token>/forget")
def forget(token: str):
    """Forget a sheet on this phone: off its list of sheets (the sheet stays on the server, for the others and for
    its link). The page's script, which asks for JSON, then deletes the service worker's copies of the pages named
    in `forgotten` (and of any page holding them) and the entries this phone still keeps for the sheet."""
    tokens = saved.forget(token)
    if _wants_json():
        return jsonify(forgotten=[url_for(".sheet", token=t) for t in tokens])
    return redirect(url_for(".index"), 303)


@bp.post("/s/<token:token>/calculator")
def calculator(token: str):
    """Open the game's scoring page saving to this sheet: its result gets a "save to the sheet" form. A POST with
    this session's form token: a link from another site cannot point a phone's next save at someone's sheet. The
    page opens with the players' names, the sheet's next round (a game of rounds) and the rounds before it
    (`sheets.calculator_fields`)."""
    return _calculator(token)


@bp.post(f"/s/<token:token>/entries/<{saved.SEQ}:seq>/calculator")
def correct(token: str, seq: int):
    """Correct an entry scored with the calculator in the calculator: the scoring page opens with that round's
    cards and counters (and the rounds before it), and its save form changes the entry (404 for an entry the sheet
    lacks or one not scored with the calculator)."""
    return _calculator(token, seq)


def _calculator(token: str, seq: int | None = None):
    access = saved.open_sheet(token, write=True)
    meta = store().meta(access.sheet_id)
    correcting = _entry(access, token, seq) if seq else None
    if correcting is not None and "request" not in correcting:
        abort(404)
    session[SAVING_TO] = token
    state = store().page(access.sheet_id)  # (every entry: the rounds before this one)
    query = [("_from", "sheet"),
             *sheets.calculator_fields(meta["game"], [sheets.entry_view(e) for e in state["entries"]],
                                       meta["players"], sheets.next_round(state), correcting,
                                       glue.as_fields(meta["game"]))]
    return redirect(with_query(url_for("scoring.score", game=meta["game"]), query), 303)


def save_box(game: str, req: dict | None, result: dict | None) -> dict | None:
    """What a scoring page shows to save its result into the sheet it was opened from (None: nothing)."""
    token = session.get(SAVING_TO)
    access = store().open(token) if token else None
    if access is None or not access.can_edit:
        return None
    meta = store().meta(access.sheet_id)
    if meta["game"] != game:
        return None
    g.holds_edit_link = True  # the page's save form holds the sheet's edit link: no cache keeps it
    box = {"token": token, "title": meta["title"], "players": meta["players"], "request": None, "seats": []}
    correcting = sheets.correcting_of(request.args)
    if correcting:  # correcting an entry (`correct`): the save changes it, from its revision
        box.update(edit=correcting["edit"], base=correcting["base"] or "")
    if result is not None:  # (saved without its earlier rounds: the sheet has them, and scores each in order)
        box.update(request={k: v for k, v in (req or {}).items() if k != "earlier"},
                   **sheets.seat_choices(game, result, meta["players"], correcting and correcting["seats"]))
    return box
