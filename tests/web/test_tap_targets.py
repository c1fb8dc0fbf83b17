"""Every target a thumb can aim at, on every page, is at least 44 × 44 CSS px (issue 13): measured in Debian's
chromium on a 390 px phone, in Spanish (the longer words), with each game's example answer shown (its rule pills)
and a sheet holding an entry (its Edit / Undo)."""
from pathlib import Path

from helpers.browser import PHONE  # (and skips this module without playwright or chromium)
from helpers.games import GAME_IDS
from helpers.server import Api

FORMS = Path(__file__).parent / "forms"
MIN = 44
# What can be tapped: links, buttons, fields, folds.
# A checkbox or radio button is measured by the label that carries it (a card, a die's face: the box itself may be
# drawn 1 px and unseen).
TARGETS = """() =>
  [...document.querySelectorAll('a[href], button, select, input:not([type=hidden]), summary, textarea')]
  .map((e) => [e, e.matches('input[type=checkbox], input[type=radio]') ? (e.closest('label') || e) : e])
  .filter(([e, t]) => { const r = t.getBoundingClientRect(); return r.width > 1 && r.height > 1
                        && getComputedStyle(e).visibility !== 'hidden'; })
  .map(([e, t]) => { const r = t.getBoundingClientRect();
                     return [e.outerHTML.slice(0, 90), Math.round(r.width * 10) / 10,
                             Math.round(r.height * 10) / 10]; })"""


def every_page(base: str) -> list[str]:
    api = Api(base)
    token = api.call("POST", "/api/v1/sheets", {"game": "duplicon", "players": ["Ana", "Bruno"]})[1]["token"]
    assert api.call("POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 3, "Bruno": 5}})[0] == 201
    pages = ["/", "/sheets", f"/s/{token}", "/solo/duquesa", "/solo/duquesa/turn", "/solo/duquesa?florins:int=30"]
    for game in GAME_IDS:
        example = (FORMS / f"{game}.txt").read_text().strip()
        pages += [f"/score/{game}", f"/score/{game}?{example}", f"/setup/{game}?seed=taps", f"/rules/{game}"]
    return pages + ["/c/duquesa/DQ07", "/c/queens-necklace/QN-KING", "/c/gemas/GM-THIEF", "/c/nobles/NB-QH",
                    "/c/duplicon/DP-CIRCLE"]


def test_every_target_on_every_page_is_44_px(server, browser):
    context = browser.new_context(**PHONE, locale="es-ES")
    page = context.new_page()
    small, counted = [], 0
    try:
        for path in every_page(server[0]):
            response = page.goto(f"{server[0]}{path}")
            assert response.ok, path
            boxes = page.evaluate(TARGETS)
            assert boxes, path
            counted += len(boxes)
            small += [(path, *b) for b in boxes if b[1] < MIN or b[2] < MIN]
    finally:
        context.close()
    assert counted > 1000  # (every page measured: their links, fields and buttons)
    assert not small, "\n".join(map(str, small[:30]))


def test_a_setups_share_link_is_one_target_of_44_px(server, browser):
    """Issue 30: a setup's share link, a long address wrapped over lines, was a thumb target 21 px high a line (its
    box measured whole looked taller). Each line box of it is now at least 44 px: one box, in both languages."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        for game in GAME_IDS:
            for lang in ("es", "en"):
                page.goto(f"{server[0]}/setup/{game}?seed=share&lang={lang}")
                rects = page.locator(".share > a").evaluate(
                    "a => [...a.getClientRects()].map((r) => [Math.round(r.width), Math.round(r.height)])")
                assert rects and all(w >= MIN and h >= MIN for w, h in rects), (game, lang, rects)
    finally:
        context.close()
