"""Saved score sheets as plain data: what a new sheet and an entry may hold, and the state an entry log folds into.

A sheet is an append-only log. Each record is one change, numbered from 1 (`seq`):
`add` a new entry (a scored hand, sale, round or duel, or points typed in), `edit` an entry (`target` names it;
the new body replaces its points), `undo` an entry, `restore` an undone entry, `finish` and `reopen` the sheet.
Nothing is ever overwritten, so the log is also the audit trail. No storage here: see `companion/storage.py`.
"""
from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from . import games, library, service
from .games.base import NAME, checked
from .schema import (
    INVALID,
    Enum,
    InputError,
    Int,
    ListOf,
    MapOf,
    Problem,
    Problems,
    Record,
    Str,
    Text,
    Word,
    problem,
    whole_number,
)

ACTIONS = ("add", "edit", "undo", "restore", "finish", "reopen")
TARGETED = ("edit", "undo", "restore")  # actions that name an earlier `add`
WITH_BODY = ("add", "edit")
MAX_PLAYERS = 12
MAX_LOG = 2000  # changes a sheet may hold: an evening's play many times over, and a bounded fold
POINTS = Int(-1_000_000, 1_000_000)
CLIENT_ID = Str(pattern=r"[A-Za-z0-9_-]{8,64}", max_len=64, hint=Word("8 to 64 letters, digits, - or _"))
FORMAT = "companion-sheet"

NEW_SHEET = Record({"game": Str(max_len=40), "title": Text(max_len=80),
                    "players": ListOf(NAME, 1, MAX_PLAYERS)}, required=("game", "players"))


class Conflict(Exception):
    """A change made against a state that is no longer the sheet's (409): the message says what changed."""

    def __init__(self, kind: str, message: str, entry: Mapping | None = None, field: str = "base"):
        super().__init__(message)
        self.kind, self.entry = kind, entry  # kind: full, finished, already_finished, not_finished, changed, ...
        self.field = field  # what the client sent that no longer fits: the revision it saw, or its client_id


def replayed(record: Mapping, action: str, target: int | None, body: Mapping | None) -> Mapping:
    """A change already written under the client_id a new request carries: the same request sent again (a retry)
    is answered with it; another request reusing its client_id would be lost as a "replay", so it is a Conflict
    naming the client_id. (The revision an edit or undo was made from is not compared: a retry's base is stale
    once the first try was written.)"""
    same = (record["action"], record.get("target"), record.get("body")) == (
        action, target, json.loads(json.dumps(body, ensure_ascii=False)) if body is not None else None)
    if not same:
        raise Conflict("reused", f"client_id {record.get('client_id')!r} was already used for another change "
                                 f"(change {record['seq']}, {record['action']}); a client_id names one request: "
                                 "send a new change with a new client_id", field="client_id")
    return record


class NotFound(LookupError):
    """A change names an entry the sheet does not have."""


def new_sheet(data: Any) -> dict:
    """A checked `{"game", "title", "players"}`; player names must differ."""
    sheet = dict(checked(NEW_SHEET, data))
    known = library.current().all()
    if sheet["game"] not in known:  # any known game: with rules of its own, or data-only (points typed in)
        Enum(known, "game").check(sheet["game"], ("game",), problems := Problems())
        raise InputError(problems)
    players = list(sheet["players"])
    problems = Problems()
    for i, name in enumerate(players):
        if name in players[:i]:
            problems.add(("players", i), "%(name)s is already player %(n)s", name=repr(name),
                         n=players.index(name) + 1)
    fewest, most = known[sheet["game"]].players
    if not fewest <= len(players) <= most:
        problems.add(("players",), "%(n)s players; %(game)s is for %(fewest)s to %(most)s", n=len(players),
                     game=sheet["game"], fewest=fewest, most=most)
    if problems:
        raise InputError(problems)
    return {"game": sheet["game"], "title": sheet.get("title", "").strip(), "players": players}


