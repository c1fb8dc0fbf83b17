"""A data-only game's scoring: section on a phone (issue 36), in Debian's chromium: a hand filled by taps on the
steppers of `companion serve --cards` and of the static site (`companion site --cards`) with
the file server stopped; the winner line and the rules table follow each tap and say what generic.score says."""
from pathlib import Path

import pytest

from companion import cards
from companion.games import generic
from helpers.browser import OFFLINE_PHONE, PHONE, playwright_api, settled, shot  # (skips this module without chromium)
from helpers.server import free_port, serving_cards, static_server
from helpers.server import site_with_game as site_of
from helpers.site import visited_then_offline

expect = playwright_api.expect
GAME = Path(__file__).with_name("data_scoring_game.yaml")
# What each player holds, tapped in: Ana a red expedition of 11 with a wager (2 × (11 - 20) = -18) and 4 chips;
# Bea the blue 9 (-11) and three puddings, the most in the last round (+6).
TAPS = [("Ana", {"LC-RED-5": 1, "LC-RED-6": 1, "LC-RED-W1": 1}, {"chips": 4}),
        ("Bea", {"LC-BLUE-9": 1, "LC-PUD": 3}, {})]


def expected(round_: int) -> dict:
    request = {"round": round_, "players": [{"name": n, "cards": h, "counters": c} for n, h, c in TAPS]}
    return generic.score(request, cards.load_file(GAME))


def fill_by_taps(page, round_: int) -> None:
    """Names typed, then every copy and counter by a tap on its +, and the round by its own +."""
    for i, (name, held, counters) in enumerate(TAPS):
        page.fill(f"input[name='players.{i}.name']", name)
        for field, n in [*((f"cards.{c}", k) for c, k in held.items()),
                         *((f"counters.{c}", k) for c, k in counters.items())]:
            plus = page.locator(f".steps:has(input[name='players.{i}.{field}:int']) button[data-step='1']")
            for _ in range(n):
                plus.tap()
    more = page.locator(".steps:has(input[name='round:int']) button[data-step='1']")
    for _ in range(round_ - 1):
        more.tap()
    settled(page)


def check_answer(page, round_: int) -> None:
    want = expected(round_)
    expect(page.locator("#result .winner")).to_have_text(f"Most points: {', '.join(want['winners'])}", timeout=60000)
    settled(page)
    points = page.locator("#result [data-points]").evaluate_all("els => els.map(e => Number(e.dataset.points))")
    assert points == [p["points"] for p in want["players"]]
    pudding = page.locator("#result tr[data-rule='pudding'] td").evaluate_all(
        "els => els.map(e => Number(e.textContent))")
    assert pudding == [p["rules"]["pudding"] for p in want["players"]]
    assert page.locator("input[name='players.0.counters.chips:int']").input_value() == "4"


@pytest.fixture
def served(tmp_path):
    """`companion serve --cards` with the game: its base URL."""
    with serving_cards(GAME, tmp_path / "instance") as base:
        yield base


def test_a_hand_tapped_in_on_the_served_page_scores_live(served, browser):
    context = browser.new_context(**PHONE, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(f"{served}/score/lost?_n=2")
        fill_by_taps(page, 3)
        check_answer(page, 3)
        # a tap back to round 2: the pudding rule (the last round's only) is 0 again, live
        page.locator(".steps:has(input[name='round:int']) button[data-step='-1']").tap()
        settled(page)
        check_answer(page, 2)
        for button in page.locator(".steps button").all()[:6]:  # a thumb's target
            box = button.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44
        shot(page, "data-scoring-served")
    finally:
        context.close()


@pytest.fixture(scope="module")
def site_with_game(tmp_path_factory):
    """The static site with the game added (`companion site --cards`): (its port, its folder)."""
    folder, port = tmp_path_factory.mktemp("site-data-scoring"), free_port()
    return port, site_of(folder, GAME, port)  # (the file read where it is, as --cards reads it)


def test_a_hand_tapped_in_on_the_static_site_scores_offline(site_with_game, browser):
    port, folder = site_with_game
    base, proc = f"http://127.0.0.1:{port}", static_server(folder, port)
    context = browser.new_context(**OFFLINE_PHONE, locale="en-GB")
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        visited_then_offline(context, page, f"{base}/en/score/lost/?_n=2", proc)  # then no file server
        page.wait_for_function("document.documentElement.dataset.pythonReady", timeout=120000)
        fill_by_taps(page, 3)
        check_answer(page, 3)
        assert not errors, errors
        shot(page, "data-scoring-site")
    finally:
        context.close()
        proc.kill()
