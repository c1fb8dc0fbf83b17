"""A whole trick-taking game with bids on a saved sheet, in Debian's chromium (issue 44, item 5): tests/data/tricks.yaml
(48 cards, bids and tricks, a streak read from the earlier rounds, first to 60 or 7 rounds), four players, four
rounds, entered on `companion serve --cards`: the sheet started, then each round opened in the calculator (its
players and round already there), its bids and tricks tapped as number chips and saved. Every tap and key press is
counted: the issue measured 126 taps and 13 keys with steppers for all 48 cards and "+" for every bid and trick;
the page fits the game now (it offers only the cards `scoring.cards:` names, a counter of a small range is a row of
chips), and the whole game takes at most 60. The sheet's totals are the API's for the same rounds with their
`earlier` ones. Then a round scored with the calculator is corrected in it (opened with that round's cards and
counters), and a table whose tricks do not add up says the check's message under the players, live."""
import re
from pathlib import Path

import pytest

from companion import cards
from companion.games import generic
from helpers.browser import PHONE, Counted, new_phone, new_sheet, settled, shot  # (skips this module without chromium)
from helpers.server import serving_cards

GAME = Path(__file__).parents[1] / "data" / "tricks.yaml"
NAMES = ["Ana", "Bo", "Cy", "Di"]
KRAKEN = "TK-ST12"
# Each round: every player's (bid, tricks); the bids never add up to the 12 cards dealt, the tricks always do. Ana
# also takes a kraken in round 1. Nobody reaches 60 in four rounds: the game goes on.
ROUNDS = [
    [(3, 3), (4, 5), (2, 2), (1, 2)],
    [(2, 2), (3, 4), (3, 3), (0, 3)],
    [(1, 2), (2, 2), (4, 5), (2, 3)],
    [(4, 4), (3, 3), (2, 3), (2, 2)],
]
MOST_TAPS_AND_KEYS = 60  # the bar (126 taps + 13 keys before)


def round_request(k: int, rounds=ROUNDS) -> dict:
    players = [{"name": n, "counters": {"bid": b, "tricks": t}} for n, (b, t) in zip(NAMES, rounds[k], strict=True)]
    if k == 0:
        players[0]["cards"] = {KRAKEN: 1}
    return {"players": players}


def totals_after(rounds=ROUNDS) -> list[dict[str, int]]:
    """Each player's game total after each round, as the API scores a round with its `earlier` ones."""
    card_set = cards.load_file(GAME)
    out = []
    for k in range(len(rounds)):
        answer = generic.score({**round_request(k, rounds), "earlier": [round_request(j, rounds) for j in range(k)]},
                               card_set)
        out.append({p["name"]: p["game"] for p in answer["players"]})
    return out


@pytest.fixture
def served(tmp_path):
    with serving_cards(GAME, tmp_path / "instance") as base:
        yield base


def chip(page, seat: int, counter: str, value: int):
    """A counter's number chip of a seat (its radio's label)."""
    return page.locator(f"label.tap:has(input[name='players.{seat}.counters.{counter}:int'][value='{value}'])")


def enter_round(page, counted: Counted, k: int, rounds=ROUNDS) -> None:
    """Round k + 1 on the calculator, as a player taps it: a chip for every bid and trick that is not 0 (0 is
    already chosen), the kraken's "+" in round 1."""
    for seat, (bid, tricks) in enumerate(rounds[k]):
        for counter, value in (("bid", bid), ("tricks", tricks)):
            if page.locator(f"input[name='players.{seat}.counters.{counter}:int']:checked").get_attribute("value") \
                    != str(value):
                chip(page, seat, counter, value).tap()
    if k == 0:
        page.get_by_role("button", name=re.compile(f"^{NAMES[0]} · star 12: one more$")).tap()