_ENTRY = Record({"points": MapOf(NAME, POINTS), "request": Record({}), "seats": ListOf(NAME, 1, MAX_PLAYERS),
                 "note": Text(max_len=200)})


def entry_body(game: str, players: list[str], data: Any) -> dict:
    """A checked entry: points typed in for the sheet's players, or a score `request` that the game's rules score.

    A scored request gives points seat by seat; `seats` says which sheet player sat in each (by default the
    players the result names, else the sheet's order). The body keeps the request and the points it gave.
    """
    if not isinstance(data, Mapping):
        raise InputError([problem((), "must be a mapping with points or a request")])
    request = data.get("request")
    body = dict(checked(_ENTRY, {k: v for k, v in data.items() if k != "request"}))
    problems = Problems()
    if ("points" in body) == ("request" in data):
        raise InputError([problem((), "give either points or a request to score, not both")]
                         if "points" in body else [problem(("points",), "is missing (or give a request to score)")])
    if "request" in data:
        try:
            result = service.score(game, request)
        except InputError as e:
            raise InputError([p.under("request") for p in e.problems]) from None
        labels, values = seat_points(game, result)
        seats = list(body.get("seats") or default_seats(labels, players))
        if len(seats) != len(labels):
            problems.add(("seats",), "names %(n)s players; the %(what)s has %(seats)s seats (%(labels)s)",
                         n=len(seats), what=_what(game), seats=len(labels), labels=", ".join(labels))
        for i, name in enumerate(seats):
            if name not in players:
                problems.add(("seats", i), "%(name)s is not a player of this sheet (%(players)s)", name=repr(name),
                             players=", ".join(players))
            elif name in seats[:i]:
                problems.add(("seats", i), "%(name)s sits in two seats", name=repr(name))
        if problems:
            raise InputError(problems)
        points = dict.fromkeys(players, 0)
        points.update(zip(seats, values, strict=True))
        body = {"request": request, "seats": seats, "points": points, **_note(body)}
    else:
        for name in body["points"]:
            if name not in players:
                problems.add(("points", name), "is not a player of this sheet (%(players)s)",
                             players=", ".join(players))
        if problems:
            raise InputError(problems)
        body = {"points": {name: body["points"].get(name, 0) for name in players}, **_note(body)}
    return body


