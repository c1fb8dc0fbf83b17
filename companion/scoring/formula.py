"""The formula language of a designer's `scoring:` (docs/card-data.md, "Scoring from data"): one expression,
parsed with the standard library's `ast` and checked against a whitelist once, at load, into a tree of small Python
functions.

Nothing outside the grammar is reachable: a node kind, name or call the contract does not list is refused at
compile time, so an evaluated formula can only do arithmetic on whole numbers, compare, and call the functions
below on the hands at the table. Pure Python, so the static site's phone (Pyodide) runs this very module."""
from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ..core.schema import closest

MAX_CHARS = 1_000
MAX_NODES = 200
MAX_DEPTH = 40
LIMIT = 1_000_000_000  # a result beyond ± this is an error
MAX_LIST = 1_000  # entries in a list a formula makes
MAX_STEPS = 200_000  # cards looked at and choices gone through in one table's scoring: nested each() multiplies


class FormulaError(Exception):
    """A formula that cannot be compiled or computed; its message names what is wrong, in the designer's terms, and
    `place` the formula it comes from when a table was being scored (`scoring.rules[2].points (pudding)`)."""

    place: str | None = None


class _None:
    """A field the card does not carry: unequal to everything, false as a condition, skipped by aggregates."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "none"

    def __bool__(self) -> bool:
        return False


NONE = _None()



@dataclass(frozen=True)
class Function:
    """One function of the language: its arguments (an optional one in [brackets]), what it goes over (`kind`) and
    what it means. The one list of them (FUNCTION_TABLE) feeds the compiler, its messages and the docs' test."""

    name: str
    args: tuple[str, ...]
    kind: str  # hand: its arguments per card held; choice: each; seats: every player at the table; list; game
    meaning: str

    @property
    def fewest(self) -> int:
        return sum(1 for a in self.args if not a.startswith("["))


FUNCTION_TABLE = (
    Function("count", ("[where]",), "hand", "copies held (where true)"),
    Function("sum", ("expr", "[where]"), "hand", "sum of expr over the copies held (where true)"),
    Function("max", ("expr", "[where]"), "hand", "highest expr among the cards held; 0 when none counts"),
    Function("min", ("expr", "[where]"), "hand", "lowest expr among the cards held; 0 when none counts"),
    Function("distinct", ("expr", "[where]"), "hand", "how many different values expr takes among the cards held"),
    Function("run_lengths", ("expr", "[where]"), "hand", "the lengths of the runs of consecutive numbers"),
    Function("run_lows", ("expr", "[where]"), "hand", "the lowest number of each run"),
    Function("each", ("field", "formula"), "choice", "formula for each choice of field, on that choice's cards"),
    Function("table", ("n", "[t0, t1, ...]"), "list", "t[n]; the last entry past the end; t0 below 0"),
    Function("total", ("list",), "list", "sum of the entries"),
    Function("length", ("list",), "list", "number of entries"),
    Function("top", ("k", "list"), "list", "the k largest entries, as a list"),
    Function("bottom", ("k", "list"), "list", "the k smallest entries, as a list"),
    Function("highest", ("list",), "list", "largest entry; 0 for an empty list"),
    Function("lowest", ("list",), "list", "smallest entry; 0 for an empty list"),
    Function("most", ("expr", "[points by place]"), "seats", "points by place, ranking each player's expr from "
                                                             "highest; tied players split the place's points"),
    Function("fewest", ("expr", "[points by place]"), "seats", "the same, ranking from lowest"),
    Function("table_sum", ("expr",), "seats", "expr summed over the players at the table"),
    Function("table_max", ("expr",), "seats", "the highest expr among the players at the table"),
    Function("table_min", ("expr",), "seats", "the lowest expr among the players at the table"),
    Function("before", ("name",), "game", "the sum of a rule's points, a counter or a value over this player's "
                                          "earlier rounds; 0 in the first"),
    Function("game", ("name",), "game", "the same over every round so far, this one included"),
)
BY_NAME = {f.name: f for f in FUNCTION_TABLE}
# name → (fewest arguments, most arguments) of the functions whose arguments are computed on each card held
AGGREGATES = {f.name: (f.fewest, len(f.args)) for f in FUNCTION_TABLE if f.kind == "hand"}
PLAIN = {f.name: len(f.args) for f in FUNCTION_TABLE if f.kind == "list"}
TABLE_WIDE = {f.name: len(f.args) for f in FUNCTION_TABLE if f.kind in ("choice", "seats", "game")}
FUNCTIONS = tuple(BY_NAME)
PLAYER_NAMES = ("players", "round", "last", "dealt")  # what every formula sees besides counters and values
TABLE_NAMES = ("players", "round", "dealt")  # what a check of the whole table sees outside table_*()

