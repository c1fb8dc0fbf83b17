"""Issue 13: "expansion cards show only when that expansion is on". The Duquesa's pickers (two-player scoring, solo
rank, turn helper) offer the base game's 18 cards; an expansion's come with its switch (`_sets`, carried from the
setup's expansion option); a card a link already names shows whatever its set."""
import html
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

import pytest

from companion import service

BASE = {f"DQ{k:02d}" for k in range(1, 19)}
FORM = (Path(__file__).parent / "forms" / "duquesa.txt").read_text().strip()  # a two-player game
RAINBOW, GOLD = {"DQ19"}, {"DQ20", "DQ21", "DQ22", "DQ23"}


def offered(page: str) -> set[str]:
    """The cards the page's pickers offer (any field)."""
    return set(re.findall(r'<label class="card"><input type="(?:radio|checkbox)" name="[^"]+" value="(DQ\d\d)"', page))


@pytest.mark.parametrize("path", ["/score/duquesa", "/solo/duquesa"])
def test_only_the_base_cards_by_default_and_each_expansion_with_its_switch(client, path):
    assert offered(client.get(path).get_data(as_text=True)) == BASE
    page = client.get(f"{path}?_sets=rainbow").get_data(as_text=True)
    assert offered(page) == BASE | RAINBOW
    assert re.search(r'name="_sets" value="rainbow" data-redraw checked', page)
    assert not re.search(r'name="_sets" value="gold" data-redraw checked', page)
    assert offered(client.get(f"{path}?_sets=gold&_sets=rainbow").get_data(as_text=True)) == BASE | RAINBOW | GOLD
    assert offered(client.get(f"{path}?_sets=nonsense").get_data(as_text=True)) == BASE


def test_a_card_an_old_link_names_still_shows_and_is_scored(client):
    hands = {0: ["DQ02", "DQ07", "DQ12", "DQ16"], 1: ["DQ03", "DQ05", "DQ19", "DQ14"]}
    query = urlencode([("common", "DQ21"), ("players.0.name", "Ana"), ("players.1.name", "Bruno"),
                       *((f"players.{i}.hand:list", c) for i, h in hands.items() for c in h)])
    r = client.get(f"/score/duquesa?lang=en&{query}")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and offered(page) == BASE | {"DQ19", "DQ21"}  # not the gold cards nobody named
    assert 'value="DQ21" checked' in page and 'value="DQ19" checked' in page
    expected = service.score("duquesa", {"common": "DQ21", "players": [
        {"name": "Ana", "hand": hands[0]}, {"name": "Bruno", "hand": hands[1]}]})
    assert re.findall(r'class="total" data-florins="(\d+)"', page) == [str(p["florins"]) for p in expected["players"]]
    solo = client.get("/solo/duquesa?lang=en&common=DQ01&hand:list=DQ02&hand:list=DQ03&hand:list=DQ04&hand:list=DQ19")
    assert offered(solo.get_data(as_text=True)) == BASE | RAINBOW
    assert "this rank is not official" in solo.get_data(as_text=True)


def test_the_switch_redraws_without_scoring_a_half_filled_form(client):
    """Showing an expansion's cards sends the form as it is (`_redraw`): what was tapped stays, nothing is scored
    and a half-filled hand is no error."""
    r = client.get("/score/duquesa?lang=en&common=DQ01&players.0.hand:list=DQ02&_sets=gold&_redraw=1")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="result"' not in page and 'class="problems' not in page
    assert offered(page) == BASE | GOLD and 'value="DQ02" checked' in page
    # without the redraw, the same half-filled form is scored and its problem named
    assert client.get("/score/duquesa?lang=en&common=DQ01&players.0.hand:list=DQ02&_sets=gold").status_code == 400


def test_the_turn_helper_offers_the_base_game_only(client):
    """The rulebook's solo game is the 18 base cards (the helper's unseen pool too)."""
    page = client.get("/solo/duquesa/turn?_sets=rainbow&_sets=gold").get_data(as_text=True)
    assert offered(page) == BASE and "data-redraw" not in page


@pytest.mark.parametrize("chosen,shown", [([], BASE), (["rainbow"], BASE | RAINBOW),
                                          (["rainbow", "gold"], BASE | RAINBOW | GOLD)])
def test_the_setup_carries_its_expansions_to_the_scoring_page(client, chosen, shown):
    setup = client.get("/setup/duquesa?" + urlencode([("seed", "sets"), *(("expansions", s) for s in chosen)]))
    link = re.search(r'href="(/score/duquesa\?[^"]+)"', setup.get_data(as_text=True)).group(1).replace("&amp;", "&")
    assert sorted(v for k, v in parse_qsl(link.split("?", 1)[1]) if k == "_sets") == sorted(chosen)
    page = client.get(link).get_data(as_text=True)
    assert offered(page) == shown and client.get(link).status_code == 200


def test_fewer_tiles_by_default(client):
    """The default page carries 18 × 3 card tiles, not 23 × 3 (its height is measured in chromium,
    test_browser_solo.py)."""
    page = client.get("/score/duquesa").get_data(as_text=True)
    assert page.count('<label class="card">') == 18 * 3
    assert (client.get("/score/duquesa?_sets=rainbow&_sets=gold").get_data(as_text=True).count('<label class="card">')
            == 23 * 3)


@pytest.mark.parametrize("path", ["/score/duquesa", "/solo/duquesa"])
def test_the_expansion_switches_speak_the_pages_language(client, path, shipped):
    """Issue 30: the Spanish page's switches read "Rainbow", "Gold" and "Expansion 1: rainbow stones" (their macro
    was imported without the page's language)."""
    sets = shipped["duquesa"].sets
    for lang, other in (("es", "en"), ("en", "es")):
        page = client.get(f"{path}?lang={lang}").get_data(as_text=True)
        switches = re.findall(r'<label class="chk" title="([^"]+)"><input type="checkbox" name="_sets" value="(\w+)"'
                              r'[^>]*> ([^<]+)</label>', page)
        expected = [(sets[s].get(lang), s) for s in ("rainbow", "gold")]
        assert [(html.unescape(title), name) for title, name, _ in switches] == expected
        labels = [shipped["duquesa"].label(s, lang) for s in ("rainbow", "gold")]
        assert [word.strip() for _, _, word in switches] == labels
        assert labels != [shipped["duquesa"].label(s, other) for s in ("rainbow", "gold")]


def test_a_wish_says_it_wants_exactly_its_count(client):
    """A wish for three jets is missed by four: the page says "exactly" (issue 30)."""
    for lang, word in (("en", "wants exactly"), ("es", "pide exactamente")):
        page = client.get(f"/score/duquesa?lang={lang}&{FORM}").get_data(as_text=True)
        assert 'id="result"' in page and word in page, lang
