"""Rerolling one part of a setup (issue 13: "reroll the whole setup or one part; a shared link still reproduces
it"): a ↻ beside each part the table sees that the game deals again alone; only that part changes, the address
keeps its seed, and a bad one is a 400 that says what is wrong."""
import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from companion import games, service
from helpers.games import GAME_IDS

PLAYERS = {"gemas": 8}  # teams only from eight players


def rerolls_on(page: str) -> dict[str, str]:
    """The ↻ links of a setup page: {part: href}."""
    return {m[1]: html.unescape(m[0]) for m in re.finditer(r'<a class="reroll" href="([^"]+)"', page)
            for m in [(m[1], urlsplit(html.unescape(m[1])).fragment.removeprefix("part-"))]}


def deal_of(page: str) -> str:
    """What the page deals: the result without the buttons' links and the shared link (they name the seeds)."""
    result = re.search(r'<section class="result".*?</section>', page, re.S)[0]
    result = re.sub(r'<a class="reroll"[^>]*>↻</a>', "", result)
    return re.sub(r'<p class="meta">.*', "", result, flags=re.S)


def part_html(page: str, key: str) -> str:
    """One part of the result: its heading to the next heading."""
    found = re.search(rf'<h2 id="part-{key}".*?(?=<h2|<p class="actions">|<details|</details>|<p class="meta">)',
                      page, re.S)[0]
    return re.sub(r'<a class="reroll"[^>]*>↻</a>', "", found)  # (the other buttons' links name this part's seed)


@pytest.mark.parametrize("game", GAME_IDS)
def test_rerolling_the_first_player_keeps_every_other_part_byte_for_byte(client, game):
    base = f"/setup/{game}?seed=golden-42&lang=en" + (f"&players={PLAYERS[game]}" if game in PLAYERS else "")
    before = service.setup(game, PLAYERS.get(game), "golden-42", {})
    page = client.get(base).get_data(as_text=True)
    links = rerolls_on(page)
    assert "first_player" in links, links  # every game: who starts can be drawn again
    r = client.get(links["first_player"])
    assert r.status_code == 200
    args = parse_qs(urlsplit(links["first_player"]).query)
    assert args["seed"] == ["golden-42"]  # the rest of the deal keeps its seed
    (name, part_seed), = [(k[5:], v[0]) for k, v in args.items() if k.startswith("seed.")]
    after = service.setup(game, PLAYERS.get(game), "golden-42", {}, {name: part_seed})
    changed = {k for k in before if before[k] != after.get(k)}
    moved = set(games.GAMES[game].rerolls[name].parts)
    assert "first_player" in changed and changed <= moved, changed  # who starts changes, nothing else
    assert after["hands"] == before["hands"] and after.get("deck") == before.get("deck")
    new = r.get_data(as_text=True)
    for key in before:  # every other part the page shows: the same HTML as before
        if key not in moved and f'id="part-{key}"' in page:
            assert part_html(new, key) == part_html(page, key), key
    assert part_html(new, "first_player") != part_html(page, "first_player")


def test_the_shared_link_reproduces_the_rerolled_setup(app):
    one, other = app.test_client(), app.test_client()
    page = one.get("/setup/queens-necklace?players=4&seed=friday&_names=Ana&lang=en").get_data(as_text=True)
    fashion = one.get(rerolls_on(page)["fashion"]).get_data(as_text=True)
    twice = one.get(rerolls_on(fashion)["first_player"]).get_data(as_text=True)  # two parts, one after the other
    shared = html.unescape(re.search(r'<p class="share"><a href="([^"]+)"', twice)[1])
    args = parse_qs(urlsplit(shared).query)
    assert {"seed", "seed.fashion", "seed.first_player"} <= set(args) and args["_names"] == ["Ana"]
    on_another_phone = other.get(shared.removeprefix("http://localhost") + "&lang=en").get_data(as_text=True)
    assert deal_of(on_another_phone) == deal_of(twice) and rerolls_on(on_another_phone) == rerolls_on(twice)
    # the rerolled parts differ from the first deal; the hands and the market do not
    assert part_html(twice, "fashion") != part_html(page, "fashion")
    assert part_html(twice, "market") == part_html(page, "market")
    # and the API deals the same from the same seeds
    api = other.get(f"/api/v1/queens-necklace/setup?players=4&seed=friday&seed.fashion={args['seed.fashion'][0]}"
                    f"&seed.first_player={args['seed.first_player'][0]}").get_json()
    assert api == service.setup("queens-necklace", 4, "friday", {}, {"fashion": args["seed.fashion"][0],
                                                                       "first_player": args["seed.first_player"][0]})
    assert api["fashion"] != service.setup("queens-necklace", 4, "friday", {})["fashion"]


