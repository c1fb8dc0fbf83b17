"""A second evaluator of a designer's `scoring:`, written apart from companion/scoring/ from the contract's words
(docs/card-data.md): a plain recursive walk of each formula's syntax tree over the table, nothing compiled, nothing
cached, no step budget. The property test (tests/test_scoring_property.py) holds the companion's answers against it.

`score(section, cards, request)` gives what `companion score` answers for one round: each player's points and rules,
and the winners (points, then the tie-breakers); `PlainError` where the contract says the table cannot be scored."""
from __future__ import annotations

import ast
from typing import Any

BOUND = 1_000_000_000


class PlainError(Exception):
    """The table cannot be scored: a division by zero, a result past the bound, a word used as a number, ..."""


class Missing:
    """A field a card does not carry."""

    def __repr__(self):
        return "missing"


MISSING = Missing()


def bounded(n: int) -> int:
    if not -BOUND <= n <= BOUND:
        raise PlainError(f"{n} is past the bound")
    return n


def as_number(v: Any) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    raise PlainError(f"{v!r} is not a number")


def as_condition(v: Any) -> bool:
    if isinstance(v, list):
        raise PlainError("a list as a condition")
    if v is MISSING:
        return False
    return bool(v)


def as_numbers(v: Any) -> list[int]:
    if not isinstance(v, list):
        raise PlainError(f"{v!r} is not a list")
    return [as_number(x) for x in v]


def compare(op: str, a: Any, b: Any) -> bool:
    if a is MISSING or b is MISSING:
        return op == "!="
    if isinstance(a, list) and isinstance(b, list) and op in ("==", "!="):
        return (a == b) == (op == "==")
    if isinstance(a, list) or isinstance(b, list):
        raise PlainError("a list compared")
    a_word, b_word = isinstance(a, str), isinstance(b, str)
    if a_word != b_word:
        raise PlainError("a word compared with a number")
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def places(scores: list[int], points: list[int], highest_first: bool) -> list[int]:
    """Each player's share: players tied at a place split its points (rounded down), the places after them skipped."""
    out = [0] * len(scores)
    place = 0
    for value in sorted(set(scores), reverse=highest_first):
        tied = [i for i, s in enumerate(scores) if s == value]
        for i in tied:
            out[i] = (points[place] if place < len(points) else 0) // len(tied)
        place += len(tied)
    return out


def runs(values: list[int]) -> list[tuple[int, int]]:
    """(lowest, length) of each run of consecutive numbers among the distinct values."""
    out: list[list[int]] = []
    for v in sorted(set(values)):
        if out and v == out[-1][0] + out[-1][1]:
            out[-1][1] += 1
        else:
            out.append([v, 1])
    return [(low, n) for low, n in out]


