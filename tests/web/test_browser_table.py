"""Issue 38, at the table: an entry the rules refuse is said beside its field (live, and on the page sent back) with
no winner left on screen; Queen's Necklace's fashion moves as the rulebook's track does and is carried from sale to
sale; after a duel the page is ready for the next one; small things a table hit (a card's page named by its rank, a
44 px Back link, whole names at 320 px). Phones at 390 × 844 (320 px for the name fields)."""
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import expect

from companion import service
from helpers.browser import PHONE, settled

GEMS = ["diamond", "emerald", "ruby", "amber"]


def gem_tap(phone, at: str, gem: str, n: int):
    phone.locator(f".txt:has(input[name='{at}shown.{gem}:ints']) .taps button", has_text=f"+{n}").tap()


def chip(phone, name: str, value: str):
    phone.locator(f"label.tap:has(input[name='{name}'][value='{value}'])").tap()


def track(phone, prefix: str) -> list[str]:
    return [phone.locator(f"input[name='{prefix}fashion.{i}']:checked").get_attribute("value") for i in range(4)]


def test_a_third_banker_is_said_beside_the_bankers_and_no_winner_stays(server, phone):
    """Live: the sale's answer goes and the reason ("3 bankers in one sale; the deck has 2") stands by the Bankers
    of the player who played the third, and in the sticky bar; taking it back brings the answer again."""
    phone.goto(f"{server[0]}/score/queens-necklace?_n=2&_names=Ana&_names=Bea")
    gem_tap(phone, "players.0.", "diamond", 3)
    gem_tap(phone, "players.1.", "ruby", 2)
    settled(phone)
    expect(phone.locator("#result [data-earned]")).to_have_count(2)
    phone.locator("details.more > summary").tap()
    chip(phone, "players.0.bankers:int", "2")
    chip(phone, "players.1.bankers:int", "1")
    settled(phone)
    said = phone.locator("fieldset.taps:has(input[name='players.1.bankers:int']) .said")
    expect(said).to_contain_text("3 bankers in one sale; the deck has 2")
    expect(phone.locator("#result")).to_have_count(0)
    expect(phone.locator(".go #totals")).to_have_text("")
    chip(phone, "players.1.bankers:int", "")
    settled(phone)
    expect(phone.locator(".said")).to_have_count(0)
    expect(phone.locator("#result [data-earned]")).to_have_count(2)


def test_an_odd_or_too_large_duplicon_count_is_said_beside_it_live_and_after_add(server, phone):
    base = server[0]
    phone.goto(f"{base}/score/duplicon?_n=2&_names=Ana&_names=Bruno")
    phone.fill("input[name='rounds.0.0.won:int']", "48")
    phone.fill("input[name='rounds.0.1.won:int']", "10")
    settled(phone)
    expect(phone.locator("#result .winner")).to_contain_text("Ana")
    phone.fill("input[name='rounds.0.0.won:int']", "27")
    settled(phone)
    beside = phone.locator(".num:has(input[name='rounds.0.0.won:int']) + .said")
    expect(beside).to_contain_text("27 is odd")
    expect(phone.locator("#result")).to_have_count(0)
    # the page the Add button brings (a link kept, or a phone without its script's live answer): the same
    phone.goto(f"{base}/score/duplicon?" + urlencode([("_n", 2), ("_names", "Ana"), ("_names", "Bruno"),
                                                      ("rounds.0.0.won:int", 98), ("rounds.0.1.won:int", 10)]))
    expect(phone.locator(".num:has(input[name='rounds.0.0.won:int']) + .said")).to_contain_text("96")
    expect(phone.locator("#result")).to_have_count(0)