def test_a_whole_trick_taking_game_on_a_sheet_in_at_most_60_taps_and_keys(served, browser):
    context, page, errors = new_phone(browser, PHONE)
    try:
        counted = Counted(page)
        sheet_url = new_sheet(page, served, "tricks", NAMES, counted)
        after = totals_after()
        for k in range(len(ROUNDS)):
            page.get_by_role("button", name="Score it with the calculator").tap()
            page.wait_for_selector("form[data-live]")
            # the players' names and the sheet's round are there: nothing to type, and no round to choose
            assert [page.locator(f"input[name='players.{i}.name']").input_value() for i in range(4)] == NAMES
            assert page.locator("form[data-live] .round").inner_text() == f"Round {k + 1}"
            assert page.locator("input[name='round:int']").input_value() == str(k + 1)
            # only the cards the game's scoring.cards names: the krakens, mermaids and sevens (8 of 48)
            assert page.locator("input[name^='players.0.cards.']").count() == 8
            enter_round(page, counted, k)
            settled(page)
            # the calculator scores the round seeing the earlier ones: a streak of exact bids adds 5 a round
            page.wait_for_selector("section.save form button[type=submit]")
            assert page.locator("section.save label[data-points]").evaluate_all(
                "els => els.map(e => Number(e.dataset.points))") == [
                    after[k][n] - (after[k - 1][n] if k else 0) for n in NAMES]
            page.locator("section.save button[type=submit]").tap()
            page.wait_for_url(sheet_url)
            for name, total in after[k].items():
                page.wait_for_selector(f'[data-player="{name}"][data-total="{total}"]', timeout=20_000)
        taps, keys = counted.now()
        shot(page, "trick-game-sheet")
        print(f"\nwhole trick-taking game, 4 players, 4 rounds: {taps} taps + {keys} keys = {taps + keys}")
        assert taps + keys <= MOST_TAPS_AND_KEYS, (taps, keys)
        assert not errors, errors
    finally:
        context.close()


def test_a_table_whose_tricks_do_not_add_up_says_so_live_and_a_round_is_corrected_in_the_calculator(served, browser):
    context, page, errors = new_phone(browser, PHONE)
    try:
        sheet_url = new_sheet(page, served, "tricks", NAMES)
        page.get_by_role("button", name="Score it with the calculator").tap()
        page.wait_for_selector("form[data-live]")
        chip(page, 0, "tricks", 5).tap()  # 5 tricks of 12: the check's message under the players, as tapped
        settled(page)
        said = page.locator("form[data-live] #checks .check")
        assert said.inner_text() == "The tricks taken must add up to the cards dealt to each player"
        assert page.locator("main > .problems").count() == 0  # said once, under the table
        assert page.locator("section.save form").count() == 0  # nothing to save
        for seat, tricks in ((1, 4), (2, 3)):  # 5 + 4 + 3 = 12
            chip(page, seat, "tricks", tricks).tap()
        settled(page)
        assert page.locator("form[data-live] #checks .check").count() == 0
        enter_round(page, Counted(page), 0)
        settled(page)
        page.locator("section.save button[type=submit]").tap()
        page.wait_for_url(sheet_url)
        after = totals_after()
        for name, total in after[0].items():
            page.wait_for_selector(f'[data-player="{name}"][data-total="{total}"]', timeout=20_000)
        # the round corrected: its edit page opens the calculator with its cards and counters
        page.locator("a[href$='/entries/1/edit']").first.tap()
        page.get_by_role("button", name="Correct it in the calculator").tap()
        page.wait_for_selector("form[data-live]")
        assert page.locator("form[data-live] .round").inner_text() == "Round 1"
        for seat, (bid, tricks) in enumerate(ROUNDS[0]):
            for counter, value in (("bid", bid), ("tricks", tricks)):
                assert page.locator(f"input[name='players.{seat}.counters.{counter}:int']:checked") \
                    .get_attribute("value") == str(value)
        assert page.locator(f"input[name='players.0.cards.{KRAKEN}:int']").input_value() == "1"
        corrected = [list(r) for r in ROUNDS]
        corrected[0] = [(3, 3), (4, 4), (2, 2), (1, 3)]  # Bo took 4, not 5; Di 3, not 2
        chip(page, 1, "tricks", 4).tap()
        chip(page, 3, "tricks", 3).tap()
        settled(page)
        page.get_by_role("button", name="Save the correction of entry 1").tap()
        page.wait_for_url(f"{sheet_url}**")
        fixed = totals_after(corrected)
        for name, total in fixed[0].items():
            page.wait_for_selector(f'[data-player="{name}"][data-total="{total}"]', timeout=20_000)
        assert fixed[0] != after[0]
        assert not errors, errors
    finally:
        context.close()
