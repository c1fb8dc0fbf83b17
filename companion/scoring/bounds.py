"""What `validate` proves of a file's formulas over the file's own domains, instead of trying a few sample hands.

A formula is read again from its text and computed on *sets* of values rather than values: each number as the range
it may take (interval arithmetic), each text as the words it may be, each list by its length and entries. The
domains are the file's: the player counts it allows, each counter's range, the rounds, and the components a hand may
hold (any of them, up to the copies printed); a card field is known exactly on each component, so what a card's
formula gives is worked out component by component. Where the ranges show that a formula might divide by zero,
pass the bound of a result (±1,000,000,000), meet a text or a list where it needs a number, or give a list as its
points, that place is a *finding*. A condition (`a if count() > 0 else b`) narrows what its branches see.

A finding is not yet an error: `prove` then looks for a legal table that shows it (`witness.py`) and names it, and
where none is found and the formula reads only a few table-wide numbers (the players, the round, its counters) it
tries every one of them: the proof closes. What neither closes is a warning. The work of a whole table is bounded
apart, by running the formulas on the largest table with every branch taken (`cost.py`).

Pure Python, no I/O; only `validate` runs it (the phone never does)."""
from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .formula import AGGREGATES, LIMIT, MAX_LIST, NONE, PLAYER_NAMES, parse

MAX_WORK = 60_000  # parts of formulas looked at by one file's analysis; past it each() takes its choices at once


# --- the abstract values --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Span:
    """The whole numbers from `lo` to `hi`."""

    lo: int
    hi: int

    def has(self, n: int) -> bool:
        return self.lo <= n <= self.hi

    def within_bound(self) -> bool:
        return -LIMIT <= self.lo and self.hi <= LIMIT

    def join(self, other: Span | None) -> Span:
        return self if other is None else Span(min(self.lo, other.lo), max(self.hi, other.hi))

    def plus(self, other: Span) -> Span:
        return Span(self.lo + other.lo, self.hi + other.hi)

    def meet(self, other: Span) -> Span | None:
        lo, hi = max(self.lo, other.lo), min(self.hi, other.hi)
        return Span(lo, hi) if lo <= hi else None

    def __str__(self) -> str:
        return str(self.lo) if self.lo == self.hi else f"{self.lo:,} to {self.hi:,}"


BOOL = Span(0, 1)


@dataclass(frozen=True)
class Val:
    """What a part of a formula may be: numbers in `num` (true/false count as 1/0), the words in `text`, a list (of
    `length` entries, each one of `items`), or none (a field the card does not carry). Nothing at all: a part no
    table reaches (a branch its condition rules out)."""

    num: Span | None = None
    text: frozenset | None = None
    items: Val | None = None
    length: Span | None = None
    none: bool = False

    @property
    def empty(self) -> bool:
        return self.num is None and not self.text and self.items is None and not self.none

    @property
    def only_numbers(self) -> bool:
        return not self.text and self.items is None and not self.none

    def join(self, other: Val) -> Val:
        if self.empty:
            return other
        if other.empty:
            return self
        items = self.items if other.items is None else other.items if self.items is None \
            else self.items.join(other.items)
        length = self.length if other.length is None else other.length.join(self.length)
        text = (self.text or frozenset()) | (other.text or frozenset())
        return Val(other.num.join(self.num) if other.num else self.num, text or None, items, length,
                   self.none or other.none)

    def exact(self) -> Any:
        """The one value this is, or NOTHING (a range, several words, a list, none)."""
        if self.num is not None and self.num.lo == self.num.hi and not self.text and self.items is None \
                and not self.none:
            return self.num.lo
        if self.num is None and self.text and len(self.text) == 1 and self.items is None and not self.none:
            return next(iter(self.text))
        return NOTHING

    def kinds(self) -> str:
        """What else than a number this may be, as the run-time error would say it."""
        parts = [w for w, has in (("a text", self.text), ("a list", self.items is not None),
                                  ("none (a field a card does not carry)", self.none)) if has]
        return " or ".join(parts)


NOTHING = object()
EMPTY = Val()
NONE_ONLY = Val(none=True)


def number(lo: int, hi: int | None = None) -> Val:
    return Val(num=Span(lo, lo if hi is None else hi))


