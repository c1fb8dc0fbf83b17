"""Duquesa rules: every spec rule with a hand-computed answer, the rulebook's example, and properties."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import library, service
from companion.core.schema import InputError
from companion.games import duquesa as dq
from helpers.games import examples


def W(stone, count, florins):
    return {"stone": stone, "count": count, "florins": florins}


def card(*stones, wish=None):
    return {"stones": list(stones), **({"wish": wish} if wish else {})}


RAINBOW = card("rainbow", wish=W("rainbow", 1, 5))
# The rulebook's worked hand: wishes for 3 amethysts (met), 2 jets (4 jets: fails), 3 diamonds (met),
# 2 rubies (none: fails) and, on the common card, 3 emeralds (met): 9 + 10 + 9 = 28 florins.
EXAMPLE_HAND = [
    card("jet", "diamond", "emerald", "pearl", wish=W("amethyst", 3, 9)),
    card("amethyst", "diamond", "emerald", "pearl", wish=W("jet", 2, 6)),
    card("amethyst", "jet", "pearl", "sapphire", wish=W("diamond", 3, 10)),
    card("amethyst", "jet", "emerald", "sapphire", wish=W("ruby", 2, 5)),
]
EXAMPLE_COMMON = card("jet", "diamond", "amber", "sapphire", wish=W("emerald", 3, 9))


def score(request):
    return service.score("duquesa", request)


def test_rulebook_worked_example_is_28_florins_with_three_wishes():
    result = dq.necklace([*EXAMPLE_HAND, EXAMPLE_COMMON])
    assert (result["florins"], result["wishes"]) == (28, 3)
    by_stone = {d["stone"]: (d["have"], d["met"]) for d in result["wish_details"]}
    assert by_stone == {"amethyst": (3, True), "jet": (4, False), "diamond": (3, True), "ruby": (0, False),
                        "emerald": (3, True)}


def test_a_wish_counts_only_the_other_four_cards():
    own = card("amber", "amber", "jet", "pearl", wish=W("amber", 2, 6))
    fillers = [card("ruby", "ruby", "jet", "pearl")] * 3
    one_elsewhere = dq.necklace([own, *fillers, card("amber", "ruby", "jet", "pearl")])
    assert one_elsewhere["wish_details"][0]["have"] == 1 and one_elsewhere["florins"] == 0
    two_elsewhere = dq.necklace([own, *fillers[:2], card("amber", "ruby", "jet", "pearl"),
                                 card("amber", "ruby", "jet", "pearl")])
    assert two_elsewhere["florins"] == 6


def test_exact_count_more_stones_fail_the_wish():
    wisher = card("ruby", "ruby", "ruby", "ruby", wish=W("jet", 2, 6))
    with_jet, without = card("jet", "pearl", "amber", "ruby"), card("pearl", "pearl", "amber", "ruby")
    assert dq.necklace([wisher, with_jet, with_jet, without, without])["florins"] == 6
    assert dq.necklace([wisher, with_jet, with_jet, with_jet, without])["florins"] == 0  # 3 jets for 2
    assert dq.necklace([wisher, *[with_jet] * 4])["florins"] == 0  # the rulebook's 4 jets for 2


def test_rainbow_as_wildcard_completes_another_cards_wish():
    wisher = card("ruby", "ruby", "ruby", "ruby", wish=W("jet", 3, 9))
    two_jets = [card("jet", "pearl", "amber", "ruby"), card("jet", "pearl", "amber", "ruby"),
                card("pearl", "pearl", "amber", "ruby")]
    result = dq.necklace([wisher, *two_jets, RAINBOW])
    # The wildcard jet meets the wish (9) and, being the only rainbow used, the rainbow wish too (5).
    assert result["florins"] == 14 and result["rainbow"] == [{"card": 4, "use": "jet"}]


def test_rainbow_wildcard_never_counts_for_its_own_card():
    selfish = card("rainbow", wish=W("emerald", 2, 8))
    others = [card("emerald", "pearl", "amber", "ruby"), *[card("pearl", "amber", "ruby", "jet")] * 3]
    result = dq.necklace([selfish, *others])
    assert result["florins"] == 0 and result["wish_details"][0]["have"] == 1


def test_rainbow_wish_needs_exactly_one_rainbow_used():
    fillers = [card("pearl", "amber", "ruby", "jet")] * 3
    one = dq.necklace([RAINBOW, *fillers, card("pearl", "amber", "ruby", "jet")])
    assert one["florins"] == 5 and one["rainbow"] == [{"card": 0, "use": "rainbow"}]
    two = dq.necklace([RAINBOW, RAINBOW, *fillers])
    # Both rainbow wishes are met when exactly one stone is used: 5 + 5; using both would meet none.
    assert two["florins"] == 10 and sorted(u["use"] for u in two["rainbow"]) == ["rainbow", "unused"]


def test_gold_accumulates_and_a_rainbow_never_stands_for_gold():
    gold = card("gold", "ruby", "pearl", "jet")
    fillers = [card("pearl", "amber", "ruby", "jet")] * 4
    for ingots, florins in [(1, 5), (2, 14), (3, 27), (4, 44)]:
        assert dq.necklace([*[gold] * ingots, *fillers[: 5 - ingots]])["gold"] == {"ingots": ingots, "florins": florins}
    with_rainbow = dq.necklace([gold, RAINBOW, *fillers[:3]])
    assert with_rainbow["gold"] == {"ingots": 1, "florins": 5}
    assert all(u["use"] != "gold" for u in with_rainbow["rainbow"])


def test_two_players_higher_value_wins_then_more_wishes_then_shared():
    common = card("amber", "amber", "amber", "amber", wish=W("diamond", 4, 14))  # never met: no diamonds

    def hand(*wishes):  # cards whose wishes for amber are all met by the common card's 4 ambers
        return [card("pearl", "pearl", "pearl", "pearl", wish=W("amber", 4, f)) for f in wishes]
    blank = card("pearl", "jet", "ruby", "ruby", wish=W("sapphire", 4, 13))  # never met
    ana = {"name": "Ana", "hand": [*hand(12, 12), blank, blank]}
    bo = {"name": "Bo", "hand": [*hand(8, 8, 8), blank]}
    r = score({"common": common, "players": [ana, bo]})
    assert [p["florins"] for p in r["players"]] == [24, 24] and r["winners"] == ["Bo"]  # tie on 24: 3 wishes beat 2
    ana = {"name": "Ana", "hand": [*hand(12, 13), blank, blank]}
    assert score({"common": common, "players": [ana, bo]})["winners"] == ["Ana"]  # 25 beats 24
    ana = {"name": "Ana", "hand": [*hand(9, 7, 8), blank]}
    assert score({"common": common, "players": [ana, bo]})["winners"] == ["Ana", "Bo"]  # 24, 3 wishes each


@pytest.mark.parametrize("florins,rank,to_next", [(0, "aprendiz", 27), (26, "aprendiz", 1), (27, "artista", 4),
                                                  (30, "artista", 1), (31, "oficial", 3), (33, "oficial", 1),
                                                  (34, "magister", None), (60, "magister", None)])
def test_solo_rank_boundaries(florins, rank, to_next):
    r = score({"florins": florins})
    assert r["rank"] == rank and r.get("florins_to_next") == to_next


def test_solo_score_of_a_hand_has_a_rank_and_expansions_make_it_unofficial():
    r = score({"common": "DQ01", "players": [{"name": "Sol", "hand": ["DQ02", "DQ03", "DQ04", "DQ05"]}]})
    p = r["players"][0]
    assert p["rank"] == dq.solo_rank(p["florins"])["rank"] and p["official_rank"] is True
    r = score({"common": "DQ01", "players": [{"name": "Sol", "hand": ["DQ02", "DQ03", "DQ04", "DQ19"]}]})
    assert r["players"][0]["official_rank"] is False


def test_cards_by_id_score_like_the_same_cards_inline():
    catalogue = library.load_game("duquesa").catalogue()
    ids = ["DQ02", "DQ07", "DQ12", "DQ16"]
    by_id = score({"common": "DQ01", "players": [{"name": "A", "hand": ids}]})
    inline = score({"common": catalogue["DQ01"], "players": [{"name": "A", "hand": [catalogue[i] for i in ids]}]})
    assert by_id["players"][0]["florins"] == inline["players"][0]["florins"]
    assert by_id["players"][0]["wish_details"] == inline["players"][0]["wish_details"]


@pytest.mark.parametrize("request_,field,words", [
    ({"common": "DQ01", "players": [{"name": "A", "hand": ["DQ02", "DQ03", card("amber", "jet", "ruby", "pearl",
      wish=W("ruby", 5, 3)), "DQ05"]}]}, "players[0].hand[2].wish.count", "must be 2, 3 or 4"),
    ({"common": "DQ01", "players": [{"name": "A", "hand": ["DQ02", "DQ03", "DQ99", "DQ05"]}]},
     "players[0].hand[2]", "unknown card id 'DQ99'"),
    ({"common": "DQ01", "players": [{"name": "A", "hand": ["DQ02", "DQ03", "DQ04"]}]}, "players[0].hand",
     "must have 4 items"),
    ({"common": "DQ01", "players": [{"name": "A", "hand": ["DQ02", "DQ03", "DQ04", "DQ01"]}]},
     "players[0].hand[3]", "used more often"),
    ({"common": "DQ01", "players": [{"name": "A", "hand": ["DQ02", "DQ03", "DQ04", "DQ05"]},
                                    {"name": "A", "hand": ["DQ06", "DQ07", "DQ08", "DQ09"]}]}, "players[1].name",
     "used by two players"),
    ({"common": "DQ01", "players": [{"name": "A", "hand": ["DQ02", "DQ03", "DQ04", card("opal")]}]},
     "players[0].hand[3].stones[0]", "unknown stone 'opal'"),
    ({"common": "DQ01", "players": [{"name": "A", "hand": ["DQ02", "DQ03", "DQ04", card("ruby", "jet")]}]},
     "players[0].hand[3].stones", "must have 4 stones"),
    ({"common": RAINBOW, "players": [{"name": "A", "hand": [RAINBOW, RAINBOW, "DQ02", "DQ03"]}]},
     "players[0].hand", "at most 2 rainbow"),
    ({"common": "DQ01", "players": []}, "players", "must have 1 to 2 items"),
    ({"florins": -3}, "florins", "from 0 to 500"),
    ({"common": "DQ01"}, "players", "is missing"),
    ([], "request", "must be a mapping"),
])
def test_bad_requests_name_the_field(request_, field, words):
    with pytest.raises(InputError) as e:
        score(request_)
    assert any(str(p).startswith(f"{field}: ") and words in str(p) for p in e.value.problems), e.value


# --- properties ---

base_cards = list(library.load_game("duquesa").catalogue().values())
necklaces = st.lists(st.sampled_from(base_cards), min_size=5, max_size=5)


@settings(max_examples=examples(200), deadline=None)
@given(necklaces, st.randoms(use_true_random=False))
def test_score_does_not_depend_on_card_order(five, rnd):
    shuffled = list(five)
    rnd.shuffle(shuffled)
    a, b = dq.necklace(five), dq.necklace(shuffled)
    assert (a["florins"], a["wishes"]) == (b["florins"], b["wishes"])


@settings(max_examples=examples(200), deadline=None)
@given(necklaces, st.integers(0, 4))
def test_allowing_a_rainbow_choice_never_lowers_the_best_value(five, slot):
    five = list(five)
    five[slot] = RAINBOW
    compiled = [dq.compile_card(c) for c in five]
    best = dq.best_choice(compiled)[0]
    gold = dq.gold_florins(sum(c[5] for c in compiled))
    # Any fixed use of the rainbow stone (unused, itself, or any stone type) is at most the best choice.
    for use in [None, "itself", *dq.STONES]:
        vecs = [c[0] for c in compiled]
        if use in dq.SHIFT:
            vecs[slot] += 1 << dq.SHIFT[use]
        value = dq._evaluate(compiled, vecs, 0 if use is None else 1)[0] + gold
        assert value <= best


@settings(max_examples=examples(50), deadline=None)
@given(st.text(min_size=1, max_size=20).filter(str.strip), st.sampled_from([1, 2]))
def test_the_same_seed_gives_the_same_setup(seed, players):
    assert service.setup("duquesa", players, seed) == service.setup("duquesa", players, seed)


@pytest.mark.parametrize("expansions,draw", [("", 6), ("rainbow", 8), ("gold", 10), ("rainbow,gold", 12)])
def test_two_player_setup_deals_every_card_once(expansions, draw):
    s = service.setup("duquesa", 2, "x", {"expansions": expansions})
    dealt = [*s["out_of_play"], s["common"], *s["hands"][0], *s["hands"][1], *s["draw_pile"]]
    deck = [c.id for c in library.load_game("duquesa").deck(sets=("base", *filter(None, expansions.split(","))))]
    assert sorted(dealt) == sorted(deck)
    assert len(s["out_of_play"]) == 3 and len(s["draw_pile"]) == draw and s["first_player"] in (0, 1)


def test_solo_setup_gives_five_turns_of_two():
    s = service.setup("duquesa", 1, "solo")
    assert len(s["hand"]) == 4 and [len(t) for t in s["turns"]] == [2] * 5
    assert len({*s["out_of_play"], s["common"], *s["hand"], *sum(s["turns"], [])}) == 18


def test_solo_hint_keeps_a_seen_card_that_beats_every_unseen_one():
    hand = [dq.compile_card(c) for c in EXAMPLE_HAND[:3]] + [dq.compile_card(card("pearl", "pearl", "pearl", "pearl"))]
    common = dq.compile_card(EXAMPLE_COMMON)
    good = dq.compile_card(EXAMPLE_HAND[3])  # completes the rulebook example: 28 florins
    junk = [dq.compile_card(card("pearl", "pearl", "pearl", "pearl"))] * 5
    hint = dq.solo_hint(hand, common, good, junk)
    assert hint["keep"] == "seen" and hint["expected_seen"] == 28 and hint["discard_if_seen"] == 3


@pytest.mark.slow  # simulates thousands of solo games (about 7–13 s)
def test_simulator_reaches_every_rank_and_magister_is_rare():
    r = service.simulate("duquesa", 2000, "tuning")
    assert sum(r["ranks"].values()) == 2000 and all(r["ranks"].values())
    assert 0.02 <= r["share"]["magister"] <= 0.2