def test_the_favorite_slides_the_other_gems_and_each_sale_starts_from_the_last(server, phone):
    """Sale 2's Favorite puts amber at +30: the others slide down in order, and sale 3 opens with that fashion; sale
    3's own Favorite (ruby) changes sale 3 only. The whole game scores as the rules do with those fashions, with no
    repair tap."""
    phone.goto(f"{server[0]}/score/queens-necklace?_mode=game&_n=2&_names=Ana&_names=Bea")
    gem_tap(phone, "sales.0.players.0.", "diamond", 3)
    gem_tap(phone, "sales.0.players.1.", "amber", 1)
    settled(phone)
    phone.locator("details[name=sale] > summary").nth(1).tap()
    chip(phone, "sales.1.fashion.0", "amber")
    assert track(phone, "sales.1.") == ["amber", "diamond", "emerald", "ruby"]
    assert track(phone, "sales.2.") == ["amber", "diamond", "emerald", "ruby"]
    gem_tap(phone, "sales.1.players.0.", "ruby", 2)
    gem_tap(phone, "sales.1.players.1.", "amber", 1)
    settled(phone)
    phone.locator("details[name=sale] > summary").nth(2).tap()
    chip(phone, "sales.2.fashion.0", "ruby")
    assert track(phone, "sales.2.") == ["ruby", "amber", "diamond", "emerald"]
    assert track(phone, "sales.1.") == ["amber", "diamond", "emerald", "ruby"]
    gem_tap(phone, "sales.2.players.0.", "emerald", 2)
    gem_tap(phone, "sales.2.players.1.", "ruby", 1)
    settled(phone)
    expect(phone.locator(".said")).to_have_count(0)
    fashions = [GEMS, ["amber", "diamond", "emerald", "ruby"], ["ruby", "amber", "diamond", "emerald"]]
    shown = [({"diamond": [3]}, {"amber": [1]}), ({"ruby": [2]}, {"amber": [1]}), ({"emerald": [2]}, {"ruby": [1]})]
    expected = service.score("queens-necklace", {"sales": [
        {"fashion": f, "players": [{"name": "Ana", "shown": a}, {"name": "Bea", "shown": b}]}
        for f, (a, b) in zip(fashions, shown, strict=True)]})
    totals = phone.locator("#result [data-total]").evaluate_all("els => els.map(e => Number(e.dataset.total))")
    assert totals == list(expected["totals"].values())


def test_the_alchemists_card_row_says_it_is_the_gems_of_the_card_moved(server, phone):
    phone.goto(f"{server[0]}/score/queens-necklace?_n=2&lang=es")
    phone.locator("details.more > summary").tap()
    legend = phone.locator("fieldset.taps:has(input[name='players.0.alchemist.gems:int']) legend")
    expect(legend).to_have_text("gemas de la carta que mueve (si sus cartas difieren)")


def test_after_a_duel_the_page_is_ready_for_the_next_one(server, phone):
    """The Duel button rolls and answers: the duel just played is no form any more, and the sticky primary button
    is the next duel, which opens a fresh form."""
    courts = [("_names", "Ana"), ("_names", "Bea"), ("turn:int", "1"), ("courts.0.nobles.0.noble", "king"),
              ("courts.0.nobles.0.suit", "spades"), ("courts.0.nobles.1.noble", "jack"),
              ("courts.0.nobles.1.suit", "hearts"), ("courts.1.nobles.0.noble", "queen"),
              ("courts.1.nobles.0.suit", "hearts")]
    phone.goto(f"{server[0]}/score/nobles?" + urlencode(courts))
    phone.locator(".go button[name=_roll]").tap()
    phone.wait_for_url("**_roll=1**")
    expect(phone.locator("#result [data-winner]")).to_have_count(1)
    expect(phone.locator("input[name='attacker.at:int']")).to_have_count(0)
    primary = phone.locator(".go a[data-next-duel]")
    expect(primary).to_have_text("Next duel: Ana attacks")
    assert "light" not in primary.get_attribute("class")
    expect(phone.locator("[data-next-duel]")).to_have_count(1)
    primary.tap()
    expect(phone.locator("#who > legend")).to_have_text("1 · Ana attacks")
    expect(phone.locator("#result")).to_have_count(0)
    expect(phone.locator(".go button[name=_roll]")).to_be_visible()


