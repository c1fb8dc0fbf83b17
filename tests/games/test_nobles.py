"""Nobles en duelo: duel strength from its parts, aces, the Joker, wounds, resources and variants."""
import pytest

from companion import service
from companion.core.schema import InputError


def duel(attacker, defender, **extra):
    return service.score("nobles", {"attacker": attacker, "defender": defender, **extra})


def noble(kind, suit="spades", version=1, **more):
    return {"noble": kind, "suit": suit, "version": version, **more}


def test_king_v1_with_weapon_two_dice_and_a_matching_card_beats_a_queen_with_her_court():
    r = duel(noble("king", weapon=3, dice=[4, 5], cards=[{"rank": 7, "suit": "spades"}]),
             noble("queen", "hearts", dice=[6], court=3, cards=[{"rank": 9, "suit": "clubs"}]))
    assert r["attacker"]["total"] == 13 + 3 + 9 + 7 + 2 == 34
    assert r["defender"]["total"] == 12 + 6 + 9 + 3 * 2 == 33  # +3 for each of two other nobles
    assert r["winner"] == "attacker" and r["resources"] == {"attacker": 1}
    assert r["wounds"] == {"defender": {"wounds": 1, "dies": False}}


def test_v2_nobles():
    jack = noble("jack", version=2, weapon=5, dice=[1], cards=[{"rank": 4, "suit": "spades"}])
    assert duel(jack, noble("jack", dice=[1]))["attacker"]["total"] == 11 + 5 + 1 + 4 + 4
    queen = noble("queen", version=2, dice=[2], hand=5)
    r = duel(noble("jack", dice=[1]), queen)
    assert r["defender"]["total"] == 12 + 2 + 5 + 1  # +1 a card in hand, +1 defending
    king = noble("king", version=2, dice=[3], resources=4)
    assert duel(king, noble("jack", dice=[1]))["attacker"]["total"] == 13 + 3 + 8


def test_an_ace_wins_outright_and_two_aces_tie():
    ace = [{"rank": 1, "suit": "hearts"}]
    r = duel(noble("jack", dice=[1], cards=ace), noble("king", dice=[6, 6], weapon=3))
    assert r["winner"] == "attacker" and r["decided_by"] == "ace"
    r = duel(noble("jack", dice=[1], cards=ace), noble("queen", dice=[1], cards=ace))
    assert r["winner"] == "tie" and set(r["wounds"]) == {"attacker", "defender"} and r["resources"] == {}


def test_a_tie_wounds_both_and_a_noble_dies_at_its_limit():
    r = duel(noble("jack", dice=[2], wounds=1), noble("jack", "hearts", dice=[2]))
    assert r["winner"] == "tie"
    assert r["wounds"] == {"attacker": {"wounds": 2, "dies": True}, "defender": {"wounds": 1, "dies": False}}


@pytest.mark.parametrize("die,cancelled", [(1, True), (3, True), (4, False), (6, False)])
def test_a_defending_joker_cancels_on_one_to_three(die, cancelled):
    r = duel(noble("king", dice=[6, 6]), {"noble": "joker", "dice": [die]})
    assert r["cancelled"] is cancelled
    assert (r["winner"] == "none") is cancelled


def test_suit_only_variant_refuses_other_suits_and_drops_the_bonus():
    card = [{"rank": 5, "suit": "spades"}]
    r = duel(noble("jack", dice=[1], cards=card), noble("jack", dice=[1]), variants={"suit_only": True})
    assert r["attacker"]["parts"]["suit_bonus"] == 0 and r["attacker"]["total"] == 17
    with pytest.raises(InputError, match=r"attacker\.cards\[0\]\.suit"):
        duel(noble("jack", "hearts", dice=[1], cards=card), noble("jack", dice=[1]), variants={"suit_only": True})


def test_poker_hand_adds_two_unless_an_ace_was_played():
    r = duel(noble("jack", dice=[3]), noble("jack", dice=[3]), variants={"poker": "defender"})
    assert r["winner"] == "defender" and r["defender"]["parts"]["poker"] == 2
    ace = [{"rank": 1, "suit": "spades"}]
    r = duel(noble("jack", dice=[3], cards=ace), noble("jack", dice=[3]), variants={"poker": "defender"})
    assert "poker" not in r["defender"]["parts"]


def test_missing_dice_are_rolled_reported_and_reproducible_with_a_seed():
    a = duel(noble("king"), noble("queen"), seed="roll")
    b = duel(noble("king"), noble("queen"), seed="roll")
    assert a == b and len(a["attacker"]["dice"]) == 2 and a["attacker"]["rolled"] is True
    assert all(1 <= d <= 6 for d in a["attacker"]["dice"] + a["defender"]["dice"]) and a["seed"] == "roll"


@pytest.mark.parametrize("attacker,field,words", [
    (noble("jack", weapon=4), "attacker.weapon", "must be 0 or 2 or 3"),
    (noble("king", dice=[3]), "attacker.dice", "rolls 2 dice"),
    (noble("queen", cards=[{"rank": 2, "suit": "clubs"}, {"rank": 3, "suit": "clubs"}]), "attacker.cards",
     "at most 1 card"),
    (noble("queen", wounds=2), "attacker.wounds", "dies at 2"),
    ({"noble": "jack"}, "attacker.suit", "is missing"),
    (noble("duke"), "attacker.noble", "unknown noble"),
    (noble("jack", cards=[{"rank": 11, "suit": "clubs"}]), "attacker.cards[0].rank", "from 1 to 10"),
])
def test_bad_duels_name_the_field(attacker, field, words):
    with pytest.raises(InputError) as e:
        duel(attacker, noble("jack", dice=[1]))
    assert any(str(p).startswith(f"{field}: ") and words in str(p) for p in e.value.problems), e.value


def test_setup_deals_six_nobles_each_and_six_number_cards():
    s = service.setup("nobles", 2, "n", {"jokers": "yes"})
    assert [len(n) for n in s["nobles_dealt"]] == [6, 6] and len(s["noble_deck"]) == 2  # 12 + 2 jokers - 12
    assert [len(h) for h in s["hands"]] == [6, 6] and len(s["number_deck"]) == 28
    d = service.setup("nobles", 2, "n", {"double": "yes"})
    assert d["keep"] == 6 and [len(n) for n in d["nobles_dealt"]] == [12, 12] and len(d["number_deck"]) == 68
