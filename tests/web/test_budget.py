"""Pages stand alone at a table without signal: nothing from elsewhere, strict headers, and a small main page."""
import re

import pytest

from helpers import http
from helpers.games import GAME_IDS
from helpers.http import BUDGET, PHONE_ACCEPTS, assets


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_scoring_page_transfers_under_60_kb(client, game):
    """Counted as sent to a phone: the page and its files as they travel, compressed (issues 30 and 46)."""
    r = client.get(f"/score/{game}", headers=PHONE_ACCEPTS)
    assert r.headers["Content-Encoding"] == "gzip"
    urls = assets(http.body(r).decode())
    files = [client.get(a, headers=PHONE_ACCEPTS) for a in urls]
    assert len(files) == 6  # manifest, icon, stylesheet, icons, theme, script
    total = len(r.get_data()) + sum(len(f.get_data()) for f in files)
    assert total < BUDGET, f"{total} bytes"
    # the stylesheet and the scripts travel compressed (the manifest, the icon, a small look gain too little)
    packed = {u.partition("?")[0] for u, f in zip(urls, files, strict=True) if f.headers.get("Content-Encoding")}
    assert {"/static/companion.css", "/static/theme.js", "/static/companion.js"} <= packed


@pytest.mark.parametrize("path", ["/", "/rules/duquesa", "/c/duquesa/DQ07", "/solo/duquesa", "/setup/duquesa?seed=a",
                                  "/sheets", "/offline", *[f"/score/{g}" for g in GAME_IDS]])
def test_pages_load_nothing_from_elsewhere_and_run_no_inline_script(client, path):
    r = client.get(path)
    page = r.get_data(as_text=True)
    # (a link to this page in another language is not loaded: its address is absolute, on this same server)
    assert not re.search(r'<(?:script|link(?![^>]*rel="alternate")|img|iframe|source)[^>]+(?:src|href)="(?:https?:)?//',
                         page)
    alternates = re.findall(r'<link rel="alternate"[^>]+href="([^"]*)"', page)
    assert len(alternates) == 3 and all(a.startswith("http://localhost/") for a in alternates)
    assert "<script>" not in page and " style=" not in page and "<style" not in page
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    assert r.headers["X-Content-Type-Options"] == "nosniff" and r.headers["Referrer-Policy"]
    for asset in assets(page):
        assert client.get(asset).status_code == 200, asset


def test_icons_are_drawn_from_the_print_shapes(client):
    css = client.get("/icons/duquesa.css").get_data(as_text=True)
    assert css.count(".i-") == 10 and "data:image/svg+xml" in css
    assert client.get("/icons/chess.css").status_code == 404
