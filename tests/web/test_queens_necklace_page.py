"""Queen's Necklace's scoring page (issue 30): the cards played beside the gems as chips, a sale played folded to its
result line with only the sale being entered open, the totals in the sticky bar, and the Alchemist's card taken
from what the table shows. Each answer is held against the rules' own score of the same sale."""
import re
from urllib.parse import urlencode

from companion import service

FASHION = ["diamond", "emerald", "ruby", "amber"]  # the form's order when none is chosen
SALE_1 = {"Ana": {"shown": {"diamond": [3]}, "rings": {"diamond": 1}},
          "Bruno": {"shown": {"ruby": [2, 1]}, "bankers": 1},
          "Chloé": {"shown": {"emerald": [2]}}}
SALE_2 = {"Ana": {"shown": {"amber": [1, 1]}, "necklace": "amber"},
          "Bruno": {"shown": {"diamond": [2]}},
          "Chloé": {"shown": {"ruby": [3], "amber": [1]}, "king": "amber"}}


def fields(sale: dict, prefix: str = "") -> list[tuple[str, str]]:
    """A sale as the page's form sends it (names typed once; each player's fields by seat)."""
    out = []
    for i, p in enumerate(sale.values()):
        at = f"{prefix}players.{i}."
        out += [(f"{at}shown.{gem}:ints", " ".join(map(str, cards))) for gem, cards in p["shown"].items()]
        out += [(f"{at}rings.{gem}:int", str(n)) for gem, n in p.get("rings", {}).items()]
        out += [(f"{at}{key}", str(p[key])) for key in ("king", "necklace") if key in p]
        out += [(f"{at}bankers:int", str(p["bankers"]))] if "bankers" in p else []
        out += [(f"{at}alchemist.{k}{':int' if k == 'gems' else ''}", str(v))
                for k, v in p.get("alchemist", {}).items()]
    return out


def request(sale: dict) -> dict:
    return {"fashion": FASHION, "players": [{"name": name, **p} for name, p in sale.items()]}


def page_of(client, pairs, lang="en"):
    names = [("_names", n) for n in SALE_1]
    r = client.get("/score/queens-necklace?" + urlencode([("lang", lang), ("_n", "3"), *names, *pairs]))
    return r.status_code, r.get_data(as_text=True)


def checked(page: str, name: str) -> list[str]:
    """The values of the chips checked for a field."""
    return re.findall(rf'<input type="radio" name="{re.escape(name)}" value="([^"]*)" checked>', page)


def folds(page: str) -> list[tuple[str, str]]:
    """Each sale of the three-sale game: (open or not, its title's result line as text)."""
    return [(bool(o), re.sub(r"<[^>]+>", "", line).strip())
            for o, line in re.findall(r'<details class="pick" name="sale"( open)?><summary>Sale \d <span class="sold"'
                                      r' id="sold-\d" data-live-part>(.*?)</span></summary>', page, re.S)]


def bar(page: str) -> str:
    return re.sub(r"<[^>]+>", "", re.search(r'<output class="totals" id="totals" data-live-part>(.*?)</output>',
                                             page, re.S)[1])


def test_the_cards_played_beside_the_gems_are_chips_and_score_as_the_rules_do(client):
    status, page = page_of(client, fields(SALE_1))
    expected = service.score("queens-necklace", request(SALE_1))
    assert status == 200
    assert re.findall(r'data-earned="(-?\d+)"', page) == [str(p["earned"]) for p in expected["players"]]
    # no number box or dropdown is left: each card is a row of chips, the chosen one checked
    assert "<select" not in page and 'type="number"' not in page
    assert checked(page, "players.0.rings.diamond:int") == ["1"] and checked(page, "players.1.bankers:int") == ["1"]
    assert checked(page, "players.0.rings.ruby:int") == [""] and checked(page, "players.2.king") == [""]
    for name, values in (("players.0.rings.amber:int", ["", "1", "2", "3"]), ("players.0.bankers:int", ["", "1", "2"]),
                         ("players.0.king", ["", *FASHION]), ("players.0.necklace", ["", *FASHION]),
                         ("players.0.alchemist.from", ["", "diamond", "emerald", "ruby"]),
                         ("players.0.alchemist.gems:int", ["", "1", "2", "3"]),
                         ("players.0.alchemist.to", ["", "diamond", "emerald", "ruby"])):
        assert re.findall(rf'name="{re.escape(name)}" value="([^"]*)"', page) == values, name
    # the sale's fold of those cards is open, as something is chosen in it; folded on an empty form
    assert '<details class="more" open>' in page
    assert '<details class="more">' in page_of(client, [])[1]


