"""Nobles en duelo at court: both courts tracked from duel to duel (wounds, deaths, resources, whose turn, the end)."""
import pytest

from companion import service
from companion.core.schema import InputError
from companion.games.nobles import after_duel, court_duel


def court(name, *nobles, resources=0):
    return {"name": name, "nobles": [dict(n) for n in nobles], "resources": resources}


KING = {"noble": "king", "suit": "spades", "weapon": 3}
JACK = {"noble": "jack", "suit": "hearts"}
QUEEN = {"noble": "queen", "suit": "hearts"}


def duel(courts, turn=0, attack=0, target=0, a_dice=(4, 5), d_dice=(1,), **extra):
    return service.score("nobles", {"courts": courts, "turn": turn, "attacker": {"at": attack, "dice": list(a_dice)},
                                    "defender": {"at": target, "dice": list(d_dice)}, **extra})


def test_the_winner_gains_a_resource_the_loser_a_wound_and_the_turn_passes():
    r = duel([court("Ana", KING, JACK), court("Bea", QUEEN, JACK, resources=2)])
    assert r["winner"] == "attacker" and r["seats"] == {"attacker": 0, "defender": 1} and r["turn"] == 1
    ana, bea = r["courts"]
    assert ana["resources"] == 1 and bea["resources"] == 2
    assert bea["nobles"][0] == {**QUEEN, "wounds": 1} and bea["nobles"][1] == JACK and not r["fallen"]
    assert not r["finished"] and r["champion"] is None


def test_the_second_player_attacks_from_their_own_court():
    """turn=1: Bea's noble at 1 (her Jack) attacks Ana's noble at 1 (Ana's Jack)."""
    r = duel([court("Ana", KING, JACK), court("Bea", QUEEN, JACK)], turn=1, attack=1, target=1, a_dice=(6,),
             d_dice=(2,))
    assert r["attacker"]["noble"] == "jack" and r["defender"]["noble"] == "jack" and r["winner"] == "attacker"
    assert r["courts"][0]["nobles"][1]["wounds"] == 1 and r["courts"][1]["resources"] == 1 and r["turn"] == 0


def test_a_noble_at_its_wound_limit_dies_leaves_its_court_and_the_queens_court_follows():
    """A v1 Queen gets +3 for each other noble in her court: after her Jack dies, one fewer."""
    courts = [court("Ana", KING), court("Bea", QUEEN, {**JACK, "wounds": 1}, {"noble": "jack", "suit": "clubs"})]
    r = duel(courts, target=1)
    bea = r["courts"][1]
    assert [n["suit"] for n in bea["nobles"]] == ["hearts", "clubs"] and bea["fallen"] == ["jack:hearts"]
    assert r["fallen"] == [{"seat": 1, "side": "defender", **JACK, "wounds": 2}]
    before = duel(courts, turn=1, attack=0, a_dice=(1,), d_dice=(1, 1))["attacker"]["parts"]["court"]
    after = duel(r["courts"], turn=1, attack=0, a_dice=(1,), d_dice=(1, 1))["attacker"]["parts"]["court"]
    assert (before, after) == (6, 3)


def test_killing_the_last_noble_ends_the_game_and_a_double_kill_is_a_draw():
    r = duel([court("Ana", KING), court("Bea", {**QUEEN, "wounds": 1})])
    assert r["finished"] and r["champion"] == 0 and r["courts"][1]["nobles"] == []
    ace = [{"rank": 1, "suit": "clubs"}]
    both = service.score("nobles", {
        "courts": [court("Ana", {**JACK, "wounds": 1}), court("Bea", {**QUEEN, "wounds": 1})],
        "attacker": {"at": 0, "dice": [1], "cards": ace}, "defender": {"at": 0, "dice": [1], "cards": ace}})
    assert both["winner"] == "tie" and both["finished"] and both["champion"] is None