_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_REFUSED = {  # node kinds a designer may reach for, said plainly
    ast.Attribute: "attribute access ('.') is not part of the language",
    ast.Subscript: "subscripts ('[...]' after a value) are not part of the language",
    ast.Lambda: "lambda is not part of the language",
    ast.ListComp: "comprehensions are not part of the language: use count/sum with a condition",
    ast.SetComp: "comprehensions are not part of the language: use count/sum with a condition",
    ast.DictComp: "comprehensions are not part of the language: use count/sum with a condition",
    ast.GeneratorExp: "comprehensions are not part of the language: use count/sum with a condition",
    ast.Dict: "mappings ('{...}') are not part of the language",
    ast.Set: "sets ('{...}') are not part of the language",
    ast.Tuple: "tuples are not part of the language: write a list as [a, b]",
    ast.NamedExpr: "':=' is not part of the language",
    ast.JoinedStr: "f-strings are not part of the language",
    ast.Starred: "'*' before a value is not part of the language",
    ast.Await: "await is not part of the language",
}


# While validate measures what a table's scoring costs (scoring/cost.py), formulas are computed on every branch and a
# computation that would fail gives a neutral value instead: the steps spent are then what any table could spend.
_LENIENT: ContextVar[bool] = ContextVar("companion_formula_lenient", default=False)


@contextmanager
def lenient() -> Iterator[None]:
    """Inside the block, what would be a FormulaError at run time gives a neutral value (0, false, an empty list)."""
    token = _LENIENT.set(True)
    try:
        yield
    finally:
        _LENIENT.reset(token)


def fail(message: str, neutral: Any = 0) -> Any:
    if _LENIENT.get():
        return neutral
    raise FormulaError(message)


def check_number(n: int) -> int:
    """`n` if within the bound of a result; FormulaError otherwise."""
    if n > LIMIT or n < -LIMIT:
        return fail(f"a result of {'more' if n > 0 else 'less'} than {'' if n > 0 else '-'}1,000,000,000 is out "
                     f"of range", max(-LIMIT, min(LIMIT, n)))
    return n


@dataclass
class Names:
    """What a formula may name: the card fields (with what `each` needs of each), the player context's names, and
    which of them are list fields."""

    fields: Mapping[str, tuple[str, ...] | None]  # card field → its choices in order (None: values as held)
    list_fields: frozenset[str] = frozenset()
    unusable: Mapping[str, str] = field(default_factory=dict)  # card field → why no formula reads it
    player: frozenset[str] = frozenset()  # counters, values and PLAYER_NAMES
    rules: frozenset[str] = frozenset()  # rule ids, which before() and game() may name


@dataclass
class Formula:
    """A compiled formula: `run(env)` computes it; `values` are the named values it uses (for cycles)."""

    text: str
    run: Callable[[Any], Any]
    values: frozenset[str]
    names: Names | None = field(default=None, repr=False, compare=False)  # what it was compiled with
    card: bool = False
    table: bool = False  # a check of the whole table (see compile_formula)
    history: frozenset[tuple[str, str]] = frozenset()  # ("before" or "game", name) it reads of the game so far

    def __reduce__(self):
        """Pickled as its text and names, compiled again when read (closures are not picklable): a static site's
        phones get the card sets pickled (web/site/python.py), a designer's scoring included."""
        return _recompiled, (self.text, self.names, self.card, self.table)


