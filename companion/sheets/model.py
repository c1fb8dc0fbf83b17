"""Saved score sheets as plain data: what a new sheet and an entry may hold, and the state an entry log folds into.

A sheet is an append-only log. Each record is one change, numbered from 1 (`seq`):
`add` a new entry (a scored hand, sale or round, or points typed in), `edit` an entry (`target` names it;
the new body replaces its points), `undo` an entry, `restore` an undone entry, `finish` and `reopen` the sheet.
Nothing is ever overwritten, so the log is also the audit trail. No storage here: see `companion/sheets/storage.py`.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .. import games, library, service
from ..core.schema import Enum, InputError, Int, ListOf, MapOf, Problems, Record, Str, Text, Word, problem, whole_number
from ..games.base import NAME, checked

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
    """A checked `{"game", "title", "players"}`; player names must differ, and the game's end (its target) must be
    computable for this many players (a designer's formula that is not is a 400 naming its rule)."""
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
    game_end(sheet["game"], 0, None, dict.fromkeys(players, 0))  # its end for these players (InputError if none)
    return {"game": sheet["game"], "title": sheet.get("title", "").strip(), "players": players,
            "card_version": known[sheet["game"]].version}


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
    # (a scored entry's `rules` are what its request scores to: an export's are scored again, never taken as given)
    body = dict(checked(_ENTRY, {k: v for k, v in data.items()
                                 if k != "request" and not (k == "rules" and "request" in data)}))
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
        body = {"request": request, "seats": seats, "points": points, **_rules(result, seats), **_note(body)}
    else:
        for name in body["points"]:
            if name not in players:
                problems.add(("points", name), "is not a player of this sheet (%(players)s)",
                             players=", ".join(players))
        if problems:
            raise InputError(problems)
        body = {"points": {name: body["points"].get(name, 0) for name in players}, **_note(body)}
    return body


def _rules(result: Mapping, seats: list[str]) -> dict:
    """A scored result's points rule by rule for each seat's player, as the rules gave them when it was scored (a
    designer's `scoring:`; the playtest figures read them): `{"rules": {player: {rule: points}}}`, or nothing for
    a game whose result has no rules."""
    scored = result.get("players") if isinstance(result, Mapping) else None
    if not isinstance(scored, list) or len(scored) != len(seats) \
            or not all(isinstance(p, Mapping) and isinstance(p.get("rules"), Mapping) for p in scored):
        return {}
    return {"rules": {name: dict(p["rules"]) for name, p in zip(seats, scored, strict=True)}}


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


def seat_choices(game: str, result: Mapping, players: list[str], sat: list[str] | None = None) -> dict:
    """What a save box offers for a scored result on a sheet of `players`: each seat's label with the player it
    defaults to ("" where the sheet has too few: the player chooses), and each seat's points. `sat`: who sat in
    each seat of the entry being corrected, the defaults where they still fit the result's seats."""
    labels, points = seat_points(game, result)
    try:
        default = default_seats(labels, players)
    except InputError:
        default = players[: len(labels)]
    if sat and len(sat) == len(labels) and len(set(sat)) == len(sat) and all(s in players for s in sat):
        default = list(sat)
    return {"seats": list(zip(labels, default + [""] * (len(labels) - len(default)), strict=True)), "points": points}


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
    """A log applied one change at a time: the entries by number, whether the sheet is finished, its version, and
    (given the sheet) its running totals and how many entries count, for where its game stands by its rules. `fold`
    runs one over a whole log; an import and a phone's own sheet check each change against the replay of those
    before it (`check`, then `settle`), by the same rules as the store's write (`check_change`, `check_end`)."""

    def __init__(self, sheet: Mapping | None = None) -> None:
        self.entries: dict[int, dict] = {}
        self.finished = False
        self.version = 0
        self.sheet = sheet
        self.totals = dict.fromkeys(sheet["players"], 0) if sheet else {}
        self.active = 0

    def apply(self, record: Mapping) -> None:
        """Apply one log record (an add; an edit, undo or restore; finish or reopen); its `seq` becomes the version.
        In a game whose rounds read the game so far, the rounds from the changed one on are scored again."""
        self.version = record["seq"]
        action, target = record["action"], record.get("target")
        if action == "add":
            self.entries[self.version] = {"seq": self.version, "rev": self.version, "at": record["at"],
                                          "body": record["body"], "active": True, "changes": 0}
            if not self._restated(self.version):
                self.totals, self.active = tally(self.totals, self.active, None, self.entries[self.version])
        elif action in TARGETED and target in self.entries:
            entry = self.entries[target]
            before = dict(entry)
            entry["rev"], entry["changes"] = self.version, entry["changes"] + 1
            if action == "edit":
                entry["body"] = record["body"]
            entry["active"] = action != "undo"
            if not self._restated(target):
                self.totals, self.active = tally(self.totals, self.active, before, entry)
        elif action in ("finish", "reopen"):
            self.finished = action == "finish"

    def _restated(self, seq: int) -> bool:
        """In a game whose rounds read the game so far (`Game.restate`): the rounds from entry `seq` on scored again
        after the rounds before them, and the totals counted again; False for a game whose rounds stand alone."""
        restate = restater(self.sheet["game"]) if self.sheet else None
        if restate is None:
            return False
        order = list(self.entries.values())
        start = next(i for i, e in enumerate(order) if e["seq"] == seq)
        for e in order[start:]:  # (each scored again into a body of its own: the log's records are not changed)
            e["body"] = {**e["body"]}
        restate(order, start)
        self.totals = dict.fromkeys(self.sheet["players"], 0)
        for e in order:
            add_points(self.totals, e, +1)
        self.active = sum(1 for e in order if e["active"])
        return True

    def state(self) -> dict:
        """The sheet as `check_change` reads it: version, finished, entries and where the game stands (`end`)."""
        end = game_end(self.sheet["game"], self.active, None, self.totals) if self.sheet else None
        return {"version": self.version, "finished": self.finished, "entries": self.entries.values(), "end": end}

    def check(self, action: str, target: int | None, base: int | None) -> None:
        """Refuse a change that does not fit the state replayed so far (`check_change`)."""
        check_change(self.state(), action, target, base)

    def settle(self, record: Mapping, finishes: bool = True) -> bool:
        """Apply a change already checked (`check`), after refusing it if what it leaves does not fit the game's end
        (`check_end`); True when the game is now over by its rules and the sheet not finished: a `finish` follows
        it (written by the caller if it `finishes`: a phone's own sheet, not an import, which keeps its log as
        written)."""
        state = self.state()
        before = dict(self.entries[record["target"]]) if record.get("target") in self.entries else None
        if self.sheet and restater(self.sheet["game"]) is not None:  # (the rounds after it may move too)
            after = Replay(self.sheet)
            after.entries = {k: dict(e) for k, e in self.entries.items()}
            after.finished, after.version = self.finished, self.version
            after.apply(record)
            totals, active = after.totals, after.active
        else:
            totals, active = tally(self.totals, self.active, before, changed_entry(before, record))
        end = game_end(self.sheet["game"], active, None, totals) if self.sheet else None
        follows = check_end(state, record["action"], end, before, finishes)
        self.apply(record)
        return follows


def changed_entry(before: Mapping | None, record: Mapping) -> dict | None:
    """The entry a change leaves (an add's new entry; an edit's, undo's or restore's entry `before` as changed),
    None for a change that names no entry."""
    replay = Replay()
    if before is not None:
        replay.entries[before["seq"]] = dict(before)
    replay.apply(record)
    return replay.entries.get(record.get("target", record["seq"]))


def tally(totals: Mapping[str, int], active: int, before: Mapping | None, after: Mapping | None) -> tuple[dict, int]:
    """Running totals and the number of entries counting after one entry changed from `before` to `after` (either
    None: an entry added, or a change that names none): its points as they were out, as they are now in."""
    totals = dict(totals)
    add_points(totals, before, -1)
    add_points(totals, after, +1)
    return totals, active - bool(before and before["active"]) + bool(after and after["active"])


def fold(sheet: Mapping, log: Iterable[Mapping]) -> dict:
    """The state of a sheet after its log: entries in order with their points, totals, leaders, winners. In a game
    whose rounds read the game so far, each round's points are those its rules give after the rounds before it."""
    replay = Replay()
    for record in log:
        replay.apply(record)
    restate = restater(sheet["game"])
    if restate is not None and replay.entries:
        order = list(replay.entries.values())
        for e in order:
            e["body"] = {**e["body"]}
        restate(order, 0)
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


def restater(game: str):
    """The game's way to score a sheet's rounds again after an earlier one changed (`Game.restate`, given its card
    data), or None for a game whose rounds stand alone."""
    if not game:
        return None
    try:
        rules, data = service.resolve(game)
    except service.UnknownGame:
        return None
    restate = rules.restate
    if restate is None or not rules.restates(data):
        return None
    return lambda entries, start: restate(data, entries, start)


def game_end(game: str, played: int, last: Mapping | None, totals: Mapping[str, int]) -> dict | None:
    """Where a sheet of `game` stands by the game's own end (`Game.sheet_end`); None for a game without one."""
    if not game:
        return None
    try:
        rules, data = service.resolve(game)
    except service.UnknownGame:
        return None
    return rules.sheet_end(data, played, last, totals) if rules.sheet_end else None


def next_round(state: Mapping | None) -> int | None:
    """The round a sheet's next scored entry is for (a game of rounds: its last round at most); None otherwise."""
    end = (state or {}).get("end")
    if end is None or "round" not in end:
        return None
    return min(end["round"], end.get("rounds") or end["round"])


def with_round(sheet: Mapping, state: Mapping | None, data: Any) -> Any:
    """An entry to add whose score request names no round gets the sheet's next one (a game of rounds)."""
    round_ = next_round(state)
    if round_ is None or not isinstance(data, Mapping) \
            or not isinstance(data.get("request"), Mapping) or "round" in data["request"]:
        return data
    return {**data, "request": {**data["request"], "round": round_}}


def check_change(state: Mapping, action: str, target: int | None, base: int | None) -> None:
    """Refuse a change that no longer fits the sheet: NotFound, or Conflict (409) with what changed. Called inside
    the write's own transaction (`Store.append`), and on each change of an import or of a phone's own sheet.

    `state`: the sheet's `version`, whether it is `finished`, the entry a change names as it is now (`entries`), and
    where its game stands by its rules (`end`: `game_end` of the entries counting; None for a game without one).
    Adding never conflicts (two phones adding rounds at once both keep theirs) unless the sheet is finished or its
    game is over by its rules: no round is added after the game's end. Editing, undoing or restoring an entry must
    name the revision of it the phone saw (`base`); on a finished sheet of a game with an end, it is a correction
    that `check_end` lets through if the game stays over.
    """
    end = state.get("end")
    if state["version"] >= MAX_LOG:
        raise Conflict("full", f"this sheet holds its most changes ({MAX_LOG}); start a new sheet")
    if action == "add" and end and end["over"]:
        raise Conflict("over", f"the game ended after round {end['played']} ({_why_over(end)}): no round is added "
                               "after the game's end; edit or undo a round to change it")
    if state["finished"] and (action == "add" or (action in TARGETED and not end)):
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


def check_end(state: Mapping, action: str, end: Mapping | None, entry: Mapping | None = None,
              finishes: bool = True) -> bool:
    """What a change checked by `check_change` leaves, in the same transaction: `end` is where the game stands by
    its rules after it (`entry`: the entry the change names, as it was). A correction of a finished sheet (an edit,
    undo or restore) is refused if its game would no longer be over (fewer rounds, nobody at the target: reopen the
    sheet first); one that leaves it over is made, and the sheet stays finished. True when an add or a correction
    leaves the game over and the sheet not finished: a `finish` follows it in the same write (if the writer
    `finishes`, Conflict "full" when the log has no room left for it)."""
    over = bool(end and end["over"])
    if action in TARGETED and state["finished"] and not over:
        raise Conflict("not_over", "the sheet is finished, and this change would leave its game no longer over by "
                                   "its rules; reopen the sheet to make it", entry)
    follows = action in ("add", *TARGETED) and over and not state["finished"]
    if follows and finishes and state["version"] + 2 > MAX_LOG:
        raise Conflict("full", f"this change ends the game and the sheet has no room left for its finish "
                               f"({MAX_LOG} changes); start a new sheet")
    return follows


def _why_over(end: Mapping) -> str:
    if end.get("rounds"):
        return f"it is played in {end['rounds']} rounds"
    if end.get("target") is not None:
        return f"a total reached the target of {end['target']}"
    return "by its rules"


# --- A sheet's round opened in its game's calculator ---------------------------------------------------------------


def calculator_fields(game: str, entries: Iterable[Mapping], players: list[str], next_round_: int | None,
                      correcting: Mapping | None = None,
                      as_fields: Callable[[Mapping], list[tuple[str, str]]] | None = None) -> list[tuple[str, str]]:
    """The scoring form's fields a sheet's calculator opens with: the players (`_n`, `_names`: the sheet's, or the
    seats of the entry `correcting`, in its seats' order), the sheet's round this calculator scores (`_sheet_round`:
    the count of counting entries before it, plus one; a designer's game of rounds also the request's round, said
    and not asked: `_round=sheet`), the earlier rounds as their score requests (`earlier:json`, each player named
    by their seat) for a game whose rounds read the game so far, and, correcting an entry scored with the
    calculator, that entry's request as its game's form says it (`as_fields`, the web's inverse of its forms) with
    the entry it corrects (`_edit`, `_base`) and who sat in each seat (`_seat`, the save's defaults). Earlier rounds
    go only where every counting round before this one was scored with the calculator by the same players (a round
    typed as points says nothing of its hands): else the calculator sees the round alone, and the sheet, which
    scores its rounds again in order, still counts it right."""
    round_ = next_round_
    counting = sorted((e for e in entries if e.get("active")), key=lambda e: e["seq"])
    seats = list(players)
    fields: list[tuple[str, str]] = []
    if correcting is not None:
        counting = [e for e in counting if e["seq"] < correcting["seq"]]
        asked = correcting.get("request") if isinstance(correcting.get("request"), Mapping) else {}
        if round_ is not None:
            round_ = asked.get("round") if isinstance(asked.get("round"), int) else len(counting) + 1
        if isinstance(correcting.get("seats"), list) and correcting["seats"]:
            seats = [str(s) for s in correcting["seats"]]
        fields += [("_edit", str(correcting["seq"])), ("_base", str(correcting["rev"])),
                   *(("_seat", s) for s in seats)]
        if as_fields is not None:  # (its round is said below, its earlier rounds are the sheet's)
            fields += as_fields({k: v for k, v in asked.items() if k not in ("round", "earlier")})
    out = [("_n", str(len(seats))), *(("_names", name) for name in seats),
           ("_sheet_round", str(len(counting) + 1)), *fields]
    if round_ is not None:
        out += [("_round", "sheet"), ("round:int", str(round_))]
    earlier = _earlier(game, counting, players)
    if earlier and round_ == len(earlier) + 1:
        out.append(("earlier:json", json.dumps(earlier, ensure_ascii=False, separators=(",", ":"))))
    return out


def correcting_of(form: Any) -> dict | None:
    """The entry a calculator opened by `calculator_fields` to correct it saves over, read back from its form
    (`get`/`getlist`, as the scoring page keeps `_edit`, `_base` and `_seat`): `{"edit", "base", "seats"}`, else
    None (the calculator adds a round). The server's save box and a phone's alike."""
    edit = whole_number(form.get("_edit") or "", signed=False)
    if not edit or edit > MAX_LOG:
        return None
    return {"edit": edit, "base": whole_number(form.get("_base") or "", signed=False),
            "seats": [str(s) for s in form.getlist("_seat")]}


def _earlier(game: str, counting: list[Mapping], players: list[str]) -> list[dict] | None:
    """The score requests of a sheet's counting rounds in order, each player named by their seat; None where the
    game's rounds stand alone or a round cannot be given as a request of these players."""
    if not counting or restater(game) is None:
        return None
    out = []
    for e in counting:
        request = e.get("request")
        if not isinstance(request, Mapping) or not isinstance(request.get("players"), list):
            return None
        seats = e.get("seats") or [p.get("name") for p in request["players"] if isinstance(p, Mapping)]
        if sorted(map(str, seats)) != sorted(players) or len(seats) != len(request["players"]):
            return None
        out.append({**{k: v for k, v in request.items() if k not in ("earlier", "round")},
                    "players": [{**p, "name": seat} for p, seat in zip(request["players"], seats, strict=True)]})
    return out
