"""The rules' limits checked across a whole request (issue 15, item 10): what one game cannot hold, refused with
the card or the seat named."""
import pytest

from companion import service
from companion.core.schema import InputError

RAINBOW = {"stones": ["rainbow"], "wish": {"stone": "rainbow", "count": 1, "florins": 5}}
GOLD = {"stones": ["gold", "ruby", "pearl", "jet"]}
GEMS = {"green": 0, "blue": 0, "violet": 0, "orange": 0}


def test_duquesa_counts_rainbow_and_gold_cards_typed_out_over_the_whole_game():
    three_rainbows = {"common": "DQ01", "players": [{"name": "A", "hand": [RAINBOW, RAINBOW, "DQ02", "DQ03"]},
                                                    {"name": "B", "hand": [RAINBOW, "DQ04", "DQ05", "DQ06"]}]}
    with pytest.raises(InputError, match=r"players\[1\]\.hand\[0\]: the game has 2 rainbow cards"):
        service.score("duquesa", three_rainbows)
    five_gold = {"common": GOLD, "players": [{"name": "A", "hand": [GOLD, GOLD, "DQ02", "DQ03"]},
                                             {"name": "B", "hand": [GOLD, GOLD, "DQ05", "DQ06"]}]}
    with pytest.raises(InputError, match=r"players\[1\]\.hand\[1\]: the game has 4 gold cards"):
        service.score("duquesa", five_gold)


def test_duplicon_cards_are_won_in_pairs():
    with pytest.raises(InputError, match=r"rounds\[0\]\[1\]\.won: cards are won in pairs: 7 is odd"):
        service.score("duplicon", {"rounds": [[{"name": "A", "won": 8, "hand": 0, "zone": 0},
                                               {"name": "B", "won": 7, "hand": 0, "zone": 0}]]})


def test_gemas_needs_two_players_and_a_chipote_needs_a_band_aid_to_take():
    with pytest.raises(InputError, match="players: a game has at least 2 players, got 1"):
        service.score("gemas", {"players": [{"name": "A", "gems": {**GEMS, "green": 1}}]})
    with pytest.raises(InputError, match="lay_down.target: B has no band-aid left to lose"):
        service.score("gemas", {"players": [{"name": "A", "gems": GEMS}, {"name": "B", "gems": GEMS, "bandaids": 0}],
                                "lay_down": {"player": "A", "set": "chipote", "target": "B"}})


@pytest.mark.parametrize("part,value", [("suit", "hearts"), ("version", 2), ("weapon", 3)])
def test_a_joker_has_no_suit_version_or_weapon(part, value):
    king = {"noble": "king", "version": 1, "suit": "spades", "dice": [3, 4]}
    with pytest.raises(InputError, match=rf"defender\.{part}: a Joker has no"):
        service.score("nobles", {"attacker": king, "defender": {"noble": "joker", "dice": [5], part: value}})


def test_the_duel_page_drops_what_a_joker_cannot_have(client):
    form = ("attacker.noble=king&attacker.version:int=1&attacker.suit=spades&attacker.dice:ints=3+4"
            "&defender.noble=joker&defender.version:int=1&defender.suit=hearts&defender.dice:ints=5")
    assert client.get(f"/score/nobles?{form}").status_code == 200
