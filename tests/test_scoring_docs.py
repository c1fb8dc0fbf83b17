"""docs/card-data.md's worked examples of the scoring functions are what the engine computes: each `formula` → Ana,
Bea in its "Scoring from data" section, on the table it describes, through a card data file's own scoring; those
of "Across the game" on the three rounds it describes; and every function of the language has one."""
import ast
import re
from pathlib import Path

from companion import cards
from companion.games import generic
from companion.scoring import Env, Table, card_fields
from companion.scoring.formula import FUNCTION_TABLE

DOC = (Path(__file__).resolve().parents[1] / "docs" / "card-data.md").read_text(encoding="utf-8")
SECTION = DOC[DOC.index("### Scoring from data"):DOC.index("#### Across the game")]
ACROSS = DOC[DOC.index("#### Across the game"):DOC.index("## Faces from layouts")]
EXAMPLE = re.compile(r"`([^`]+)` → ((?:\[[^\]]*\]|-?\d+), (?:\[[^\]]*\]|-?\d+))")
TABLE = """game: docs
title: {es: Docs, en: Docs}
prefix: DO
players: [2, 4]
fields:
  colour: {choices: [red, blue, green]}
  number: {number: [2, 10], optional: true}
  sort: {choices: [expedition, wager]}
components:
  - {id: DO-R3, type: card, colour: red, number: 3, sort: expedition, name: {es: R3, en: R3}}
  - {id: DO-R4, type: card, colour: red, number: 4, sort: expedition, name: {es: R4, en: R4}}
  - {id: DO-R5, type: card, colour: red, number: 5, sort: expedition, name: {es: R5, en: R5}}
  - {id: DO-B9, type: card, colour: blue, number: 9, sort: expedition, name: {es: B9, en: B9}}
  - {id: DO-RW, type: card, colour: red, sort: wager, name: {es: RW, en: RW}}
  - {id: DO-B2, type: card, colour: blue, number: 2, sort: expedition, name: {es: B2, en: B2}}
  - {id: DO-B3, type: card, colour: blue, number: 3, sort: expedition, name: {es: B3, en: B3}}
  - {id: DO-G7, type: card, colour: green, number: 7, sort: expedition, name: {es: G7, en: G7}}
scoring:
  values:
    shown: "%s"
  rules:
    - {id: main, name: {es: Main, en: Main}, points: "0"}
"""
HANDS = [["DO-R3", "DO-R4", "DO-R5", "DO-B9", "DO-RW"], ["DO-B2", "DO-B3", "DO-G7"]]


def computed(formula: str) -> tuple:
    """The value `shown` for Ana and for Bea, as the engine computes it on the described table."""
    card_set, errors = cards.check_text(TABLE % formula, "docs.yaml")
    assert not errors, errors
    scoring = generic.scoring_of(card_set)
    fields = {c.id: card_fields(c) for c in card_set.components}
    table = Table(scoring, [[(fields[i], 1) for i in hand] for hand in HANDS], [{}, {}], 1, True)
    return tuple(scoring.values["shown"].run(Env(table, p, ())) for p in range(2))


def test_every_worked_example_is_what_the_engine_computes():
    examples = EXAMPLE.findall(SECTION)
    assert len(examples) >= 20, examples  # one at least for each of the 17 functions
    for formula, says in examples:
        assert computed(formula) == ast.literal_eval(f"({says})"), formula


def test_every_function_of_the_language_has_a_worked_example():
    """The language's one list of functions (formula.FUNCTION_TABLE): each in the docs' table, with an example."""
    examples = EXAMPLE.findall(SECTION) + EXAMPLE.findall(ACROSS)
    named = {name for formula, _ in examples for name in re.findall(r"([a-z_]+)\(", formula)}
    assert named >= {f.name for f in FUNCTION_TABLE}, {f.name for f in FUNCTION_TABLE} - named
    rows = [line.split("|")[1] for line in SECTION.splitlines() if line.startswith("| `")]
    for f in FUNCTION_TABLE:  # a row of the functions' table names it
        assert any(f"`{f.name}(" in row for row in rows), f.name


ACROSS_TABLE = """game: docs
title: {es: Docs, en: Docs}
prefix: DO
players: [2, 4]
setup:
  hand_size: "round + 1"
components:
  - {id: DO-X, type: card, qty: 30, name: {es: X, en: X}}
scoring:
  counters:
    bid: {name: {es: Apuesta, en: Bid}, number: [0, 10]}
    tricks: {name: {es: Bazas, en: Tricks}, number: [0, 10]}
  values:
    exact: "tricks == bid"
    shown: "%s"
  rules:
    - {id: made, name: {es: Hecha, en: Made}, points: "10 + bid if exact else 0"}
  rounds: 5
"""
ROUNDS = [((2, 2), (1, 0)), ((2, 2), (1, 1)), ((1, 2), (2, 2))]  # (Ana's bid, tricks), (Bea's) each round


def test_every_worked_example_across_the_game_is_what_the_engine_computes():
    examples = EXAMPLE.findall(ACROSS)
    assert len(examples) >= 9, examples
    for formula, says in examples:
        card_set, errors = cards.check_text(ACROSS_TABLE % formula, "docs.yaml")
        assert not errors, errors
        scoring = card_set.scoring
        rounds = [([[], []], [{"bid": b, "tricks": t} for b, t in told], k + 1, ["Ana", "Bea"])
                  for k, told in enumerate(ROUNDS)]
        history = scoring.play(rounds[:-1])[-1]["history"]
        table = scoring.table(*rounds[-1][:3], [history["Ana"], history["Bea"]])
        got = tuple(scoring.values["shown"].run(Env(table, p, ())) for p in range(2))
        assert got == ast.literal_eval(f"({says})"), formula
