"""A designer's scoring, from the `scoring:` section of their card data (../shared/specs/scoring.md): counters,
named values and rules written as formulas (scoring/formula.py), compiled once at load; a table of hands scored
round by round; the checks `validate` runs on sample hands. A file without `scoring:` declares, in effect, one
rule: the sum of `value` (`DEFAULT`). Pure: no Flask, reportlab or file I/O, so the phone's Python runs it too."""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..core.schema import Enum, Int, ListOf, MapOf, Path, Problem, Record, Str, Texts, TextsField
from .formula import (
    FUNCTIONS,
    MAX_STEPS,
    NONE,
    PLAYER_NAMES,
    Formula,
    FormulaError,
    Names,
    compile_formula,
    each_field_problem,
)

IDENT = Str(r"[a-z][a-z0-9_]*", max_len=30, hint="lower-case letters, digits and '_', starting with a letter")
MAX_COUNTERS, MAX_VALUES, MAX_RULES, MAX_ROUNDS = 20, 40, 40, 100


class _FormulaText(Str):  # a formula may be written as a bare whole number in YAML
    def check(self, value, path, problems):
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        return super().check(value, path, problems)


FORMULA_TEXT = _FormulaText(r"[^\0]*", max_len=1_000)
COUNTER = Record({"name": TextsField(max_len=40), "number": ListOf(Int(-1_000_000, 1_000_000), 2, 2)},
                 required=("name",))
RULE = Record({"id": IDENT, "name": TextsField(max_len=60), "each": Str(r"[A-Za-z_][A-Za-z0-9_-]*", max_len=40),
               "when": Enum(("last",), "when"), "points": FORMULA_TEXT}, required=("id", "name", "points"))


class _Rounds(Int):
    """`rounds:` a number of rounds, or `{target: formula}`."""

    def __init__(self):
        super().__init__(1, MAX_ROUNDS)
        self.target = Record({"target": FORMULA_TEXT}, required=("target",))

    def check(self, value, path, problems):
        if isinstance(value, Mapping):
            return self.target.check(value, path, problems)
        return super().check(value, path, problems)


SECTION = Record({
    "counters": MapOf(IDENT, COUNTER),
    "values": MapOf(IDENT, FORMULA_TEXT),
    "rules": ListOf(RULE, 1, MAX_RULES),
    "rounds": _Rounds(),
    "winner": Enum(("most", "fewest"), "winner"),
    "ties": ListOf(FORMULA_TEXT, 1, 5),
}, required=("rules",))


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
        return [self._player(table, p) for p in range(len(hands))]

    def _player(self, table: Table, player: int) -> dict:
        rules = {}
        for rule in self.rules:
            rules[rule.id] = 0 if rule.last_only and not table.last else rule_points(rule, Env(table, player, ()))
        return {"points": sum(rules.values()), "rules": rules}

    def target_of(self, hands, counters, round_: int) -> list[int]:
        """The target each player's total is held against (player context, so it may depend on `players`)."""
        table = Table(self, hands, counters, round_, True)
        return [whole(self.target, Env(table, p, ())) for p in range(len(hands))]

    def tie_breaks(self, hands, counters, round_: int) -> list[tuple[int, ...]]:
        """Each player's tie-breakers, higher better, on the given (last) round's hands."""
        table = Table(self, hands, counters, round_, self.last_round(round_))
        return [tuple(whole(t, Env(table, p, ())) for t in self.ties) for p in range(len(hands))]

    def winners(self, names: Sequence[str], totals: Sequence[int], breaks: Sequence[tuple] | None = None) -> list:
        """The names with the best total (fewest or most), then the best tie-breakers; still tied, all share."""
        sign = -1 if self.fewest_wins else 1
        keys = [(sign * t, *(breaks[i] if breaks else ())) for i, t in enumerate(totals)]
        best = max(keys)
        return [n for n, k in zip(names, keys, strict=True) if k == best]


def whole(formula: Formula, env: Env) -> int:
    """A formula's value as points: a whole number (true/false count as 1/0)."""
    value = formula.run(env)
    if isinstance(value, bool):
        return int(value)
    if not isinstance(value, int):
        raise FormulaError(f"gives {'a list' if isinstance(value, list) else repr(value)}, not a whole number")
    return value


def rule_points(rule: Rule, env: Env) -> int:
    """A rule's points for one player: its formula, or with `each` the total over the field's choices."""
    if rule.each is None:
        return whole(rule.points, env)
    choices = env.table.scoring.choices.get(rule.each)
    options = choices if choices is not None else env.table.held_values(rule.each, ())
    return sum(whole(rule.points, env.within(((rule.each, c),))) for c in options)


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
            raise FormulaError(f"needs more than {MAX_STEPS:,} steps to compute a table: nest fewer each() or "
                               f"name a part as a value")
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


