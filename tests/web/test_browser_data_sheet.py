"""A designer's game of majorities and rounds played to its target on a saved sheet (issue 36), in Debian's chromium:
docs/example-game/cometas.yaml (majorities per colour, runs, a knots counter, first to 40), each round's hands
filled in on the scoring page opened from the sheet at the sheet's next round and saved to it, on `companion serve
--cards` and on the static site with no connection (the sheet kept on the phone). The sheet names the winner its
rules give: the totals tie, and the last round's fewer knots break the tie (`ties: ["-knots", "count()"]`)."""
import json

import pytest

from helpers.browser import OFFLINE_PHONE, PHONE, new_sheet, shot  # (skips this module without chromium)
from helpers.cometas import AFTER, GAME, NAMES, ROUNDS, TARGET, WINNERS, request_of  # (the hands played)
from helpers.server import free_port, serving_cards, static_server
from helpers.server import site_with_game as site_of
from helpers.site import visited_then_offline


def fill_round(page, k: int) -> None:
    """The round's hands typed in (copies and knots), the page opened at the sheet's next round."""
    assert page.locator("input[name='round:int']").input_value() == str(k + 1)
    for i, p in enumerate(request_of(k)["players"]):
        assert page.locator(f"input[name='players.{i}.name']").input_value() == p["name"]
        for card, n in p["cards"].items():
            page.fill(f"input[name='players.{i}.cards.{card}:int']", str(n))
        knots = f"input[name='players.{i}.counters.knots:int']"  # (0 to 12: a row of number chips, 0 chosen)
        page.locator(f"label.tap:has({knots}[value='{p['counters']['knots']}'])").tap()
        assert page.locator(f"{knots}:checked").get_attribute("value") == str(p["counters"]["knots"])


def check_sheet(page, k: int) -> None:
    """The sheet after round k + 1: its totals, and the next round or the game over with its winner."""
    for name, total in AFTER[k].items():
        page.wait_for_selector(f'[data-player="{name}"][data-total="{total}"]', timeout=20_000)
    if k < len(ROUNDS) - 1:
        round_line = page.locator("#live .round")
        assert round_line.get_attribute("data-round") == str(k + 2)
        assert round_line.inner_text() == f"Round {k + 2} · played to {TARGET} points"
        assert page.locator("#live .winner").count() == 0
    else:
        over = page.locator("#live p.winner.over")
        assert over.get_attribute("data-winners") == ",".join(WINNERS)
        assert over.inner_text() == f"Game over after round {len(ROUNDS)}. Won by {', '.join(WINNERS)}"
        assert page.locator("#live .round").count() == 0


@pytest.fixture
def served(tmp_path):
    """`companion serve --cards` with the game: its base URL."""
    with serving_cards(GAME, tmp_path / "instance") as base:
        yield base


def test_a_game_to_40_on_a_served_sheet_names_the_rules_winner(served, browser):
    context = browser.new_context(**PHONE, locale="en-GB")
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        sheet_url = new_sheet(page, served, "cometas", NAMES)
        for k in range(len(ROUNDS)):
            page.get_by_role("button", name="Score it with the calculator").tap()
            page.wait_for_selector("form[data-live]")
            fill_round(page, k)
            page.locator("form[data-live] .go button[type=submit]").tap()  # Add up: the page with the save form
            page.wait_for_selector("section.save form[data-queue]")
            assert page.locator("section.save label[data-points]").evaluate_all(
                "els => els.map(e => Number(e.dataset.points))") == [
                    AFTER[k][n] - (AFTER[k - 1][n] if k else 0) for n in NAMES]
            page.locator("section.save button[type=submit]").tap()
            page.wait_for_url(sheet_url)
            check_sheet(page, k)
        shot(page, "data-sheet-served")
        page.goto(f"{sheet_url}?lang=es")  # the same end in Spanish
        assert page.locator("#live p.winner.over").inner_text() == f"Partida terminada tras la ronda {len(ROUNDS)}. " \
                                                                   f"Gana {', '.join(WINNERS)}"
        assert not errors, errors
    finally:
        context.close()


