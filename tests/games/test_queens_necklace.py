"""Queen's Necklace sales: each rule with a hand-computed answer, a three-sale game, and illegal sales."""
import pytest

from companion import service
from companion.core.schema import InputError

FASHION = ["diamond", "emerald", "ruby", "amber"]  # +30 +20 +10 0


def sale(*players, fashion=FASHION):
    return service.score("queens-necklace", {"fashion": fashion, "players": list(players)})


def earned(result):
    return {p["name"]: p["earned"] for p in result["players"]}


def test_rarity_fewest_gems_first_and_a_tie_goes_to_the_more_fashionable():
    r = sale({"name": "A", "shown": {"diamond": [2], "emerald": [2], "ruby": [3], "amber": [1]}},
             {"name": "B", "shown": {}})
    # amber 1 < diamond 2 = emerald 2 (diamond is more fashionable: rarer) < ruby 3
    assert r["rarity"] == {"amber": 30, "diamond": 20, "emerald": 10, "ruby": 0}
    assert r["prices"] == {"diamond": 50, "emerald": 30, "ruby": 10, "amber": 30}


def test_a_type_nobody_shows_is_the_rarest():
    r = sale({"name": "A", "shown": {"diamond": [1], "ruby": [1], "amber": [1]}}, {"name": "B", "shown": {}})
    assert r["rarity"]["emerald"] == 30


def test_majority_sells_and_tied_majorities_all_sell():
    r = sale({"name": "A", "shown": {"ruby": [3]}}, {"name": "B", "shown": {"ruby": [2, 1]}},
             {"name": "C", "shown": {"ruby": [1]}})
    # ruby: 7 gems, the only type shown → rarity 0; fashion +10 → price 10; A and B tie on 3.
    assert earned(r) == {"A": 10, "B": 10, "C": 0}


def test_rings_sell_extra_jewels_and_bankers_add_10_each():
    r = sale({"name": "A", "shown": {"diamond": [3]}, "rings": {"diamond": 2}, "bankers": 2},
             {"name": "B", "shown": {"diamond": [1]}})
    # diamond: fashion 30, the only type shown so rarity 0 → 30; A sells 3 jewels at 30 + 20.
    assert earned(r) == {"A": 150, "B": 0}


def test_a_ring_on_a_lost_majority_is_wasted():
    r = sale({"name": "A", "shown": {"emerald": [1]}, "rings": {"emerald": 1}},
             {"name": "B", "shown": {"emerald": [2]}})
    assert earned(r)["A"] == 0


def test_a_king_cancels_the_sale_of_its_type_whoever_played_it():
    r = sale({"name": "A", "shown": {"ruby": [3], "amber": [1]}}, {"name": "B", "shown": {"ruby": [1]}, "king": "ruby"})
    # ruby cancelled; amber: fashion 0 + rarity 10 (unseen diamond and emerald are rarer, rubies commoner)
    assert earned(r) == {"A": 10, "B": 0}
    assert r["players"][0]["sales"][0]["cancelled_by_king"] is True


def test_the_necklace_beats_kings_and_each_king_pays_it_50():
    r = sale({"name": "A", "shown": {"ruby": [3]}, "necklace": "ruby"},
             {"name": "B", "shown": {"ruby": [1]}, "king": "ruby"},
             {"name": "C", "shown": {"ruby": [1], "diamond": [1]}, "king": "ruby"})
    # ruby price: fashion 10 + rarity (5 rubies, 1 diamond; emerald & amber unseen) 0 = 10
    assert r["prices"]["ruby"] == 10
    assert earned(r) == {"A": 10 + 100, "B": -50, "C": -50 + r["prices"]["diamond"]}
    assert len(r["tributes"]) == 2


def test_no_tribute_from_the_necklace_owner_to_itself():
    r = sale({"name": "A", "shown": {"ruby": [3]}, "necklace": "ruby", "king": "ruby"},
             {"name": "B", "shown": {"ruby": [1]}})
    assert r["tributes"] == [] and earned(r)["A"] == r["prices"]["ruby"]


def test_the_alchemist_moves_a_card_before_rarity_and_rings_stay():
    r = sale({"name": "A", "shown": {"diamond": [2, 1]}, "rings": {"diamond": 1},
              "alchemist": {"from": "diamond", "gems": 2, "to": "emerald"}},
             {"name": "B", "shown": {"emerald": [1], "diamond": [2]}})
    # after the move: A diamond 1, emerald 2; B diamond 2, emerald 1 → totals diamond 3, emerald 3
    assert r["totals"]["diamond"] == 3 and r["totals"]["emerald"] == 3
    lines = {p["name"]: {s["gem"]: s for s in p["sales"]} for p in r["players"]}
    assert lines["A"]["emerald"]["jewels"] == 1  # the Ring stayed on diamonds, which B now wins
    assert lines["B"]["diamond"]["gems"] == 2


