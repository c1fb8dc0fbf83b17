"""Scoring pages: each form gives the same answer as the API for the same game, shows why, and names bad fields."""
import json
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

import pytest
from werkzeug.datastructures import MultiDict

from companion import service
from helpers.games import GAME_IDS

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def example(game):
    return json.loads((EXAMPLES / f"{game}-score.json").read_text(encoding="utf-8"))


def q(*pairs) -> str:
    return urlencode(pairs)


def hand(i, ids):
    return [(f"players.{i}.hand:list", c) for c in ids]


# The shipped examples (docs/examples/<game>-score.json) typed into each page's form, one query string a game in
# tests/web/forms/<game>.txt (a new game adds its own file; no list here to edit).
FORMS_DIR = Path(__file__).parent / "forms"
FORMS = {g: (FORMS_DIR / f"{g}.txt").read_text(encoding="utf-8").strip() for g in GAME_IDS
         if (FORMS_DIR / f"{g}.txt").exists()}
DUQUESA, QN, GEMAS = FORMS.get("duquesa"), FORMS.get("queens-necklace"), FORMS.get("gemas")
NOBLES, DUPLICON = FORMS.get("nobles"), FORMS.get("duplicon")


def data(page: str, attr: str) -> list[str]:
    return re.findall(rf'data-{attr}="([^"]*)"', page)


def test_every_registered_game_has_a_scoring_form_under_test():
    assert sorted(FORMS) == GAME_IDS


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_games_form_makes_the_request_its_example_is(client, game):
    """Derived from the registry: each game's form (tests/web/forms/<game>.txt), read by its own glue as the page
    reads it, scores as its shipped example does through the API, so no game's form drifts from its rules."""
    from companion.web.site import browser

    api = client.post(f"/api/v1/{game}/score", json=example(game))
    assert api.status_code == 200, api.get_data(as_text=True)
    pairs = [[k, v] for k, v in parse_qsl(FORMS[game], keep_blank_values=True)]
    from_form = browser.score_form({"game": game, "fields": pairs})["result"]
    assert _scores(from_form) == _scores(api.get_json())
    page = client.get(f"/score/{game}?lang=en&" + FORMS[game])
    assert page.status_code == 200 and 'class="result"' in page.get_data(as_text=True)


def _scores(result):
    """What a result says of who scored what, without how its cards were named (a form names by id a card an
    example may give inline): the same points, parts and winners."""
    if isinstance(result, dict):
        return {k: _scores(v) for k, v in result.items() if k not in ("hand", "cards")}
    if isinstance(result, list):
        return [_scores(v) for v in result]
    return result


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("game", GAME_IDS)
def test_empty_scoring_pages_open_in_both_languages(client, game, lang):
    r = client.get(f"/score/{game}?lang={lang}")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and f'<html lang="{lang}"' in page
    assert "<form" in page and 'class="result"' not in page


def test_duquesa_page_equals_the_api(client):
    """DQ19 is the rainbow card the example describes inline (1 rainbow stone, a rainbow wish for 5)."""
    expected = service.score("duquesa", example("duquesa"))
    page = client.get("/score/duquesa?lang=en&" + DUQUESA).get_data(as_text=True)
    assert data(page, "florins") == [str(p["florins"]) for p in expected["players"]]
    assert f"<bdi>{expected['winners'][0]}</bdi> wins" in page
    assert "rainbow stone" in page  # how the rainbow stone was used is shown
    assert page.count("✓") == sum(p["wishes"] for p in expected["players"])


def test_queens_necklace_sale_equals_the_api(client):
    expected = service.score("queens-necklace", example("queens-necklace"))
    page = client.get("/score/queens-necklace?lang=en&" + QN).get_data(as_text=True)
    assert data(page, "earned") == [str(p["earned"]) for p in expected["players"]]
    # the four gem columns with their prices, and the tribute line
    price_row = re.search(r'<tr class="price">(.*?)</tr>', page, re.S)[1]
    assert re.findall(r"<strong>(\d+)</strong>", price_row) == [str(expected["prices"][g]) for g in
                                                                ("diamond", "emerald", "ruby", "amber")]
    assert "Alice pays 50 to Bob" in page