# --- compiling a file's section ------------------------------------------------------------------------------------

def names_for(field_choices: Mapping[str, tuple | None], list_fields: Iterable[str], unusable: Mapping[str, str],
              counters: Iterable[str], values: Iterable[str]) -> Names:
    """What the formulas of a file may name."""
    return Names(fields=dict(field_choices), list_fields=frozenset(list_fields), unusable=dict(unusable),
                 player=frozenset((*counters, *values, *PLAYER_NAMES)))


def compile_section(section: Mapping, names: Names, problems: list[Problem]) -> Scoring | None:
    """The checked `scoring:` section compiled, every problem added with its path under `scoring`; None if any."""
    before = len(problems)
    for part, most in (("counters", MAX_COUNTERS), ("values", MAX_VALUES)):
        if len(section.get(part) or {}) > most:
            problems.append(Problem(("scoring", part), f"has {len(section[part])} entries; at most {most}"))
    taken = {**{f: "a card field" for f in (*names.fields, *names.unusable)},
             **{f: "a function" for f in FUNCTIONS}, **{n: "a name every formula has" for n in PLAYER_NAMES}}
    counters = _counters(section.get("counters") or {}, taken, problems)
    values_raw = dict(section.get("values") or {})
    for key in values_raw:
        if key in taken or key in {c.key for c in counters}:
            what = taken.get(key, "a counter")
            problems.append(Problem(("scoring", "values", key), f"{key!r} is already {what}: name it otherwise"))
    names.player = frozenset((*names.player, *(c.key for c in counters), *values_raw))
    values = {key: f for key, text in values_raw.items()
              if (f := _compiled(text, names, ("scoring", "values", key), problems)) is not None}
    _cycles(values, problems)
    rules = _rules(section["rules"], names, problems)
    rounds, target = section.get("rounds", 1), None
    if isinstance(rounds, Mapping):
        target = _compiled(rounds["target"], names, ("scoring", "rounds", "target"), problems)
        rounds = MAX_ROUNDS
    ties = tuple(t for i, text in enumerate(section.get("ties", ()))
                 if (t := _compiled(text, names, ("scoring", "ties", i), problems)) is not None)
    if len(problems) > before:
        return None
    return Scoring(rules=tuple(rules), counters=tuple(counters), values=MappingProxyType(values), rounds=rounds,
                   target=target, fewest_wins=section.get("winner") == "fewest", ties=ties,
                   choices=MappingProxyType(dict(names.fields)))


def _counters(raw: Mapping, taken: Mapping[str, str], problems: list[Problem]) -> list[CounterSpec]:
    """The counters declared, each name free and its range in order."""
    counters = []
    for key, c in raw.items():
        if key in taken:
            problems.append(Problem(("scoring", "counters", key), f"{key!r} is already {taken[key]}: name it "
                                    f"otherwise"))
        low, high = c.get("number", (0, 1_000))
        if low > high:
            problems.append(Problem(("scoring", "counters", key, "number"), "must be [least, most]"))
        counters.append(CounterSpec(key, c["name"], low, high))
    return counters


def _rules(raw_rules, names: Names, problems: list[Problem]) -> list[Rule]:
    """The rules compiled: ids unique, `each` on a single-valued card field, points a formula."""
    rules, seen = [], set()
    for i, raw in enumerate(raw_rules):
        path = ("scoring", "rules", i)
        if raw["id"] in seen:
            problems.append(Problem((*path, "id"), f"{raw['id']!r} is used by an earlier rule"))
        seen.add(raw["id"])
        each = raw.get("each")
        problem = each_field_problem(each, names) if each is not None else None
        if problem:
            problems.append(Problem((*path, "each"), problem))
        compiled = _compiled(raw["points"], names, (*path, "points"), problems)
        if compiled is not None:
            rules.append(Rule(raw["id"], raw["name"], compiled, each, raw.get("when") == "last"))
    return rules


def _compiled(text: str, names: Names, path: Path, problems: list[Problem]) -> Formula | None:
    try:
        return compile_formula(text, names)
    except FormulaError as e:
        problems.append(Problem(path, str(e)))
        return None


