"""A designer's scoring compiled: the counters, rules and values of a `scoring:` section (scoring/section.py
compiles them), a table of hands scored round by round (`Table`, `Env`: where a formula is computed, with its step
budget), each round seeing the game so far (`before()`, `game()`), the checks of the whole table, the game's end
(its rounds, target or both) and the winners. Pure: the phone's Python runs it too."""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ..core.schema import Texts
from .formula import MAX_STEPS, NONE, Formula, FormulaError, Names, check_number, compile_formula, fail

HELD_KINDS = ("card", "tile", "token")  # what a player may hold at scoring (not reference cards or backs)
GAME_STEPS = 2_000_000  # the work one request may spend on all its rounds (`earlier`), each table also on its own


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
class Check:
    """A test of the whole table (`checks:`): a request whose table fails it is refused with its message."""

    test: Formula
    message: Texts


@dataclass(frozen=True)
class Scoring:
    """A game's scoring compiled: what the hands and counters are worth, round by round, and who wins."""

    rules: tuple[Rule, ...]
    counters: tuple[CounterSpec, ...] = ()
    values: Mapping[str, Formula] = field(default_factory=dict)
    rounds: int = 1  # how many rounds at most (by the most players, for a formula; with a target alone, a sheet's)
    target: Formula | None = None
    fewest_wins: bool = False
    ties: tuple[Formula, ...] = ()
    # each card field's choices in order (None: the values held, ascending)
    choices: Mapping[str, tuple | None] = field(default_factory=dict)
    declared: bool = True  # False for DEFAULT's sum(value)
    rounds_formula: Formula | None = None  # `rounds: "players * 2"`: the rounds by the table
    limited: bool = False  # `rounds: {target, max}`: the game also ends after round `rounds`
    checks: tuple[Check, ...] = ()
    dealt: Formula | None = None  # setup.hand_size as a formula of players and round (None: nothing dealt)
    offered: Formula | None = None  # `cards:`: which components the scoring page offers (None: every one)
    remembered: frozenset[str] = frozenset()  # what before() and game() read: each round keeps its sum

    @property
    def group(self) -> str | None:
        """The field a phone groups a hand by: the first `each` a rule or value uses (None: by type)."""
        return next((r.each for r in self.rules if r.each), None)

    def rounds_for(self, players: int) -> int | None:
        """How many rounds a table of `players` plays: its number, its formula's, the `max` of a target game with
        one; None for a target game without one (until a total reaches it)."""
        if self.rounds_formula is not None:
            table = Table(self, [[] for _ in range(players)], [{} for _ in range(players)], 1, False)
            with _at("scoring.rounds"):
                return whole(self.rounds_formula, Env(table, 0, ()))
        if self.target is not None and not self.limited:
            return None
        return self.rounds

    def last_round(self, round_: int, players: int | None = None) -> bool:
        """Whether `round_` is the game's last (`last`): every round of a target game, else its last numbered one."""
        if self.target is not None:
            return True
        most = self.rounds_for(players) if players is not None else self.rounds
        return round_ >= (most or self.rounds)

    def table(self, hands, counters, round_: int, history: Sequence[Mapping[str, int]] | None = None,
              whole_game: bool = False) -> Table:
        """A round's table, seeing the game so far: `history`, each player's sums over the earlier rounds of what
        before() and game() read (`whole_game`: over every round, this one too, as the tie-breakers see it)."""
        table = Table(self, hands, counters, round_, self.last_round(round_, len(hands)))
        if history is not None:
            table.history, table.whole_game = list(history), whole_game
        return table

    def score(self, hands: Sequence[Sequence[tuple[Mapping, int]]], counters: Sequence[Mapping[str, int]],
              round_: int = 1, history: Sequence[Mapping[str, int]] | None = None) -> list[dict]:
        """Each player's `points` and the points of every rule (`rules`), for one round of the table."""
        table = self.table(hands, counters, round_, history)
        return [self.player_points(table, p) for p in range(len(hands))]

    def play(self, rounds: Sequence[tuple[Sequence, Sequence[Mapping[str, int]], int, Sequence[str]]],
             start: Mapping[str, Mapping[str, int]] | None = None) -> list[dict]:
        """A game's rounds in order, each (hands, counters, round, the players' names in its order) and seeing the
        rounds before it (and `start`: each player's sums over rounds before those, by name): each round's players'
        results (`score`'s) and the sums after it (`history`, by name)."""
        sums: dict[str, dict[str, int]] = {n: dict(v) for n, v in (start or {}).items()}
        out = []
        for hands, counters, round_, names in rounds:
            table = self.table(hands, counters, round_, [dict(sums.get(n, {})) for n in names])
            results = [self.player_points(table, p) for p in range(len(hands))]
            for p, name in enumerate(names):
                kept = sums.setdefault(name, {})
                for key in self.remembered:
                    kept[key] = check_number(kept.get(key, 0) + table.current(key, p, results[p]))
            out.append({"players": results, "history": {n: dict(sums[n]) for n in names}})
        return out

    def failed_checks(self, table: Table) -> list[int]:
        """The checks of the whole table its hands fail, by their place in `checks:`."""
        failed = []
        for i, check in enumerate(self.checks):
            with _at(f"scoring.checks[{i}]"):
                if not _holds(check.test.run(Env(table, 0, ()))):
                    failed.append(i)
        return failed

    def player_points(self, table: Table, player: int) -> dict:
        """One player's `points` for the round and the points of each rule (`rules`). A FormulaError names the
        rule it comes from (`place`)."""
        rules = {}
        for i, rule in enumerate(self.rules):
            with _at(f"scoring.rules[{i}].points ({rule.id})"):
                rules[rule.id] = 0 if rule.last_only and not table.last else rule_points(rule, Env(table, player, ()))
        with _at("scoring.rules"):
            return {"points": check_number(sum(rules.values())), "rules": rules}

    def target_of(self, hands, counters, round_: int, history: Sequence[Mapping[str, int]] | None = None
                  ) -> list[int]:
        """The target each player's total is held against (player context, so it may depend on `players`)."""
        table = self.table(hands, counters, round_, history)
        with _at("scoring.rounds.target"):
            return [whole(self.target, Env(table, p, ())) for p in range(len(hands))]

    def tie_breaks(self, hands, counters, round_: int, history: Sequence[Mapping[str, int]] | None = None
                   ) -> list[tuple[int, ...]]:
        """Each player's tie-breakers, higher better, on the given (last) round's hands; before() and game() see
        the whole game (`history`: the sums over every round, this one too)."""
        table = self.table(hands, counters, round_, history, whole_game=True)
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