def of_value(v: Any) -> Val:
    """A concrete value (a card's field, a constant) as a Val."""
    if v is NONE:
        return Val(none=True)
    if isinstance(v, bool):
        return number(int(v))
    if isinstance(v, int):
        return number(v)
    if isinstance(v, str):
        return Val(text=frozenset((v,)))
    if isinstance(v, (list, tuple)):
        items = EMPTY
        for x in v:
            items = items.join(of_value(x))
        return Val(items=items, length=Span(len(v), len(v)))
    return Val(text=frozenset((str(v),)))


# --- findings ---------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Finding:
    """A place where a formula may fail on some legal table: its kind and what it may do, in the designer's terms."""

    path: tuple
    kind: str  # divide, bound, type, list, steps
    says: str


@dataclass
class Domain:
    """What a legal table of the file may be: the player counts, the rounds, each counter's range, and each
    component a player may hold (its fields, as a card's formula sees them, and the copies printed)."""

    players: Span
    rounds: Span
    target_game: bool
    counters: Mapping[str, Span]
    components: Sequence[tuple[Mapping, int]]
    choices: Mapping[str, tuple | None]
    dealt: Span = Span(0, 0)  # the cards a player is dealt (setup.hand_size), over every player count and round


@dataclass(frozen=True)
class _Ctx:
    """Where a part is analysed: the each() restrictions in force (field, choice; a tuple of choices when merged),
    the component a card's formula is computed on (None: player context), and what the conditions around it say of
    the numbers some parts may be (`known`: part → its span, the values it is not, and whether it is surely a
    number: a comparison that held cannot have met a field a card does not carry)."""

    where: tuple = ()
    card: Mapping | None = None
    known: Mapping[str, tuple[Span, frozenset, bool]] = field(default_factory=dict)
    merged: bool = False  # inside an each() taken at once: the each() inside take theirs at once too


