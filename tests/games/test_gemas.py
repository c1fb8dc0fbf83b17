"""Gemas: points, complete set, winners, and what laying down a set of three does."""
import pytest

from companion import service
from companion.core.schema import InputError


def score(players, lay_down=None):
    return service.score("gemas", {"players": players, **({"lay_down": lay_down} if lay_down else {})})


def p(name, **gems):
    extra = {k: gems.pop(k) for k in ("bandaids", "heart") if k in gems}
    return {"name": name, "gems": gems, **extra}


def rows(result):
    return {r["name"]: r for r in result["players"]}


def test_points_and_who_leads_mid_game():
    """Nobody has a complete set and nobody is out: the game goes on, so A leads but has not won (issue 15)."""
    r = score([p("A", green=1, orange=2), p("B", blue=1, violet=1), p("C")])
    assert {n: x["points"] for n, x in rows(r).items()} == {"A": 6, "B": 5, "C": 0}  # 4+1+1; 3+2
    assert r["leaders"] == ["A"] and r["winners"] == [] and r["won_by"] is None


def test_a_heartless_player_out_of_bandaids_ends_the_game_on_points():
    r = score([p("A", green=1, orange=2), p("B", blue=1, violet=1), p("C", bandaids=0, heart=False)])
    assert r["winners"] == ["A"] and r["won_by"] == "points"
    two = score([p("A", green=1), p("B", bandaids=0, heart=False)])  # two players: only a complete set ends it
    assert two["winners"] == [] and two["leaders"] == ["A"]


def test_a_complete_set_wins_over_more_points():
    r = score([p("A", green=1, blue=1, violet=1, orange=1), p("B", green=2, blue=2, violet=1), p("C")])
    assert rows(r)["B"]["points"] > rows(r)["A"]["points"]
    assert r["winners"] == ["A"] and r["won_by"] == "complete_set"


def test_tied_points_go_to_more_gems_then_share():
    out = {"bandaids": 0, "heart": False}
    assert score([p("A", green=1), p("B", violet=1, orange=2), p("C", blue=1, **out)])["winners"] == ["B"]  # 4 = 4
    assert score([p("A", green=1), p("B", green=1), p("C", blue=1, **out)])["winners"] == ["A", "B"]


def test_reserve_depends_on_player_count():
    assert score([p("A"), p("B")])["reserve"] == {"green": 2, "blue": 3, "violet": 3, "orange": 4}
    assert score([p("A"), p("B"), p("C")])["reserve"] == {"green": 3, "blue": 4, "violet": 4, "orange": 5}
    assert sum(score([p(str(i)) for i in range(6)])["reserve"].values()) == 20


def test_three_gem_cards_take_the_majority_colour():
    r = score([p("A"), p("B"), p("C")], {"player": "A", "set": "gems", "cards": ["blue", "blue", "green"]})
    assert rows(r)["A"]["gems"]["blue"] == 1 and r["reserve"]["blue"] == 3


def test_majority_colour_gone_takes_the_remaining_cards_colour():
    players = [p("A"), p("B", blue=2), p("C", blue=2)]  # 3-player reserve has 4 blue: none left
    r = score(players, {"player": "A", "set": "gems", "cards": ["blue", "green", "blue"]})
    assert rows(r)["A"]["gems"]["green"] == 1


def test_three_different_colours_ask_the_player_to_choose():
    move = {"player": "A", "set": "gems", "cards": ["blue", "green", "violet"]}
    pending = score([p("A"), p("B"), p("C")], move)
    assert pending["pending_choice"]["options"] == ["green", "blue", "violet"]
    assert rows(pending)["A"]["gems"] == {"green": 0, "blue": 0, "violet": 0, "orange": 0}  # nothing happened yet
    chosen = score([p("A"), p("B"), p("C")], {**move, "choice": "violet"})
    assert rows(chosen)["A"]["gems"]["violet"] == 1
    with pytest.raises(InputError, match="lay_down.choice: must be one of"):
        score([p("A"), p("B"), p("C")], {**move, "choice": "orange"})


def test_thieves_take_the_lowest_valued_gem():
    r = score([p("A"), p("B", green=1, violet=1, orange=1), p("C")], {"player": "A", "set": "thief", "target": "B"})
    assert rows(r)["A"]["gems"]["orange"] == 1 and rows(r)["B"]["gems"]["orange"] == 0


def test_last_bandaid_with_a_heart_returns_gems_and_the_attacker_takes_one():
    r = score([p("A"), p("B", green=1, bandaids=1), p("C")], {"player": "A", "set": "chipote", "target": "B"})
    b, a = rows(r)["B"], rows(r)["A"]
    assert a["gems"]["green"] == 1 and sum(b["gems"].values()) == 0
    assert b["heart"] is False and b["bandaids"] == 3
    assert [e["event"] for e in r["events"]] == ["bump", "lose_gems", "lose_heart"]


def test_last_bandaid_without_a_heart_ends_the_game():
    r = score([p("A", orange=1), p("B", violet=1, bandaids=1, heart=False), p("C")],
              {"player": "A", "set": "chipote", "target": "B", "choice": "violet"})
    assert r["events"][-1] == {"event": "game_over", "player": "B"}
    assert r["winners"] == ["A"]  # A 1 + the violet taken 2 = 3 points


def test_two_players_have_no_heart_and_refill():
    r = score([p("A"), p("B", blue=1, bandaids=1)], {"player": "A", "set": "chipote", "target": "B"})
    assert rows(r)["B"]["bandaids"] == 3 and rows(r)["A"]["gems"]["blue"] == 1
    assert r["events"][-1]["event"] == "refill"


def test_healing_gives_back_a_bandaid_up_to_three():
    r = score([p("A", bandaids=2), p("B")], {"player": "A", "set": "healing"})
    assert rows(r)["A"]["bandaids"] == 3
    r = score([p("A"), p("B")], {"player": "A", "set": "healing"})
    assert rows(r)["A"]["bandaids"] == 3


@pytest.mark.parametrize("request_,field,words", [
    ({"players": [p("A", green=3), p("B")]}, "players", "3 green gems held; a 2-player game has 2"),
    ({"players": [p("A", green=5)]}, "players[0].gems.green", "from 0 to 4"),
    ({"players": [p("A", ruby=1)]}, "players[0].gems.ruby", "unknown key"),
    ({"players": [p("A"), p("B", heart=True)]}, "players[1].heart", "without hearts"),
    ({"players": [p("A"), p("B")], "lay_down": {"player": "A", "set": "thief"}}, "lay_down.target", "another player"),
    ({"players": [p("A"), p("B")], "lay_down": {"player": "Z", "set": "healing"}}, "lay_down.player", "no player"),
    ({"players": [p("A"), p("A")]}, "players[1].name", "used by two players"),
])
def test_bad_requests_name_the_field(request_, field, words):
    with pytest.raises(InputError) as e:
        service.score("gemas", request_)
    assert any(str(x).startswith(f"{field}: ") and words in str(x) for x in e.value.problems), e.value


def test_setup_for_teams_and_small_games():
    s = service.setup("gemas", 9, "teams")
    assert [len(t) for t in s["teams"]] == [3, 3, 3] and s["heart"] is False
    assert sorted(sum(s["teams"], [])) == list(range(9))
    s = service.setup("gemas", 4, "four")
    assert s["teams"] is None and s["heart"] is True and [len(h) for h in s["hands"]] == [5] * 4
    assert len(s["deck"]) + 1 + 20 == 98  # the 2 help cards are handed out, not shuffled in