def test_queens_necklace_three_sale_tally(client):
    sale = QN.replace("players.", "sales.0.players.").replace("fashion.", "sales.0.fashion.")
    second = QN.replace("players.", "sales.1.players.").replace("fashion.", "sales.1.fashion.")
    second = "&".join(p for p in second.split("&") if not p.startswith("_"))
    page = client.get(f"/score/queens-necklace?lang=en&_mode=game&{sale}&{second}").get_data(as_text=True)
    one = service.score("queens-necklace", example("queens-necklace"))
    assert data(page, "total") == [str(2 * p["earned"]) for p in one["players"]]
    assert "Leading after 2 sales: <bdi>Bob</bdi>" in page
    # the sales played fold to their result lines (a tap opens one to edit); the third, being entered, is open
    opened = re.findall(r'<details class="pick" name="sale"( open)?><summary>Sale (\d)', page)
    assert opened == [("", "1"), ("", "2"), (" open", "3")]


def test_gemas_page_equals_the_api(client):
    expected = service.score("gemas", example("gemas"))
    page = client.get("/score/gemas?lang=en&" + GEMAS).get_data(as_text=True)
    assert data(page, "points") == [str(p["points"]) for p in expected["players"]]
    assert "<bdi>A</bdi>: complete set, wins at once" in page and "<bdi>B</bdi> loses the heart" in page


def test_nobles_duel_equals_the_api_and_tracks_the_court(client):
    expected = service.score("nobles", example("nobles"))
    page = client.get("/score/nobles?lang=en&" + NOBLES).get_data(as_text=True)
    assert data(page, "strength") == [str(expected[s]["total"]) for s in ("attacker", "defender")]
    assert data(page, "winner") == [expected["winner"]]
    follow = re.search(r'href="(/score/nobles\?[^"]*)"[^>]*><span>Next duel', page)[1].replace("&amp;", "&")
    form = MultiDict(parse_qsl(follow.split("?", 1)[1]))
    assert form["defender.wounds:int"] == "1" and form["attacker.resources:int"] == "1"
    assert form["attacker.weapon:int"] == "3" and not any(".dice" in k or ".cards." in k for k in form)


def test_nobles_blank_dice_are_rolled_from_the_seed_in_the_url(client):
    query = "&".join(p for p in NOBLES.split("&") if ".dice" not in p) + "&seed=table-7"
    first = client.get("/score/nobles?lang=en&" + query).get_data(as_text=True)
    again = client.get("/score/nobles?lang=en&" + query).get_data(as_text=True)
    assert "rolled here" in first and data(first, "strength") == data(again, "strength")
    rolled = service.score("nobles", {**{k: v for k, v in example("nobles").items()}, "seed": "table-7",
                                      "attacker": {k: v for k, v in example("nobles")["attacker"].items()
                                                   if k != "dice"},
                                      "defender": {k: v for k, v in example("nobles")["defender"].items()
                                                   if k != "dice"}})
    assert data(first, "strength") == [str(rolled[s]["total"]) for s in ("attacker", "defender")]


def test_duplicon_rounds_equal_the_api_with_their_parts(client):
    expected = service.score("duplicon", example("duplicon"))
    page = client.get("/score/duplicon?lang=en&" + DUPLICON).get_data(as_text=True)
    assert data(page, "total") == [str(t) for t in expected["totals"].values()]
    assert "28 − 2×3 − 3×1 = 19" in page
    assert 'name="rounds.2.0.won:int"' in page  # an empty row for the next round


@pytest.mark.parametrize("game, query, field, said", [
    ("duquesa", DUQUESA.replace("DQ16", "DQ99"), "players.0.hand", "Ana · hand: unknown card id 'DQ99'"),
    ("duquesa", "common=DQ01&players.0.name=A&players.0.hand:list=DQ02", "players.0.hand",
     "A · cards in the hand: must be 4, got 1"),
    ("queens-necklace", QN.replace("players.0.king=ruby", "players.0.king=emerald"), "players.0.king",
     "Alice: the King must be played with at least one Emerald card"),
    ("gemas", GEMAS.replace("players.0.gems.green%3Aint=1", "players.0.gems.green%3Aint=x"), "players.0.gems.green",
     "A · Green: must be a whole number"),
    ("nobles", NOBLES.replace("attacker.dice%3Aints=4+5", "attacker.dice%3Aints=4+9"), "attacker.dice",
     "Attacker · die 2: must be from 1 to 6, got 9"),
    ("duplicon", DUPLICON.replace("rounds.0.0.won%3Aint=28", "rounds.0.0.won%3Aint=-3"), "rounds.0.0.won",
     "Round 1 · A · cards won: must be from 0 to 96, got -3"),
])
def test_bad_forms_are_400_and_say_what_and_where_in_plain_words(client, game, query, field, said):
    """The problem names the player, round or card in words and marks its field; no field path on the page
    (issue 13: `players.0.hand.0 DQ01 is used…`)."""
    r = client.get(f"/score/{game}?{query}&lang=en")
    page = r.get_data(as_text=True)
    assert r.status_code == 400, page[:300]
    box = re.search(r'<div class="problems" role="alert">(.*?)</div>', page, re.S)[1]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", box)).replace("&#39;", "'")
    assert said in text and field not in text and "<code>" not in box
    assert re.search(r'class="[^"]*\bbad\b', page)  # and the form marks the field