class Analysis:
    """The findings of every formula of a compiled scoring section over a domain, by the path of each formula."""

    def __init__(self, scoring, domain: Domain):
        self.scoring, self.domain = scoring, domain
        self.findings: dict[tuple, list[Finding]] = {}
        self.reads: dict[tuple, set[str]] = {}  # each formula's table-wide names (and "hand" if it reads cards)
        self.work = 0
        self._values: dict[tuple, Val] = {}
        self._scopes: dict[tuple, list] = {}
        self._value_reads: dict[str, set[str]] = {}
        self._trees: dict[str, ast.expr] = {}
        self._dumps: dict[int, str] = {}
        self._path: tuple = ()
        self._reading: set[str] = set()
        self._reach: dict[str, str] = {}  # a known part → "table" (players, round), "seat" (+ counters) or "hand"

    # -- the formulas of the section

    def run(self) -> Analysis:
        """Every formula over the domain. A game whose formulas read the game so far (before(), game()) is analysed
        round by round, each round's sums of what they read being those of the rounds before it (`_before`)."""
        if not self.scoring.remembered:
            self._before: dict[str, Span] = {}
            self._round()
            return self
        rounds = self.domain.rounds
        self._before = {name: Span(0, 0) for name in self.scoring.remembered}
        for round_ in range(rounds.lo, rounds.hi + 1):
            self._values = {}
            if self.work > MAX_WORK * 20:  # past its own budget: the later rounds at once, their sums anything
                self.domain = replace(self.domain, rounds=Span(round_, rounds.hi))
                self._before = {name: Span(-LIMIT, LIMIT) for name in self._before}
                self._round()
                break
            self.domain = replace(self.domain, rounds=Span(round_, round_))
            self._round()
            self._before = {name: self._before[name].plus(self._current(name)) for name in self._before}
        self.domain = replace(self.domain, rounds=rounds)
        return self

    def _current(self, name: str) -> Span:
        """What a round adds to the game so far of `name`: a rule's points, a counter, a value on the whole hand."""
        rule = next((i for i, r in enumerate(self.scoring.rules) if r.id == name), None)
        if rule is not None:
            return self._rule_span(rule)
        if name in self.domain.counters:
            return self.domain.counters[name]
        got = self._value(name, ())
        return got.num if got.num is not None and got.only_numbers else Span(-LIMIT, LIMIT)

    def _rule_span(self, i: int) -> Span:
        """A rule's points for one player this round (over its each: choices), analysed once a round."""
        if i in self._rule_spans:
            return self._rule_spans[i]
        rule = self.scoring.rules[i]
        path, reading = self._path, self._reading
        self._rule_spans[i] = Span(0, 0)  # (no cycles: compile_section refused them)
        where = (None,) if rule.each is None else self._choices(rule.each, ())
        parts = [self._top(("scoring", "rules", i, "points"), rule.points.text,
                           () if rule.each is None else ((rule.each, choice),)) for choice in where]
        self._path, self._reading = path, reading
        spans = [p.num for p in parts if p.num is not None]
        got = Span(sum(p.lo for p in spans), sum(p.hi for p in spans))
        if rule.each is not None and not got.within_bound():
            self._find(("scoring", "rules", i, "points"), "bound", f"the rule's points over each {rule.each} may "
                                                                   f"total {got}, past ±1,000,000,000")
        if rule.last_only:  # 0 in the rounds that are not the game's last
            last = self._last()
            got = Span(0, 0) if last.hi == 0 else got if last.lo == 1 else got.join(Span(0, 0))
        self._rule_spans[i] = got
        return got

    def _last(self) -> Span:
        """What `last` may be in the rounds of the domain: true in a target game's every round, else in the last
        round of the game (which a `rounds:` formula makes depend on the players)."""
        d, s = self.domain, self.scoring
        if d.target_game:
            return Span(1, 1)
        fewest = s.rounds if s.rounds_formula is None else 1
        if d.rounds.hi < fewest:
            return Span(0, 0)
        return Span(1, 1) if d.rounds.lo >= s.rounds else BOOL

    def _round(self) -> None:
        """Every formula of the section on one round of the domain (or every round at once)."""
        s = self.scoring
        self._rule_spans: dict[int, Span] = {}
        for name, formula in s.values.items():
            self._top(("scoring", "values", name), formula.text, whole=False)
        lo = hi = 0  # a player's points for a round: the sum of the rules
        for i in range(len(s.rules)):
            got = self._rule_span(i)
            lo, hi = lo + got.lo, hi + got.hi
        if not Span(lo, hi).within_bound():
            self._find(("scoring", "rules"), "bound", f"a player's points for a round (the sum of the rules) may be "
                                                      f"{Span(lo, hi)}, past ±1,000,000,000")
        if s.target is not None:
            self._top(("scoring", "rounds", "target"), s.target.text)
        for i, tie in enumerate(s.ties):
            self._top(("scoring", "ties", i), tie.text)
        for i, check in enumerate(s.checks):
            self._top(("scoring", "checks", i, "test"), check.test.text, whole=False)

    def _top(self, path: tuple, text: str, where: tuple = (), whole: bool = True) -> Val:
        self._path = path
        self._reading = self.reads.setdefault(path, set())
        got = self._node(self._tree(text), _Ctx(where=where))
        if whole and not got.empty:
            if got.items is not None:
                self._find(path, "list", "may give a list where points are a whole number: total it, or take its "
                                         "length")
            elif got.text:
                self._find(path, "type", f"may give the text {sorted(got.text)[0]!r} where points are a whole "
                                         f"number")
        return got

    def _tree(self, text: str) -> ast.expr:
        if text not in self._trees:
            self._trees[text] = parse(text)
        return self._trees[text]

    def _find(self, path: tuple, kind: str, says: str) -> None:
        found = self.findings.setdefault(path, [])
        if all(f.says != says for f in found):
            found.append(Finding(path, kind, says))

    def _dump(self, n: ast.AST) -> str:
        key = id(n)
        if key not in self._dumps:
            self._dumps[key] = ast.dump(n)
        return self._dumps[key]

    # -- the parts

    def _node(self, n: ast.AST, ctx: _Ctx) -> Val:
        self.work += 1
        got = getattr(self, "_" + type(n).__name__)(n, ctx)
        known = ctx.known.get(self._dump(n)) if ctx.known else None
        if known is not None and got.num is not None and (got.only_numbers or (
                known[2] and not got.text and got.items is None)):
            span, excluded, _ = known
            narrowed = got.num.meet(span)
            while narrowed is not None and narrowed.lo in excluded:
                narrowed = Span(narrowed.lo + 1, narrowed.hi) if narrowed.lo < narrowed.hi else None
            while narrowed is not None and narrowed.hi in excluded:
                narrowed = Span(narrowed.lo, narrowed.hi - 1) if narrowed.lo < narrowed.hi else None
            got = EMPTY if narrowed is None else replace(got, num=narrowed)
        return got

    def _Constant(self, n: ast.Constant, ctx: _Ctx) -> Val:
        return of_value(n.value)

    def _Name(self, n: ast.Name, ctx: _Ctx) -> Val:
        name, d = n.id, self.domain
        if name == "players":
            self._reading.add("players")
            return Val(num=d.players)
        if name == "round":
            self._reading.add("round")
            return Val(num=d.rounds)
        if name == "last":
            self._reading.add("round")
            return Val(num=self._last())
        if name == "dealt":
            self._reading.add("players")
            self._reading.add("round")
            return Val(num=d.dealt)
        if name in d.counters:
            self._reading.add(name)
            return Val(num=d.counters[name])
        if name in self.scoring.values:
            return self._value(name, ctx.where)
        # a card field, in a card's formula
        return of_value(ctx.card.get(name, NONE)) if ctx.card is not None else EMPTY

    def _value(self, name: str, where: tuple) -> Val:
        key = (name, where)
        if key not in self._values:
            self._values[key] = EMPTY  # (no cycles: compile_section refused them)
            path, reading = self._path, self._reading
            self._path, self._reading = ("scoring", "values", name), self._value_reads.setdefault(name, set())
            self._values[key] = self._node(self._tree(self.scoring.values[name].text), _Ctx(where=where))
            self._path, self._reading = path, reading
        self._reading |= self._value_reads.get(name, set())
        return self._values[key]

    def _List(self, n: ast.List, ctx: _Ctx) -> Val:
        items = EMPTY
        for e in n.elts:
            items = items.join(self._node(e, ctx))
        return Val(items=items, length=Span(len(n.elts), len(n.elts)))

    def _number_of(self, v: Val, op: str) -> Span | None:
        """The numbers `v` may be, a finding if it may be something else."""
        if v.empty:
            return None
        if not v.only_numbers:
            self._find(self._path, "type", f"'{op}' may meet {v.kinds()} where it needs a number")
        return v.num

    def _bounded(self, s: Span | None, what: str) -> Val:
        if s is None:
            return EMPTY
        if not s.within_bound():
            self._find(self._path, "bound", f"{what} may be {s}, past ±1,000,000,000")
            s = Span(max(s.lo, -LIMIT), min(s.hi, LIMIT))
        return Val(num=s)

    def _UnaryOp(self, n: ast.UnaryOp, ctx: _Ctx) -> Val:
        v = self._node(n.operand, ctx)
        if isinstance(n.op, ast.Not):
            truth = self._truth(v)
            return EMPTY if truth is None else Val(num=Span(0 if truth[1] else 1, 1 if truth[0] else 0))
        s = self._number_of(v, "-" if isinstance(n.op, ast.USub) else "+")
        if s is None:
            return EMPTY
        return Val(num=Span(-s.hi, -s.lo) if isinstance(n.op, ast.USub) else s)

    def _BinOp(self, n: ast.BinOp, ctx: _Ctx) -> Val:
        symbol = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}[type(n.op)]
        a = self._number_of(self._node(n.left, ctx), symbol)
        b = self._number_of(self._node(n.right, ctx), symbol)
        if a is None or b is None:
            return EMPTY
        if symbol == "+":
            return self._bounded(Span(a.lo + b.lo, a.hi + b.hi), f"'{_shown(n)}'")
        if symbol == "-":
            return self._bounded(Span(a.lo - b.hi, a.hi - b.lo), f"'{_shown(n)}'")
        if symbol == "*":
            corners = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
            return self._bounded(Span(min(corners), max(corners)), f"'{_shown(n)}'")
        if b.has(0):
            self._find(self._path, "divide", f"'{_shown(n)}' may divide by zero ({_shown(n.right)} may be 0)")
        parts = [p for p in (b.meet(Span(b.lo, -1)), b.meet(Span(1, b.hi))) if p is not None]
        out: Span | None = None
        for d in parts:
            if symbol == "//":
                corners = [x // y for x in (a.lo, a.hi) for y in (d.lo, d.hi)]
                part = Span(min(corners), max(corners))
            elif d.lo > 0:  # a % d takes d's sign and is smaller than it; a already below d is itself
                part = a if a.lo >= 0 and a.hi < d.lo else Span(0, d.hi - 1)
            else:
                part = Span(d.lo + 1, 0)
            out = part.join(out)
        return EMPTY if out is None else Val(num=out)

    def _truth(self, v: Val) -> tuple[bool, bool] | None:
        """Whether `v` may be false and may be true as a condition (a finding if it may be a list)."""
        if v.empty:
            return None
        if v.items is not None:
            self._find(self._path, "list", "a list may stand as a condition: compare its length or total")
        falsy = v.none or (v.num is not None and v.num.has(0)) or bool(v.text and "" in v.text)
        truthy = (v.num is not None and (v.num.lo != 0 or v.num.hi != 0)) or bool(v.text and v.text - {""})
        return falsy, truthy

    def _BoolOp(self, n: ast.BoolOp, ctx: _Ctx) -> Val:
        """`and` computes a part only once those before it are true (`or`: false): each part knows it."""
        conj = isinstance(n.op, ast.And)
        both, inner = [], ctx
        for v in n.values:
            truth = self._truth(self._node(v, inner))
            if truth is None:
                break
            both.append(truth)
            if not (truth[1] if conj else truth[0]):
                break  # the parts after it are never computed
            inner = self._knowing(inner, v, conj)
        if not both:
            return EMPTY
        if conj:
            may_true, may_false = len(both) == len(n.values) and all(t[1] for t in both), any(t[0] for t in both)
        else:
            may_true, may_false = any(t[1] for t in both), len(both) == len(n.values) and all(t[0] for t in both)
        if not (may_true or may_false):
            return EMPTY
        return Val(num=Span(0 if may_false else 1, 1 if may_true else 0))

    def _Compare(self, n: ast.Compare, ctx: _Ctx) -> Val:
        sides = [self._node(v, ctx) for v in (n.left, *n.comparators)]
        if any(s.empty for s in sides):
            return EMPTY
        may_false = False
        exact = True
        for op, a, b in zip(n.ops, sides, sides[1:], strict=False):
            symbol = _COMPARE[type(op)]
            self._compare_kinds(symbol, a, b)
            if a == NONE_ONLY or b == NONE_ONLY:  # a field the card does not carry: unequal to everything
                if symbol != "!=":
                    return number(0)
                continue
            x, y = a.exact(), b.exact()
            if x is not NOTHING and y is not NOTHING:
                if not _concrete_compare(symbol, x, y):
                    return number(0)
                continue
            exact = False
            if a.only_numbers and b.only_numbers and a.num is not None and b.num is not None:
                t, f = _interval_compare(symbol, a.num, b.num)
                if not t:
                    return number(0)
                may_false = may_false or f
            else:
                may_false = True
        if exact:
            return number(1)
        return Val(num=Span(0 if may_false else 1, 1))

    def _compare_kinds(self, symbol: str, a: Val, b: Val) -> None:
        """A number against a text or a list (or a list ordered) fails at run time: a finding when it may happen."""
        for x, y in ((a, b), (b, a)):
            if x.num is not None and (y.text or (y.items is not None)):
                self._find(self._path, "type", f"'{symbol}' may compare a number with {y.kinds()}")
                return
            if x.text and y.items is not None:
                self._find(self._path, "type", f"'{symbol}' may compare a text with a list")
                return
        if a.items is not None and b.items is not None and symbol not in ("==", "!="):
            self._find(self._path, "type", f"'{symbol}' may order two lists: compare their lengths or totals")

    def _IfExp(self, n: ast.IfExp, ctx: _Ctx) -> Val:
        truth = self._truth(self._node(n.test, ctx))
        if truth is None:
            return EMPTY
        falsy, truthy = truth
        got = EMPTY
        if truthy:
            got = got.join(self._node(n.body, self._knowing(ctx, n.test, True)))
        if falsy:
            got = got.join(self._node(n.orelse, self._knowing(ctx, n.test, False)))
        return got

    def _knowing(self, ctx: _Ctx, test: ast.AST, holds: bool) -> _Ctx:
        """`ctx` with what `test` being true (or false) says of the numbers it names. A span that comes out empty
        (Span(1, 0)) marks a branch no table takes: its parts are nothing."""
        known = dict(ctx.known)
        for part, span, excluded, sure in _narrowing(test, holds):
            key = self._dump(part)
            self._reach.setdefault(key, _reach(part, self.scoring.values, self.domain.counters))
            before, was, surely = known.get(key, (Span(-10 ** 30, 10 ** 30), frozenset(), False))
            met = before.meet(span)
            known[key] = (met if met is not None else Span(1, 0), was | excluded, surely or sure)
        return replace(ctx, known=known)

    def _within(self, ctx: _Ctx, reach: tuple[str, ...]) -> dict:
        """What stays known where the hand in force (each) or the seat (most, fewest) changes: only what is said of
        parts that do not depend on it."""
        return {k: v for k, v in ctx.known.items() if self._reach.get(k) in reach}

    def _Call(self, n: ast.Call, ctx: _Ctx) -> Val:
        name = n.func.id
        if name in ("before", "game"):
            self._reading.add("hand")  # (the game so far: any earlier hands)
            key = n.args[0].id
            earlier = self._before.get(key, Span(0, 0))
            if name == "before" and self._path[1:2] != ("ties",):
                return Val(num=earlier)
            return Val(num=earlier.plus(self._current(key)))  # (ties: the whole game; game(): this round too)
        if name in ("table_sum", "table_max", "table_min"):
            self._reading.add("table")
            every_seat = replace(ctx, known=self._within(ctx, ("table",)))
            each = self._number_of(self._node(n.args[0], every_seat), name)
            if each is None:
                return EMPTY
            if name != "table_sum":
                return Val(num=each)
            p = self.domain.players
            ends = [each.lo * k for k in (p.lo, p.hi)] + [each.hi * k for k in (p.lo, p.hi)]
            return self._bounded(Span(min(ends), max(ends)), "table_sum()")
        if name in AGGREGATES:
            self._reading.add("hand")
            return self._aggregate(name, n.args, ctx)
        if name == "each":
            return self._each(n.args[0].id, n.args[1], ctx)
        if name in ("most", "fewest"):
            self._reading.add("table")
            every_seat = replace(ctx, known=self._within(ctx, ("table",)))  # (computed for each player)
            self._number_of(self._node(n.args[0], every_seat), name)
            points = self._list_of(self._node(n.args[1], ctx), name)
            if points is None or points.num is None:
                return EMPTY
            return Val(num=Span(min(0, points.num.lo), max(0, points.num.hi)))
        args = [self._node(a, ctx) for a in n.args]
        if any(a.empty for a in args):
            return EMPTY
        return getattr(self, "_call_" + name)(*args)

    def _list_of(self, v: Val, name: str) -> Val | None:
        """A list's entries (each must be a number), with findings if it may be something else."""
        if v.empty:
            return None
        if v.num is not None or v.text or v.none:
            self._find(self._path, "type", f"{name}() needs a list, and may get {_kinds_but_list(v)}")
        if v.items is None:
            return None
        if not v.items.empty and not v.items.only_numbers:
            self._find(self._path, "type", f"{name}() needs a list of numbers, and an entry may be "
                                           f"{v.items.kinds()}")
        return v.items

    def _call_table(self, n: Val, t: Val) -> Val:
        self._number_of(n, "table")
        items = self._list_of(t, "table")
        if t.length is not None and t.length.lo == 0:
            self._find(self._path, "type", "table() may get an empty list: give it at least one entry")
        return EMPTY if items is None else items

    def _call_total(self, v: Val) -> Val:
        items = self._list_of(v, "total")
        if items is None or items.num is None:
            return number(0)
        ends = [items.num.lo * k for k in (v.length.lo, v.length.hi)] + [items.num.hi * k for k in
                                                                           (v.length.lo, v.length.hi)]
        return self._bounded(Span(min(ends), max(ends)), "total()")

    def _call_length(self, v: Val) -> Val:
        self._list_of(v, "length")
        return Val(num=v.length or Span(0, 0))

    def _ends(self, k: Val, v: Val, name: str) -> Val:
        ks = self._number_of(k, name)
        items = self._list_of(v, name)
        if items is None or ks is None:
            return Val(items=EMPTY, length=Span(0, 0))
        length = Span(min(v.length.lo, max(ks.lo, 0)), min(v.length.hi, max(ks.hi, 0)))
        return Val(items=items, length=length)

    def _call_top(self, k: Val, v: Val) -> Val:
        return self._ends(k, v, "top")

    def _call_bottom(self, k: Val, v: Val) -> Val:
        return self._ends(k, v, "bottom")

    def _extreme(self, v: Val, name: str) -> Val:
        items = self._list_of(v, name)
        if items is None or items.num is None:
            return number(0)
        return Val(num=items.num.join(Span(0, 0)) if v.length.lo == 0 else items.num)

    def _call_highest(self, v: Val) -> Val:
        return self._extreme(v, "highest")

    def _call_lowest(self, v: Val) -> Val:
        return self._extreme(v, "lowest")

    # -- the hand

    def _in_scope(self, where: tuple) -> list[tuple[Mapping, int]]:
        """The components a hand restricted by `where` may hold."""
        found = self._scopes.get(where)
        if found is None:
            found = self._scopes[where] = [
                (card, copies) for card, copies in self.domain.components
                if all((card.get(f, NONE) in c) if isinstance(c, tuple) else card.get(f, NONE) == c for f, c in where)]
        return found

    def _choices(self, name: str, where: tuple) -> list:
        declared = self.domain.choices.get(name)
        if declared is not None:
            return list(declared)
        seen = {card.get(name, NONE) for card, _ in self._in_scope(where)}
        seen.discard(NONE)
        return sorted(seen, key=lambda v: (isinstance(v, str), v if not isinstance(v, list) else str(v)))

    def _each(self, name: str, formula: ast.AST, ctx: _Ctx) -> Val:
        self._reading.add("hand")
        choices = self._choices(name, ctx.where)
        declared = self.domain.choices.get(name) is not None
        if len(choices) > MAX_LIST:
            self._find(self._path, "bound", f"each({name}, …) may make a list of {len(choices):,} entries; a list "
                                            f"holds at most {MAX_LIST:,}")
        items = EMPTY
        length = Span(len(choices), len(choices)) if declared else Span(0, len(choices))
        inner = replace(ctx, card=None, known=self._within(ctx, ("table", "seat")))  # (another hand in force)
        if ctx.merged and choices:
            return Val(items=self._node(formula, replace(inner, where=(*ctx.where, (name, tuple(choices))))),
                       length=length)
        for i, choice in enumerate(choices):
            start = self.work
            items = items.join(self._node(formula, replace(inner, where=(*ctx.where, (name, choice)))))
            rest = choices[i + 1:]
            if rest and self.work + (self.work - start) * len(rest) > MAX_WORK:
                # past the analysis' own budget: the other choices at once (a hand of any of them: wider, so sound)
                at_once = replace(inner, where=(*ctx.where, (name, tuple(rest))), merged=True)
                items = items.join(self._node(formula, at_once))
                break
        return Val(items=items, length=length)

    def _aggregate(self, name: str, args: Sequence[ast.AST], ctx: _Ctx) -> Val:
        expr = args[0] if name != "count" and args else None
        where = args[-1] if len(args) > (0 if name == "count" else 1) else None
        taken: list[tuple[Val | None, int]] = []  # (the card's expr, copies) for each card the condition may take
        for card, copies in self._in_scope(ctx.where):
            self.work += 1
            inner = replace(ctx, card=card)
            if where is not None:
                truth = self._truth(self._node(where, inner))
                if truth is None or not truth[1]:
                    continue
            taken.append((self._node(expr, inner) if expr is not None else None, copies))
        if name == "count":
            return self._bounded(Span(0, sum(c for _, c in taken)), "count()")
        if name == "sum":
            lo = hi = 0
            for v, copies in taken:
                s = self._number_of(replace(v, none=False), "sum")
                if s is not None:
                    lo, hi = lo + min(0, s.lo * copies), hi + max(0, s.hi * copies)
            return self._bounded(Span(lo, hi), "sum()")
        if name == "distinct":
            return Val(num=Span(0, len(taken)))
        spans = [s for v, _ in taken if (s := self._number_of(replace(v, none=False), name)) is not None]
        if name in ("max", "min"):
            out = Span(0, 0)
            for s in spans:
                out = out.join(s)
            return Val(num=out)
        if name == "run_lengths":
            return Val(items=number(1, max(len(spans), 1)), length=Span(0, len(spans)))
        lows: Val = EMPTY
        for s in spans:
            lows = lows.join(Val(num=s))
        return Val(items=lows, length=Span(0, len(spans)))


_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def _shown(n: ast.AST) -> str:
    return ast.unparse(n)


def _kinds_but_list(v: Val) -> str:
    return " or ".join(w for w, has in (("a number", v.num is not None), ("a text", v.text), ("none", v.none)) if has)


def _concrete_compare(symbol: str, x: Any, y: Any) -> bool:
    if isinstance(x, str) != isinstance(y, str):
        return symbol == "!="  # (a finding already: it fails at run time)
    return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[symbol]


def _interval_compare(symbol: str, a: Span, b: Span) -> tuple[bool, bool]:
    """Whether `a symbol b` may be true, and may be false, for some a and b in their spans."""
    if symbol == "<":
        return a.lo < b.hi, a.hi >= b.lo
    if symbol == "<=":
        return a.lo <= b.hi, a.hi > b.lo
    if symbol == ">":
        return a.hi > b.lo, a.lo <= b.hi
    if symbol == ">=":
        return a.hi >= b.lo, a.lo < b.hi
    overlap = a.meet(b) is not None
    single = a.lo == a.hi == b.lo == b.hi
    if symbol == "==":
        return overlap, not single
    return not single, overlap


def _reach(part: ast.AST, values: Mapping, counters: Mapping) -> str:
    """What a part's value depends on: "table" (only players, round, last), "seat" (its player's counters too) or
    "hand" (a card, a value, anything computed from hands)."""
    reach = "table"
    for n in ast.walk(part):
        if isinstance(n, ast.Call) or (isinstance(n, ast.Name) and n.id in values):
            return "hand"
        if isinstance(n, ast.Name) and n.id in counters:
            reach = "seat"
        elif isinstance(n, ast.Name) and n.id not in PLAYER_NAMES:
            return "hand"  # (a card's field)
    return reach


def _narrowing(test: ast.AST, holds: bool) -> Iterable[tuple[ast.AST, Span, frozenset, bool]]:
    """What `test` being `holds` says of the parts it names: (part, the numbers it may then be, those it is not,
    whether it is surely a number). Only the plain shapes: a part compared with a whole number, a part alone (true:
    not 0), `not`, `and` (true), `or` (false). A comparison with a field a card does not carry is false (`!=`:
    true), so one that came out otherwise compared a number."""
    big = 10 ** 30
    anything = Span(-big, big)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        yield from _narrowing(test.operand, not holds)
        return
    if isinstance(test, ast.BoolOp):
        if isinstance(test.op, ast.And) == holds:  # `a and b` true, `a or b` false: each part says its own
            for part in test.values:
                yield from _narrowing(part, holds)
        return
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right, symbol = test.left, test.comparators[0], _COMPARE.get(type(test.ops[0]))
        if symbol is None:
            return
        sure = holds != (symbol == "!=")
        if not holds:
            symbol = _NEGATE[symbol]
        for part, other, op in ((left, right, symbol), (right, left, _FLIP[symbol])):
            c = _whole_constant(other)
            if c is None or _whole_constant(part) is not None:
                continue
            if op == "!=":
                yield part, anything, frozenset((c,)), sure
                continue
            yield part, {"<": Span(-big, c - 1), "<=": Span(-big, c), ">": Span(c + 1, big), ">=": Span(c, big),
                         "==": Span(c, c)}[op], frozenset(), sure
        return
    if isinstance(test, (ast.Name, ast.Call, ast.BinOp)):
        yield (test, anything, frozenset((0,)), True) if holds else (test, Span(0, 0), frozenset(), False)


def _whole_constant(n: ast.AST) -> int | None:
    if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool):
        return n.value
    if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
        inner = _whole_constant(n.operand)
        return None if inner is None else -inner
    return None


def analyse(scoring, domain: Domain) -> Analysis:
    """Every formula of `scoring` analysed over `domain`: `findings` by path, and what each formula reads."""
    return Analysis(scoring, domain).run()


def table_wide(reads: set[str]) -> bool:
    """Whether a formula that reads `reads` depends on nothing but table-wide numbers (no hand, no other player)."""
    return not reads & {"hand", "table"}


__all__ = ["Analysis", "Domain", "Finding", "Span", "Val", "analyse", "table_wide", "PLAYER_NAMES"]