class Round:
    """One round of the table: the section, the hands (lists of (card fields, copies)), counters, round, last."""

    def __init__(self, section: dict, hands: list, counters: list[dict], round_: int, last: bool,
                 choices: dict[str, list | None], dealt: int = 0, earlier: list[dict] | None = None,
                 whole: bool = False):
        self.section, self.hands, self.counters = section, hands, counters
        self.round, self.last, self.choices = round_, last, choices
        self.players, self.dealt = len(hands), dealt
        self.values = section.get("values") or {}
        self.trees: dict[str, ast.expr] = {}
        self.earlier = earlier or [{} for _ in hands]  # each player's sums over the earlier rounds, by name
        self.whole = whole  # the tie-breakers': the sums are over the whole game already

    def tree(self, text: Any) -> ast.expr:
        text = str(text)
        if text not in self.trees:
            self.trees[text] = ast.parse(text.strip(), mode="eval").body
        return self.trees[text]

    def hand(self, player: int, within: tuple) -> list:
        return [(c, n) for c, n in self.hands[player] if all(c.get(f, MISSING) == v for f, v in within)]

    def options(self, field: str, within: tuple) -> list:
        declared = self.choices.get(field)
        if declared is not None:
            return list(declared)
        held = {c.get(field, MISSING) for p in range(self.players) for c, _ in self.hand(p, within)}
        held.discard(MISSING)
        return sorted(held, key=lambda v: (isinstance(v, str), v))

    def value(self, text: Any, player: int, within: tuple = ()) -> Any:
        return self.ev(self.tree(text), player, within, None)

    def ev(self, n: ast.AST, p: int, within: tuple, card: dict | None) -> Any:  # noqa: C901 (one case a node kind)
        if isinstance(n, ast.Constant):
            return n.value
        if isinstance(n, ast.Name):
            return self.name(n.id, p, within, card)
        if isinstance(n, ast.List):
            return [self.ev(e, p, within, card) for e in n.elts]
        if isinstance(n, ast.UnaryOp):
            v = self.ev(n.operand, p, within, card)
            if isinstance(n.op, ast.Not):
                return not as_condition(v)
            return bounded(-as_number(v)) if isinstance(n.op, ast.USub) else as_number(v)
        if isinstance(n, ast.BinOp):
            a, b = as_number(self.ev(n.left, p, within, card)), as_number(self.ev(n.right, p, within, card))
            if isinstance(n.op, ast.Add):
                return bounded(a + b)
            if isinstance(n.op, ast.Sub):
                return bounded(a - b)
            if isinstance(n.op, ast.Mult):
                return bounded(a * b)
            if b == 0:
                raise PlainError("division by zero")
            return bounded(a // b if isinstance(n.op, ast.FloorDiv) else a % b)
        if isinstance(n, ast.BoolOp):
            for v in n.values:
                truth = as_condition(self.ev(v, p, within, card))
                if truth != isinstance(n.op, ast.And):
                    return truth
            return isinstance(n.op, ast.And)
        if isinstance(n, ast.Compare):
            left = self.ev(n.left, p, within, card)
            for op, right_node in zip(n.ops, n.comparators, strict=True):
                right = self.ev(right_node, p, within, card)
                symbol = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
                          ast.GtE: ">="}[type(op)]
                if not compare(symbol, left, right):
                    return False
                left = right
            return True
        if isinstance(n, ast.IfExp):
            branch = n.body if as_condition(self.ev(n.test, p, within, card)) else n.orelse
            return self.ev(branch, p, within, card)
        if isinstance(n, ast.Call):
            return self.call(n.func.id, n.args, p, within, card)
        raise PlainError(f"not in the language: {ast.dump(n)}")

    def name(self, name: str, p: int, within: tuple, card: dict | None) -> Any:
        if name == "players":
            return self.players
        if name == "round":
            return self.round
        if name == "last":
            return self.last
        if name == "dealt":
            return self.dealt
        if name in self.counters[p]:
            return self.counters[p][name]
        if name in self.values:
            return self.ev(self.tree(self.values[name]), p, within, None)
        if card is not None:
            return card.get(name, MISSING)
        raise PlainError(f"unknown name {name}")

    def call(self, name: str, args: list, p: int, within: tuple, card: dict | None) -> Any:  # noqa: C901
        if name in ("count", "sum", "max", "min", "distinct", "run_lengths", "run_lows"):
            expr = None if name == "count" else args[0]
            cond = args[0] if name == "count" and args else args[1] if name != "count" and len(args) > 1 else None
            held = []
            for c, copies in self.hand(p, within):
                if cond is None or as_condition(self.ev(cond, p, within, c)):
                    held.append((self.ev(expr, p, within, c) if expr is not None else 1, copies))
            if name == "count":
                return bounded(sum(copies for _, copies in held))
            present = [(v, copies) for v, copies in held if v is not MISSING]
            if name == "sum":
                return bounded(sum(as_number(v) * copies for v, copies in present))
            if name == "distinct":
                return len({tuple(v) if isinstance(v, list) else v for v, _ in present})
            numbers = [as_number(v) for v, _ in present]
            if name == "max":
                return max(numbers, default=0)
            if name == "min":
                return min(numbers, default=0)
            found = runs(numbers)
            return [n for _, n in found] if name == "run_lengths" else [low for low, _ in found]
        if name == "each":
            field = args[0].id
            return [self.ev(args[1], p, (*within, (field, o)), None) for o in self.options(field, within)]
        if name in ("before", "game"):
            key = args[0].id
            earlier = self.earlier[p].get(key, 0)
            return earlier if name == "before" or self.whole else bounded(earlier + self.this_round(key, p))
        if name in ("table_sum", "table_max", "table_min"):
            each = [as_number(self.ev(args[0], seat, within, None)) for seat in range(self.players)]
            return {"table_sum": lambda: bounded(sum(each)), "table_max": lambda: max(each),
                    "table_min": lambda: min(each)}[name]()
        if name in ("most", "fewest"):
            scores = [as_number(self.ev(args[0], seat, within, None)) for seat in range(self.players)]
            points = as_numbers(self.ev(args[1], p, within, None))
            return places(scores, points, name == "most")[p]
        values = [self.ev(a, p, within, card) for a in args]
        if name == "table":
            n, entries = as_number(values[0]), values[1]
            if not isinstance(entries, list) or not entries:
                raise PlainError("table() of no entries")
            return entries[0] if n < 0 else entries[min(n, len(entries) - 1)]
        if name == "total":
            return bounded(sum(as_numbers(values[0])))
        if name == "length":
            return len(as_numbers(values[0]))
        if name in ("top", "bottom"):
            k, entries = as_number(values[0]), as_numbers(values[1])
            return sorted(entries, reverse=name == "top")[:max(k, 0)]
        if name in ("highest", "lowest"):
            entries = as_numbers(values[0])
            return (max if name == "highest" else min)(entries, default=0)
        raise PlainError(f"unknown function {name}")

    def this_round(self, key: str, p: int) -> int:
        """This round's `key` for player p: a rule's points (a rule's id first), a counter, a value."""
        rule = next((r for r in self.section["rules"] if r["id"] == key), None)
        if rule is not None:
            return self.rule(rule, p)
        if key in self.counters[p]:
            return self.counters[p][key]
        return as_number(self.value(self.values[key], p))

    def points(self, formula: Any, p: int, within: tuple = ()) -> int:
        v = self.value(formula, p, within)
        if isinstance(v, list) or isinstance(v, str) or v is MISSING:
            raise PlainError("points that are not a whole number")
        return int(v)

    def rule(self, rule: dict, p: int) -> int:
        if rule.get("when") == "last" and not self.last:
            return 0
        if "each" not in rule:
            return self.points(rule["points"], p)
        field = rule["each"]
        return bounded(sum(self.points(rule["points"], p, ((field, o),)) for o in self.options(field, ())))