def _holds(value: Any) -> bool:
    if isinstance(value, list):
        return fail("a check gives a list, not true or false", True)
    return bool(value)


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


_SHARED_BUDGET: ContextVar[tuple[list[int], ...]] = ContextVar("companion_scoring_budget", default=())


@contextmanager
def one_budget(steps: int = MAX_STEPS, alone: bool = False) -> Iterator[None]:
    """Every table scored inside the block spends from one budget of `steps` besides its own: work over many tables
    (an import re-scoring each of its rounds, a request's earlier rounds) is bounded as one table's is. Budgets nest:
    each one around the work spends (`alone`: only this one, as a request of its own would). FormulaError once one
    is spent."""
    stack = ([steps],) if alone else (*_SHARED_BUDGET.get(), [steps])
    token = _SHARED_BUDGET.set(stack)
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
        self.history: list[Mapping[str, int]] = [{} for _ in hands]  # each player's sums over the earlier rounds
        self.whole_game = False  # the tie-breakers' table: the sums are over every round, this one too

    @property
    def dealt(self) -> int:
        """The cards each player was dealt this round (`setup.hand_size`; 0 where the file deals none)."""
        formula = self.scoring.dealt
        if formula is None:
            return 0
        if "dealt" not in self.cache:
            with _at("setup.hand_size"):
                self.cache["dealt"] = whole(formula, Env(self, 0, ()))
        return self.cache["dealt"]

    def current(self, name: str, player: int, result: Mapping | None = None) -> int:
        """This round's `name` for a player (a rule's points, a counter, a value on the whole hand), as a round adds
        it to the game so far. A rule's id comes first where a counter has the same name (`chips` the rule, `-chips`
        its points)."""
        rule = next((r for r in self.scoring.rules if r.id == name), None)
        if rule is not None:
            if result is not None:
                return result["rules"][name]
            key = ("rule", name, player)
            if key not in self.cache:
                self.cache[key] = 0 if rule.last_only and not self.last else rule_points(rule, Env(self, player, ()))
            return self.cache[key]
        if name in self.counters[player]:
            return self.counters[player][name]
        return _as_points(Env(self, player, ()).named(name))

    def spend(self, steps: int) -> None:
        """Count work done (cards looked at, choices gone through); FormulaError past MAX_STEPS, so no formula,
        however nested, can hold a server or a phone."""
        self.steps += steps
        if self.steps > MAX_STEPS:
            raise StepsError(f"needs more than {MAX_STEPS:,} steps to compute a table",
                             "nest fewer each() or name a part as a value")
        for shared in _SHARED_BUDGET.get():
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

    def before(self, name: str) -> int:
        """`name` summed over this player's earlier rounds (the tie-breakers': over every round)."""
        return self.table.history[self.player].get(name, 0)

    def game(self, name: str) -> int:
        """`name` summed over every round so far, this one included."""
        table = self.table
        earlier = table.history[self.player].get(name, 0)
        return earlier if table.whole_game else check_number(earlier + table.current(name, self.player))


def _as_points(value: Any) -> int:
    """A value as a round adds it to the game so far: a whole number (true/false as 1/0)."""
    if isinstance(value, bool):
        return int(value)
    if not isinstance(value, int):
        shown = "a list" if isinstance(value, list) else repr(value)
        return fail(f"before() and game() sum whole numbers; a value gives {shown}")
    return value


DEFAULT = Scoring(
    rules=(Rule("value", Texts("Valor", "Value"), compile_formula("sum(value)", Names({"value": None}))),),
    declared=False,
)


def card_fields(c) -> dict:
    """What a card context sees of a component: its fields (lists as lists), `id`, `type` and `set`."""
    return {**{k: list(v) if isinstance(v, tuple) else v for k, v in c.data.items()},
            "id": c.id, "type": c.type, "set": c.set}
