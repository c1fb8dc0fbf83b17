"""A designer's scoring compiled: the counters, rules and values of a `scoring:` section (scoring/section.py
compiles them), a table of hands scored round by round (`Table`, `Env`: where a formula is computed, with its step
budget), the target and the winners. Pure: the phone's Python runs it too."""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ..core.schema import Texts
from .formula import MAX_STEPS, NONE, Formula, FormulaError, Names, check_number, compile_formula, fail

HELD_KINDS = ("card", "tile", "token")  # what a player may hold at scoring (not reference cards or backs)


class StepsError(FormulaError):
    """A table whose scoring needs more than its step budget: what happened, and what the designer can do."""

    def __init__(self, what: str, advice: str):
        super().__init__(f"{what}: {advice}")
        self.what, self.advice = what, advice


@dataclass(frozen=True)
class CounterSpec:
    """A number a player tells besides their cards (0, or the nearest the range allows, when not given)."""

    key: str
    name: Texts
    low: int
    high: int

    @property
    def default(self) -> int:
        return min(max(0, self.low), self.high)


@dataclass(frozen=True)
class Rule:
    """One line of a player's score: its points each round (or only the last, `when: last`), per choice of `each`."""

    id: str
    name: Texts
    points: Formula
    each: str | None = None
    last_only: bool = False


@dataclass(frozen=True)
class Scoring:
    """A game's scoring compiled: what the hands and counters are worth, round by round, and who wins."""

    rules: tuple[Rule, ...]
    counters: tuple[CounterSpec, ...] = ()
    values: Mapping[str, Formula] = field(default_factory=dict)
    rounds: int = 1  # how many rounds; with a target, the most a sheet may hold
    target: Formula | None = None
    fewest_wins: bool = False
    ties: tuple[Formula, ...] = ()
    # each card field's choices in order (None: the values held, ascending)
    choices: Mapping[str, tuple | None] = field(default_factory=dict)
    declared: bool = True  # False for DEFAULT's sum(value)

    @property
    def group(self) -> str | None:
        """The field a phone groups a hand by: the first `each` a rule or value uses (None: by type)."""
        return next((r.each for r in self.rules if r.each), None)

    def last_round(self, round_: int) -> bool:
        return self.target is not None or round_ >= self.rounds

    def score(self, hands: Sequence[Sequence[tuple[Mapping, int]]], counters: Sequence[Mapping[str, int]],
              round_: int = 1) -> list[dict]:
        """Each player's `points` and the points of every rule (`rules`), for one round of the table."""
        table = Table(self, hands, counters, round_, self.last_round(round_))
        return [self.player_points(table, p) for p in range(len(hands))]

    def player_points(self, table: Table, player: int) -> dict:
        """One player's `points` for the round and the points of each rule (`rules`). A FormulaError names the
        rule it comes from (`place`)."""
        rules = {}
        for i, rule in enumerate(self.rules):
            with _at(f"scoring.rules[{i}].points ({rule.id})"):
                rules[rule.id] = 0 if rule.last_only and not table.last else rule_points(rule, Env(table, player, ()))
        with _at("scoring.rules"):
            return {"points": check_number(sum(rules.values())), "rules": rules}

    def target_of(self, hands, counters, round_: int) -> list[int]:
        """The target each player's total is held against (player context, so it may depend on `players`)."""
        table = Table(self, hands, counters, round_, True)
        with _at("scoring.rounds.target"):
            return [whole(self.target, Env(table, p, ())) for p in range(len(hands))]

    def tie_breaks(self, hands, counters, round_: int) -> list[tuple[int, ...]]:
        """Each player's tie-breakers, higher better, on the given (last) round's hands."""
        table = Table(self, hands, counters, round_, self.last_round(round_))
        out = []
        for p in range(len(hands)):
            breaks = []
            for i, tie in enumerate(self.ties):
                with _at(f"scoring.ties[{i}]"):
                    breaks.append(whole(tie, Env(table, p, ())))
            out.append(tuple(breaks))
        return out

    def winners(self, names: Sequence[str], totals: Sequence[int], breaks: Sequence[tuple] | None = None) -> list:
        """The names with the best total (fewest or most), then the best tie-breakers; still tied, all share."""
        sign = -1 if self.fewest_wins else 1
        keys = [(sign * t, *(breaks[i] if breaks else ())) for i, t in enumerate(totals)]
        best = max(keys)
        return [n for n, k in zip(names, keys, strict=True) if k == best]


@contextmanager
def _at(place: str) -> Iterator[None]:
    """A FormulaError raised inside names the formula it comes from, once (the innermost place wins)."""
    try:
        yield
    except FormulaError as e:
        if e.place is None:
            e.place = place
        raise