def _cycles(values: Mapping[str, Formula], problems: list[Problem]) -> None:
    """A value that uses itself, directly or through others, is named once with its cycle."""
    state: dict[str, int] = {}
    for start in values:
        stack = [(start, iter(sorted(values[start].values & values.keys())))]
        trail = [start]
        state[start] = state.get(start, 0) or 1
        while stack:
            name, deps = stack[-1]
            nxt = next(deps, None)
            if nxt is None:
                state[name] = 2
                stack.pop()
                trail.pop()
            elif state.get(nxt) == 1 and nxt in trail:
                cycle = trail[trail.index(nxt):] + [nxt]
                problems.append(Problem(("scoring", "values", nxt), "a cycle of values: " + " → ".join(cycle)))
                return
            elif not state.get(nxt):
                state[nxt] = 1
                trail.append(nxt)
                stack.append((nxt, iter(sorted(values[nxt].values & values.keys()))))


# --- validate's sample hands ---------------------------------------------------------------------------------------

def sample_problems(scoring: Scoring, cards: Sequence[tuple[Mapping, int]], players: tuple[int, int]) -> list:
    """Every rule, value, target and tie-breaker computed on the contract's sample hands (nothing held; one copy
    of each component; every copy; counters at their least and most; the fewest and most players; the first and
    last round); each formula that fails is named once, with the sample it failed on."""
    hands = {"nothing held": [], "one copy of each component": [(c, 1) for c, _ in cards],
             "every copy": list(cards)}
    found: dict[Path, Problem] = {}
    rounds = sorted({1, scoring.rounds if scoring.target is None else 2})
    for (what, hand), most, n, round_ in itertools.product(hands.items(), (False, True), sorted(set(players)),
                                                            rounds):
        counters = [{c.key: c.high if most else c.low for c in scoring.counters} for _ in range(n)]
        sample = (f"{what}, counters at their {'most' if most else 'least'}, {n} player{'s' if n > 1 else ''}, "
                  f"round {round_}")
        table = Table(scoring, [hand] * n, counters, round_, scoring.last_round(round_))
        for path, formula, run in _every_formula(scoring):
            if path in found:
                continue
            try:
                run(formula, Env(table, 0, ()))
            except FormulaError as e:
                found[path] = Problem(path, f"{e} (sample hand: {sample})")
            except (RecursionError, MemoryError):
                found[path] = Problem(path, f"cannot be computed: too deep or too large (sample hand: {sample})")
    return list(found.values())


def _every_formula(scoring: Scoring):
    for name, formula in scoring.values.items():
        yield ("scoring", "values", name), formula, lambda f, env: f.run(env)
    for i, rule in enumerate(scoring.rules):
        yield ("scoring", "rules", i, "points"), rule, lambda r, env: rule_points(r, env)
    if scoring.target is not None:
        yield ("scoring", "rounds", "target"), scoring.target, whole
    for i, tie in enumerate(scoring.ties):
        yield ("scoring", "ties", i), tie, whole


# --- a card data file's section ------------------------------------------------------------------------------------

def card_fields(c) -> dict:
    """What a card context sees of a component: its fields (lists as lists), `id`, `type` and `set`."""
    return {**{k: list(v) if isinstance(v, tuple) else v for k, v in c.data.items()},
            "id": c.id, "type": c.type, "set": c.set}


def file_names(types: Mapping[str, Any], sets: Iterable[str]) -> Names:
    """The card fields a file's formulas may name, from its component types' checks: a choice field with its
    choices, a number or a word with the values held, a list field, and what no formula reads (texts, mappings)."""
    fields: dict[str, tuple | None] = {"id": None, "type": tuple(t for t in types if t != "back"),
                                       "set": tuple(sets)}
    lists, unusable = set(), {}
    for ctype in types.values():
        for name, check in ctype.fields.items():
            if isinstance(check, ListOf):
                lists.add(name)
                fields.setdefault(name, None)
            elif isinstance(check, Enum):
                fields[name] = tuple(check.values)
            elif isinstance(check, (TextsField, Record)):
                unusable[name] = "is a translated text or a mapping: formulas read numbers, words and choices"
            else:
                fields.setdefault(name, None)
    for name in unusable:
        fields.pop(name, None)
    return names_for(fields, lists, unusable, (), ())


def check_section(section: Mapping, types: Mapping[str, Any], sets: Iterable[str], components: Sequence,
                  players: tuple[int, int]) -> tuple[Scoring | None, list[Problem]]:
    """A file's `scoring:` compiled and computed on the sample hands; every problem with its path."""
    problems: list[Problem] = []
    scoring = compile_section(section, file_names(types, sets), problems)
    if scoring is None:
        return None, problems
    cards = [(card_fields(c), c.qty) for c in components if c.kind != "back"]
    problems += sample_problems(scoring, cards, players)
    return (None if problems else scoring), problems
