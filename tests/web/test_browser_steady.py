"""Pages that hold still as they load and chips a thumb can tell apart (issue 38, item 9: Lighthouse's cumulative
layout shift and target-size), measured in Debian's chromium at phone size."""
import time

import pytest

from companion import games
from helpers.browser import PHONE

# Every layout shift from the page's start (PerformanceObserver 'layout-shift', as Lighthouse counts them: the test
# makes no input, so none is left out), and when companion.js has run (its DOMContentLoaded work is done by load).
SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shifts.push(e.value); })
  .observe({ type: "layout-shift", buffered: true });
"""
# The page's targets in its form, each with its box (ones a closed fold or the sticky bar hides are not among them).
TARGETS = """() => {
  const seen = (e) => e.checkVisibility() && !e.closest(".go") && !e.classList.contains("enter-key");
  return [...document.querySelectorAll("main form button, main form label.tap > span, main form a, "
                                       + "main form input:not([type=hidden]):not([type=radio]):not([type=checkbox])")]
    .filter(seen).map((e) => { const r = e.getBoundingClientRect();
      return { name: (e.getAttribute("aria-label") || e.textContent).trim().slice(0, 40),
               x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height }; })
    .filter((b) => b.w > 0 && b.h > 0);
}"""


def loaded_slowly(browser, url: str, width: int = 390):
    """A phone opening `url` whose scripts arrive late (a slow line: the page is drawn before they run), its CPU
    slowed 4× as Lighthouse's phone; the page once its scripts have run and it has been still a second."""
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 844}}, locale="en-GB")
    context.add_init_script(SHIFTS)
    page = context.new_page()
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})

    def late(route):
        time.sleep(0.4)
        route.continue_()

    page.route("**/static/*.js*", late)
    page.goto(url, wait_until="load")
    page.wait_for_timeout(1000)
    return context, page


@pytest.mark.parametrize("game", sorted(games.GAMES))
def test_a_scoring_page_does_not_shift_as_it_loads(server, browser, game):
    """What the scripts show or hide at load (Duquesa's "Show their cards", the live form's Score button, the theme
    switch, Queen's Necklace's +N buttons) has its place from the first frame: Duquesa's page shifted 0.195."""
    context, page = loaded_slowly(browser, f"{server[0]}/score/{game}")
    try:
        assert page.locator("[data-theme-switch]").is_visible()  # (companion.js did run: it shows the switch)
        if game == "queens-necklace":
            assert page.locator(".txt .taps button").first.is_visible()
        shifts = page.evaluate("window.__shifts")
        assert sum(shifts) < 0.01, f"cumulative layout shift {sum(shifts):.3f}: {shifts}"
    finally:
        context.close()


def gaps(boxes: list[dict]) -> list[tuple[float, str, str]]:
    """Each two targets closer than 8 px (edge to edge, across or down), with their names."""
    close = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            across = max(0.0, max(a["x"], b["x"]) - min(a["x"] + a["w"], b["x"] + b["w"]))
            down = max(0.0, max(a["y"], b["y"]) - min(a["y"] + a["h"], b["y"] + b["h"]))
            if max(across, down) < 7.95:
                close.append((round(max(across, down), 1), a["name"], b["name"]))
    return close


@pytest.mark.parametrize("width", [390, 320])
@pytest.mark.parametrize("mode", ["", "&_mode=game"])
def test_queens_necklace_chips_are_8_px_apart(server, phone, width, mode):
    """Every target of Queen's Necklace's form (the fashion track's chips, the gem cards' +N and ⌫, the fields, the
    fold's rings, King, Necklace and Bankers) is at least 44 px (beyond WCAG 2.5.8's 24 px) and 8 px from the next,
    across and down: Lighthouse found its 44 px chips touching (4 and 5.6 px apart)."""
    phone.set_viewport_size({"width": width, "height": 844})
    phone.goto(f"{server[0]}/score/queens-necklace?lang=en{mode}")
    phone.evaluate("document.querySelectorAll('main details.more').forEach((d) => { d.open = true; })")
    boxes = phone.evaluate(TARGETS)
    chips = [b for b in boxes if b["name"].startswith(("+", "⌫")) or b["w"] < 80]
    assert len(chips) > 40, boxes
    assert not [b for b in chips if b["w"] < 44 or b["h"] < 44], "targets under 44 px"
    close = gaps(boxes)
    assert not close, f"{len(close)} pairs of targets closer than 8 px, e.g. {close[:5]}"