def test_a_ring_count_past_the_chips_from_a_link_is_kept_as_a_chip(client):
    sale = {**SALE_1, "Ana": {"shown": {"diamond": [3]}, "rings": {"diamond": 5}}}
    status, page = page_of(client, fields(sale))
    expected = service.score("queens-necklace", request(sale))
    assert status == 200 and checked(page, "players.0.rings.diamond:int") == ["5"]
    assert re.findall(r'data-earned="(-?\d+)"', page)[0] == str(expected["players"][0]["earned"])


def test_the_alchemists_card_is_the_one_the_table_shows(client):
    """Chloé moves her only kind of diamond card: its size is not asked. With two kinds shown, it is."""
    sale = {**SALE_1, "Chloé": {"shown": {"emerald": [2], "diamond": [1, 1]},
                                "alchemist": {"from": "diamond", "to": "emerald"}}}
    status, page = page_of(client, fields(sale))
    told = {**sale, "Chloé": {**sale["Chloé"], "alchemist": {"from": "diamond", "gems": 1, "to": "emerald"}}}
    expected = service.score("queens-necklace", request(told))
    assert status == 200 and expected["totals"]["emerald"] == 2 + 1 + 0  # (the card moved before rarity)
    assert re.findall(r'data-earned="(-?\d+)"', page) == [str(p["earned"]) for p in expected["players"]]
    two_kinds = {**sale, "Chloé": {**sale["Chloé"], "shown": {"emerald": [2], "diamond": [1, 2]}}}
    status, page = page_of(client, fields(two_kinds))
    assert status == 400 and "Chloé · Alchemist · card of: is missing" in page


def test_a_sale_played_folds_to_its_result_line_and_only_the_next_is_open(client):
    game = [("_mode", "game"), *fields(SALE_1, "sales.0."), *fields(SALE_2, "sales.1.")]
    status, page = page_of(client, game)
    expected = service.score("queens-necklace", {"sales": [request(SALE_1), request(SALE_2)]})
    assert status == 200
    shown = folds(page)
    assert [opened for opened, _line in shown] == [False, False, True]  # the third is being entered
    for (_opened, line), sale in zip(shown, expected["sales"], strict=False):
        # who sold which gems (their names, read aloud), and what each earned
        assert line == " · ".join(f"{p['name']} " + "".join(f"{s['gem'].title()} " for s in p["sales"]
                                                            if not s["cancelled_by_king"]) + str(p["earned"])
                                  for p in sale["players"]), line
    assert shown[2][1] == ""
    # the totals so far in the sticky bar, as the rules add them up
    assert bar(page) == " · ".join(f"{n} {t}" for n, t in expected["totals"].items())
    assert re.findall(r'data-total="(-?\d+)"', page) == [str(t) for t in expected["totals"].values()]
    # an empty game opens its first sale only, and the bar is empty
    _status, empty = page_of(client, [("_mode", "game")])
    assert [opened for opened, _line in folds(empty)] == [True, False, False] and bar(empty) == ""


def test_a_wrong_card_in_a_folded_sale_opens_it_where_it_is_wrong(client):
    wrong = {**SALE_1, "Chloé": {"shown": {"emerald": [2]}, "king": "ruby"}}  # no ruby shown
    status, page = page_of(client, [("_mode", "game"), *fields(wrong, "sales.0."), *fields(SALE_2, "sales.1.")],
                           lang="es")
    assert status == 400 and "Chloé: el Rey se juega con al menos una carta de Rubí" in page
    assert [opened for opened, _line in folds(page.replace("Venta", "Sale"))][0]
    assert '<details class="more" open>' in page
    assert re.search(r'<fieldset class="taps colours bad"><legend>Rey</legend>', page)


def test_the_spanish_page_says_its_chips_in_spanish(client):
    _status, page = page_of(client, fields(SALE_1), lang="es")
    for words in ("Anillos, Rey, Collar, Banqueros, Alquimista", "Alquimista: de", ">Banqueros<",
                  '<span class="vh">ninguno</span>', ">gemas de la carta que mueve (si sus cartas difieren)<"):
        assert words in page, words