def test_spanish_pages_say_problems_in_spanish(client):
    """Issue 13: on Spanish pages, errors were English with internal paths (`rounds.0.1.won must be from 0 to 96,
    got 200`)."""
    page = client.get("/score/duplicon?lang=es&_n=2&_names=Ana&_names=Bruno&rounds.0.0.won:int=2&"
                      "rounds.0.1.won:int=200").get_data(as_text=True)
    box = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", re.search(r'<div class="problems".*?</div>', page, re.S)[0]))
    assert "Ronda 1 · Bruno · cartas ganadas: debe estar entre 0 y 96 (hay 200)" in box


@pytest.mark.parametrize("query, said", [
    ("/score/gemas?lang=es&lay_down.player=Ana", "Número de jugadores: debe estar entre 1 y 10 (hay 0)"),
    ("/score/duquesa?lang=es&common=DQ01&players.0.name=Ana&players.0.hand:list=DQ02",
     "Ana · cartas en la mano: debe ser 4 (hay 1)"),
    ("/score/duplicon?lang=es&rounds.0.0.won:int=3", "Ronda 1 · número de jugadores: debe estar entre 2 y 4 (hay 0)"),
])
def test_a_list_of_the_wrong_length_is_said_as_a_count_of_what_it_holds(client, query, said):
    """Not "debe tener de 1 a 10 elementos (tiene 0)": players, cards in a hand, seats of a round, counted."""
    page = client.get(query).get_data(as_text=True)
    box = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", re.search(r'<div class="problems".*?</div>', page, re.S)[0]))
    assert said in box and "elementos" not in box
    twice = "&".join(f"players.{i}.hand:list={c}" for i, cards in enumerate([["DQ01", "DQ02", "DQ03", "DQ04"],
                                                                              ["DQ01", "DQ05", "DQ06", "DQ07"]])
                     for c in cards)
    page = client.get(f"/score/duquesa?lang=es&common=DQ08&players.0.name=Ana&players.1.name=Bruno&{twice}"
                      ).get_data(as_text=True)
    box = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", re.search(r'<div class="problems".*?</div>', page, re.S)[0]))
    assert "Bruno · mano: DQ01 se usa más veces de las que trae el juego (1 copia)" in box and "players." not in box


@pytest.mark.parametrize("game", GAME_IDS)
def test_junk_queries_never_break_a_page(client, game):
    for junk in ("a=1", "players.0=x", "players.x.y:int=1", "rounds.0.0:ints=1,2", "fashion.999999=ruby",
                 "players.0.name=" + "x" * 500, "attacker:list=a&attacker.noble=king", "%00=%ff"):
        assert client.get(f"/score/{game}?{junk}").status_code in (200, 400), junk


def test_solo_rank_from_a_hand_or_florins(client):
    page = client.get("/solo/duquesa?lang=en&florins:int=29").get_data(as_text=True)
    assert data(page, "rank") == ["artista"] and "2 more for Officer" in page
    hand_query = q(("common", "DQ01"), *[("hand:list", c) for c in ["DQ02", "DQ07", "DQ12", "DQ16"]])
    expected = service.score("duquesa", {"common": "DQ01", "players": [
        {"name": "x", "hand": ["DQ02", "DQ07", "DQ12", "DQ16"]}]})["players"][0]
    page = client.get("/solo/duquesa?lang=en&" + hand_query).get_data(as_text=True)
    assert data(page, "rank") == [expected["rank"]] and str(expected["florins"]) in data(page, "florins")
    assert client.get("/solo/duquesa?florins:int=-1").status_code == 400


def test_solo_turn_helper_follows_the_rules_hint(client):
    query = q(*[("hand:list", c) for c in ["DQ02", "DQ07", "DQ12", "DQ16"]], ("common", "DQ01"), ("seen", "DQ03"))
    expected = service.solo_turn("duquesa", {"hand": ["DQ02", "DQ07", "DQ12", "DQ16"], "common": "DQ01",
                                             "seen": "DQ03"})
    page = client.get("/solo/duquesa/turn?lang=en&" + query).get_data(as_text=True)
    assert data(page, "keep") == [expected["keep"]]
    assert f"{expected['expected_unseen']} florins on average over {expected['unseen']} unseen cards" in page
    # DQ02 has one copy: naming it in the hand and as the card turned up is refused, at the second place
    bad = client.get("/solo/duquesa/turn?lang=en&" + query.replace("seen=DQ03", "seen=DQ02"))
    assert bad.status_code == 400 and "Card turned up: DQ02: the deck has only 1" in bad.get_data(as_text=True)