def test_a_nobles_number_card_page_is_named_by_its_rank_and_suit(server, phone):
    phone.goto(f"{server[0]}/c/nobles/NB-AH?lang=es")
    expect(phone.locator("h1")).to_contain_text("As de corazones")
    phone.goto(f"{server[0]}/c/nobles/NB-7S?lang=en")
    expect(phone.locator("h1")).to_contain_text("7 of spades")


def test_the_not_found_pages_back_link_is_a_44_px_target(server, phone):
    phone.goto(f"{server[0]}/no-such-page?lang=es")
    box = phone.get_by_role("link", name="Volver").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box


def test_queens_necklace_names_show_whole_at_320_px(server, browser):
    context = browser.new_context(**{**PHONE, "viewport": {"width": 320, "height": 640}}, locale="es-ES")
    try:
        phone = context.new_page()
        for query in ("lang=es", "lang=es&_n=4", "lang=es&_mode=game&_n=4"):
            phone.goto(f"{server[0]}/score/queens-necklace?{query}")
            fields = phone.locator("input[name='_names']")
            assert fields.first.input_value() == "Jugador 1"
            cut = fields.evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth).map(e => e.value)")
            assert not cut, (query, cut)
    finally:
        context.close()


def test_static_site_taps_made_while_python_starts_are_scored_once_it_is_ready(site, chromium):
    """A first visit's scoring page: the cards tapped while "Preparing the scoring…" shows are scored as soon as the
    phone's Python is up, with no Score tap."""
    from helpers.browser import OFFLINE_PHONE, tap_card
    from helpers.site import served

    base, proc = served(site[1] / "site")
    context = chromium.new_context(**OFFLINE_PHONE, locale="en-GB")
    held = []  # our code for the phone's Python, held back until the taps are made (a slow download)
    context.route("**/py/companion.zip*", lambda route: held.append(route))
    try:
        phone = context.new_page()
        phone.goto(f"{base}/en/score/duquesa/")
        hands = {"Ana": ["DQ02", "DQ07", "DQ12", "DQ16"], "Bruno": ["DQ03", "DQ05", "DQ18", "DQ14"]}
        tap_card(phone, 0, "DQ01")
        for k, cards in enumerate(hands.values()):
            for card in cards:
                tap_card(phone, k + 1, card)
        assert not phone.evaluate("document.documentElement.dataset.pythonReady"), "Python was up before the taps"
        for route in held:
            route.continue_()
        context.unroute("**/py/companion.zip*")
        phone.wait_for_function("document.documentElement.dataset.pythonReady", timeout=120000)
        phone.locator("#result [data-florins]").nth(1).wait_for(timeout=60000)
        expected = service.score("duquesa", {"common": "DQ01", "players": [
            {"name": f"Player {k + 1}", "hand": cards} for k, cards in enumerate(hands.values())]})
        florins = phone.locator("#result [data-florins]").evaluate_all(
            "els => els.map(e => Number(e.dataset.florins))")
        assert florins == [p["florins"] for p in expected["players"]]
    finally:
        context.close()
        proc.terminate()
        proc.wait(timeout=10)


def test_static_site_offline_a_link_in_the_other_language_opens_the_kept_one(site, chromium):
    """An English phone that visited the site: offline, a shared Spanish scoring link opens the English page with
    the link's game, as the visit online would (theme.js), not "This page was not opened before"."""
    from helpers.browser import OFFLINE_PHONE
    from helpers.site import KEPT, served, until, wait_drawn

    base, proc = served(site[1] / "site")
    context = chromium.new_context(**OFFLINE_PHONE, locale="en-GB")
    try:
        phone = context.new_page()
        phone.goto(f"{base}/en/")
        until(phone, KEPT, 180)
        context.set_offline(True)
        query = (Path(__file__).parent / "forms" / "duquesa.txt").read_text().strip()
        phone.goto(f"{base}/score/duquesa/?{query}")
        phone.wait_for_url("**/en/score/duquesa/?common=DQ01**")
        wait_drawn(phone, timeout=120000)
        expect(phone.locator("#result")).to_have_count(1)
        assert phone.evaluate("document.documentElement.lang") == "en"
    finally:
        context.close()
        proc.terminate()
        proc.wait(timeout=10)
