"""Rules pages: every game has one, and every printed card's QR code opens a page naming that card."""
import pytest

from companion import cards
from companion.pnp.document import card_url
from conftest import GAME_IDS


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_game_has_a_rules_page_listing_its_cards(client, game):
    r = client.get(f"/rules/{game}")
    page = r.get_data(as_text=True)
    card_set = cards.load_game(game)
    assert r.status_code == 200 and card_set.title.es in page
    assert all(c.id in page for c in card_set.components if c.kind != "back")


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_printed_qr_url_opens_a_page_naming_its_card(client, game):
    for c in cards.load_game(game).components:
        if c.kind in ("back", "token"):
            continue
        url = card_url("http://127.0.0.1:5000", game, c.id)
        path = url[len("HTTP://127.0.0.1:5000"):]
        r = client.get(path, follow_redirects=True)
        assert r.status_code == 200 and c.id in r.get_data(as_text=True), url
        assert client.get(f"/c/{game}/{c.id}").status_code == 200


def test_unknown_cards_and_games_are_404(client):
    assert client.get("/c/duquesa/DQ99").status_code == 404
    assert client.get("/c/duquesa/DQ-BACK").status_code == 404
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/C/CHESS/X1", follow_redirects=True).status_code == 404


def test_pages_use_no_outside_resources(client):
    for path in ("/", "/rules/duquesa", "/c/duquesa/DQ07"):
        page = client.get(path).get_data(as_text=True)
        assert "http://" not in page and "https://" not in page and "//cdn" not in page
    assert client.get("/static/companion.css").status_code == 200
