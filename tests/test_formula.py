"""The formula language of scoring: (scoring/formula.py): what it computes, and every broken formula the contract
lists refused by name, at its line, by validate (exit 2, no traceback)."""
import textwrap

import pytest

from companion import cli
from companion.scoring import Env, Scoring, Table, names_for
from companion.scoring.formula import NONE, FormulaError, compile_formula, place_points

NAMES = names_for({"colour": ("red", "blue", "green"), "number": None, "sort": ("expedition", "wager"), "id": None},
                  ["icons"], {"flavour": "is a translated text"}, ["chips"], ["piles"])


def run(text, hands, counters=None, player=0, players=None):
    """`text` computed for `player` at a table of `hands` (each a list of (fields, copies))."""
    formula = compile_formula(text, NAMES)
    scoring = Scoring(rules=(), values={"piles": compile_formula("count()", NAMES)})
    counters = counters or [{"chips": 0} for _ in hands]
    table = Table(scoring, hands, counters, 1, True)
    return formula.run(Env(table, player, ()))


def card(colour, number=NONE, sort="expedition"):
    out = {"colour": colour, "sort": sort, "id": f"{colour}-{number}"}
    if number is not NONE:
        out["number"] = number
    return out


HAND = [(card("red", 3), 1), (card("red", 4), 2), (card("red", 5), 1), (card("blue", 9), 1),
        (card("red", sort="wager"), 1)]


@pytest.mark.parametrize("text, expected", [
    ("count()", 6), ("count(colour == 'red')", 5), ("sum(number)", 3 + 8 + 5 + 9), ("sum(number, colour == 'red')", 16),
    ("max(number)", 9), ("min(number, colour == 'red')", 3), ("max(number, colour == 'green')", 0),
    ("distinct(colour)", 2), ("run_lengths(number)", [3, 1]), ("run_lows(number)", [3, 9]),
    ("each(colour, count())", [5, 1, 0]), ("table(count(), [0, 1, 3])", 3), ("table(-1, [7, 8])", 7),
    ("total([1, 2, 3])", 6), ("length(run_lows(number))", 2), ("top(2, [5, 1, 9])", [9, 5]),
    ("bottom(1, [5, 1, 9])", [1]), ("highest([])", 0), ("lowest([4, 2])", 2), ("-7 // 2", -4), ("-7 % 3", 2),
    ("1 < count() <= 6", True), ("3 if count(sort == 'wager') else 4", 3), ("not count()", False),
    ("chips * 2 + piles", 6), ("count(number > 4)", 2), ("count(number != 4)", 4),
])
def test_functions_compute_as_the_contract_says(text, expected):
    assert run(text, [HAND]) == expected


def test_most_and_fewest_split_tied_places():
    hands = [[(card("red", 1), n)] for n in (3, 3, 1, 0)]
    assert [run("most(count(), [6, 3])", hands, player=p) for p in range(4)] == [3, 3, 0, 0]
    assert [run("fewest(count(), [6, 3])", hands, player=p) for p in range(4)] == [0, 0, 3, 6]
    assert place_points([5, 4, 4, 1], [10, 6, 2]) == [10, 3, 3, 0]


def test_each_restricts_every_players_hand_for_majorities():
    hands = [[(card("red", 1), 2), (card("blue", 1), 1)], [(card("red", 1), 1), (card("blue", 1), 3)]]
    assert run("each(colour, most(count(), [5]))", hands, player=0) == [5, 0, 2]  # green: 0 and 0 tie, split 5
    assert run("each(colour, most(count(), [5]))", hands, player=1) == [0, 5, 2]
    assert run("each(colour, most(count(), [5]) if count() else 0)", hands, player=1) == [0, 5, 0]