def test_scores_can_go_negative_and_a_game_of_three_sales_totals_them():
    tribute = {"fashion": FASHION, "players": [
        {"name": "A", "shown": {"ruby": [3]}, "necklace": "ruby"},
        {"name": "B", "shown": {"ruby": [1]}, "king": "ruby"}]}
    quiet = {"fashion": FASHION, "players": [{"name": "A", "shown": {}}, {"name": "B", "shown": {"amber": [1]}}]}
    r = service.score("queens-necklace", {"sales": [tribute, quiet, quiet]})
    # sale 1: A sells rubies at 10 + 30 (only type shown... rarity 0) → 10, +50 tribute; B -50
    # sales 2 and 3: B sells amber: fashion 0 + rarity 0 (the only type shown) = 0
    assert r["totals"] == {"A": 60, "B": -50} and r["winners"] == ["A"] and r["finished"] is True


@pytest.mark.parametrize("players,field,words", [
    ([{"name": "A", "shown": {"ruby": [1]}, "rings": {"diamond": 1}}], "rings.diamond", "with at least one diamond"),
    ([{"name": "A", "shown": {"ruby": [1]}, "king": "emerald"}], "king", "at least one emerald"),
    ([{"name": "A", "shown": {"ruby": [1]}, "necklace": "ruby"},
      {"name": "B", "shown": {"ruby": [1]}, "necklace": "ruby"}],
     "players[1].necklace", "only one player can hold the Necklace"),  # said at the second one
    ([{"name": "A", "shown": {"ruby": [4]}}], "shown.ruby[0]", "from 1 to 3"),
    ([{"name": "A", "shown": {"amber": [2]}}], "shown.amber", "1 gem each"),
    ([{"name": "A", "shown": {"ruby": [1]}, "alchemist": {"from": "ruby", "gems": 1, "to": "amber"}}],
     "alchemist.to", "unknown gem 'amber'"),
    ([{"name": "A", "shown": {"amber": [1]}, "alchemist": {"from": "amber", "gems": 1, "to": "ruby"}}],
     "alchemist.from", "unknown gem 'amber'"),
    ([{"name": "A", "shown": {"ruby": [1]}, "alchemist": {"from": "ruby", "gems": 2, "to": "diamond"}}],
     "alchemist", "does not show"),
    ([{"name": "A", "shown": {}, "bankers": 1}], "bankers", "at least one gem card"),
    ([{"name": "A", "shown": {"opal": [1]}}], "shown.opal", "unknown gem 'opal'"),
])
def test_illegal_sales_are_refused_naming_the_field(players, field, words):
    with pytest.raises(InputError) as e:
        sale(*players)
    assert any(f"{p}".split(": ")[0].endswith(field) and words in str(p) for p in e.value.problems), e.value


def test_fashion_must_name_four_different_gems():
    with pytest.raises(InputError, match="fashion: must name each of the four gems once"):
        sale({"name": "A", "shown": {}}, fashion=["ruby", "ruby", "amber", "diamond"])


def test_setup_places_tiles_hands_market_and_merchants():
    s = service.setup("queens-necklace", 4, "qn")
    assert sorted(s["fashion"]) == sorted(FASHION)
    assert [len(h) for h in s["hands"]] == [4, 4, 4, 4] and len(s["market"]) == 5
    assert not any(c == "QN-ASTROLOGER" for h in s["hands"] for c in h)
    n = len(s["deck"])
    first, second, last = s["merchant_positions"]
    assert abs(first - n / 3) <= 3 and abs(second - 2 * n / 3) <= 3 and last >= n - 5
    dealt = sum(s["hands"], []) + s["market"] + s["deck"]
    assert len(dealt) == 103  # 100 market cards + 3 merchants (summaries and blanks are not shuffled in)


def test_a_sale_needs_two_players_and_cards_are_never_shown_more_often_than_printed():
    """Issue 15, item 10: a one-player sale; three 3-gem diamonds (the deck has 2); across a game, a second
    Alchemist and a fourth King (shown cards are discarded, never reshuffled)."""
    with pytest.raises(InputError, match="players: a sale has 2 to 4 players, got 1"):
        sale({"name": "A", "shown": {"ruby": [1]}})
    with pytest.raises(InputError, match=r"players\[1\]\.shown\.diamond\[1\]: a 3-gem diamond card: the deck has 2"):
        service.score("queens-necklace", {"fashion": FASHION, "players": [
            {"name": "A", "shown": {"diamond": [3, 3]}}, {"name": "B", "shown": {"diamond": [2, 3]}}]})
    one = {"fashion": FASHION, "players": [{"name": "A", "shown": {"ruby": [2]}, "king": "ruby",
                                             "alchemist": {"from": "ruby", "gems": 2, "to": "emerald"}},
                                            {"name": "B", "shown": {"emerald": [1]}}]}
    other = {"fashion": FASHION, "players": [{"name": "A", "shown": {"ruby": [3]}, "king": "ruby",
                                               "alchemist": {"from": "ruby", "gems": 3, "to": "diamond"}},
                                              {"name": "B", "shown": {"ruby": [1]}, "king": "ruby"}]}
    with pytest.raises(InputError) as e:
        service.score("queens-necklace", {"sales": [one, other, {**other, "players": [
            {"name": "A", "shown": {"ruby": [1]}, "king": "ruby"}, {"name": "B", "shown": {"emerald": [2]}}]}]})
    message = str(e.value)
    assert "sales[1].players[0].alchemist: the Alchemist: the deck has 1" in message
    assert "sales[2].players[0].king: Kings: the deck has 3" in message
