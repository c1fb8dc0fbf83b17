"""Every phone page in both languages and both themes, checked by axe-core (axe-playwright-python) in Debian's
chromium: no serious or critical violation (issue 13). And at 320 px with 40-character names, nothing scrolls
sideways."""
from pathlib import Path

import pytest

from helpers.games import GAME_IDS

axe_api = pytest.importorskip("axe_playwright_python.sync_playwright",
                              reason="the axe-playwright-python package is missing: make test installs it")

PAGES = ["/", "/sheets", *[f"/rules/{g}" for g in GAME_IDS], "/c/duquesa/DQ07", "/c/queens-necklace/QN-KING",
         "/c/gemas/GM-THIEF", "/c/nobles/NB-QH", "/c/duplicon/DP-CIRCLE", "/solo/duquesa", "/solo/duquesa/turn",
         *[f"/score/{g}" for g in GAME_IDS], *[f"/setup/{g}?seed=axe" for g in GAME_IDS],
         "/score/duquesa?common=DQ01&players.0.hand:list=DQ02&players.0.hand:list=DQ07&players.0.hand:list=DQ12"
         "&players.0.hand:list=DQ16&players.1.hand:list=DQ03&players.1.hand:list=DQ05&players.1.hand:list=DQ19"
         "&players.1.hand:list=DQ14", "/score/duplicon?rounds.0.0.won:int=200",
         # Nobles: a duel at court (both courts, the duel steps) and the last duel's winner screen; the calculator
         "/score/nobles?_names=Ana&_names=Bea&courts.0.nobles.0.noble=king&courts.0.nobles.0.suit=spades"
         "&courts.0.nobles.0.wounds:int=1&courts.1.nobles.0.noble=queen&courts.1.nobles.0.suit=hearts"
         "&courts.1.nobles.0.wounds:int=1&courts.1.fallen:list=jack:clubs&attacker.dice:ints=5+5&defender.dice:ints=2",
         "/score/nobles?_names=Ana&_names=Bea&courts.0.nobles.0.noble=king&courts.0.nobles.0.suit=spades"
         "&courts.1.nobles.0.noble=queen&courts.1.nobles.0.suit=hearts", "/score/nobles?_mode=duel",
         # Gemas turn to turn: a turn's result with its Next turn, and a colour still to choose (one tap each)
         "/score/gemas?_n=3&players.0.name=Ana&players.1.name=Bruno&players.1.gems.blue:int=2&players.1.bandaids:int=1"
         "&players.2.name=Carla&lay_down.player=%230&lay_down.set=chipote&lay_down.target=%231",
         "/score/gemas?_n=2&players.0.name=Ana&players.1.name=Bruno&lay_down.player=%230&lay_down.set=gems"
         "&lay_down.cards.0=green&lay_down.cards.1=blue&lay_down.cards.2=orange",
         # the solo game carried turn to turn: advice, the card drawn told, the next turn; the rank's percentile
         "/solo/duquesa/turn?hand:list=DQ11&hand:list=DQ12&hand:list=DQ18&hand:list=DQ06&common=DQ16&seen=DQ14"
         "&turn:int=1", "/solo/duquesa/turn?hand:list=DQ11&hand:list=DQ12&hand:list=DQ18&hand:list=DQ06&common=DQ16"
         "&seen=DQ14&turn:int=1&drawn=DQ10", "/solo/duquesa/turn?hand:list=DQ11&hand:list=DQ12&hand:list=DQ18"
         "&hand:list=DQ06&common=DQ16&gone:list=DQ14&gone:list=DQ10&turn:int=2&_from=turn",
         "/solo/duquesa?florins:int=31", "/score/duquesa?_sets=rainbow&_sets=gold"]


AXE_SCRIPT = str(Path(axe_api.__file__).with_name("axe.min.js"))  # axe-core as the package ships it
# What a theme changes is colour: the dark theme is checked by axe's colour rules, the light one by every rule.
EVERY_RULE = {"resultTypes": ["violations"]}  # (the details of what passed are not gathered)
COLOUR_RULES = {**EVERY_RULE, "runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}}


# The pages are the same in both languages but for their words: every page in Spanish (the longer words), and in
# English one page of each kind (home, sheets, rules, a card, scoring with and without an answer, setup, solo).
ENGLISH = ["/", "/sheets", "/rules/nobles", "/c/queens-necklace/QN-KING", "/score/gemas", PAGES[PAGES.index(
    "/score/duplicon?rounds.0.0.won:int=200") - 1], "/setup/duquesa?seed=axe", "/solo/duquesa/turn"]


# Spanish in three parts of a dozen pages (xdist spreads them: one 50 s test would end the run alone).
PARTS = [("es", PAGES[k::3]) for k in range(3)] + [("en", ENGLISH)]


@pytest.mark.parametrize(("lang", "pages"), PARTS, ids=["es-1", "es-2", "es-3", "en"])
def test_no_serious_accessibility_violation_on_any_page(server, browser, lang, pages):
    """Each page opened once and checked in the light theme (every rule), then in the dark one (the colour rules),
    the phone's colour scheme switched on the open page as a phone's setting switches it."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="light", bypass_csp=True)
    context.add_init_script(path=AXE_SCRIPT)  # in every page as it opens, not sent page by page
    page = context.new_page()
    found = []
    try:
        for path in pages:
            page.goto(f"{server[0]}{path}{'&' if '?' in path else '?'}lang={lang}")
            for scheme, options in (("light", EVERY_RULE), ("dark", COLOUR_RULES)):
                page.emulate_media(color_scheme=scheme)
                assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
                for v in page.evaluate("(options) => axe.run(document, options)", options)["violations"]:
                    if v["impact"] in ("serious", "critical"):
                        found.append((path, lang, scheme, v["id"], [n["target"] for n in v["nodes"]][:3]))
            page.emulate_media(color_scheme="light")
    finally:
        context.close()
    assert not found, found


def test_nothing_scrolls_sideways_at_320_px_with_long_names(server, browser):
    long = ["Bartolomé de las Casas y Fernández de Oviedo"[:40], "Ｗ" * 40,
            "María Auxiliadora Villanueva del Castillo"[:40]]
    names = "&".join(f"_names={n}" for n in long)
    context = browser.new_context(viewport={"width": 320, "height": 700}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        for path in [*[f"/score/{g}?_n=2&{names}" for g in GAME_IDS], f"/setup/gemas?seed=s&players=3&{names}", "/"]:
            page.goto(server[0] + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 320, path
    finally:
        context.close()
