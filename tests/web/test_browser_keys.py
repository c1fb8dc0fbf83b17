"""Scoring by the keys alone (issue 46, item 2), real keys pressed in Debian's chromium and counted: a grid of cards is
one stop of Tab, whose arrows move through it as it is laid out (a one-card pick chooses as it moves) and where a
card's number typed goes to it; choosing with the keys never closes the section nor drops the focus. Duquesa's common
card DQ05 took 179 presses: the arrow chose a card, closed its section and left the focus to the page."""
import pytest

from companion import games

KEYBOARD = {"viewport": {"width": 390, "height": 844}, "locale": "en-GB", "service_workers": "block"}
FOCUSED = """() => { const e = document.activeElement;
  return { name: e.name || "", value: e.value || "", checked: !!e.checked, inForm: !!e.closest("main form"),
           open: e.closest("details") ? e.closest("details").open : null, body: e === document.body }; }"""
# The form's fields a player fills in, by name: shown, enabled, not in a closed fold (what Tab must reach).
FIELDS = """() => [...new Set([...document.querySelector("main form").elements]
  .filter((e) => e.name && e.type !== "hidden" && !e.disabled && e.checkVisibility()
                 && !e.closest("details:not([open])"))
  .map((e) => e.name))]"""


class Keys:
    """A page's keyboard, counting every press."""

    def __init__(self, page):
        self.page, self.presses = page, 0

    def press(self, *keys: str) -> dict:
        for key in keys:
            self.page.keyboard.press(key)
            self.presses += 1
        return self.page.evaluate(FOCUSED)

    def tab_to(self, name: str, most: int = 60) -> dict:
        """Tab until the focus is on a field of this name."""
        for _ in range(most):
            now = self.press("Tab")
            if now["name"] == name:
                return now
        raise AssertionError(f"{most} presses of Tab never reached {name}")


@pytest.fixture
def keyboard_page(server, browser):
    context = browser.new_context(**KEYBOARD)
    page = context.new_page()
    yield server[0], page
    context.close()


def test_duquesas_common_card_dq05_is_chosen_in_15_presses_with_the_focus_kept(keyboard_page):
    base, page = keyboard_page
    page.goto(f"{base}/score/duquesa?lang=en")
    keys = Keys(page)
    keys.tab_to("common")
    now = keys.press("5")  # DQ05's number
    assert now == {"name": "common", "value": "DQ05", "checked": True, "inForm": True, "open": True, "body": False}
    assert keys.presses <= 15, keys.presses
    # the arrows choose as they move, the section stays open and the focus on the card chosen
    assert keys.press("ArrowRight") == {**now, "value": "DQ06"}
    below = page.evaluate("""() => { const box = (v) => document.querySelector(`input[name=common][value=${v}]`)
      .closest("label").getBoundingClientRect(); return [box("DQ06").left, box("DQ06").bottom]; }""")
    now = keys.press("ArrowDown")
    assert now["checked"] and now["open"] and now["inForm"] and now["value"] != "DQ06"
    moved = page.evaluate(f"""() => document.querySelector("input[name=common][value={now['value']}]")
      .closest("label").getBoundingClientRect().toJSON()""")
    assert abs(moved["left"] - below[0]) < 2 and moved["top"] >= below[1], (now["value"], moved, below)
    assert page.eval_on_selector_all("input[name=common]:checked", "bs => bs.map((b) => b.value)") == [now["value"]]


def test_a_hand_is_taken_by_the_keys_and_tab_goes_on_from_it(keyboard_page):
    """Player 1's hand: a card's number (one or two digits) goes to it, Space takes it; End and the arrows move;
    a full hand stays open with the focus on its last card, its other cards greyed, and Tab goes on in the form."""
    base, page = keyboard_page
    page.goto(f"{base}/score/duquesa?lang=en")
    keys = Keys(page)
    keys.tab_to("common")
    keys.press("2", "0")  # DQ20
    keys.tab_to("players.0.hand:list")
    keys.press("7", "Space", "1", "8", "Space", "Home", "Space", "ArrowDown", "ArrowRight", "Space")
    now = page.evaluate(FOCUSED)
    taken = page.eval_on_selector_all("input[name='players.0.hand:list']:checked", "bs => bs.map((b) => b.value)")
    assert sorted(taken) == ["DQ01", "DQ06", "DQ07", "DQ18"], taken
    assert now["name"] == "players.0.hand:list" and now["checked"] and now["open"], now
    assert page.locator("details.pick").nth(1).locator(".count").inner_text() == "4/4"
    assert keys.presses <= 30, keys.presses
    after = keys.press("Tab")
    assert after["inForm"] and after["name"] != "players.0.hand:list", after


SCORING = [f"/score/{g}" for g in sorted(games.GAMES)] + ["/score/queens-necklace?_mode=game", "/solo/duquesa",
                                                          "/solo/duquesa/turn"]


@pytest.mark.parametrize("path", SCORING)
def test_every_field_of_a_scoring_page_is_a_few_presses_of_tab_away(keyboard_page, path):
    """From the top of the page, Tab reaches every field of the form (a grid of cards, a row of chips, the players'
    counts: one stop each; a stepper's − and + and Queen's Necklace's +N left to the pointer, the keys type the number)
    within 35 presses at the page's own player count: Duquesa's took 54, Queen's Necklace's 75."""
    base, page = keyboard_page
    page.goto(f"{base}{path}{'&' if '?' in path else '?'}lang=en")
    wanted = set(page.evaluate(FIELDS))
    keys, reached, last = Keys(page), set(), 0
    for _ in range(120):
        now = keys.press("Tab")
        if now["body"]:
            break
        if now["inForm"] and now["name"] in wanted and now["name"] not in reached:
            reached.add(now["name"])
            last = keys.presses
        if reached == wanted:
            break
    assert reached == wanted, f"never reached: {sorted(wanted - reached)}"
    assert last <= 35, f"the last field took {last} presses of Tab"
