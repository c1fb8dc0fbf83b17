"""What validate proves of a designer's scoring (companion/scoring/bounds.py and proof.py): the attackers' cases that
validated and then failed at a table are errors naming a table that shows them; what a guard makes safe is proved
without a word; what the proof cannot settle is a warning, and the file still loads."""
import time
from dataclasses import replace

import pytest

from companion import cli
from companion.cards import load_file
from companion.core.schema import InputError
from companion.scoring import compile_formula

GAME = """\
game: probe
title: {es: Prueba, en: Probe}
prefix: PR
players: [2, 4]
fields:
  colour: {choices: [red, blue, green, white, yellow, black, grey, pink, brown, gold]}
  number: {number: [1, 9], optional: true}
components:
  - {id: PR-R1, type: card, qty: 4, colour: red, number: 1, name: {es: R1, en: R1}}
  - {id: PR-R2, type: card, qty: 4, colour: red, number: 2, name: {es: R2, en: R2}}
  - {id: PR-B3, type: card, qty: 4, colour: blue, number: 3, name: {es: B, en: B}}
  - {id: PR-G4, type: card, qty: 4, colour: green, number: 4, name: {es: G, en: G}}
  - {id: PR-X, type: card, qty: 4, colour: grey, name: {es: X, en: X}}
scoring:
  counters:
    k: {name: {es: K, en: K}, number: [0, 9]}
  rules:
    - id: main
      name: {es: Principal, en: Main}
      points: "%(points)s"
  rounds: %(rounds)s
"""
POINTS_LINE, ROUNDS_LINE = 20, 21
HEAVY = "total(each(colour, " * 6 + "count()" + "))" * 6  # 10^6 choices gone through: past any budget


def validate(tmp_path, capsys, points="count()", rounds="3", each=None):
    text = GAME % {"points": points, "rounds": rounds}
    if each:
        text = text.replace("      points:", f"      each: {each}\n      points:")
    path = tmp_path / "probe.yaml"
    path.write_text(text, encoding="utf-8")
    started = time.monotonic()
    code = cli.main(["validate", str(path)])
    out = capsys.readouterr()
    assert "Traceback" not in out.err + out.out
    return code, out.err + out.out, time.monotonic() - started, path


@pytest.mark.parametrize("rounds, says", [
    ('{target: "60 // (players - 3)"}', f"probe.yaml:{ROUNDS_LINE}: scoring.rounds.target: divides by zero when "
                                        f"players is 3"),
    ('{target: "60 % (4 - players)"}', "scoring.rounds.target: divides by zero (% 0) when players is 4"),
])
def test_a_target_that_fails_at_a_middle_player_count_names_it(tmp_path, capsys, rounds, says):
    """Only the fewest and most players were tried: a 3-player sheet answered 500. Now every player count is."""
    code, err, _, _ = validate(tmp_path, capsys, rounds=rounds)
    assert code == 2 and says in err, err


@pytest.mark.parametrize("rounds", ['{target: "60 // (players - 1)"}',
                                    '{target: "60 // (players - 3) if players > 3 else 50"}',
                                    '{target: "60 // (players - 3) if players != 3 else 50"}'])
def test_a_target_safe_on_every_player_count_is_proved_without_a_word(tmp_path, capsys, rounds):
    code, err, _, _ = validate(tmp_path, capsys, rounds=rounds)
    assert code == 0 and "warning" not in err, err


def test_a_counter_gated_nested_each_is_found_at_the_counters_value(tmp_path, capsys):
    """The attackers' gated scan: validate tried the counter at 0 and 9 only, and one request ran for minutes. Now
    the work of a table is bounded for every table, and the table that passes it is named, within seconds."""
    code, err, took, _ = validate(tmp_path, capsys, points=f"count() + ({HEAVY} if k == 5 else 0)")
    assert code == 2, err
    assert "scoring: needs more than 200,000 steps to compute a table when players is 4 and k is 5" in err, err
    assert took < 20


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_heavy_branch_no_table_takes_is_a_warning_not_an_error(tmp_path, capsys):
    """k never passes 9: every branch taken, the largest table passes the budget, yet no legal table does."""
    code, err, _, _ = validate(tmp_path, capsys, points=f"count() + ({HEAVY} if k > 20 else 0)")
    assert code == 0, err
    assert "scoring: warning: a table may need more than 200,000 steps" in err and "1 warning" in err, err


