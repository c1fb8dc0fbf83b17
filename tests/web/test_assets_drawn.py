"""The stylesheet as phones get it (companion.web.shell.assets: without comments, tight around its punctuation) draws
the pages exactly as the stylesheet as written: compared element by element in Debian's chromium."""
from pathlib import Path

from helpers.browser import PHONE  # (and skips this module without playwright or chromium)

STATIC = Path(__file__).parents[2] / "companion" / "web" / "static"


PROPS = ("display", "margin", "padding", "border", "color", "background-color", "background-image", "font-size",
         "font-weight", "width", "height", "gap", "grid-template-columns", "flex-wrap", "min-height", "box-shadow",
         "position", "opacity", "filter", "overflow-wrap", "visibility")


def test_a_page_is_drawn_alike_with_the_stylesheet_as_served_and_as_written(server, browser):
    """Every element of a few pages has the same computed style with either stylesheet (light and dark, the
    Gemas turn with a set chosen and the tally: the :has() rules). Its address carries its version (?v=)."""
    written = (STATIC / "companion.css").read_text(encoding="utf-8")
    measure = f"() => [...document.querySelectorAll('*')].map((e) => {{ const s = getComputedStyle(e); "\
              f"return {list(PROPS)}.map((p) => s.getPropertyValue(p)).join('|'); }})"
    routed = []
    for scheme in ("light", "dark"):
        context = browser.new_context(**PHONE, color_scheme=scheme)  # (PHONE blocks the service worker: no cached copy)
        try:
            page = context.new_page()
            for path in ("/score/gemas?_n=3&_turns=1&lay_down.player=%230&lay_down.set=gems", "/score/gemas?_n=3",
                         "/score/duquesa", "/sheets", "/rules/nobles"):
                page.unroute("**/companion.css*")
                page.goto(server[0] + path)
                served = page.evaluate(measure)
                page.route("**/companion.css*", lambda route: (routed.append(1),
                                                              route.fulfill(body=written, content_type="text/css")))
                page.goto(server[0] + path)
                assert page.evaluate(measure) == served, (scheme, path)
        finally:
            context.close()
    assert len(routed) == 10  # each page drawn with the stylesheet as written

