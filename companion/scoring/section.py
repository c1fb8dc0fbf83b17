"""A file's `scoring:` section checked and compiled (the contract's names: counters, values, rules, rounds,
winner, ties), every problem with its path under `scoring`."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from ..core.schema import Enum, Int, ListOf, MapOf, Path, Problem, Record, Str, TextsField
from .formula import FUNCTIONS, PLAYER_NAMES, Formula, FormulaError, Names, compile_formula, each_field_problem
from .model import Check, CounterSpec, Rule, Scoring

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
    """`rounds:` a number of rounds, a formula of `players` ("players * 2"), or `{target: formula, max: N}`."""

    def __init__(self):
        super().__init__(1, MAX_ROUNDS)
        self.target = Record({"target": FORMULA_TEXT, "max": Int(1, MAX_ROUNDS)}, required=("target",))

    def check(self, value, path, problems):
        if isinstance(value, Mapping):
            return self.target.check(value, path, problems)
        if isinstance(value, str):
            return FORMULA_TEXT.check(value, path, problems)
        return super().check(value, path, problems)


CHECK = Record({"test": FORMULA_TEXT, "message": TextsField(max_len=200)}, required=("test", "message"))
SECTION = Record({
    "counters": MapOf(IDENT, COUNTER),
    "values": MapOf(IDENT, FORMULA_TEXT),
    "rules": ListOf(RULE, 1, MAX_RULES),
    "rounds": _Rounds(),
    "winner": Enum(("most", "fewest"), "winner"),
    "ties": ListOf(FORMULA_TEXT, 1, 5),
    "checks": ListOf(CHECK, 1, 10),
    "cards": FORMULA_TEXT,
}, required=("rules",))
ROUND_NAMES = Names(fields={}, player=frozenset(("players",)))  # what `rounds:` as a formula sees


# --- compiling a file's section ------------------------------------------------------------------------------------

def names_for(field_choices: Mapping[str, tuple | None], list_fields: Iterable[str], unusable: Mapping[str, str],
              counters: Iterable[str], values: Iterable[str]) -> Names:
    """What the formulas of a file may name."""
    return Names(fields=dict(field_choices), list_fields=frozenset(list_fields), unusable=dict(unusable),
                 player=frozenset((*counters, *values, *PLAYER_NAMES)))


def compile_section(section: Mapping, names: Names, problems: list[Problem],
                    players: tuple[int, int] = (1, 12)) -> Scoring | None:
    """The checked `scoring:` section compiled, every problem added with its path under `scoring`; None if any.
    `players`: the player counts the file allows (a `rounds:` formula is computed for each)."""
    before = len(problems)
    names.rules = frozenset(r["id"] for r in section["rules"])
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
    rules = _rules(section["rules"], names, problems)
    ambiguous = len(problems)
    _both(values, rules, counters, problems)
    if len(problems) == ambiguous:  # (a name that could be either is said once, not as a cycle too)
        _cycles(values, {r.id: r.points for r in rules}, problems)
    ties = tuple(t for i, text in enumerate(section.get("ties", ()))
                 if (t := _compiled(text, names, ("scoring", "ties", i), problems)) is not None)
    checks = tuple(Check(t, c["message"]) for i, c in enumerate(section.get("checks", ()))
                   if (t := _compiled(c["test"], names, ("scoring", "checks", i, "test"), problems, table=True))
                   is not None)
    offered = None
    if "cards" in section:  # a card's formula: which components the scoring page offers
        card_names = Names(fields=names.fields, list_fields=names.list_fields, unusable=names.unusable)
        offered = _compiled(section["cards"], card_names, ("scoring", "cards"), problems, card=True)
    ends = _rounds(section.get("rounds", 1), names, players, problems)
    if len(problems) > before or ends is None:
        return None
    formulas = [*values.values(), *(r.points for r in rules), *ties, *(c.test for c in checks),
                *([ends["target"]] if ends["target"] is not None else [])]
    return Scoring(rules=tuple(rules), counters=tuple(counters), values=MappingProxyType(values),
                   fewest_wins=section.get("winner") == "fewest", ties=ties,
                   choices=MappingProxyType(dict(names.fields)), checks=checks, offered=offered,
                   remembered=frozenset(name for f in formulas for _, name in f.history), **ends)


def _rounds(raw: Any, names: Names, players: tuple[int, int], problems: list[Problem]) -> dict | None:
    """`rounds:` as the scoring's `rounds`, `target`, `limited` and `rounds_formula`: a number; a formula of the
    players, computed for each player count the file allows (1 to 100 rounds); a target, with or without a
    `max` of rounds."""
    if isinstance(raw, Mapping):
        target = _compiled(raw["target"], names, ("scoring", "rounds", "target"), problems)
        return None if target is None else {"target": target, "rounds": raw.get("max", MAX_ROUNDS),
                                             "limited": "max" in raw, "rounds_formula": None}
    if isinstance(raw, int):
        return {"target": None, "rounds": raw, "limited": False, "rounds_formula": None}
    formula = _compiled(raw, ROUND_NAMES, ("scoring", "rounds"), problems)
    if formula is None:
        return None
    most = 1
    for n in range(players[0], players[1] + 1):
        try:
            value = formula.run(_Players(n))
            rounds = int(value) if isinstance(value, (bool, int)) else None
        except FormulaError as e:
            problems.append(Problem(("scoring", "rounds"), f"{e} when players is {n}"))
            return None
        if rounds is None or not 1 <= rounds <= MAX_ROUNDS:
            problems.append(Problem(("scoring", "rounds"), f"gives {value!r} rounds when players is {n}; a game has "
                                                           f"1 to {MAX_ROUNDS}"))
            return None
        most = max(most, rounds)
    return {"target": None, "rounds": most, "limited": False, "rounds_formula": formula}


class _Players:
    """What a `rounds:` formula sees: the players (as an Env and its table, in one)."""

    def __init__(self, players: int):
        self.players, self.table = players, self


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


def _compiled(text: str, names: Names, path: Path, problems: list[Problem], card: bool = False,
              table: bool = False) -> Formula | None:
    try:
        return compile_formula(text, names, card, table=table)
    except FormulaError as e:
        problems.append(Problem(path, str(e)))
        return None


def _both(values: Mapping[str, Formula], rules: list[Rule], counters: list[CounterSpec],
          problems: list[Problem]) -> None:
    """before(x) and game(x) of a name that is both a rule's id and a counter or a value: refused, it could be
    either."""
    others = {*values, *(c.key for c in counters)}
    formulas = [(("scoring", "values", k), f) for k, f in values.items()]
    formulas += [(("scoring", "rules", i, "points"), r.points) for i, r in enumerate(rules)]
    for path, f in formulas:
        for kind, name in sorted(f.history):
            if name in others and any(r.id == name for r in rules):
                problems.append(Problem(path, f"{kind}({name}): {name!r} is a rule's id and a counter or a value "
                                              f"too, so it could read either: give the rule another id"))


def _cycles(values: Mapping[str, Formula], rules: Mapping[str, Formula], problems: list[Problem]) -> None:
    """A value that uses itself, directly or through others, is named once with its cycle; so is a rule or a value
    that needs its own points of this round through game() (before() reads earlier rounds only: no cycle)."""
    nodes = {**{("value", k): f for k, f in values.items()}, **{("rule", k): f for k, f in rules.items()}}

    def needs(node) -> list:
        f = nodes[node]
        out = [("value", v) for v in sorted(f.values & values.keys())]
        for kind, name in sorted(f.history):
            if kind == "game" and ("rule", name) in nodes:
                out.append(("rule", name))
            elif kind == "game" and ("value", name) in nodes:
                out.append(("value", name))
        return out

    state: dict[tuple, int] = {}
    for start in nodes:
        if state.get(start):
            continue
        stack, trail = [(start, iter(needs(start)))], [start]
        state[start] = 1
        while stack:
            name, deps = stack[-1]
            nxt = next(deps, None)
            if nxt is None:
                state[name] = 2
                stack.pop()
                trail.pop()
            elif state.get(nxt) == 1 and nxt in trail:
                cycle = trail[trail.index(nxt):] + [nxt]
                shown = " → ".join(n for _, n in cycle)
                if all(kind == "value" for kind, _ in cycle):
                    problems.append(Problem(("scoring", "values", nxt[1]), "a cycle of values: " + shown))
                else:
                    where = ("scoring", "values", nxt[1]) if nxt[0] == "value" else \
                        ("scoring", "rules", list(rules).index(nxt[1]), "points")
                    problems.append(Problem(where, f"needs its own points of this round through game(): {shown}; "
                                                   f"use before() for the earlier rounds"))
                return
            elif not state.get(nxt):
                state[nxt] = 1
                trail.append(nxt)
                stack.append((nxt, iter(needs(nxt))))


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