def test_an_each_rule_s_total_keeps_the_bound(tmp_path, capsys):
    """999,999,999 a colour over ten colours totalled 9,999,999,990, past the bound every result keeps."""
    code, err, _, _ = validate(tmp_path, capsys, points="999999999", each="colour")
    assert code == 2 and f"probe.yaml:{POINTS_LINE + 1}: scoring.rules[0].points: a result of more than " \
                          f"1,000,000,000 is out of range" in err, err
    code, err, _, _ = validate(tmp_path, capsys, points="99999999", each="colour")
    assert code == 0, err


@pytest.mark.parametrize("points, says", [
    ("sum(number) // count(number > 3)", "divides by zero when players is 2, with nothing held"),
    ("k * 1000 // (k - 4)", "divides by zero when k is 4"),
    ("sum(number) * 100000000", "is out of range when players is 2, every copy dealt among the players"),
    ("count(colour == 3)", "compares the text 'red' with a number when players is 2, one player holding one copy"),
])
def test_a_failure_is_named_with_a_table_that_shows_it(tmp_path, capsys, points, says):
    code, err, _, _ = validate(tmp_path, capsys, points=points)
    assert code == 2 and "scoring.rules[0].points: " in err and says in err, err


@pytest.mark.parametrize("points", [
    "sum(number) // count() if count() else 0",
    "sum(number) // count() if count() > 0 else 0",
    "0 if not count() else sum(number) // count()",
    "count() > 0 and sum(number) // count() > 2",
    "max(number) // (k + 1)",
    "total(each(colour, most(count(), [5, 2]) if count() else 0))",
    "most(sum(number), [5, 3]) + fewest(count(), [2]) - k * k",
])
def test_a_formula_safe_on_every_table_is_proved_without_a_word(tmp_path, capsys, points):
    code, err, _, _ = validate(tmp_path, capsys, points=points)
    assert code == 0 and "warning" not in err, err


def test_what_the_proof_cannot_settle_is_a_warning_naming_the_formula(tmp_path, capsys):
    """count() - count(red) + 1 is never 0 (a hand's reds are among its cards), but ranges alone cannot tell."""
    code, err, _, path = validate(tmp_path, capsys, points="sum(number) // (count() - count(colour == 'red') + 1)")
    assert code == 0, err
    assert f"probe.yaml:{POINTS_LINE}: scoring.rules[0].points: warning: " in err and "may divide by zero" in err
    assert "no legal table was found" in err
    assert load_file(path).scoring is not None  # it loads, scores and builds


def test_a_formula_that_still_fails_at_a_table_is_a_400_naming_it(tmp_path):
    """A file that reached a table without the proof (its rule replaced here after loading): the answer is a 400
    naming the rule, never a 500."""
    from companion.games import generic

    path = tmp_path / "probe.yaml"
    path.write_text(GAME % {"points": "count()", "rounds": "3"}, encoding="utf-8")
    card_set = load_file(path)
    rule = card_set.scoring.rules[0]
    broken = replace(card_set, scoring=replace(card_set.scoring, rules=(
        replace(rule, points=compile_formula("10 // (k - 4)", rule.points.names)),)))
    with pytest.raises(InputError) as e:
        generic.score({"players": [{"name": "Ana", "counters": {"k": 4}}, {"name": "Bea"}]}, broken)
    said = e.value.problems[0].message
    assert "scoring.rules[0].points (main): divides by zero" in said, said


def test_a_request_needs_the_players_the_game_allows(tmp_path):
    """A 2–4 player game scored for one player would be a table validate never proved: a 400 naming it."""
    from companion.games import generic

    path = tmp_path / "probe.yaml"
    path.write_text(GAME % {"points": "count()", "rounds": "3"}, encoding="utf-8")
    card_set = load_file(path)
    with pytest.raises(InputError) as e:
        generic.score({"players": [{"name": "Ana"}]}, card_set)
    assert e.value.problems[0].path == ("players",), e.value.problems
