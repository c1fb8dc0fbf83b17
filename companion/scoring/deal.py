"""`setup.hand_size`: the cards each player is dealt, as a number, a table by player count (`{3: 16, 4: 12}`) or a
formula of `players` and `round` (`"60 // players"`), compiled once into one formula that the setup helper deals by
and that every scoring formula sees as `dealt`. Checked at load for every player count the file allows and every
round its game may reach: a whole number of cards from 0 to 60, each problem naming the table that shows it."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.schema import INVALID, Field, Int, MapOf, Path, Problem, Problems, Str, Value
from .formula import Formula, FormulaError, Names, compile_formula

MOST = 60  # cards a player may be dealt
NAMES = Names(fields={}, player=frozenset(("players", "round")))


class HandSize(Field):
    """A number, a table by player count, or a formula of players and round (as text)."""

    def check(self, value: Any, path: Path, problems: Problems) -> Any:
        if isinstance(value, Mapping):
            return MapOf(Int(1, 12), Int(0, MOST)).check(value, path, problems)
        if isinstance(value, str):
            return Str(max_len=1_000).check(value, path, problems)
        if isinstance(value, int) and not isinstance(value, bool):
            return Int(0, MOST).check(value, path, problems)
        return problems.add(path, "must be a number of cards, a table by player count ({3: 16, 4: 12}) or a formula "
                                  "of players and round, got %(got)s", got=Value(value))


def compile_hand_size(raw: Any, players: tuple[int, int], rounds: int, problems: list[Problem],
                      path: Path = ("setup", "hand_size")) -> Formula | None:
    """The hand size as one formula, or None (with its problems) where it is not a whole number of cards from 0 to
    60 for each player count in `players` and each round up to `rounds`."""
    if isinstance(raw, Mapping):
        missing = [n for n in range(players[0], players[1] + 1) if n not in raw]
        if missing:
            problems.append(Problem(path, f"says nothing of {', '.join(map(str, missing))} players: give every "
                                          f"player count the game allows ({players[0]} to {players[1]})"))
            return None
        text = " else ".join(f"{raw[n]} if players == {n}" for n in sorted(raw)) + " else 0"
    else:
        text = str(raw)
    try:
        formula = compile_formula(text, NAMES)
    except FormulaError as e:
        problems.append(Problem(path, str(e)))
        return None
    reads_round = "round" in text
    for n in range(players[0], players[1] + 1):
        for round_ in range(1, (rounds if reads_round else 1) + 1):
            try:
                cards = dealt(formula, n, round_)
            except FormulaError as e:
                problems.append(Problem(path, f"{e} when players is {n}" + (f" and the round is {round_}"
                                                                             if reads_round else "")))
                return None
            if not 0 <= cards <= MOST:
                problems.append(Problem(path, f"deals {cards} cards when players is {n}"
                                              + (f" and the round is {round_}" if reads_round else "")
                                              + f"; a hand is 0 to {MOST} cards"))
                return None
    return formula


def dealt(formula: Formula | int | None, players: int, round_: int = 1) -> int:
    """The cards each of `players` is dealt in `round_` (0 where nothing is dealt); FormulaError."""
    if formula is None or formula is INVALID:
        return 0
    if isinstance(formula, int):
        return formula
    value = formula.run(_Table(players, round_))
    if isinstance(value, bool):
        return int(value)
    if not isinstance(value, int):
        raise FormulaError("gives no whole number of cards")
    return value


class _Table:
    """What a hand size's formula sees: the players and the round (as an Env and its table, in one)."""

    def __init__(self, players: int, round_: int):
        self.players, self.round = players, round_
        self.table = self