def score(section: dict, choices: dict, request: dict, card_fields: dict[str, dict]) -> dict:
    """The round's answer by the contract: {"players": [{"name", "points", "rules"}], "winners"}; PlainError."""
    rounds = section.get("rounds", 1)
    round_ = request.get("round", 1)
    last = isinstance(rounds, dict) or round_ >= rounds
    counters = section.get("counters") or {}
    hands = [[(card_fields[i], n) for i, n in (p.get("cards") or {}).items() if n] for p in request["players"]]
    told = [{k: p.get("counters", {}).get(k, min(max(0, c.get("number", [0, 1000])[0]), c.get("number", [0, 1000])[1]))
             for k, c in counters.items()} for p in request["players"]]
    table = Round(section, hands, told, round_, last, choices)
    players = []
    for i, p in enumerate(request["players"]):
        rules = {r["id"]: table.rule(r, i) for r in section["rules"]}
        players.append({"name": p["name"], "points": bounded(sum(rules.values())), "rules": rules})
    sign = -1 if section.get("winner") == "fewest" else 1
    ties = [[as_number(table.value(t, i)) for t in section.get("ties", [])] for i in range(len(players))]
    keys = [(sign * q["points"], *ties[i]) for i, q in enumerate(players)]
    return {"players": players, "winners": [q["name"] for q, k in zip(players, keys, strict=True) if k == max(keys)],
            "ties": {q["name"]: tuple(ties[i]) for i, q in enumerate(players)}}


def remembered(section: dict) -> set[str]:
    """Every name a formula of the section reads through before() or game()."""
    texts = [*(section.get("values") or {}).values(), *(r["points"] for r in section["rules"]),
             *section.get("ties", []), *(c["test"] for c in section.get("checks", []))]
    if isinstance(section.get("rounds"), dict):
        texts.append(section["rounds"]["target"])
    found = set()
    for text in texts:
        for n in ast.walk(ast.parse(str(text).strip(), mode="eval")):
            if isinstance(n, ast.Call) and getattr(n.func, "id", "") in ("before", "game"):
                found.add(n.args[0].id)
    return found


