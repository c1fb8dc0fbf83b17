"""Names as chromium shows them on a phone (issue 15, item 6): a right-to-left name cannot carry the number beside
it to the other side of the line (on the sheet's grid: a number stays in its own name's column), and a long wide-glyph
name wraps instead of pushing the totals off the screen."""
from helpers.browser import PHONE, shot  # (and skips this module without playwright or chromium)
from helpers.server import Api

RTL = "سارة"  # Sara, written right to left
WIDE = "Ｗ" * 40  # forty full-width letters, the longest name a sheet takes


def sheet_with(server, players, points):
    api = Api(server[0])
    token = api.call("POST", "/api/v1/sheets", {"game": "duplicon", "players": players})[1]["token"]
    assert api.call("POST", f"/api/v1/sheets/{token}/entries", {"points": points})[0] == 201
    return f"{server[0]}/s/{token}"


def test_each_number_stays_after_its_own_name(server, browser):
    url = sheet_with(server, [RTL, "Bob"], {RTL: 12, "Bob": 21})
    context = browser.new_context(**PHONE, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(url)
        shot(page, "names-rtl")
        # On the sheet's grid each number sits in its name's column (the right-to-left name cannot swap them), and
        # the columns keep the players' order, left to right.
        heads = page.locator(".scores thead th[title]").all()
        assert [h.get_attribute("title") for h in heads] == [RTL, "Bob"]
        cells = page.locator(".scores tbody tr:first-child td[data-points]").all()
        assert [c.inner_text() for c in cells] == ["12", "21"]
        for head, cell in zip(heads, cells, strict=True):
            h, c = head.bounding_box(), cell.bounding_box()
            assert abs(h["x"] - c["x"]) < 1 and abs(h["width"] - c["width"]) < 1, head.get_attribute("title")
        assert cells[0].bounding_box()["x"] < cells[1].bounding_box()["x"]
    finally:
        context.close()


def test_a_long_wide_name_wraps_and_the_totals_stay_on_screen(server, browser):
    url = sheet_with(server, [WIDE, "Ana"], {WIDE: 7, "Ana": 3})
    context = browser.new_context(**PHONE, locale="en-GB")
    page = context.new_page()
    try:
        for path in (url, server[0] + "/sheets"):
            page.goto(path)
            shot(page, "names-wide" + ("-list" if path.endswith("/sheets") else ""))
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"], path
        page.goto(url)
        for cell in page.locator("#totals td[data-total]").all():
            box = cell.bounding_box()
            assert box["x"] + box["width"] <= PHONE["viewport"]["width"]
    finally:
        context.close()