def test_every_rule_link_on_a_result_points_at_a_rules_section(client, shipped):
    pages = [f"/score/{g}?{FORMS[g]}" for g in GAME_IDS] + ["/solo/duquesa?florins:int=30"]
    seen = 0
    for path in pages:
        page = client.get(path).get_data(as_text=True)
        for game, anchor in re.findall(r'href="/rules/([a-z-]+)#([a-z-]+)"', page):
            assert anchor in {s["id"] for s in shipped[game].rules}, (path, anchor)
            seen += 1
    assert seen >= 25


def test_gemas_who_and_against_follow_names_typed_after_the_page_was_drawn(client):
    """Issue 13's bug: with names typed on a fresh form, "Who" and "Against" still offered the drawn page's
    "Player 1–3", and scoring failed ("no player is called 'Jugador 1'"). They now name a seat."""
    page = client.get("/score/gemas?_n=3&_turns=1&lang=es").get_data(as_text=True)
    who = re.findall(r'name="lay_down.player" value="([^"]+)"', page)  # (the chips with a value: the seats)
    against = re.findall(r'name="lay_down.target" value="([^"]+)"', page)
    first, second = who[0], against[1]
    typed = q(("_n", "3"), ("players.0.name", "Ana"), ("players.0.gems.green:int", "1"),
              ("players.1.name", "Bruno"), ("players.1.gems.blue:int", "2"), ("players.2.name", "Carla"),
              ("lay_down.player", first), ("lay_down.set", "chipote"), ("lay_down.target", second), ("lang", "es"))
    r = client.get(f"/score/gemas?{typed}")
    shown = r.get_data(as_text=True)
    assert r.status_code == 200, re.findall(r"<li><code>.*?</li>", shown)
    assert "Bruno</bdi> pierde una curita" in shown  # the bump hit the second seat, by its typed name


def test_counts_take_the_singular_and_plural_of_the_pages_language(client):
    """Issue 13: "1 wounds" / "1 heridas". The Nobles example's defender takes one wound: singular in both
    languages, through the catalogue's plural forms (ngettext)."""
    for lang, one, many in (("en", "1 wound", "1 wounds"), ("es", "1 herida", "1 heridas")):
        page = client.get(f"/score/nobles?{NOBLES}&lang={lang}").get_data(as_text=True)
        assert one in page and many not in page, lang


def test_a_spanish_page_writes_decimals_with_a_comma(client):
    """Issue 13: '17.75 florines' on a Spanish page; the language's decimal mark, two places at most."""
    query = q(*[("hand:list", c) for c in ["DQ02", "DQ07", "DQ12", "DQ16"]], ("common", "DQ01"), ("seen", "DQ03"))
    expected = service.solo_turn("duquesa", {"hand": ["DQ02", "DQ07", "DQ12", "DQ16"], "common": "DQ01",
                                             "seen": "DQ03"})
    mean = expected["expected_unseen"]
    assert mean != int(mean)  # (the example needs a mean that is not whole)
    page = client.get("/solo/duquesa/turn?lang=es&" + query).get_data(as_text=True)
    shown = f"{mean:.2f}".rstrip("0").replace(".", ",")
    assert f"{shown} florines" in page and f"{mean} florines" not in page
    assert f"{f'{mean:.2f}'.rstrip('0')} florins" in client.get("/solo/duquesa/turn?lang=en&"
                                                                 + query).get_data(as_text=True)


def test_a_queens_necklace_link_without_a_fashion_scores_with_the_one_shown(client):
    """A link that names only the gems shown was refused ('Fashion: missing') while its form showed a fashion."""
    page = client.get("/score/queens-necklace?lang=en&_n=2&_names=Ana&_names=Bruno&players.0.shown.diamond:ints=3+2"
                      "&players.1.shown.ruby:ints=2")
    expected = service.score("queens-necklace", {"fashion": ["diamond", "emerald", "ruby", "amber"], "players": [
        {"name": "Ana", "shown": {"diamond": [3, 2]}}, {"name": "Bruno", "shown": {"ruby": [2]}}]})
    assert page.status_code == 200
    assert data(page.get_data(as_text=True), "earned") == [str(p["earned"]) for p in expected["players"]]
