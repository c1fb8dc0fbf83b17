"""Saved score sheets as files: a sheet and its log exported as JSON or CSV, and read back with every change
checked as if it were made again (`companion sheets export|import`, the API's export and import, a phone's own
sheets handed back to its Python). The log itself and its state are `companion/sheets/model.py`."""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from .. import service
from ..core.schema import INVALID, Enum, InputError, Int, ListOf, Problem, Record, Str, Text, problem, whole_number
from ..games.base import NAME, checked
from ..scoring import one_budget
from .model import (
    ACTIONS,
    CLIENT_ID,
    FORMAT,
    MAX_LOG,
    MAX_PLAYERS,
    TARGETED,
    WITH_BODY,
    Conflict,
    NotFound,
    Replay,
    entry_body,
    new_sheet,
)


class Moment(Str):
    """A time as the log writes it, `YYYY-MM-DDThh:mm:ssZ`, and a real one (not the 31st of February)."""

    def __init__(self):
        super().__init__(pattern=r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", max_len=20, hint="YYYY-MM-DDThh:mm:ssZ")

    def check(self, value, path, problems):
        value = super().check(value, path, problems)
        if value is not INVALID:
            try:
                datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
            except ValueError:
                return problems.add(path, "%(got)s is not a real date and time", got=repr(value))
        return value


# Steps of scoring an import may spend on all its rounds together (`scoring.one_budget`), 25 tables' worth (a table
# alone may spend 200,000): a sheet of a light game (a few hundred steps a round) imports whole, 2,000 changes; a
# heavy game's (near a table's budget a round) imports some dozens of rounds, and a longer one is refused in about a
# second, not re-scored for minutes.
IMPORT_STEPS = 5_000_000

_RECORD = Record({"seq": Int(1, MAX_LOG), "action": Enum(ACTIONS, "action"), "target": Int(1, MAX_LOG),
                  "body": Record({}), "at": Moment(),
                  "client_id": CLIENT_ID}, required=("seq", "action", "at"))
_EXPORT = Record({"format": Enum((FORMAT,), "format"), "version": Int(1, 1), "game": Str(), "title": Text(max_len=80),
                  "players": ListOf(NAME, 1, MAX_PLAYERS), "log": ListOf(Record({}), 0, MAX_LOG),
                  "card_version": Str(r"\S+(?: \S+)*", max_len=64)},
                 required=("format", "version", "game", "players", "log"))


def export_json(sheet: Mapping, log: Iterable[Mapping]) -> dict:
    """A sheet and its log in the export format (`format`, `version` 1), for json.dumps; `import_json` reads it back."""
    out = {"format": FORMAT, "version": 1, "game": sheet["game"], "title": sheet.get("title", ""),
           "players": list(sheet["players"]), "log": [_plain_record(r) for r in log]}
    if sheet.get("card_version"):  # the card data it started with (the playtest figures group sheets by it)
        out["card_version"] = sheet["card_version"]
    return out


def _plain_record(record: Mapping) -> dict:
    return {k: record[k] for k in ("seq", "action", "target", "body", "at", "client_id") if record.get(k) is not None}


def import_json(data: Any) -> tuple[dict, list[dict]]:
    """A sheet and its log from an export, every record checked as if it were made again; InputError names it."""
    if not isinstance(data, Mapping):
        raise InputError([problem((), "must be a sheet exported by companion (a JSON object)")])
    # an untitled sheet exports its title as "" (and must import again)
    head = checked(_EXPORT, {k: v for k, v in data.items() if k != "log" and not (k == "title" and v == "")}
                   | {"log": []})
    sheet = new_sheet({"game": head["game"], "players": list(head["players"]),
                       **({"title": head["title"]} if head.get("title") else {})})
    # the version it was played with, as the file says (none: from before versions were kept, unknown)
    sheet.pop("card_version", None)
    if head.get("card_version"):
        sheet["card_version"] = head["card_version"]
    log_data = data.get("log")
    if not isinstance(log_data, list) or len(log_data) > MAX_LOG:
        raise InputError([problem(("log",), "must be a list of at most %(most)s changes", most=MAX_LOG)])
    log: list[dict] = []
    replay = Replay(sheet)  # the sheet as it is before each change, with where its game stands by its rules
    seen_clients: set[str] = set()
    with one_budget(IMPORT_STEPS):  # the whole file's re-scoring is bounded as one table's is
        for i, raw in enumerate(log_data):
            path = ("log", i)
            try:
                record = _checked_record(raw, i, seen_clients)
                replay.check(record["action"], record.get("target"), None)
                if record["action"] in WITH_BODY:
                    record["body"] = _scored_body(sheet, raw["body"])
                replay.settle(record, finishes=False)  # (a log over by its rules but unfinished is kept as written)
            except InputError as e:
                raise InputError([p.under(*path) for p in e.problems]) from None
            except (Conflict, NotFound) as e:
                raise InputError([_refused(path, e, replay)]) from None
            if record.get("client_id"):
                seen_clients.add(record["client_id"])
            log.append(record)
    return sheet, log


def _checked_record(raw: Any, i: int, seen_clients: set[str]) -> dict:
    """One change of an export as a log record (its body not yet read): numbered in order, a target where it needs
    one, a body where it has one, a client_id not used before."""
    record = dict(checked(_RECORD, {k: v for k, v in raw.items() if k != "body"} if isinstance(raw, Mapping) else raw))
    if record["seq"] != i + 1:
        raise InputError([problem(("seq",), "must be %(n)s (changes are numbered in order), got %(got)s",
                                  n=i + 1, got=record["seq"])])
    action = record["action"]
    if (action in TARGETED) != ("target" in record):
        raise InputError([problem(("target",), "names the entry an edit, undo or restore changes, and only those")])
    if (action in WITH_BODY) != ("body" in raw):
        raise InputError([problem(("body",), "is what an add or edit records, and only those")])
    if record.get("client_id") in seen_clients:
        raise InputError([problem(("client_id",), "appears twice")])
    return record


def _scored_body(sheet: Mapping, body: Any) -> dict:
    """An exported body checked as an entry again (a scored one is scored again, from the import's shared budget of
    steps). A body refused only because that budget is spent (it scores on its own: at most one table's work more)
    is a problem of the whole import, said at the entry it ran out on."""
    try:
        return entry_body(sheet["game"], sheet["players"], _body_input(body))
    except InputError as refused:
        try:
            with one_budget(alone=True):  # this table alone, as a request of its own would score it
                entry_body(sheet["game"], sheet["players"], _body_input(body))
        except InputError:
            raise refused from None  # wrong in itself
    raise InputError([problem((), "the import stops here: scoring its rounds again needs more than %(steps)s steps in "
                                  "all (a long sheet of a heavy game); import it in parts, or with its rounds as "
                                  "points", steps=f"{IMPORT_STEPS:,}")])


def _refused(path: tuple, e: Conflict | NotFound, replay: Replay) -> Problem:
    """A change of an export that the sheet as replayed so far refuses (the store's own check, `check_change`)."""
    if isinstance(e, Conflict) and e.kind == "over":
        return problem(path, "is a round after the game's end: the game ended after round %(round)s, and no round is "
                             "added after it", round=replay.active)
    return Problem(path, str(e))


def _body_input(body: Any) -> Any:
    """An exported body as an entry request: a scored one is scored again (its points are derived)."""
    if isinstance(body, Mapping) and "request" in body:
        return {k: v for k, v in body.items() if k != "points"}
    return body


CSV_MAX_BLANK = 100  # blank rows an import tolerates (a spreadsheet may add a few)
CSV_HEAD = ("game", "title", "seq", "action", "target", "at", "client_id", "note", "request", "seats")
# A text cell starting with one of these is a formula to a spreadsheet (`=HYPERLINK(...)` in a title, `@SUM` in a
# name, `-2+A1` in a note): OWASP's CSV injection advice is to start such a cell with an apostrophe, which the
# spreadsheet reads as "text follows". To give back exactly what was typed, a cell that already starts with an
# apostrophe gets one more too, and an import takes one off any text cell starting with an apostrophe followed by
# one of these or by another apostrophe: export then import is the identity for every text.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_QUOTED = (*FORMULA_START, "'")


def csv_text(text: str) -> str:
    """A text cell as the CSV export writes it: never the start of a formula."""
    return "'" + text if text.startswith(_QUOTED) else text


def csv_untext(cell: str) -> str:
    """A text cell of an export as it was typed (`csv_text` undone)."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(_QUOTED) else cell


def export_csv(sheet: Mapping, log: Iterable[Mapping]) -> str:
    """One row per change (row 0 names the sheet), a column of points per player; spreadsheet-friendly: numbers are
    bare (-3 is a number), text is always quoted (a spreadsheet splitting on `;` keeps it one cell) and never
    starts a formula (`csv_text`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    players = list(sheet["players"])
    writer.writerow([*CSV_HEAD, *map(csv_text, players)])
    # the sheet's own row: its game and title, and in its note the version of the card data it started with
    writer.writerow([csv_text(sheet["game"]), csv_text(sheet.get("title", "")), 0, "create", "", "", "",
                     csv_text(sheet.get("card_version", "")), "", "", *[""] * len(players)])
    for r in log:
        body = r.get("body") or {}
        points = body.get("points", {})
        writer.writerow(["", "", r["seq"], r["action"], r.get("target", ""), r["at"],
                         csv_text(r.get("client_id", "")), csv_text(body.get("note", "")),
                         csv_text(json.dumps(body["request"], ensure_ascii=False)) if "request" in body else "",
                         csv_text(json.dumps(body["seats"], ensure_ascii=False)) if "seats" in body else "",
                         *[points.get(name, "") if body else "" for name in players]])
    return out.getvalue()


def import_csv(text: str) -> tuple[dict, list[dict]]:
    """A sheet from `export_csv`'s layout (a spreadsheet may have touched it); same checks as `import_json`."""
    rows, lines = _csv_rows(text)
    if not rows or tuple(rows[0][: len(CSV_HEAD)]) != CSV_HEAD:
        raise InputError([problem((), "the first row must be the column names: %(columns)s, then one column per "
                                      "player", columns=",".join(CSV_HEAD))])
    players = [csv_untext(name) for name in rows[0][len(CSV_HEAD):]]
    if len(rows) < 2 or len(rows[1]) < 4 or rows[1][3] != "create":
        raise InputError([problem(("row 2",), "must be the sheet's own row (action create) with its game and title")])
    data: dict[str, Any] = {"format": FORMAT, "version": 1, "game": csv_untext(rows[1][0]),
                            "title": csv_untext(rows[1][1]), "players": players, "log": []}
    if len(rows[1]) > 7 and rows[1][7].strip():  # (an export from before versions were kept has none)
        data["card_version"] = csv_untext(rows[1][7]).strip()
    for number, row in zip(lines[2:], rows[2:], strict=True):
        if len(row) != len(rows[0]):
            raise InputError([problem((f"row {number}",), "has %(n)s columns; the first row has %(first)s",
                                      n=len(row), first=len(rows[0]))])
        data["log"].append(_csv_record(row, number, players))
    return import_json(data)


def _csv_rows(text: str) -> tuple[list[list[str]], list[int]]:
    """The rows that are not blank, with each one's line in the file (for messages), read row by row and stopped
    early: an export has at most MAX_LOG changes, and a spreadsheet adds few blank rows."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[list[str]] = []
    lines: list[int] = []
    blank = 0
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                blank += 1
                if blank > CSV_MAX_BLANK:
                    raise InputError([problem((f"row {reader.line_num}",),
                                              "is one of more than %(most)s blank rows: not a sheet's export",
                                              most=CSV_MAX_BLANK)])
                continue
            rows.append(row)
            lines.append(reader.line_num)
            if len(rows) > MAX_LOG + 2:
                raise InputError([problem((f"row {reader.line_num}",), "a sheet holds at most %(most)s changes",
                                          most=MAX_LOG)])
    except csv.Error as e:  # an unterminated quote, a field too long, a stray line end inside a field
        raise InputError([problem((f"row {reader.line_num}",), "is not readable CSV: %(error)s",
                                  error=str(e))]) from None
    return rows, lines


def _csv_record(row: list[str], number: int, players: list[str]) -> dict:
    """One change's row as a log record (the fixed columns by position: a player may be called "note" or "seq")."""
    cells = dict(zip(CSV_HEAD, row, strict=False))
    for key in ("client_id", "note", "request", "seats"):  # the text columns (`csv_text`)
        cells[key] = csv_untext(cells[key])
    points_cells = dict(zip(players, row[len(CSV_HEAD):], strict=True))
    record: dict[str, Any] = {"action": cells["action"], "at": cells["at"]}
    for key in ("seq", "target"):
        if cells[key].strip():
            record[key] = _csv_int(cells[key], number, key)
    if cells["client_id"]:
        record["client_id"] = cells["client_id"]
    if record["action"] in WITH_BODY:
        body: dict[str, Any] = {"note": cells["note"]} if cells["note"].strip() else {}
        if cells["request"].strip():
            body["request"] = _csv_json(cells["request"], number, "request")
            if cells["seats"].strip():
                body["seats"] = _csv_json(cells["seats"], number, "seats")
        else:
            body["points"] = {name: _csv_int(points_cells[name], number, name) for name in players
                              if points_cells[name].strip()}
        record["body"] = body
    return record


def _csv_json(text: str, row: int, column: str) -> Any:
    try:
        return service.parse_json(text)
    except InputError as e:
        raise InputError([p.under(f"row {row}", column) for p in e.problems]) from None  # paths are () here


def _csv_int(text: str, row: int, column: str) -> int:
    number = whole_number(text.strip())
    if number is None:
        raise InputError([problem((f"row {row}", column), "must be a whole number, got %(got)s", got=repr(text))])
    return number
