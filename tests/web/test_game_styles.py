"""Each game's own look (the classes only its templates use) lives beside its web glue, in
companion/web/games/<module>.css, and goes out with the game's look stylesheet (/icons/<game>.css, linked by
its pages only, compacted, compressed and versioned like the static files): not in the stylesheet every page loads."""
from pathlib import Path

import pytest

from companion import games
from companion.web.shell.assets import compact

GLUE = Path(__file__).parents[2] / "companion" / "web" / "games"
OWN = {game: GLUE / f"{rules.web.rpartition('.')[2]}.css" for game, rules in games.GAMES.items() if rules.web}
STYLED = sorted(game for game, path in OWN.items() if path.is_file())


def test_the_games_with_a_look_of_their_own():
    assert {"gemas", "nobles", "queens-necklace"} <= set(STYLED)


@pytest.mark.parametrize("game", STYLED)
def test_a_games_stylesheet_goes_with_its_look_and_nowhere_else(client, game):
    own = compact(OWN[game].name, OWN[game].read_text(encoding="utf-8"))
    assert own and "/*" not in own
    assert client.get(f"/icons/{game}.css").get_data(as_text=True).endswith(own)
    assert own not in client.get("/static/companion.css").get_data(as_text=True)
    for other in set(games.GAMES) - {game}:
        assert own not in client.get(f"/icons/{other}.css").get_data(as_text=True), other
    page = client.get(f"/score/{game}").get_data(as_text=True)
    assert f'<link rel="stylesheet" href="/icons/{game}.css?v=' in page  # (its version: what is sent with it)


def test_a_games_rules_draw_its_page(server, browser):
    """Gemas' turn shows who is hit only for a thief or a chipote (its own :has() rule); a Nobles duel's steps are
    headed 1.05rem (16.8 px; 18 px without its stylesheet)."""
    from helpers.browser import PHONE  # (skips without playwright or chromium)

    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        turn = server[0] + "/score/gemas?_n=3&_turns=1&lay_down.player=%230&lay_down.set="
        shown = {}
        for chosen in ("gems", "thief"):
            page.goto(turn + chosen)
            shown[chosen] = page.locator(".for-target").evaluate("(e) => getComputedStyle(e).display")
        assert shown == {"gems": "none", "thief": "block"}
        page.goto(server[0] + "/score/nobles?_mode=duel")
        assert page.locator("fieldset.step legend").first.evaluate("(e) => getComputedStyle(e).fontSize") == "16.8px"
    finally:
        context.close()