def now() -> str:
    """The time a change is made, as the log writes it (UTC, to the second)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def new_record(seq: int, action: str, at: str, target: int | None = None, body: Mapping | None = None,
               client_id: str | None = None) -> dict:
    """A change as the log keeps it, wherever the sheet is kept: only the parts it has."""
    record = {"seq": seq, "action": action, "at": at}
    if target is not None:
        record["target"] = target
    if body is not None:
        record["body"] = dict(body)
    if client_id:
        record["client_id"] = client_id
    return record


def checked_change(sheet: Mapping | None, action: str, data: Any) -> tuple[dict | None, int | None, str | None]:
    """A change's fields checked, wherever the sheet is kept (the server's database or a phone's storage): the
    entry's body (an add or edit, for `sheet`'s game and players), `base` (the entry's revision seen, for an edit,
    undo or restore) and `client_id` (a retry's key). InputError naming each field at fault."""
    if not isinstance(data, Mapping):
        raise InputError([problem((), "must be a JSON object")])
    fields = dict(data)
    client_id, base = fields.pop("client_id", None), fields.pop("base", None)
    problems = Problems()
    if client_id is not None:
        CLIENT_ID.check(client_id, ("client_id",), problems)
    if action in TARGETED:
        if base is None:
            problems.add(("base",), "is missing: the revision of the entry you saw (its rev)")
        else:
            Int(1, MAX_LOG).check(base, ("base",), problems)
    body = None
    if action in WITH_BODY:
        try:
            body = entry_body(sheet["game"], sheet["players"], fields)
        except InputError as e:
            problems.extend(e.problems)
    elif fields:
        for key in fields:
            problems.add((key,), "unknown key; a %(action)s takes only base and client_id", action=action)
    if problems:
        raise InputError(problems)
    return body, base, client_id


def seat_points(game: str, result: Mapping) -> tuple[list[str], list[int]]:
    """A scored result's seats (as the result names them) and the points each gets on a sheet."""
    pairs = games.for_data(game).sheet_points(result)
    return [str(name) for name, _ in pairs], [value for _, value in pairs]


def default_seats(labels: list[str], players: list[str]) -> list[str]:
    """Who sat in a result's seats when the entry does not say: its labels when they are distinct players of the sheet,
    else the first players; InputError if it has more seats than the sheet has players."""
    if all(label in players for label in labels) and len(set(labels)) == len(labels):
        return labels
    if len(labels) > len(players):
        raise InputError([problem(("seats",), "the result has %(seats)s seats (%(labels)s) and the sheet %(n)s "
                                              "players; say who sat where", seats=len(labels),
                                  labels=", ".join(labels), n=len(players))])
    return players[: len(labels)]


def entry_view(entry: Mapping) -> dict:
    """An entry as answers and pages show it: its number, revision, time, whether it counts, its points and body."""
    body = entry["body"]
    out = {"seq": entry["seq"], "rev": entry["rev"], "at": entry["at"], "active": entry["active"],
           "changes": entry["changes"], "points": body["points"]}
    for key in ("note", "request", "seats"):
        if key in body:
            out[key] = body[key]
    return out


def _note(body: Mapping) -> dict:
    return {"note": body["note"].strip()} if body.get("note", "").strip() else {}


def _what(game: str) -> Word:
    return games.for_data(game).entry.kind


# --- The log and its state -------------------------------------------------------------------------------------


class Replay:
    """A log applied one change at a time: the entries by number, whether the sheet is finished, its version.
    `fold` runs one over a whole log; an import checks each change against the replay of those before it."""

    def __init__(self) -> None:
        self.entries: dict[int, dict] = {}
        self.finished = False
        self.version = 0

    def apply(self, record: Mapping) -> None:
        """Apply one log record (an add; an edit, undo or restore; finish or reopen); its `seq` becomes the version."""
        self.version = record["seq"]
        action, target = record["action"], record.get("target")
        if action == "add":
            self.entries[self.version] = {"seq": self.version, "rev": self.version, "at": record["at"],
                                          "body": record["body"], "active": True, "changes": 0}
        elif action in TARGETED and target in self.entries:
            entry = self.entries[target]
            entry["rev"], entry["changes"] = self.version, entry["changes"] + 1
            if action == "edit":
                entry["body"] = record["body"]
            entry["active"] = action != "undo"
        elif action in ("finish", "reopen"):
            self.finished = action == "finish"

    def check(self, action: str, target: int | None, base: int | None) -> None:
        """Refuse a change that does not fit the state replayed so far (`check_change`)."""
        check_change({"version": self.version, "finished": self.finished, "entries": self.entries.values()},
                     action, target, base)


def fold(sheet: Mapping, log: Iterable[Mapping]) -> dict:
    """The state of a sheet after its log: entries in order with their points, totals, leaders, winners."""
    replay = Replay()
    for record in log:
        replay.apply(record)
    entries, finished, version = replay.entries, replay.finished, replay.version
    players = list(sheet["players"])
    totals = dict.fromkeys(players, 0)
    for entry in entries.values():
        add_points(totals, entry, +1)
    counting = [e for e in entries.values() if e["active"]]
    return {"game": sheet["game"], "title": sheet.get("title", ""), "players": players, "version": version,
            "finished": finished, "entries": list(entries.values()),
            **standing(totals, len(counting), finished, sheet["game"], counting[-1]["body"] if counting else None)}


def add_points(totals: dict, entry: Mapping | None, sign: int) -> None:
    """Add an entry's points to running totals (sign -1 takes them away); an undone entry counts nothing."""
    if entry and entry["active"]:
        for name, value in entry["body"]["points"].items():
            totals[name] = totals.get(name, 0) + sign * value


def standing(totals: Mapping[str, int], active: int, finished: bool, game: str = "",
             last: Mapping | None = None) -> dict:
    """Totals, who leads (once an entry counts) and who won (once finished), from the totals (and the last entry
    counting, for a game's tie-breakers): what a list of sheets shows without reading any sheet's log. A game that
    says how its sheet ends (`Game.sheet_end`: rounds, a target, fewest points win) adds `end` and names its
    winners once it is over."""
    end = game_end(game, active, last, totals)
    if end is not None:
        return {"totals": dict(totals), "leaders": end["leaders"],
                "winners": end["winners"] or (end["leaders"] if finished else []), "end": end}
    best = max(totals.values(), default=0)
    leaders = [name for name, total in totals.items() if total == best] if active else []
    return {"totals": dict(totals), "leaders": leaders, "winners": leaders if finished else []}


def game_end(game: str, played: int, last: Mapping | None, totals: Mapping[str, int]) -> dict | None:
    """Where a sheet of `game` stands by the game's own end (`Game.sheet_end`); None for a game without one."""
    if not game:
        return None
    try:
        rules, data = service.resolve(game)
    except service.UnknownGame:
        return None
    return rules.sheet_end(data, played, last, totals) if rules.sheet_end else None


def with_round(sheet: Mapping, state: Mapping | None, data: Any) -> Any:
    """An entry to add whose score request names no round gets the sheet's next one (a game of rounds)."""
    end = (state or {}).get("end")
    if end is None or "round" not in end or not isinstance(data, Mapping) \
            or not isinstance(data.get("request"), Mapping) or "round" in data["request"]:
        return data
    return {**data, "request": {**data["request"], "round": min(end["round"], end.get("rounds") or end["round"])}}


def over_unfinished(state: Mapping) -> bool:
    """The game is over by its rules (its last round, or a target reached) and the sheet not yet finished: the
    change that made it so is followed by a `finish`."""
    end = state.get("end")
    return bool(end and end["over"] and not state["finished"])


def check_change(state: Mapping, action: str, target: int | None, base: int | None) -> None:
    """Refuse a change that no longer fits the sheet: NotFound, or Conflict (409) with what changed.

    Adding never conflicts (two phones adding rounds at once both keep theirs) unless the sheet is finished.
    Editing, undoing or restoring an entry must name the revision of it the phone saw (`base`).
    """
    if state["version"] >= MAX_LOG:
        raise Conflict("full", f"this sheet holds its most changes ({MAX_LOG}); start a new sheet")
    if action in ("add", *TARGETED) and state["finished"]:
        raise Conflict("finished", "the sheet is finished; reopen it to change it")
    if action == "finish" and state["finished"]:
        raise Conflict("already_finished", "the sheet is already finished")
    if action == "reopen" and not state["finished"]:
        raise Conflict("not_finished", "the sheet is not finished")
    if action not in TARGETED:
        return
    entry = next((e for e in state["entries"] if e["seq"] == target), None)
    if entry is None:
        raise NotFound(f"this sheet has no entry {target}")
    if base is not None and base != entry["rev"]:
        raise Conflict("changed", f"entry {target} was changed on another phone since you saw it", entry)
    if action == "restore" and entry["active"]:
        raise Conflict("not_undone", f"entry {target} is not undone", entry)
    if action in ("edit", "undo") and not entry["active"]:
        raise Conflict("undone", f"entry {target} was undone", entry)


# --- Export and import -----------------------------------------------------------------------------------------

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


_RECORD = Record({"seq": Int(1, MAX_LOG), "action": Enum(ACTIONS, "action"), "target": Int(1, MAX_LOG),
                  "body": Record({}), "at": Moment(),
                  "client_id": CLIENT_ID}, required=("seq", "action", "at"))
_EXPORT = Record({"format": Enum((FORMAT,), "format"), "version": Int(1, 1), "game": Str(), "title": Text(max_len=80),
                  "players": ListOf(NAME, 1, MAX_PLAYERS), "log": ListOf(Record({}), 0, MAX_LOG)},
                 required=("format", "version", "game", "players", "log"))


def export_json(sheet: Mapping, log: Iterable[Mapping]) -> dict:
    """A sheet and its log in the export format (`format`, `version` 1), for json.dumps; `import_json` reads it back."""
    return {"format": FORMAT, "version": 1, "game": sheet["game"], "title": sheet.get("title", ""),
            "players": list(sheet["players"]), "log": [_plain_record(r) for r in log]}


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
    log_data = data.get("log")
    if not isinstance(log_data, list) or len(log_data) > MAX_LOG:
        raise InputError([problem(("log",), "must be a list of at most %(most)s changes", most=MAX_LOG)])
    log: list[dict] = []
    replay = Replay()  # the sheet as it is before each change
    seen_clients: set[str] = set()
    for i, raw in enumerate(log_data):
        path = ("log", i)
        try:
            record = dict(checked(_RECORD, {k: v for k, v in raw.items() if k != "body"} if isinstance(raw, Mapping)
                                  else raw))
            if record["seq"] != i + 1:
                raise InputError([problem(("seq",), "must be %(n)s (changes are numbered in order), got %(got)s",
                                          n=i + 1, got=record["seq"])])
            action = record["action"]
            if (action in TARGETED) != ("target" in record):
                raise InputError([problem(("target",), "names the entry an edit, undo or restore changes, and only "
                                                       "those")])
            if (action in WITH_BODY) != ("body" in raw):
                raise InputError([problem(("body",), "is what an add or edit records, and only those")])
            if record.get("client_id") in seen_clients:
                raise InputError([problem(("client_id",), "appears twice")])
            replay.check(action, record.get("target"), None)
            if action in WITH_BODY:
                record["body"] = entry_body(sheet["game"], sheet["players"], _body_input(raw["body"]))
        except InputError as e:
            raise InputError([p.under(*path) for p in e.problems]) from None
        except (Conflict, NotFound) as e:
            raise InputError([Problem(path, str(e))]) from None
        if record.get("client_id"):
            seen_clients.add(record["client_id"])
        log.append(record)
        replay.apply(record)
    return sheet, log


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
    writer.writerow([csv_text(sheet["game"]), csv_text(sheet.get("title", "")), 0, "create", "", "", "", "", "", "",
                     *[""] * len(players)])
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
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[list[str]] = []
    lines: list[int] = []  # each kept row's line in the file, for messages
    blank = 0
    try:  # read row by row and stop early: an export has at most MAX_LOG changes, and a spreadsheet few blank rows
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
    if not rows or tuple(rows[0][: len(CSV_HEAD)]) != CSV_HEAD:
        raise InputError([problem((), "the first row must be the column names: %(columns)s, then one column per "
                                      "player", columns=",".join(CSV_HEAD))])
    players = [csv_untext(name) for name in rows[0][len(CSV_HEAD):]]
    if len(rows) < 2 or len(rows[1]) < 4 or rows[1][3] != "create":
        raise InputError([problem(("row 2",), "must be the sheet's own row (action create) with its game and title")])
    data: dict[str, Any] = {"format": FORMAT, "version": 1, "game": csv_untext(rows[1][0]),
                            "title": csv_untext(rows[1][1]), "players": players, "log": []}
    for number, row in zip(lines[2:], rows[2:], strict=True):
        if len(row) != len(rows[0]):
            raise InputError([problem((f"row {number}",), "has %(n)s columns; the first row has %(first)s",
                                      n=len(row), first=len(rows[0]))])
        # the fixed columns by position: a player may be called "note" or "seq"
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
        data["log"].append(record)
    return import_json(data)


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
