"""The Duquesa's solo percentile: the stored reference games cannot drift from the code that plays them, and the
turn helper's steps, followed as a page follows them, play exactly the simulated strategy."""
from collections import Counter

import pytest

from companion import library, service
from companion.core.rng import make_rng, shuffled
from companion.games import duquesa, duquesa_sim
from companion.games import duquesa_solo_florins as stored


def test_the_stored_games_are_what_the_seed_plays_now():
    assert stored.SEED == duquesa_sim.SEED and stored.GAMES == duquesa_sim.GAMES == sum(stored.FLORINS.values())
    sample = duquesa_sim.florins_of_games(0, duquesa_sim.SAMPLE)
    assert sample == stored.SAMPLE
    # the sample is part of the distribution: every value it holds is counted there at least as often
    assert all(stored.FLORINS.get(v, 0) >= n for v, n in Counter(sample).items())


@pytest.mark.slow
def test_all_ten_thousand_stored_games_replay_to_the_same_distribution():
    florins = duquesa_sim.florins_of_games(0, duquesa_sim.GAMES)
    assert dict(sorted(Counter(florins).items())) == stored.FLORINS


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_the_generated_module_is_what_the_script_writes():
    text = duquesa_sim.module_text(duquesa_sim.florins_of_games(0, duquesa_sim.SAMPLE), 0)
    assert "SAMPLE = " + repr(stored.SAMPLE) in text


@pytest.mark.parametrize("florins", [0, 10, 26, 30, 34, 41, 99])
def test_percentile_counts_games_below_and_ties_apart(florins):
    p = duquesa.solo_percentile(florins)
    below = sum(n for v, n in stored.FLORINS.items() if v < florins)
    assert p == {"games": 10_000, "below": below, "same": stored.FLORINS.get(florins, 0),
                 "better_than": below * 100 // 10_000}
    assert service.score("duquesa", {"florins": florins})["percentile"] == p


def test_known_florins_read_the_stored_distribution():
    # 30 florins: the games that ended on 10…29 are below, those on 30 are ties (neither better nor worse)
    p = duquesa.solo_percentile(30)
    assert p["below"] == sum(stored.FLORINS[v] for v in stored.FLORINS if v < 30) and p["same"] == stored.FLORINS[30]
    assert duquesa.solo_percentile(max(stored.FLORINS) + 1)["better_than"] == 100
    assert duquesa.solo_percentile(min(stored.FLORINS))["better_than"] == 0


def play_through_the_helper(seed: str) -> int:
    """One solo game dealt as play_solo deals it, played by following solo_turn's answers the way the turn page
    carries them: keep the card turned up → after_seen; take the hidden one → tell it (`drawn`) → after_drawn."""
    card_set = library.load_game("duquesa")
    deck = shuffled([c.id for c in card_set.deck(sets=("base",))], make_rng(seed)[0])
    common, hand, rest, gone = deck[3], deck[4:8], deck[8:], []
    for turn in range(1, duquesa.SOLO_TURNS + 1):
        seen, hidden = rest[2 * turn - 2], rest[2 * turn - 1]
        req = {"hand": hand, "common": common, "seen": seen, "gone": gone, "turn": turn}
        advice = service.solo_turn("duquesa", req)
        assert advice["turn"] == turn and advice["last"] == (turn == 5)
        if advice["keep"] == "seen":
            after = advice["after_seen"]
            assert after["discard"] not in after["hand"] and len(after["hand"]) == 4
        else:
            after = service.solo_turn("duquesa", {**req, "drawn": hidden})["after_drawn"]
            assert seen in after["gone"] and after["discard"] in after["gone"]
        hand, gone = after["hand"], after["gone"]
    return service.score("duquesa",
                         {"common": common, "players": [{"name": "Sol", "hand": hand}]})["players"][0]["florins"]


def test_following_the_turn_helper_plays_the_simulated_strategy():
    """The page's advice, step by step, ends on the same florins as the simulator's game from the same seed: the
    percentile compares a player with the very strategy the helper gives."""
    seeds = [f"{duquesa_sim.SEED}:{i}" for i in range(40)]
    assert [play_through_the_helper(s) for s in seeds] == stored.SAMPLE[:40]


def test_a_hidden_card_taken_is_told_and_the_discard_named_by_the_same_reasoning():
    req = {"hand": ["DQ02", "DQ07", "DQ12", "DQ16"], "common": "DQ01", "seen": "DQ03", "gone": ["DQ09"], "turn": 2}
    plain = service.solo_turn("duquesa", req)
    told = service.solo_turn("duquesa", {**req, "drawn": "DQ05"})
    # the hidden card was unseen when the choice was made: telling it afterwards changes nothing in the advice
    assert {k: told[k] for k in ("keep", "expected_seen", "expected_unseen", "unseen")} == \
        {k: plain[k] for k in ("keep", "expected_seen", "expected_unseen", "unseen")}
    compiled = duquesa.compiled_catalogue(library.load_game("duquesa"))
    value, drop = duquesa._best_keep([compiled[c] for c in req["hand"]], compiled["DQ01"], compiled["DQ05"])
    five = [*req["hand"], "DQ05"]
    assert told["after_drawn"] == {"discard": five[drop], "hand": five[:drop] + five[drop + 1:],
                                   "gone": ["DQ09", "DQ03", five[drop]]}
    assert plain["after_seen"]["gone"] == ["DQ09", plain["discard_if_seen"]]


@pytest.mark.parametrize("bad", [{"turn": 6}, {"turn": 0}, {"drawn": "DQ02"}, {"drawn": "DQ19"}])
def test_a_turn_out_of_the_game_or_a_card_drawn_twice_is_refused(bad):
    req = {"hand": ["DQ02", "DQ07", "DQ12", "DQ16"], "common": "DQ01", "seen": "DQ03", **bad}
    with pytest.raises(Exception) as e:
        service.solo_turn("duquesa", req)
    assert type(e.value).__name__ == "InputError"


def test_the_phones_own_python_gets_the_stored_games():
    """A static site's phones draw the rank page in their own Python, from a zip of the modules the pages import."""
    from companion.web.site import python as site_runtime

    assert "companion.games.duquesa_solo_florins" in site_runtime.modules()
