"""Pages stand alone at a table without signal: nothing from elsewhere, strict headers, and a small main page."""
import re

import pytest

from conftest import GAME_IDS

BUDGET = 60 * 1024  # bytes for the heaviest scoring page and everything it loads (issue 13)


def assets(page: str) -> list[str]:
    """What the page loads (a link to the page in the other language is not loaded)."""
    return re.findall(r'<(?:link(?![^>]*rel="alternate")|script)[^>]+(?:href|src)="(/[^"]+)"', page)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_scoring_page_transfers_under_60_kb(client, game):
    page = client.get(f"/score/{game}").get_data()
    total = len(page) + sum(len(client.get(a).get_data()) for a in assets(page.decode()))
    assert len(assets(page.decode())) == 6  # manifest, icon, stylesheet, icons, theme, script
    assert total < BUDGET, f"{total} bytes"


@pytest.mark.parametrize("path", ["/", "/rules/duquesa", "/c/duquesa/DQ07", "/solo/duquesa", "/setup/duquesa?seed=a",
                                  "/sheets", "/offline", *[f"/score/{g}" for g in GAME_IDS]])
def test_pages_load_nothing_from_elsewhere_and_run_no_inline_script(client, path):
    r = client.get(path)
    page = r.get_data(as_text=True)
    assert not re.search(r'<(?:script|link|img|iframe|source)[^>]+(?:src|href)="(?:https?:)?//', page)
    assert "<script>" not in page and " style=" not in page and "<style" not in page
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    assert r.headers["X-Content-Type-Options"] == "nosniff" and r.headers["Referrer-Policy"]
    for asset in assets(page):
        assert client.get(asset).status_code == 200, asset


def test_icons_are_drawn_from_the_print_shapes(client):
    css = client.get("/icons/duquesa.css").get_data(as_text=True)
    assert css.count(".i-") == 10 and "data:image/svg+xml" in css
    assert client.get("/icons/chess.css").status_code == 404
