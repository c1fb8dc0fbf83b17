"""The setup helper: the seed goes into the URL, the same link deals the same game, reroll keeps the options."""
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from companion import service
from conftest import GAME_IDS


def seed_of(url):
    return parse_qs(urlsplit(url).query)["seed"][0]


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_fresh_deal_puts_its_seed_in_the_url_and_matches_the_api(client, game):
    r = client.get(f"/setup/{game}")
    assert r.status_code == 302 and "seed=" in r.location
    page = client.get(r.location).get_data(as_text=True)
    expected = service.setup(game, None, seed_of(r.location), {})
    first_hand = expected["hands"][0] if "hands" in expected else expected["hand"]
    assert all(card in page for card in first_hand)
    assert f'data-seed="{expected["seed"]}"' in page


def test_the_same_link_deals_the_same_setup_on_another_phone(app):
    one, other = app.test_client(), app.test_client()
    url = "/setup/queens-necklace?players=4&seed=friday"
    def strip(page):  # the reroll link carries a fresh seed each time
        return re.sub(r'class="button light" href="[^"]+"', "", page)
    assert strip(one.get(url).get_data(as_text=True)) == strip(other.get(url).get_data(as_text=True))


def test_reroll_keeps_players_and_options_with_a_new_seed(client):
    page = client.get("/setup/duquesa?players=1&expansions=rainbow&expansions=gold&seed=a").get_data(as_text=True)
    reroll = re.search(r'class="button light" href="([^"]+)"', page)[1].replace("&amp;", "&")
    args = parse_qs(urlsplit(reroll).query)
    assert args["players"] == ["1"] and args["expansions"] == ["rainbow", "gold"] and args["seed"] != ["a"]
    deal = service.setup("duquesa", 1, "a", {"expansions": "rainbow,gold"})
    assert all(c in page for c in deal["hand"]) and "turns" in deal


@pytest.mark.parametrize("query", ["players=9", "players=x", "jokers=maybe", "seed=%20"])
def test_bad_setups_are_400_with_a_message(client, query):
    r = client.get(f"/setup/nobles?seed=s&{query}" if "seed" not in query else f"/setup/nobles?{query}")
    assert r.status_code in (400, 302)
    if r.status_code == 400:
        assert 'role="alert"' in r.get_data(as_text=True)


def test_unknown_game_setup_is_404(client):
    assert client.get("/setup/chess").status_code == 404
