"""The phone the browser tests play: Debian's chromium driven by Playwright (never a downloaded browser), and a
player's taps and keys counted. Importing it skips the importing test module, loudly, without playwright or chromium."""
from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from companion import service
from helpers.phones import CHROMIUM, OFFLINE_PHONE, PHONE

__all__ = ["CHROMIUM", "OFFLINE_PHONE", "PHONE", "Counted", "Taps", "fresh_phone", "from_home", "new_phone",
           "playwright_api", "set_the_table", "settled", "shot", "tap_card", "total"]

SHOTS = Path(os.environ.get("COMPANION_SCREENSHOTS", "")) if os.environ.get("COMPANION_SCREENSHOTS") else None

playwright_api = pytest.importorskip("playwright.sync_api",
                                     reason="the playwright package is missing: make test installs it")
if not Path(CHROMIUM).exists():
    pytest.skip(f"BROWSER TESTS SKIPPED: no chromium at {CHROMIUM}. Install Debian's: sudo apt-get install chromium "
                "(or set COMPANION_CHROMIUM to its path)", allow_module_level=True)
expect = playwright_api.expect


def shot(page, name):
    if SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def settled(page):
    """Wait until a live form's answer is the form's as it is now: no change is waiting for its redraw (on a busy
    machine taps come slower than the redraw's pause, and an answer to the first taps is drawn before the last)."""
    page.wait_for_selector("html:not([data-live-pending])", state="attached")


class Counted:
    """A phone's taps and keys as a player makes them. Taps are counted by the page itself: every trusted primary
    pointerdown, kept in the tab's session storage so that they add up across the pages of a whole game. Keys are
    the characters typed (`type`; a phone's keyboard is outside the page, and an accented letter reaches it with no
    keydown). A choice from a dropdown is its tap on the field plus one for the option (`choose`), which the
    browser's own picker makes outside the page."""

    # (as it bubbles up to the window: a pointerdown Playwright stops because something covered the target, before
    # it taps again, is not a player's tap)
    SCRIPT = """addEventListener("pointerdown", e => { if (e.isTrusted && e.isPrimary)
      sessionStorage.setItem("_taps", +(sessionStorage.getItem("_taps") || 0) + 1); });"""

    def __init__(self, page):
        self.page, self.picked, self.keys = page, 0, 0
        page.context.add_init_script(self.SCRIPT)

    def type(self, locator, text: str):
        """A field tapped, then its text typed key by key (a player's name replaces the seat's word the field held:
        the page selects it when the field is tapped)."""
        locator.tap()
        locator.press_sequentially(text)
        self.keys += len(text)

    def choose(self, locator, value: str):
        locator.tap()
        locator.select_option(value)
        self.picked += 1

    def now(self) -> tuple[int, int]:
        """(taps, keys) so far (read again once a page that a tap had start loading has come: its storage is the
        same tab's)."""
        for _ in range(20):
            try:
                return self.page.evaluate("+(sessionStorage.getItem('_taps') || 0)") + self.picked, self.keys
            except playwright_api.Error as e:
                if "context was destroyed" not in str(e):
                    raise
                self.page.wait_for_load_state()
        raise AssertionError("the page kept navigating: its taps could not be read")


def tap_card(page, section: int, card_id: str):
    page.locator("details.pick").nth(section).locator(f"label.card:has(input[value='{card_id}'])").tap()


class Taps:
    """Taps counted, from the home page's first."""

    def __init__(self):
        self.count = 0

    def __call__(self, locator):
        locator.tap()
        self.count += 1


def from_home(phone, base: str, game: str, names: list[str]) -> Taps:
    """A phone that knows the table's names opens `game`'s scoring page from the home page: one tap, counted."""
    phone.goto(f"{base}/")
    phone.evaluate(f"localStorage.setItem('companion-names', {json.dumps(json.dumps(names))})")
    phone.reload()
    tap = Taps()
    tap(phone.locator(f"a[href$='/score/{game}']").first)
    phone.wait_for_url(f"**/score/{game}")
    return tap


def fresh_phone(browser):
    """A phone that has never met these players (no names kept)."""
    return browser.new_context(**PHONE, locale="en-GB").new_page()


def set_the_table(phone, base: str, game: str, names: list[str], counted: Counted | None = None) -> dict:
    """The setup page: the player count, each name typed once, Deal; then Play opens the scoring page. Returns the
    setup's answer as the server deals it for the seed in the page's address. With `counted`, the names are typed
    key by key and the count chosen as a player does, so that they are counted."""
    phone.goto(f"{base}/setup/{game}")
    players = phone.locator("select[name=players]")
    if counted and players.input_value() != str(len(names)):
        counted.choose(players, str(len(names)))
    elif not counted:
        players.select_option(str(len(names)))  # the name fields follow the count at once
    fields = phone.locator("input[name='_names']")
    expect(fields).to_have_count(len(names))
    for k, name in enumerate(names):
        counted.type(fields.nth(k), name) if counted else fields.nth(k).fill(name)
        assert fields.nth(k).input_value() == name
    phone.locator(".go button[type=submit]").tap()
    phone.locator("#result").wait_for()
    seed = parse_qs(urlparse(phone.url).query)["seed"][0]
    dealt = service.setup(game, str(len(names)), seed, {})
    phone.get_by_role("link", name="Play: open the scoring").tap()
    phone.wait_for_url(f"**/score/{game}**")
    return dealt


def new_phone(browser, phone: dict = OFFLINE_PHONE):
    """A phone in English (OFFLINE_PHONE unless told): its context, its page and its script errors as they come."""
    context = browser.new_context(**phone, locale="en-GB")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def total(page, name: str) -> str:
    return page.locator(f'[data-player="{name}"]').get_attribute("data-total")



def new_sheet(page, base: str, game: str, names: list[str], counted: Counted | None = None) -> str:
    """A saved sheet of `game` started on the sheets page as a player starts it (with `counted`: the game chosen and
    the names typed key by key, counted); the sheet's address, once its page is open."""
    page.goto(f"{base}/sheets?lang=en")
    if counted:
        counted.choose(page.locator("select[name=game]"), game)
    else:
        page.select_option("select[name=game]", game)
    for i, name in enumerate(names):
        field = page.locator(f"input[name='players.{i}']")
        counted.type(field, name) if counted else field.fill(name)
    page.locator("form[action$='/sheets'] button[type=submit]").tap()
    page.wait_for_selector("#sheet")
    return page.url


GEMAS_COLOURS = ("green", "blue", "violet", "orange")


def gemas_table_shown(phone, players: int) -> list[dict]:
    """Each Gemas player's name, gems, band-aids and heart as the scoring form holds them now (a request's players)."""
    out = []
    for i in range(players):
        at = f"players.{i}."
        gems = {c: int(phone.input_value(f"input[name='{at}gems.{c}:int']") or 0) for c in GEMAS_COLOURS}
        out.append({"name": phone.input_value(f"input[name='{at}name']"), "gems": gems,
                    "bandaids": int(phone.input_value(f"select[name='{at}bandaids:int']")),
                    "heart": phone.input_value(f"select[name='{at}heart:bool']") == "1"})
    return out
