"""Rounds to a target, for every game scored round by round (a shipped game's, and any new game of rounds): a request
holds its `rounds`, each one entry a player (by name), and may give its `target`; each round's points are added up
player by player, and the game ends at the end of the round in which someone reaches the target, with its winners
(before that, its leaders). A game gives what an entry is, how many points one makes, and its own checks."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.schema import InputError, Int, ListOf, Path, Problems, Record
from .base import add_duplicate_names, top

MAX_ROUNDS = 200
TARGET = Int(1, 10_000)


def request(entry: Record, players: tuple[int, int]) -> Record:
    """A request of rounds: each round a list of `entry` (one a player, with a `name`), and the target."""
    return Record({"rounds": ListOf(ListOf(entry, *players), 1, MAX_ROUNDS), "target": TARGET}, required=("rounds",))


def score(rounds: Sequence[Sequence[Mapping]], target: int, points: Callable[[Mapping], int] | None = None,
          check: Callable[[Sequence[Mapping], Path, Problems], None] | None = None,
          whole_round: Callable[[Sequence[Mapping]], Mapping[str, int]] | None = None) -> dict:
    """The rounds scored (each player's `points` in each), the totals, and whether someone reached `target` (then
    the winners, the most points at the end of that round); InputError naming every problem: a player twice in a
    round, a round whose players are not the first round's, what the game's `check` finds in a round (given the
    round's path), a round played after the game ended. A round's points come entry by entry (`points`), or from
    the whole round at once (`whole_round`: its entries → points by name), for rules that compare the players
    (majorities, the fewest of something)."""
    problems = Problems()
    names = [e["name"] for e in rounds[0]]
    totals = dict.fromkeys(names, 0)
    scored, finished_after = [], None
    for r, entries in enumerate(rounds):
        before = len(problems)
        add_duplicate_names(entries, ("rounds", r), problems)
        if len(problems) > before:
            continue
        if sorted(e["name"] for e in entries) != sorted(names):
            problems.add(("rounds", r), "must list the same players as round 1: %(players)s",
                         players=", ".join(dict.fromkeys(names)))
            continue
        if check is not None:
            check(entries, ("rounds", r), problems)
        if finished_after is not None:
            problems.add(("rounds", r), "the game ended after round %(round)s: someone reached %(target)s",
                         round=finished_after + 1, target=target)
        parts = dict(whole_round(entries)) if whole_round else {e["name"]: points(e) for e in entries}
        scored.append(parts)
        for name, earned in parts.items():
            totals[name] += earned
        if finished_after is None and max(totals.values()) >= target:
            finished_after = r
    if problems:
        raise InputError(problems)
    finished = finished_after is not None
    board = [{"name": n, "total": t} for n, t in totals.items()]
    return {"rounds": scored, "totals": totals, "target": target, "finished": finished,
            "winners": top(board, lambda p: p["total"]) if finished else [],
            "leaders": top(board, lambda p: p["total"])}


def target_end(target: int) -> Callable[[Any, int, Mapping | None, Mapping[str, int]], dict]:
    """A saved sheet's end for a game of rounds to `target` points (its `Game.sheet_end`): over at the end of the
    round in which someone's total reaches it, typed or scored; the most points win."""
    def sheet_end(_card_set, played: int, _last, totals: Mapping[str, int]) -> dict:
        best = max(totals.values(), default=0)
        leaders = [name for name, total in totals.items() if total == best] if played else []
        over = bool(played) and best >= target
        return {"over": over, "played": played, "target": target, "fewest_wins": False, "leaders": leaders,
                "winners": leaders if over else []}
    return sheet_end


def sheet_points(result: Mapping) -> list[tuple[str, int]]:
    """What scored rounds add to a saved sheet, seat by seat: each player's points."""
    return list(result["totals"].items())