def test_a_redirected_attack_costs_the_defender_two_resources_unless_a_joker_takes_it():
    r = duel([court("Ana", KING), court("Bea", QUEEN, JACK, resources=3)], target=1, redirected=True)
    assert r["paid"] == 2 and r["courts"][1]["resources"] == 1
    joker = duel([court("Ana", KING), court("Bea", QUEEN, {"noble": "joker"}, resources=0)], target=1,
                 d_dice=(5,), redirected=True)
    assert joker["paid"] == 0 and joker["courts"][1]["fallen"] == ["joker"]
    with pytest.raises(InputError) as e:
        duel([court("Ana", KING), court("Bea", QUEEN, JACK, resources=1)], target=1, redirected=True)
    assert e.value.problems[0].path == ("redirected",)


def test_versions_are_the_games_and_court_problems_name_the_court_row():
    """A v2 King counts his court's resources (+2 each); a missing suit is the court row's problem."""
    r = duel([court("Ana", KING, resources=4), court("Bea", QUEEN)], versions={"king": 2}, a_dice=(4,))
    assert r["attacker"]["version"] == 2 and r["attacker"]["parts"]["resources"] == 8
    with pytest.raises(InputError) as e:
        duel([court("Ana", {"noble": "king"}), court("Bea", QUEEN)])
    assert e.value.problems[0].path == ("courts", 0, "nobles", 0, "suit")
    with pytest.raises(InputError) as e:
        duel([court("Ana", KING), court("Bea", QUEEN)], target=3)
    assert e.value.problems[0].path == ("defender", "at")
    with pytest.raises(InputError) as e:
        duel([court("Ana", KING), court("Bea")])
    assert e.value.problems[0].path == ("courts", 1, "nobles")


def test_after_duel_is_pure():
    courts = [court("Ana", KING), court("Bea", QUEEN)]
    snapshot = repr(courts)
    out = after_duel(courts, 1, 0, 0, {"winner": "defender", "wounds": {"attacker": {"wounds": 1, "dies": False}},
                                       "resources": {"defender": 1}})
    assert repr(courts) == snapshot
    assert out["courts"][0]["resources"] == 1 and out["courts"][1]["nobles"][0]["wounds"] == 1 and out["turn"] == 0
    assert court_duel  # the request-level entry point is the same one service.score takes


def test_resources_left_to_the_table_are_not_made_up_and_a_v2_king_brings_his_to_the_duel():
    """Issue 30: a page that leaves resources to the table's counters sends none with the courts: the courts after
    the duel have none either (not the duel's +1 read as a total), changing the target is not checked against an
    unknown count, and a v2 King's resources come with the duel (`attacker.resources`)."""
    courts = [{"name": "Ana", "nobles": [KING]}, {"name": "Bea", "nobles": [QUEEN, JACK]}]
    r = duel(courts, target=1, redirected=True, versions={"king": 2}, a_dice=(4,))
    assert r["winner"] == "attacker" and r["resources"] == {"attacker": 1} and r["paid"] == 2
    assert all("resources" not in c for c in r["courts"])
    king = service.score("nobles", {"courts": courts, "versions": {"king": 2}, "defender": {"at": 0, "dice": [1]},
                                    "attacker": {"at": 0, "dice": [1], "resources": 3}})
    assert king["attacker"]["parts"]["resources"] == 6
    with pytest.raises(InputError) as e:
        duel(courts, target=1, redirected=True, defender={"at": 1, "dice": [1], "resources": 1})
    assert e.value.problems[0].path == ("redirected",)


def test_a_number_card_without_its_suit_gets_no_suit_bonus():
    """[A] the suit only gives the bonus: an ace or an off-suit card may be given by its rank alone."""
    courts = [court("Ana", KING), court("Bea", QUEEN)]
    plain = service.score("nobles", {"courts": courts, "attacker": {"at": 0, "dice": [1, 1], "cards": [{"rank": 7}]},
                                     "defender": {"at": 0, "dice": [1], "cards": [{"rank": 7, "suit": "hearts"}]}})
    assert plain["attacker"]["parts"]["cards"] == 7 and plain["attacker"]["parts"]["suit_bonus"] == 0
    assert plain["defender"]["parts"]["suit_bonus"] == 2
    only = service.score("nobles", {"courts": courts, "variants": {"suit_only": True},
                                    "attacker": {"at": 0, "dice": [1, 1], "cards": [{"rank": 1}]},
                                    "defender": {"at": 0, "dice": [1]}})
    assert only["winner"] == "attacker" and only["decided_by"] == "ace"
