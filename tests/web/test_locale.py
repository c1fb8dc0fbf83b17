"""Spanish and English: a visible switch, remembered; otherwise the browser's language; Spanish by default."""
import html

import pytest

from helpers.games import GAME_IDS


def lang_of(response):
    return response.get_data(as_text=True).split('<html lang="', 1)[1][:2]


def test_default_is_spanish_and_the_browser_language_is_followed(client):
    assert lang_of(client.get("/")) == "es"
    assert lang_of(client.get("/", headers={"Accept-Language": "en-GB,en;q=0.8"})) == "en"
    assert lang_of(client.get("/", headers={"Accept-Language": "fr, de"})) == "es"


def test_the_switch_wins_over_the_browser_and_is_remembered(client):
    r = client.get("/rules/duquesa?lang=en", headers={"Accept-Language": "es"})
    assert lang_of(r) == "en" and "Wishes" in r.get_data(as_text=True)
    assert "lang=en" in r.headers["Set-Cookie"]
    again = client.get("/rules/duquesa", headers={"Accept-Language": "es"})
    assert lang_of(again) == "en"


def test_the_switch_link_keeps_the_page_and_its_form(client):
    page = client.get("/score/duplicon?_n=3&lang=es").get_data(as_text=True)
    assert 'href="/score/duplicon?_n=3&amp;lang=en"' in page


@pytest.mark.parametrize("game", GAME_IDS)
def test_rules_pages_speak_each_language(client, shipped, game):
    for lang in ("es", "en"):
        page = html.unescape(client.get(f"/rules/{game}?lang={lang}").get_data(as_text=True))  # (a title's ')
        assert all(section["title"].get(lang) in page for section in shipped[game].rules)
        assert len(shipped[game].rules) >= 2


def test_card_pages_speak_each_language(client):
    assert "florines" in client.get("/c/duquesa/DQ07?lang=es").get_data(as_text=True)
    assert "florins" in client.get("/c/duquesa/DQ07?lang=en").get_data(as_text=True)