def test_a_tap_always_changes_the_part_and_the_whole_reroll_forgets_the_part_seeds(client):
    page = client.get("/setup/duquesa?seed=s1&lang=en").get_data(as_text=True)
    first = re.search(r'data-seat="(\d)"', part_html(page, "first_player"))[1]
    for _ in range(4):  # two players: each ↻ seats the other one
        page = client.get(rerolls_on(page)["first_player"]).get_data(as_text=True)
        now = re.search(r'data-seat="(\d)"', part_html(page, "first_player"))[1]
        assert now != first
        first = now
    whole = html.unescape(re.search(r'class="button light" href="([^"]+)"', page)[1])
    assert not any(k.startswith("seed.") for k in parse_qs(urlsplit(whole).query))


def test_parts_dealt_from_one_shuffle_have_no_button_and_duplicon_moves_the_dealer_with_who_starts(client):
    page = client.get("/setup/queens-necklace?seed=x&lang=en").get_data(as_text=True)
    assert set(rerolls_on(page)) == {"first_player", "fashion"}  # not the market: it came from the deck's shuffle
    page = client.get("/setup/gemas?seed=x&players=3&lang=en").get_data(as_text=True)
    assert set(rerolls_on(page)) == {"first_player"}  # no teams below eight players
    page = client.get("/setup/duplicon?seed=x&lang=en").get_data(as_text=True)
    links = rerolls_on(page)
    assert set(links) == {"first_player", "dealer"} and len({urlsplit(u).query for u in links.values()}) == 1
    assert 'aria-label="Reroll only this: Dealer"' in page


@pytest.mark.parametrize("query, said", [
    ("seed.first_player=", "The seed that deals First player again must be 1 to 64 characters"),
    ("seed.first_player=" + "x" * 65, "must be 1 to 64 characters"),
    ("seed.hands=abc", "no part hands to deal again alone"),
    ("seed.teams=abc", "no part teams"),  # the Duquesa has no teams
])
def test_a_bad_part_seed_is_a_clear_400_problem(client, query, said):
    r = client.get(f"/setup/duquesa?seed=s&{query}&lang=en")
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and said in page and 'class="problems"' in page
    es = client.get(f"/setup/duquesa?seed=s&{query}&lang=es").get_data(as_text=True)
    assert said not in es and 'class="problems"' in es  # said in Spanish
    api = client.get(f"/api/v1/duquesa/setup?seed=s&{query}")
    assert api.status_code == 400 and api.get_json()["field"] == "seed"


def test_on_a_phone_the_reroll_button_is_44_px_and_changes_only_its_part(server, chromium):
    """In chromium, light and dark: each ↻ is a labelled 44 px target; a tap deals that part again and nothing else."""
    from helpers.browser import PHONE, shot

    for scheme in ("light", "dark"):
        context = chromium.new_context(**PHONE, locale="en-GB", color_scheme=scheme)
        try:
            page = context.new_page()
            page.goto(f"{server[0]}/setup/queens-necklace?players=3&seed=phone&lang=en"
                      "&_names=Ana&_names=Bruno&_names=Carla")
            shot(page, f"setup-{scheme}")
            buttons = page.get_by_role("link", name=re.compile("Reroll only this"))
            assert buttons.count() == 2
            for b in buttons.all():
                box = b.bounding_box()
                assert box["width"] >= 44 and box["height"] >= 44 and box["x"] + box["width"] <= 390
            market = page.locator("#part-market + *").inner_html()
            fashion = page.locator("#part-fashion + *").inner_text()
            starts = page.locator("#part-first_player + p").inner_text()
            page.get_by_role("link", name="Reroll only this: Fashion tiles, +30 to 0").tap()
            page.wait_for_url(re.compile(r"seed\.fashion="))
            assert page.locator("#part-fashion + *").inner_text() != fashion
            assert page.locator("#part-market + *").inner_html() == market
            assert page.locator("#part-first_player + p").inner_text() == starts
        finally:
            context.close()
