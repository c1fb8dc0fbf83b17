"""Rules pages: every game has one, and every printed card's QR code opens a page naming that card."""
import re

import pytest

from companion import cards, library
from companion.pnp.document import card_url
from helpers.games import GAME_IDS, GAMES_ONE_FAST


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_game_has_a_rules_page_listing_its_cards(client, game):
    r = client.get(f"/rules/{game}")
    page = r.get_data(as_text=True)
    card_set = library.load_game(game)
    assert r.status_code == 200 and card_set.title.es in page
    assert all(c.id in page for c in card_set.components if c.kind != "back")


@pytest.mark.parametrize("game", GAMES_ONE_FAST)  # the fast lane: one game
def test_every_printed_qr_url_opens_a_page_naming_its_card_with_links_that_land(client, game):
    card_set = library.load_game(game)
    anchors = set(re.findall(r' id="([^"]+)"', client.get(f"/rules/{game}").get_data(as_text=True)))
    for c in card_set.components:
        if c.kind in ("back", "token"):
            continue
        url = card_url("http://127.0.0.1:5000", c.id)
        path = url[len("HTTP://127.0.0.1:5000"):]
        r = client.get(path, follow_redirects=True)
        page = r.get_data(as_text=True)
        assert r.status_code == 200 and c.id in page and (c.name_in("es") or c.id) in page, url
        for target, anchor in re.findall(r'href="/rules/([a-z-]+)#([a-z0-9-]+)"', page):
            assert target == game and anchor in anchors, (c.id, anchor)
        assert client.get(f"/c/{game}/{c.id}").status_code == 200
        assert client.get(f"/C/{game.upper()}/{c.id}", follow_redirects=True).status_code == 200  # old codes


def test_printed_ids_are_unique_across_games(shipped, tmp_path):
    ids = [c.id for s in shipped.values() for c in s.components]
    assert len(ids) == len(set(ids))
    clash = tmp_path / "clash.yaml"
    clash.write_text("game: clash\ntitle: {es: C, en: C}\nprefix: DQ\nplayers: [2, 2]\ncomponents:\n"
                     "  - {id: DQ07, type: card, name: {es: A, en: A}}\n")
    own = library.Library()
    with pytest.raises(cards.DataError) as e:
        own.add(clash)
    assert f"{clash}:6: DQ07: id: duquesa" in str(e.value) and "clash" not in own.all()


def test_unknown_cards_and_games_are_404(client):
    assert client.get("/c/duquesa/DQ99").status_code == 404
    assert client.get("/c/duquesa/DQ-BACK").status_code == 404
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/C/CHESS/X1", follow_redirects=True).status_code == 404
    assert client.get("/C/NOPE").status_code == 404 and client.get("/C/DQ-BACK").status_code == 404


def test_pages_use_no_outside_resources(client):
    for path in ("/", "/rules/duquesa", "/c/duquesa/DQ07"):
        page = client.get(path).get_data(as_text=True)
        # (the page in each language is named by its absolute address, as search engines want it: this server's)
        page = re.sub(r'<link rel="alternate" hreflang="[\w-]+" href="http://localhost/[^"]*">', "", page)
        assert "http://" not in page and "https://" not in page and "//cdn" not in page
    assert client.get("/static/companion.css").status_code == 200
