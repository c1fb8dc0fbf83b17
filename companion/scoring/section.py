"""A file's `scoring:` section checked and compiled (the contract's names: counters, values, rules, rounds,
winner, ties), every problem with its path under `scoring`."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from ..core.schema import Enum, Int, ListOf, MapOf, Path, Problem, Record, Str, TextsField
from .formula import FUNCTIONS, PLAYER_NAMES, Formula, FormulaError, Names, compile_formula, each_field_problem
from .model import CounterSpec, Rule, Scoring

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
