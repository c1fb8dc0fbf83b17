"""Random designer files from the scoring contract's grammar (fields, counters, values, rules with `each:` and
`when: last`, `each()`, `most`/`fewest`, runs, rounds or a target, `winner:`, ties), and random legal tables for
them: the property test's inputs (tests/test_scoring_property.py). Hypothesis strategies, nothing of the companion's
own code: a game is its YAML text and the plain data the second evaluator (helpers/plain_scoring.py) reads."""
from __future__ import annotations

from dataclasses import dataclass

import yaml
from hypothesis import strategies as st

COLOURS = ("red", "blue", "green", "gold")
KINDS = ("plain", "bonus")


@dataclass(frozen=True)
class Game:
    """A generated designer game: its file's text, its scoring section, each field's declared choices, each
    component's fields as a card's formula sees them, the copies printed and the players the file allows."""

    text: str
    section: dict
    choices: dict
    cards: dict  # id → fields (with id, type, set)
    qty: dict  # id → copies printed
    players: tuple[int, int]


class _Grammar:
    """Formulas drawn from the language's grammar, over one game's names."""

    def __init__(self, draw, colours, counters, values):
        self.draw, self.colours, self.counters, self.values = draw, colours, counters, values

    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def one_of(self, shapes):
        """One of `shapes` (callables), only the one chosen drawn further."""
        return shapes[self.draw(st.integers(0, len(shapes) - 1))]()

    def small(self) -> int:
        return self.draw(st.integers(0, 9))

    def where(self, depth: int = 1) -> str:
        shapes = [lambda: f"colour == '{self.pick(self.colours)}'", lambda: f"number > {self.small()}",
                  lambda: f"kind == '{self.pick(KINDS)}'", lambda: f"number != {self.small()}",
                  lambda: f"colour != '{self.pick(self.colours)}'"]
        if depth:
            shapes.append(lambda: f"({self.where(0)} and {self.where(0)})")
            shapes.append(lambda: f"({self.where(0)} or number <= players)")
        return self.one_of(shapes)

    def card(self) -> str:
        return self.one_of([lambda: "number", lambda: "number", lambda: f"number * {self.draw(st.integers(1, 3))}",
                            lambda: f"number + {self.small()} if number > 0 else 0", lambda: "1"])

    def leaf(self) -> str:
        shapes = [lambda: str(self.small()), lambda: "players", lambda: "round", lambda: "count()",
                  lambda: f"count({self.where()})", lambda: f"sum({self.card()})",
                  lambda: f"sum({self.card()}, {self.where()})", lambda: f"max({self.card()})",
                  lambda: f"min(number, {self.where()})", lambda: "distinct(colour)",
                  lambda: "length(run_lengths(number))", lambda: "highest(run_lengths(number))",
                  lambda: "total(run_lows(number))", lambda: "last"]
        shapes += [lambda name=name: name for name in (*self.counters, *self.values)]
        return self.one_of(shapes)

    def condition(self, depth: int) -> str:
        shapes = [lambda: f"{self.player(depth - 1)} > {self.small()}",
                  lambda: f"{self.player(depth - 1)} == {self.small()}", lambda: f"not {self.player(depth - 1)}",
                  lambda: f"{self.player(depth - 1)} >= {self.player(0)}", lambda: "last",
                  lambda: f"round > {self.draw(st.integers(1, 3))}"]
        if depth > 1:
            shapes.append(lambda: f"({self.condition(depth - 1)} and {self.condition(depth - 1)})")
        return self.one_of(shapes)

    def points(self) -> str:
        return f"[{', '.join(str(self.draw(st.integers(-3, 9))) for _ in range(self.draw(st.integers(1, 3))))}]"

    def player(self, depth: int) -> str:
        """A player-context formula nested at most `depth` deep."""
        if depth <= 0:
            return self.leaf()
        d = depth - 1
        shapes = [
            lambda: f"({self.player(d)} + {self.player(d)})",
            lambda: f"({self.player(d)} - {self.player(d)})",
            lambda: f"({self.player(d)} * {self.draw(st.integers(-2, 4))})",
            lambda: f"({self.player(d)} // {self.draw(st.integers(1, 4))})",
            lambda: f"({self.player(d)} % {self.draw(st.integers(2, 5))})",
            lambda: f"table({self.player(d)}, {self.points()})",
            lambda: f"most({self.player(d)}, {self.points()})",
            lambda: f"fewest({self.player(d)}, {self.points()})",
            lambda: f"({self.player(d)} if {self.condition(depth)} else {self.player(d)})",
            lambda: f"total(each(colour, {self.player(d)}))",
            lambda: f"total(top({self.draw(st.integers(0, 3))}, each(colour, {self.player(d)})))",
            lambda: f"lowest(each(kind, {self.player(d)}))",
            lambda: self._guarded(d),  # a division a guard makes safe: the proof must see it
            lambda: f"(most(count(), {self.points()}) if count() else 0)",
            lambda: f"total(each(number, {self.player(d)}))",
            self.leaf,
        ]
        return self.one_of(shapes)

    def _guarded(self, depth: int) -> str:
        divisor = self.player(0)
        return f"({self.player(depth)} // {divisor} if {divisor} > 0 else 0)"