def whole(formula: Formula, env: Env) -> int:
    """A formula's value as points: a whole number (true/false count as 1/0)."""
    value = formula.run(env)
    if isinstance(value, bool):
        return int(value)
    if not isinstance(value, int):
        return fail(f"gives {'a list' if isinstance(value, list) else repr(value)}, not a whole number")
    return value


def rule_points(rule: Rule, env: Env) -> int:
    """A rule's points for one player: its formula, or with `each` the total over the field's choices (within the
    bound of a result, as every result is)."""
    if rule.each is None:
        return whole(rule.points, env)
    choices = env.table.scoring.choices.get(rule.each)
    options = choices if choices is not None else env.table.held_values(rule.each, ())
    return check_number(sum(whole(rule.points, env.within(((rule.each, c),))) for c in options))


_SHARED_BUDGET: ContextVar[list[int] | None] = ContextVar("companion_scoring_budget", default=None)


@contextmanager
def one_budget(steps: int = MAX_STEPS) -> Iterator[None]:
    """Every table scored inside the block spends from one budget of `steps` besides its own: work over many tables
    (an import re-scoring each of its rounds) is bounded as one table's is. FormulaError once it is spent."""
    token = _SHARED_BUDGET.set([steps])
    try:
        yield
    finally:
        _SHARED_BUDGET.reset(token)


class Table:
    """The hands at the table for one round: the players' cards (fields, copies) and counters; what `players`,
    `round` and `last` are; and what is computed once for all (restricted hands, values, places)."""

    def __init__(self, scoring: Scoring, hands, counters, round_: int, last: bool):
        self.scoring, self.hands, self.counters = scoring, hands, counters
        self.players, self.round, self.last = len(hands), round_, last
        self.cache: dict = {}
        self.steps = 0

    def spend(self, steps: int) -> None:
        """Count work done (cards looked at, choices gone through); FormulaError past MAX_STEPS, so no formula,
        however nested, can hold a server or a phone."""
        self.steps += steps
        if self.steps > MAX_STEPS:
            raise StepsError(f"needs more than {MAX_STEPS:,} steps to compute a table",
                             "nest fewer each() or name a part as a value")
        shared = _SHARED_BUDGET.get()
        if shared is not None:
            shared[0] -= steps
            if shared[0] < 0:
                raise FormulaError("needs more steps than one request may spend on all its tables together: "
                                   "send fewer rounds at once")

    def hand(self, player: int, where: tuple) -> Sequence[tuple[Mapping, int]]:
        if not where:
            return self.hands[player]
        key = ("hand", player, where)
        found = self.cache.get(key)
        if found is None:
            self.spend(len(self.hands[player]) + 1)  # the whole hand is looked at to restrict it
            found = [(card, n) for card, n in self.hands[player]
                     if all(card.get(f, NONE) == c for f, c in where)]
            self.cache[key] = found
        return found

    def held_values(self, name: str, where: tuple) -> list:
        """The values of a field any player holds (in the hands in force), ascending: what `each` goes through on a
        field without declared choices."""
        hands = [self.hand(p, where) for p in range(self.players)]
        self.spend(sum(map(len, hands)) + 1)
        seen = {card.get(name, NONE) for hand in hands for card, _ in hand}
        seen.discard(NONE)
        return sorted(seen, key=lambda v: (isinstance(v, str), v))


class Env:
    """Where a formula is computed: the table, whose hand (a player, restricted by `each` to some choices), and the
    card being looked at by an aggregate (None outside one)."""

    __slots__ = ("table", "player", "where", "card")

    def __init__(self, table: Table, player: int, where: tuple):
        self.table, self.player, self.where, self.card = table, player, where, None

    def hand(self):
        return self.table.hand(self.player, self.where)

    def within(self, where: tuple) -> Env:
        return Env(self.table, self.player, where)

    def seat(self, player: int) -> Env:
        return Env(self.table, player, self.where)

    def named(self, name: str) -> Any:
        table = self.table
        counters = table.counters[self.player]
        if name in counters:
            return counters[name]
        key = ("value", name, self.player, self.where)
        if key not in table.cache:
            table.cache[key] = table.scoring.values[name].run(Env(table, self.player, self.where))
        return table.cache[key]


DEFAULT = Scoring(
    rules=(Rule("value", Texts("Valor", "Value"), compile_formula("sum(value)", Names({"value": None}))),),
    declared=False,
)


def card_fields(c) -> dict:
    """What a card context sees of a component: its fields (lists as lists), `id`, `type` and `set`."""
    return {**{k: list(v) if isinstance(v, tuple) else v for k, v in c.data.items()},
            "id": c.id, "type": c.type, "set": c.set}