@pytest.mark.parametrize("text, says", [
    ("colur", "unknown name 'colur'; did you mean 'colour'?"),
    ("number + 1", "'number' is a card field: use it inside count/sum"),
    ("count() / 2", "'/' divides into fractions: use '//'"),
    ("count() ** 2", "'**' is not part of the language"),
    ("chips.real", "attribute access"),
    ("[1, 2][0]", "subscripts"),
    ("open('x')", "unknown function 'open'"),
    ("summ(number)", "did you mean 'sum'?"),
    ("(lambda: 1)()", "only the language's functions can be called"),
    ("lambda: 1", "lambda is not part of the language"),
    ("[x for x in [1]]", "comprehensions are not part of the language"),
    ("count(" * 5 + ")" * 5, "count() inside a card's formula"),
    ("1 +" * 300 + "1", "characters long" if len("1 +" * 300) > 1000 else "parts"),
    ("+".join(["1"] * 150), "a formula has at most 200"),
    ("-" * 60 + "1", "nests too deeply"),
    ("each(icons, count())", "'icons' is a list field"),
    ("each(flavour, count())", "'flavour' is a translated text"),
    ("__import__('os')", "unknown function '__import__'"),
    ("count(colour == 'red', 1, 2)", "count() takes 0 or 1 argument"),
    ("10 ** 100", "'**'"),
    ("{1: 2}", "mappings"),
    ("f'{chips}'", "f-strings"),
    ("chips if True else 1", "only whole numbers"),
    ("1.5 + chips", "only whole numbers and 'text'"),
    ("'a' in 'abc'", "compare with =="),
    ("count(colour == 'rde')", "'rde' is not a choice of 'colour'; did you mean 'red'?"),
])
def test_broken_formulas_are_refused_by_name(text, says):
    with pytest.raises(FormulaError) as e:
        compile_formula(text, NAMES)
    assert says in str(e.value)


@pytest.mark.parametrize("text, says", [
    ("chips // (count() - count())", "divides by zero"),
    ("sum(number) + (colour == 'red' if 0 else 1)", None),
    ("count(number > 'a')", "compares a number with the text 'a'"),
    ("1000000 * 1000000", "out of range"),
    ("total(each(colour, 999999999)) * 3", "out of range"),
    ("max(sort + 1)", "needs numbers"),
])
def test_what_a_hand_finds_at_run_time_is_a_formula_error(text, says):
    if says is None:
        with pytest.raises(FormulaError):
            compile_formula(text, NAMES)
        return
    with pytest.raises(FormulaError) as e:
        run(text, [HAND])
    assert says in str(e.value)


GAME = """\
game: probe
title: {es: Prueba, en: Probe}
prefix: PR
players: [2, 4]
fields:
  colour: {choices: [red, blue]}
  number: {number: [1, 9], optional: true}
  icons: {list: true, optional: true}
components:
  - {id: PR-R1, type: card, qty: 2, colour: red, number: 1, name: {es: R1, en: R1}}
  - {id: PR-B, type: card, colour: blue, name: {es: B, en: B}}
scoring:
  counters:
    chips: {name: {es: Fichas, en: Chips}, number: [0, 9]}
  values:
    reds: "count(colour == 'red')"
  rules:
    - id: main
      name: {es: Principal, en: Main}
      points: "%s"
"""


@pytest.mark.parametrize("points, says", [
    ("colur", "unknown name 'colur'; did you mean 'colour'?"),
    ("number", "'number' is a card field: use it inside count/sum"),
    ("reds / 2", "'/' divides into fractions: use '//'"),
    ("reds // (chips - chips)", "divides by zero when players is 2 and chips is 0, with nothing held"),
    ("sum(number)", None),
    ("count(colour > 3)", "compares the text 'red' with a number"),
    ("reds * 1000000 * 1000000 + 1", "out of range"),
    ("each(icons, 1)", "'icons' is a list field"),
])
def test_validate_names_each_problem_at_its_line(tmp_path, capsys, points, says):
    path = tmp_path / "probe.yaml"
    path.write_text(GAME % points, encoding="utf-8")
    code = cli.main(["validate", str(path)])
    out = capsys.readouterr()
    if says is None:  # sum skips a card without the field: fine
        assert code == 0, out.err
        return
    assert code == 2
    assert "probe.yaml:20: scoring.rules[0].points: " in out.err and says in out.err, out.err
    assert "Traceback" not in out.err + out.out