@pytest.fixture(scope="module")
def site_with_game(tmp_path_factory):
    """The static site with the game added (`companion site --cards`): (its port, its folder)."""
    folder, port = tmp_path_factory.mktemp("site-data-sheet"), free_port()
    return port, site_of(folder, GAME, port)  # (the file read where it is, as --cards reads it)


def python_drawn(page) -> None:
    """The page's Python is up and has drawn the page for its address."""
    page.wait_for_function("document.documentElement.dataset.pythonReady && document.documentElement.dataset.drawn",
                           timeout=60_000)


def test_a_game_to_40_on_a_phone_sheet_offline_names_the_rules_winner(site_with_game, browser):
    port, folder = site_with_game
    base, proc = f"http://127.0.0.1:{port}", static_server(folder, port)
    context = browser.new_context(**OFFLINE_PHONE, locale="en-GB")
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        visited_then_offline(context, page, f"{base}/en/phone-sheets/", proc)  # then no file server
        python_drawn(page)
        page.select_option("select[name=game]", "cometas")
        for i, name in enumerate(NAMES):
            page.fill(f"input[name='players.{i}']", name)
        page.locator("form[data-phone=new] button[type=submit]").tap()
        page.wait_for_selector("a[data-phone-calculator]")
        for k in range(len(ROUNDS)):
            page.locator("a[data-phone-calculator]").tap()
            page.wait_for_url("**/en/score/cometas/**")
            python_drawn(page)
            fill_round(page, k)
            page.locator("form[data-live] .go button[type=submit]").tap()  # Add up: drawn with the save button
            page.wait_for_selector("button[data-phone-save-request]")
            seats = page.locator("[data-phone-save] select[name^='seats.']")  # who sat where: the sheet's names
            assert seats.evaluate_all("els => els.map(e => e.value)") == NAMES
            page.locator("button[data-phone-save-request]").tap()
            page.wait_for_url("**/en/phone-sheets/?id=*")
            python_drawn(page)
            check_sheet(page, k)
        shot(page, "data-sheet-site")
        assert not page.locator("a[data-phone-calculator]").count()  # over: finished, nothing more to add
        # Another sheet: who sat in each seat is the player's to choose, as on the server's save box.
        page.goto(f"{base}/en/phone-sheets/")
        python_drawn(page)
        page.select_option("select[name=game]", "cometas")
        for i, name in enumerate(NAMES):
            page.fill(f"input[name='players.{i}']", name)
        page.locator("form[data-phone=new] button[type=submit]").tap()
        page.locator("a[data-phone-calculator]").tap()
        page.wait_for_url("**/en/score/cometas/**")
        python_drawn(page)
        fill_round(page, 0)
        page.locator("form[data-live] .go button[type=submit]").tap()
        page.wait_for_selector("button[data-phone-save-request]")
        page.select_option("[data-phone-save] select[name='seats.0']", NAMES[1])  # the first two swapped seats
        page.select_option("[data-phone-save] select[name='seats.1']", NAMES[0])
        page.locator("button[data-phone-save-request]").tap()
        page.wait_for_url("**/en/phone-sheets/?id=*")
        python_drawn(page)
        for name, total in AFTER[0].items():  # (the first round is a tie: the totals as before)
            page.wait_for_selector(f'[data-player="{name}"][data-total="{total}"]', timeout=20_000)
        kept = json.loads(page.evaluate("localStorage.getItem('companion-phone-sheets')"))
        added = [r for k in kept.values() for r in k["log"] if r["action"] == "add"]
        assert added[-1]["body"]["seats"] == [NAMES[1], NAMES[0]]  # saved as chosen
        assert added[-1]["body"]["request"]["players"][0]["name"] == NAMES[0]  # (the form's first seat)
        assert not errors, errors
    finally:
        context.close()
        proc.kill()