def score_game(section: dict, choices: dict, requests: list[dict], card_fields: dict, dealt_of=lambda n, r: 0,
               ) -> dict:
    """A whole game by the contract, rounds in order (`requests`, the same players by name): each round's players'
    points and rules, each player's game total, whether the game is over after the last round, and the winners
    (of the whole game when it is over, else of the last round's points), then the tie-breakers that see the whole
    game; PlainError where a round cannot be scored or fails one of the section's checks (`checks[i]`)."""
    keys = remembered(section)
    sums: dict[str, dict[str, int]] = {}
    rounds_done, totals = [], {}
    rounds = section.get("rounds", 1)
    for k, request in enumerate(requests):
        round_ = k + 1 if len(requests) > 1 else request.get("round", 1)
        names = [p["name"] for p in request["players"]]
        n = len(names)
        fixed = rounds_of(section, n)
        last = isinstance(rounds, dict) or round_ >= fixed
        table = _round_table(section, choices, request, card_fields, round_, last, dealt_of(n, round_),
                             [dict(sums.get(x, {})) for x in names])
        for i, check in enumerate(section.get("checks", [])):
            if not as_condition(table.value(check["test"], 0)):
                raise PlainError(f"checks[{i}]")
        players = []
        for i, name in enumerate(names):
            rules = {r["id"]: table.rule(r, i) for r in section["rules"]}
            players.append({"name": name, "points": bounded(sum(rules.values())), "rules": rules})
        for i, name in enumerate(names):
            kept = sums.setdefault(name, {})
            for key in keys:
                kept[key] = bounded(kept.get(key, 0) + table.this_round(key, i))
            totals[name] = totals.get(name, 0) + players[i]["points"]
        rounds_done.append({"players": players, "before": [dict(table.earlier[i]) for i in range(n)]})
    last_request = requests[-1]
    names = [p["name"] for p in last_request["players"]]
    round_ = len(requests) if len(requests) > 1 else last_request.get("round", 1)
    over = _over(section, choices, last_request, card_fields, round_, names, totals, rounds_done[-1]["before"],
                 dealt_of)
    ties_table = _round_table(section, choices, last_request, card_fields, round_, True, dealt_of(len(names), round_),
                              [dict(sums.get(x, {})) for x in names], whole=True)
    sign = -1 if section.get("winner") == "fewest" else 1
    by = [totals[x] if over else q["points"] for x, q in zip(names, rounds_done[-1]["players"], strict=True)]
    ties = [[as_number(ties_table.value(t, i)) for t in section.get("ties", [])] for i in range(len(names))]
    keys_of = [(sign * b, *ties[i]) for i, b in enumerate(by)]
    return {"rounds": rounds_done, "game": totals, "over": over,
            "winners": [x for x, key in zip(names, keys_of, strict=True) if key == max(keys_of)]}


def rounds_of(section: dict, players: int) -> int:
    rounds = section.get("rounds", 1)
    if isinstance(rounds, dict):
        return rounds.get("max", 100)
    if isinstance(rounds, str):
        return as_number(Round(section, [[]] * players, [{}] * players, 1, False, {}).value(rounds, 0))
    return rounds


def _round_table(section, choices, request, card_fields, round_, last, dealt, earlier, whole=False) -> Round:
    counters = section.get("counters") or {}
    hands = [[(card_fields[i], n) for i, n in (p.get("cards") or {}).items() if n] for p in request["players"]]
    told = [{k: p.get("counters", {}).get(k, min(max(0, c.get("number", [0, 1000])[0]), c.get("number", [0, 1000])[1]))
             for k, c in counters.items()} for p in request["players"]]
    return Round(section, hands, told, round_, last, choices, dealt, earlier, whole)


def _over(section, choices, request, card_fields, round_, names, totals, before, dealt_of) -> bool:
    rounds = section.get("rounds", 1)
    if not isinstance(rounds, dict):
        return round_ >= rounds_of(section, len(names))
    if "max" in rounds and round_ >= rounds["max"]:
        return True
    table = _round_table(section, choices, request, card_fields, round_, True, dealt_of(len(names), round_), before)
    return any(totals[x] >= table.points(rounds["target"], i) for i, x in enumerate(names))


def target_of(section: dict, choices: dict, players: int, played: int, counters: dict) -> list[int]:
    """A target game's target for each player at the sheet's end (empty hands, counters at their defaults)."""
    table = Round(section, [[] for _ in range(players)], [dict(counters) for _ in range(players)], max(played, 1),
                  True, choices)
    return [table.points(section["rounds"]["target"], p) for p in range(players)]