def test_a_cycle_of_values_and_a_name_taken_twice_are_refused(tmp_path, capsys):
    text = GAME % "a" + textwrap.indent("", "")
    text = text.replace('    reds: "count(colour == \'red\')"', '    a: "b + 1"\n    b: "a * 2"\n    colour: "1"')
    path = tmp_path / "probe.yaml"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "a cycle of values: a → b → a" in err
    assert "scoring.values.colour: 'colour' is already a card field" in err


@pytest.mark.slow  # runs nested each to its step limit (about 9–18 s)
def test_nested_each_cannot_hold_the_server(tmp_path, capsys):
    """Each nested each() multiplies the work: a table's scoring stops past MAX_STEPS, found by validate."""
    import time

    nested = "total(each(colour, " * 18 + "count()" + "))" * 18
    path = tmp_path / "probe.yaml"
    path.write_text(GAME % nested, encoding="utf-8")
    started = time.monotonic()
    assert cli.main(["validate", str(path)]) == 2
    assert time.monotonic() - started < 10
    assert "steps to compute a table" in capsys.readouterr().err


def test_more_counters_or_values_than_the_limit_are_refused(tmp_path, capsys):
    """MAX_COUNTERS and MAX_VALUES (20 and 40, docs/card-data.md) bound a section, at load, naming the part."""
    from companion.scoring import MAX_COUNTERS, MAX_VALUES

    counters = "".join(f"    c{i}: {{name: {{es: C, en: C}}}}\n" for i in range(MAX_COUNTERS + 1))
    values = "".join(f'    v{i}: "{i}"\n' for i in range(MAX_VALUES + 1))
    text = (GAME % "count()").replace("    chips: {name: {es: Fichas, en: Chips}, number: [0, 9]}\n", counters)
    text = text.replace("    reds: \"count(colour == 'red')\"\n", values)
    path = tmp_path / "probe.yaml"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"scoring.counters: has {MAX_COUNTERS + 1} entries; at most {MAX_COUNTERS}" in err
    assert f"scoring.values: has {MAX_VALUES + 1} entries; at most {MAX_VALUES}" in err
    at_most = text.replace(f"    c{MAX_COUNTERS}: {{name: {{es: C, en: C}}}}\n", "")
    path.write_text(at_most.replace(f'    v{MAX_VALUES}: "{MAX_VALUES}"\n', ""), encoding="utf-8")
    assert cli.main(["validate", str(path)]) == 0, capsys.readouterr().err


def test_every_most_and_fewest_answers_with_its_own_places(monkeypatch):
    """A table's places are kept under a key that lives as long as its compiled formula, never an object's address:
    a syntax tree is freed once compiled, so a later formula's parts could take an earlier one's address (which of
    them do is the allocator's choice). Here every address is the same one, as if each later tree took the first
    one's: twelve `most`/`fewest` still each answer with their own points, computed again here by place_points."""
    from companion.scoring import formula

    monkeypatch.setattr(formula, "id", lambda _obj: 140_000_000, raising=False)  # (the module's `id`, shadowed)
    hands = [[(card("red", n), n % 3 + 1), (card("blue", 9 - n), 1), (card("green", n), (n * 5) % 4 + 1)]
             for n in range(1, 5)]
    formulas = []
    for i in range(12):
        colour = ("red", "blue", "green")[i % 3]
        how = "most" if i % 2 else "fewest"
        formulas.append((compile_formula(f"{how}(sum(number, colour == '{colour}'), [{i + 10}, {i + 3}])", NAMES),
                         colour, how, [i + 10, i + 3]))
    scoring = Scoring(rules=(), values={"piles": compile_formula("count()", NAMES)})
    table = Table(scoring, hands, [{"chips": 0} for _ in hands], 1, True)
    for formula_, colour, how, points in formulas:
        sums = [sum(f["number"] * n for f, n in hand if f["colour"] == colour) for hand in hands]
        expected = place_points(sums, points, highest_first=how == "most")
        assert [formula_.run(Env(table, p, ())) for p in range(4)] == expected, formula_.text
