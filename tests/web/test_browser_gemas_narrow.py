"""Gemas on a 320 px phone (issue 46, item 6): the row a thief or a bump opens ("Against", who is hit) used to open
under the sticky bar, which covers the bottom of the screen; it is now brought above the bar as it opens, and so is
an exchange's."""
from helpers.browser import playwright_api, settled  # (and skips this module without playwright or chromium)

expect = playwright_api.expect
NARROW = {"viewport": {"width": 320, "height": 568}, "is_mobile": True, "has_touch": True, "locale": "es-ES"}
TABLE = ("_n=3&_turns=1&_next=0&players.0.name=Ana&players.0.gems.orange:int=3&players.1.name=Beto"
         "&players.1.gems.green:int=1&players.2.name=Caro&players.2.gems.violet:int=2")


def test_the_row_a_set_opens_is_not_under_the_sticky_bar_at_320_px(server, browser):
    phone = browser.new_context(**NARROW).new_page()
    for kind, row in (("chipote", ".for-target"), ("thief", ".for-target"), ("exchange", ".for-exchange")):
        phone.goto(f"{server[0]}/score/gemas?{TABLE}")
        settled(phone)
        chip = phone.locator(f"label.tap:has(input[name='lay_down.set'][value='{kind}'])")
        bar = phone.locator("form .go")
        # the set's chips just above the bar, as a thumb scrolling down the form leaves them
        for _ in range(3):  # (the bar settles at the screen's bottom once the page is scrolled)
            phone.evaluate("([chip, bar]) => window.scrollBy({behavior: 'instant', top: chip.getBoundingClientRect()"
                           ".bottom - bar.getBoundingClientRect().top + 4})",
                           [chip.element_handle(), bar.element_handle()])
        assert chip.bounding_box()["y"] + chip.bounding_box()["height"] <= bar.bounding_box()["y"], kind
        chip.tap()
        opened = phone.locator(f"#turn {row}")
        expect(opened).to_be_visible()
        phone.wait_for_timeout(100)
        box, top = opened.bounding_box(), bar.bounding_box()["y"]
        assert box["y"] + box["height"] <= top + 1, (kind, box, top)  # wholly above the bar
        assert box["y"] >= 0, kind
    phone.context.close()