@st.composite
def games(draw) -> Game:
    """A designer game: 2 to 4 colours, numbers 0–9 (sometimes missing), two kinds; up to two counters and values,
    one to four rules, rounds or a target, the winner by most or fewest, up to two tie-breakers."""
    colours = draw(st.lists(st.sampled_from(COLOURS), min_size=2, max_size=4, unique=True))
    optional = draw(st.booleans())
    components, cards, qty = [], {}, {}
    for i in range(draw(st.integers(3, 7))):
        entry = {"id": f"PB-{i}", "type": "card", "qty": draw(st.integers(1, 4)),
                 "colour": draw(st.sampled_from(colours)), "kind": draw(st.sampled_from(KINDS)),
                 "name": {"es": f"C{i}", "en": f"C{i}"}}
        if not optional or draw(st.integers(0, 3)):
            entry["number"] = draw(st.integers(0, 9))
        components.append(entry)
        cards[entry["id"]] = {**{k: entry[k] for k in ("colour", "kind", "number") if k in entry},
                              "id": entry["id"], "type": "card", "set": "base"}
        qty[entry["id"]] = entry["qty"]
    counters = {}
    for name in ("chips", "gold")[:draw(st.integers(0, 2))]:
        counters[name] = {"name": {"es": name, "en": name},
                          "number": list(draw(st.sampled_from([(0, 9), (-3, 5), (1, 6), (0, 2)])))}
    values: dict[str, str] = {}
    for name in ("piles", "best")[:draw(st.integers(0, 2))]:
        values[name] = _Grammar(draw, colours, counters, list(values)).player(draw(st.integers(0, 2)))
    grammar = _Grammar(draw, colours, counters, list(values))
    rules = []
    for i in range(draw(st.integers(1, 4))):
        rule = {"id": f"r{i}", "name": {"es": f"Regla {i}", "en": f"Rule {i}"}, "points": grammar.player(draw(
            st.integers(0, 3)))}
        if draw(st.integers(0, 3)) == 0:
            rule["each"] = "colour"
        if draw(st.integers(0, 4)) == 0:
            rule["when"] = "last"
        rules.append(rule)
    section: dict = {"rules": rules}
    if counters:
        section["counters"] = counters
    if values:
        section["values"] = values
    rounds = draw(st.sampled_from(["one", "fixed", "target"]))
    if rounds == "fixed":
        section["rounds"] = draw(st.integers(2, 4))
    elif rounds == "target":
        section["rounds"] = {"target": draw(st.sampled_from(["15", "table(players, [0, 0, 20, 15, 12, 10])",
                                                             "4 * players", "30 // players"]))}
    if draw(st.booleans()):
        section["winner"] = "fewest"
    ties = [grammar.player(1) for _ in range(draw(st.integers(0, 2)))]
    if ties:
        section["ties"] = ties
    players = (2, draw(st.integers(2, 5)))
    data = {"game": "probe", "title": {"es": "Prueba", "en": "Probe"}, "prefix": "PB", "players": list(players),
            "fields": {"colour": {"choices": colours}, "kind": {"choices": list(KINDS)},
                       "number": {"number": [0, 9], **({"optional": True} if optional else {})}},
            "components": components, "scoring": section}
    choices = {"colour": list(colours), "kind": list(KINDS), "number": None, "id": None, "type": ["card"],
               "set": ["base"]}
    return Game(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), section, choices, cards, qty, players)


@st.composite
def tables(draw, game: Game, round_: int | None = None) -> dict:
    """A legal score request for `game`: the players it allows, every copy given to at most one player's hand in
    all (no component named more often than printed), counters in their ranges, a round the game has."""
    n = draw(st.integers(*game.players))
    hands: list[dict] = [{} for _ in range(n)]
    for card_id, copies in game.qty.items():
        left = copies
        for p in draw(st.permutations(range(n))):
            k = draw(st.integers(0, left))
            if k:
                hands[p][card_id] = k
                left -= k
    rounds = game.section.get("rounds", 1)
    most = 100 if isinstance(rounds, dict) else rounds
    players = []
    for i, hand in enumerate(hands):
        counters = {k: draw(st.integers(*c["number"])) for k, c in (game.section.get("counters") or {}).items()}
        players.append({"name": f"P{i + 1}", "cards": hand, **({"counters": counters} if counters else {})})
    return {"round": round_ if round_ is not None else draw(st.integers(1, most)), "players": players}
