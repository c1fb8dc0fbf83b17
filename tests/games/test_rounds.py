"""Rounds to a target (companion/games/rounds.py), the piece every game of rounds scores with, shown on a game
that is not one of ours: a round is each player's points as typed."""
import pytest

from companion.core.schema import InputError, Int, Record
from companion.games import rounds
from companion.games.base import NAME, checked

ENTRY = Record({"name": NAME, "points": Int(-50, 50)}, required=("name", "points"))


def score(request, target=30, check=None):
    req = checked(rounds.request(ENTRY, (2, 3)), request)
    return rounds.score(req["rounds"], req.get("target", target), lambda e: e["points"], check)


def play(*rounds_):
    return {"rounds": [[{"name": name, "points": points} for name, points in r.items()] for r in rounds_]}


def test_totals_lead_until_someone_reaches_the_target_then_the_round_ends_the_game():
    going = score(play({"Ana": 10, "Bo": 12}, {"Ana": 15, "Bo": 3}))
    assert going["totals"] == {"Ana": 25, "Bo": 15} and not going["finished"]
    assert going["leaders"] == ["Ana"] and going["winners"] == []
    over = score(play({"Ana": 10, "Bo": 12}, {"Ana": 15, "Bo": 20}))  # both pass 30: the most points win
    assert over["finished"] and over["winners"] == ["Bo"] and over["rounds"][1] == {"Ana": 15, "Bo": 20}
    assert score({**play({"Ana": 5, "Bo": 5}), "target": 5})["winners"] == ["Ana", "Bo"]  # a shared win


def test_every_problem_is_named_at_its_round():
    with pytest.raises(InputError) as e:
        score(play({"Ana": 40, "Bo": 0}, {"Ana": 1, "Cy": 2}, {"Ana": 1, "Bo": 1}))
    assert [str(p) for p in e.value.problems] == [
        "rounds[1]: must list the same players as round 1: Ana, Bo",
        "rounds[2]: the game ended after round 1: someone reached 30"]


def test_a_game_adds_its_own_checks_of_a_round():
    def even(entries, path, problems):
        for j, e in enumerate(entries):
            if e["points"] % 2:
                problems.add((*path, j, "points"), "must be even")

    with pytest.raises(InputError) as e:
        score(play({"Ana": 2, "Bo": 3}), check=even)
    assert [str(p) for p in e.value.problems] == ["rounds[0][1].points: must be even"]
    assert rounds.sheet_points(score(play({"Ana": 2, "Bo": 4}), check=even)) == [("Ana", 2), ("Bo", 4)]