def _recompiled(text: str, names: Names, card: bool, table: bool = False) -> Formula:
    return compile_formula(text, names, card, table=table)


def _did_you_mean(name: str, known) -> str:
    close = closest(name, sorted(known))
    return f"; did you mean {close!r}?" if close else ""


def _depth(node: ast.AST, limit: int) -> int:
    """How deeply `node` nests (iteratively, so a crafted formula cannot exhaust the stack)."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        n, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        stack.extend((child, d + 1) for child in ast.iter_child_nodes(n))
    return deepest


def parse(text: Any) -> ast.expr:
    """The formula's syntax tree, within the contract's size; FormulaError naming the problem otherwise."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise FormulaError("must be a formula (text such as \"count() * 2\") or a whole number")
    text = str(text)
    if len(text) > MAX_CHARS:
        raise FormulaError(f"is {len(text):,} characters long; a formula has at most {MAX_CHARS:,}")
    if not text.strip():
        raise FormulaError("is empty: write a formula, e.g. \"count()\"")
    if text.count("(") + text.count("[") > MAX_DEPTH * 4:
        raise FormulaError(f"nests too deeply (more than {MAX_DEPTH} levels)")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise FormulaError(f"cannot be read as a formula at column {e.offset or 1}: {e.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise FormulaError(f"nests too deeply (more than {MAX_DEPTH} levels)") from None
    nodes = sum(1 for _ in ast.walk(tree))
    if nodes > MAX_NODES:
        raise FormulaError(f"has {nodes} parts; a formula has at most {MAX_NODES}: split it into named values")
    if _depth(tree, MAX_DEPTH) > MAX_DEPTH:
        raise FormulaError(f"nests too deeply (more than {MAX_DEPTH} levels)")
    return tree.body


def compile_formula(text: Any, names: Names, card: bool = False, explore: bool = False,
                    table: bool = False) -> Formula:
    """`text` checked and compiled for the player context (or a card context, for the tests); FormulaError.
    `table`: a check of the whole table, which sees only `players`, `round`, `dealt` and what table_sum(),
    table_max() and table_min() compute of the players (their arguments are player context). `explore`: every
    branch computed (both sides of `if`, every part of `and`/`or`, an aggregate's expression on every card), for
    validate's measure of a table's work (scoring/proof.py), never for scoring."""
    tree = parse(text)
    compiler = _Compiler(names, explore, table)
    run = compiler.node(tree, card)
    return Formula(str(text), run, frozenset(compiler.values_used), names, card, table,
                   frozenset(compiler.history))


# --- compiling ---------------------------------------------------------------------------------------------------

class _Compiler:
    """Turns a checked syntax tree into nested closures of one argument, the evaluation's environment."""

    def __init__(self, names: Names, explore: bool = False, table: bool = False):
        self.names, self.explore, self.table_level = names, explore, table
        self.values_used: set[str] = set()
        self.history: set[tuple[str, str]] = set()

    def node(self, n: ast.AST, card: bool) -> Callable[[Any], Any]:
        kind = type(n)
        if kind in _REFUSED:
            raise FormulaError(_REFUSED[kind])
        method = getattr(self, "_" + kind.__name__, None)
        if method is None:
            raise FormulaError(f"{_shown(n)} is not part of the language")
        return method(n, card)

    def _Constant(self, n: ast.Constant, card: bool):
        value = n.value
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise FormulaError(f"{value!r}: only whole numbers and 'text' are values in a formula")
        if isinstance(value, int):
            check_number(value)
        return lambda env: value

    def _Name(self, n: ast.Name, card: bool):
        name, names = n.id, self.names
        if self.table_level and name not in TABLE_NAMES and (name in names.player or name in names.fields):
            raise FormulaError(f"{name!r} is a player's: a check of the whole table sees players, round and dealt; "
                               f"use it inside table_sum/table_max/table_min, e.g. table_sum({name})")
        if name in names.player:
            if name in PLAYER_NAMES:
                return _player_name(name)
            self.values_used.add(name)
            return lambda env: env.named(name)
        if name in names.fields or name in names.unusable:
            if name in names.unusable:
                raise FormulaError(f"{name!r} {names.unusable[name]}")
            if not card:
                raise FormulaError(f"{name!r} is a card field: use it inside count/sum/max/min/distinct/run_lengths/"
                                   f"run_lows, e.g. sum({name})")
            return lambda env: env.card.get(name, NONE)
        if name in FUNCTIONS:
            raise FormulaError(f"{name!r} is a function: call it, e.g. {name}(...)")
        if name in ("True", "False", "None", "true", "false", "none"):
            raise FormulaError(f"{name!r}: only whole numbers and 'text' are values; compare instead (count() > 0)")
        known = {*names.player, *names.fields, *FUNCTIONS}
        raise FormulaError(f"unknown name {name!r}{_did_you_mean(name, known)}")

    def _List(self, n: ast.List, card: bool):
        items = [self.node(e, card) for e in n.elts]
        return lambda env: [f(env) for f in items]

    def _UnaryOp(self, n: ast.UnaryOp, card: bool):
        operand = self.node(n.operand, card)
        if isinstance(n.op, ast.Not):
            return lambda env: not _truth(operand(env))
        if isinstance(n.op, ast.USub):
            return lambda env: check_number(-_number(operand(env), "-"))
        if isinstance(n.op, ast.UAdd):
            return lambda env: _number(operand(env), "+")
        raise FormulaError("'~' is not part of the language")

    def _BinOp(self, n: ast.BinOp, card: bool):
        op = type(n.op)
        if op is ast.Div:
            raise FormulaError("'/' divides into fractions: use '//' (whole numbers, rounded down)")
        if op is ast.Pow:
            raise FormulaError("'**' is not part of the language: multiply instead (a * a)")
        if op not in _ARITHMETIC:
            raise FormulaError(f"{_shown(n)}: only + - * // % are part of the language")
        left, right, symbol, fn = self.node(n.left, card), self.node(n.right, card), *_ARITHMETIC[op]
        return lambda env: _arith(fn, symbol, left(env), right(env))

    def _BoolOp(self, n: ast.BoolOp, card: bool):
        parts = [self.node(v, card) for v in n.values]
        if self.explore:
            conj = isinstance(n.op, ast.And)
            return lambda env: (all if conj else any)([_truth(p(env)) for p in parts])
        if isinstance(n.op, ast.And):
            return lambda env: all(_truth(p(env)) for p in parts)
        return lambda env: any(_truth(p(env)) for p in parts)

    def _Compare(self, n: ast.Compare, card: bool):
        for op in n.ops:
            if type(op) not in _COMPARE:
                raise FormulaError(f"{_shown(op)} is not part of the language: compare with == != < <= > >=")
        parts = [self.node(v, card) for v in (n.left, *n.comparators)]
        ops = [_COMPARE[type(op)] for op in n.ops]
        self._check_choices([n.left, *n.comparators])

        def compare(env):
            left = parts[0](env)
            for op, part in zip(ops, parts[1:], strict=True):
                right = part(env)
                if not _compared(op, left, right):
                    return False
                left = right
            return True
        return compare

    def _check_choices(self, sides: list[ast.AST]) -> None:
        """A word compared with a choice field must be one of its choices ('puding' is never any card's)."""
        for a, b in zip(sides, sides[1:], strict=False):
            for name, word in ((a, b), (b, a)):
                if isinstance(name, ast.Name) and isinstance(word, ast.Constant) and isinstance(word.value, str):
                    choices = self.names.fields.get(name.id)
                    if choices and word.value not in choices:
                        raise FormulaError(f"{word.value!r} is not a choice of {name.id!r}"
                                           f"{_did_you_mean(word.value, choices)} (its choices: "
                                           f"{', '.join(choices)})")

    def _IfExp(self, n: ast.IfExp, card: bool):
        test, yes, no = self.node(n.test, card), self.node(n.body, card), self.node(n.orelse, card)
        if self.explore:
            return lambda env: (yes(env), no(env))[0 if _truth(test(env)) else 1]
        return lambda env: yes(env) if _truth(test(env)) else no(env)

    def _Call(self, n: ast.Call, card: bool):
        if not isinstance(n.func, ast.Name):
            raise FormulaError("only the language's functions can be called (count, sum, each, most, ...)")
        name = n.func.id
        if n.keywords:
            raise FormulaError(f"{name}(): arguments are given in order, without names (no '=')")
        if name not in FUNCTIONS:
            raise FormulaError(f"unknown function {name!r}{_did_you_mean(name, FUNCTIONS)}; the functions: "
                               f"{', '.join(FUNCTIONS)}")
        args = n.args
        function = BY_NAME[name]
        _arity(name, args, function.fewest, len(function.args), function.args)
        if self.table_level and name not in ("table_sum", "table_max", "table_min", *PLAIN):
            raise FormulaError(f"{name}() in a check of the whole table: it is a player's; use it inside "
                               f"table_sum/table_max/table_min")
        if name in AGGREGATES:
            fewest = AGGREGATES[name][0]
            if card:
                raise FormulaError(f"{name}() inside a card's formula: aggregates count the hand, not one card; "
                                   f"name it as a value and use the value")
            return _aggregate(name, [self.node(a, True) for a in args], fewest, self.explore)
        if card and name in TABLE_WIDE:
            raise FormulaError(f"{name}() inside a card's formula: it needs the whole hand")
        if name == "each":
            return self._each(args[0], args[1])
        if name in ("most", "fewest"):
            return _placed(name, self.node(args[0], False), self.node(args[1], False))
        if name in ("table_sum", "table_max", "table_min"):
            level, self.table_level = self.table_level, False
            try:
                return _seats(name, self.node(args[0], False))
            finally:
                self.table_level = level
        if name in ("before", "game"):
            return self._history(name, args[0])
        return _plain(name, [self.node(a, card) for a in args])

    def _history(self, name: str, arg: ast.AST):
        """before(x) / game(x): x a rule id, a counter or a value, summed over the game's rounds."""
        names = self.names
        known = {*names.rules, *(n for n in names.player if n not in PLAYER_NAMES)}
        if not isinstance(arg, ast.Name) or arg.id not in known:
            got = arg.id if isinstance(arg, ast.Name) else _shown(arg)
            raise FormulaError(f"{name}(): its argument must be a rule's id, a counter or a value, got {got!r}"
                               f"{_did_you_mean(got, known)}")
        self.history.add((name, arg.id))
        if name == "before":
            return lambda env, x=arg.id: env.before(x)
        return lambda env, x=arg.id: env.game(x)

    def _each(self, field_node: ast.AST, formula: ast.AST):
        names = self.names
        if not isinstance(field_node, ast.Name) or \
                field_node.id not in {*names.fields, *names.unusable, *names.list_fields}:
            got = field_node.id if isinstance(field_node, ast.Name) else _shown(field_node)
            raise FormulaError(f"each(): its first argument must be a card field, got {got!r}"
                               f"{_did_you_mean(got, names.fields)}")
        return _each_of(field_node.id, self.check_each_field(field_node.id), self.node(formula, False))

    def check_each_field(self, name: str) -> tuple[str, ...] | None:
        """The choices `each` goes through for a field (None: the values held); FormulaError for a list field."""
        problem = each_field_problem(name, self.names)
        if problem:
            raise FormulaError(f"each: {problem}")
        return self.names.fields[name]


def each_field_problem(name: str, names: Names) -> str | None:
    """Why `each` cannot go through a field's values (a list field, a text, no such field), or None: the one check
    of `each(field, …)` in a formula and of a rule's `each:`."""
    if name in names.list_fields:
        return f"{name!r} is a list field: each needs a field with one value a card"
    if name in names.unusable:
        return f"{name!r} {names.unusable[name]}"
    if name not in names.fields:
        near = closest(name, names.fields)
        return f"unknown card field {name!r}" + (f"; did you mean {near!r}?" if near else "")
    return None


def _shown(n: ast.AST) -> str:
    try:
        return repr(ast.unparse(n)) if isinstance(n, ast.expr) else repr(type(n).__name__)
    except (ValueError, AttributeError, RecursionError):
        return repr(type(n).__name__)


def _arity(name: str, args: Sequence, fewest: int, most: int, shape: Sequence[str]) -> None:
    if not fewest <= len(args) <= most:
        takes = f"{fewest}" if fewest == most else f"{fewest} or {most}"
        shown = [a.strip("[]") for a in shape]
        raise FormulaError(f"{name}() takes {takes} argument{'s' if most != 1 else ''}"
                           f"{' (' + ', '.join(shown) + ')' if shown else ''}, got {len(args)}")


def _player_name(name: str):
    return lambda env: getattr(env.table, name)


# --- computing ---------------------------------------------------------------------------------------------------

def _floordiv(a: int, b: int) -> int:
    if b == 0:
        return fail("divides by zero")
    return a // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        return fail("divides by zero (% 0)")
    return a % b


_ARITHMETIC = {ast.Add: ("+", lambda a, b: a + b), ast.Sub: ("-", lambda a, b: a - b),
               ast.Mult: ("*", lambda a, b: a * b), ast.FloorDiv: ("//", _floordiv), ast.Mod: ("%", _mod)}


def _kind(v: Any) -> str:
    if v is NONE:
        return "none (a field this card does not carry)"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return "a number"
    if isinstance(v, str):
        return f"the text {v!r}"
    return "a list"


def _number(v: Any, op: str) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    return fail(f"'{op}' needs numbers, got {_kind(v)}")


def _arith(fn, symbol: str, a: Any, b: Any) -> int:
    return check_number(fn(_number(a, symbol), _number(b, symbol)))


def _truth(v: Any) -> bool:
    if isinstance(v, list):
        return fail("a list is not a condition: compare its length or total", False)
    return bool(v)


def _compared(op: str, a: Any, b: Any) -> bool:
    if a is NONE or b is NONE:
        return op == "!="
    a_num, b_num = isinstance(a, int), isinstance(b, int)
    if a_num != b_num or isinstance(a, list) or isinstance(b, list):
        if isinstance(a, list) and isinstance(b, list) and op in ("==", "!="):
            return (a == b) == (op == "==")
        return fail(f"'{op}' compares {_kind(a)} with {_kind(b)}", False)
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    return a >= b


def _as_list(v: Any, name: str) -> list:
    if not isinstance(v, list):
        return fail(f"{name}() needs a list, got {_kind(v)}", [])
    return [_number(x, name) for x in v]


def _plain(name: str, args: list):
    if name == "table":
        n_of, t_of = args

        def table(env):
            n, t = _number(n_of(env), "table"), t_of(env)
            if not isinstance(t, list) or not t:
                return fail(f"table() needs a list of at least one entry, got {_kind(t)}")
            return t[0] if n < 0 else t[min(n, len(t) - 1)]
        return table
    if name in ("top", "bottom"):
        k_of, l_of = args
        reverse = name == "top"

        def ends(env):
            k, items = _number(k_of(env), name), _as_list(l_of(env), name)
            return sorted(items, reverse=reverse)[:max(k, 0)]
        return ends
    (of,) = args
    one = {"total": lambda xs: check_number(sum(xs)), "length": len,
           "highest": lambda xs: max(xs, default=0), "lowest": lambda xs: min(xs, default=0)}[name]
    return lambda env: one(_as_list(of(env), name))


def _aggregate(name: str, args: list, fewest: int, explore: bool = False):
    expr = args[0] if name != "count" and args else None
    where = args[-1] if len(args) > (0 if name == "count" else 1) else None

    def held(env):  # (card value, copies) for each card in the hand in force that the condition takes
        out = []
        hand = env.hand()
        env.table.spend(len(hand) + 1)
        for card, copies in hand:
            env.card = card
            try:
                if explore:  # (the expression on every card, taken or not: what a card's formula may cost)
                    taken, value = where is None or _truth(where(env)), expr(env) if expr else True
                    if taken:
                        out.append((value, copies))
                elif where is None or _truth(where(env)):
                    out.append((expr(env) if expr else True, copies))
            finally:
                env.card = None
        return out

    if name == "count":
        return lambda env: check_number(sum(copies for _, copies in held(env)))
    if name == "sum":
        return lambda env: check_number(sum(_number(v, "sum") * c for v, c in held(env) if v is not NONE))

    def numbers(env) -> list[int]:
        return [_number(v, name) for v, _ in held(env) if v is not NONE]

    if name in ("max", "min"):
        pick = max if name == "max" else min
        return lambda env: pick(numbers(env), default=0)
    if name == "distinct":
        return lambda env: len({v if not isinstance(v, list) else tuple(v) for v, _ in held(env) if v is not NONE})
    lows = name == "run_lows"
    return lambda env: _runs(sorted(set(numbers(env))), lows)


def _runs(values: list[int], lows: bool) -> list[int]:
    out: list[int] = []
    start = prev = None
    for v in values:
        if prev is not None and v == prev + 1:
            prev = v
            continue
        if start is not None:
            out.append(start if lows else prev - start + 1)
        start = prev = v
    if start is not None:
        out.append(start if lows else prev - start + 1)
    return out


def _each_of(name: str, choices: tuple[str, ...] | None, formula):
    def each(env):
        options = choices if choices is not None else env.table.held_values(name, env.where)
        env.table.spend(len(options) + 1)
        out = []
        for choice in options:
            out.append(formula(env.within((*env.where, (name, choice)))))
        if len(out) > MAX_LIST:
            return fail(f"each() made a list of more than {MAX_LIST} entries", out[:MAX_LIST])
        return out
    return each


def _seats(name: str, expr):
    """table_sum/table_max/table_min: `expr` for every player at the table, in the hand in force."""
    pick = {"table_sum": lambda xs: check_number(sum(xs)), "table_max": max, "table_min": min}[name]

    def seats(env):
        env.table.spend(env.table.players)
        return pick([_number(expr(env.seat(p)), name) for p in range(env.table.players)])
    return seats


def _placed(name: str, expr, points_of):
    """most/fewest: the points of each place, split among the players tied there, computed once for the table.
    The table's cache keeps them under a key made for this one call of the compiled formula, which lives as long as
    the formula does (never an address that a later formula's parts could be given)."""
    key = _PlaceKey(name)

    def placed(env):
        table = env.table
        cache_key = (key, env.where)
        shares = table.cache.get(cache_key)
        if shares is None:
            points = _as_list(points_of(env), name)
            scores = [_number(expr(env.seat(p)), name) for p in range(table.players)]
            shares = place_points(scores, points, highest_first=name == "most")
            table.cache[cache_key] = shares
        return shares[env.player]
    return placed


class _PlaceKey:
    """The identity of one `most`/`fewest` call in a compiled formula: a table's cache key for its places."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name} places>"


def place_points(scores: Sequence[int], points: Sequence[int], highest_first: bool = True) -> list[int]:
    """Each score's points by place: players tied at a place split its points (rounded down) and the places they
    would have taken next earn nothing."""
    order = sorted(set(scores), reverse=highest_first)
    out, place = [0] * len(scores), 0
    for score in order:
        tied = [i for i, s in enumerate(scores) if s == score]
        earned = points[place] if place < len(points) else 0
        for i in tied:
            out[i] = earned // len(tied)
        place += len(tied)
    return out
