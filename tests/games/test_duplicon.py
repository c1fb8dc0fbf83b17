"""Duplicon rounds: the rulebook's example, totals to the target, the winners."""
import pytest

from companion import service
from companion.core.schema import InputError


def score(rounds, **extra):
    return service.score("duplicon", {"rounds": rounds, **extra})


def entry(name, won, hand=0, zone=0):
    return {"name": name, "won": won, "hand": hand, "zone": zone}


def test_rulebook_example_28_minus_6_minus_3_is_19():
    assert score([[entry("A", 28, 3, 1), entry("B", 0)]])["rounds"][0]["A"] == 19


def test_totals_add_up_and_may_go_negative():
    r = score([[entry("A", 10, 1, 0), entry("B", 0, 3, 2)], [entry("A", 6), entry("B", 2, 0, 1)]])
    assert r["totals"] == {"A": 14, "B": -13} and r["finished"] is False and r["winners"] == []  # B: -12, then -1
    assert r["leaders"] == ["A"]


def test_the_game_ends_with_the_round_someone_reaches_the_target_highest_total_wins():
    r = score([[entry("A", 48), entry("B", 48)], [entry("A", 48), entry("B", 48)], [entry("A", 4), entry("B", 10)]])
    assert r["finished"] is True and r["totals"] == {"A": 100, "B": 106} and r["winners"] == ["B"]


def test_a_tie_at_the_end_shares_the_win_and_the_target_can_change():
    r = score([[entry("A", 30), entry("B", 30)]], target=30)
    assert r["finished"] and r["winners"] == ["A", "B"]


@pytest.mark.parametrize("rounds,field,words", [
    ([[entry("A", 60), entry("B", 0)], [entry("A", 60), entry("B", 0)], [entry("A", 1), entry("B", 0)]],
     "rounds[2]", "the game ended after round 2"),
    ([[entry("A", 60), entry("B", 50)]], "rounds[0]", "more than the 96 cards"),
    ([[entry("A", 1), entry("B", 0)], [entry("A", 1), entry("C", 0)]], "rounds[1]", "same players"),
    ([[entry("A", -1), entry("B", 0)]], "rounds[0][0].won", "from 0 to 96"),
    ([[entry("A", 1)]], "rounds[0]", "must have 2 to 4 items"),
    ([[entry("A", 1), entry("A", 2)]], "rounds[0][1].name", "used by two players"),
])
def test_bad_rounds_name_the_field(rounds, field, words):
    with pytest.raises(InputError) as e:
        score(rounds)
    assert any(str(p).startswith(f"{field}: ") and words in str(p) for p in e.value.problems), e.value


def test_setup_grid_opening_turns_hands_and_first_player():
    for seed in map(str, range(30)):
        s = service.setup("duplicon", 4, seed)
        grid = sum(s["grid"], [])
        assert len(grid) == 9 and [len(h) for h in s["hands"]] == [3] * 4
        assert len(grid) + len(s["non_scoring"]) + 12 + len(s["deck"]) == 96
        *pairs, last = s["opening_turns"]
        assert all(t["pair"] for t in pairs) and not last["pair"]
        assert len(s["non_scoring"]) == 2 * len(pairs)
        assert s["first_player"] == (s["dealer"] - 1) % 4
