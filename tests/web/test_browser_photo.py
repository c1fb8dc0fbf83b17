"""Issue 28, done when: a photo set on a scoring page's scan field fills a Duquesa hand, the cards found are outlined
on the photo, and the page shows the score `companion score` gives, in a real browser against the served companion;
the same for a Queen's Necklace sale column, a Nobles court and a Gemas set laid down."""
from urllib.parse import parse_qs, urlsplit

from companion import service
from companion.web.games.nobles import noble_of
from helpers.browser import (  # (and skips this module without playwright or chromium)
    PHONE,
    playwright_api,
    settled,
    shot,
)
from table import small_photo

expect = playwright_api.expect
HANDS = (("DQ03", "DQ07", "DQ11", "DQ15"), ("DQ01", "DQ05", "DQ09", "DQ13"))


def test_two_photos_fill_two_hands_and_the_page_scores_them(server, browser, tmp_path):
    phone = browser.new_context(**PHONE, locale="en-GB").new_page()
    phone.goto(f"{server[0]}/score/duquesa?lang=en&players.0.name=Ana&players.1.name=Bruno&common=DQ20")
    scans = phone.locator(".photo-scan")
    expect(scans).to_have_count(2)
    expect(scans.first.locator("[data-photo-send]")).to_be_hidden()  # the photo sends itself
    for k, hand in enumerate(HANDS):
        path = tmp_path / f"hand{k}.jpg"
        path.write_bytes(small_photo("duquesa", (*hand, "DQ20"))[0])  # the common card lies beside the hand
        scans.nth(k).locator("input[type=file]").set_input_files(str(path))
        expect(scans.nth(k).locator("output")).to_contain_text("Cards found in the photo: 5. Added: ")
        phone.wait_for_selector("html:not([data-photo-pending])", state="attached")
        checked = phone.locator(f"input[name='players.{k}.hand:list']:checked")
        expect(checked).to_have_count(4)
        assert sorted(checked.evaluate_all("els => els.map(e => e.value)")) == sorted(hand)
        canvas = scans.nth(k).locator("figure canvas")
        said = canvas.get_attribute("aria-label")
        assert said.startswith("Cards found in the photo: 5. Added: ") and sorted(
            said.split("Added: ")[1].split(".")[0].split(", ")) == sorted(hand)
        assert said.endswith("Not added (already in place, no room, or a tap says where): DQ20.")
        # outlined: the photo's pixels are drawn over in the colours of cards added (green) and left (amber)
        colours = canvas.evaluate("""c => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let green = 0, amber = 0;
            for (let i = 0; i < d.length; i += 4) {
              if (d[i] === 0x18 && d[i + 1] === 0xa3 && d[i + 2] === 0x3a) green++;
              if (d[i] === 0xf0 && d[i + 1] === 0xa0 && d[i + 2] === 0x00) amber++;
            }
            return [green, amber]; }""")
        assert colours[0] > 2 * colours[1] > 0, colours  # four cards added, one left
    assert phone.locator("input[name='common']:checked").input_value() == "DQ20"
    expected = service.score("duquesa", {"common": "DQ20", "players": [
        {"name": "Ana", "hand": list(HANDS[0])}, {"name": "Bruno", "hand": list(HANDS[1])}]})
    final = phone.locator(".winner.final")
    expect(final).to_contain_text(expected["winners"][0])
    settled(phone)
    florins = phone.locator("#result [data-florins]").evaluate_all("els => els.map(e => Number(e.dataset.florins))")
    assert florins == [p["florins"] for p in expected["players"]]
    shot(phone, "photo-duquesa")
    phone.context.close()


def photo_of(tmp_path, game, ids, name):
    path = tmp_path / f"{name}.jpg"
    path.write_bytes(small_photo(game, ids)[0])
    return str(path)


def test_a_photo_of_the_cards_shown_fills_a_sale_column(server, browser, tmp_path):
    """Queen's Necklace: Bo's photo fills Bo's column of the sale (gems by colour, a Banker), the Ring is left, and
    the page shows what the rules earn."""
    phone = browser.new_context(**PHONE, locale="en-GB").new_page()
    phone.goto(f"{server[0]}/score/queens-necklace?lang=en&_n=2&_names=Ana&_names=Bo"
               "&players.0.shown.diamond:ints=2+2&players.0.shown.ruby:ints=3")
    scans = phone.locator(".photo-scan")
    expect(scans).to_have_count(2)
    scans.nth(1).locator("input[type=file]").set_input_files(
        photo_of(tmp_path, "queens-necklace", ("QN-D3", "QN-D1", "QN-A1", "QN-BANKER", "QN-RING"), "sale"))
    expect(scans.nth(1).locator("output")).to_contain_text("Cards found in the photo: 5. Added: ")
    expect(scans.nth(1).locator("output")).to_contain_text(
        "Not added (already in place, no room, or a tap says where): QN-RING.")
    phone.wait_for_selector("html:not([data-photo-pending])", state="attached")
    assert sorted(phone.locator("input[name='players.1.shown.diamond:ints']").input_value().split()) == ["1", "3"]
    expect(phone.locator("input[name='players.1.shown.amber:ints']")).to_have_value("1")
    expect(phone.locator("input[name='players.1.bankers:int'][value='1']")).to_be_checked()
    expected = service.score("queens-necklace", {"fashion": ["diamond", "emerald", "ruby", "amber"], "players": [
        {"name": "Ana", "shown": {"diamond": [2, 2], "ruby": [3]}},
        {"name": "Bo", "shown": {"diamond": [3, 1], "amber": [1]}, "bankers": 1}]})
    expect(phone.locator("#result [data-earned]")).to_have_count(2)
    settled(phone)
    earned = phone.locator("#result [data-earned]").evaluate_all("els => els.map(e => Number(e.dataset.earned))")
    assert earned == [p["earned"] for p in expected["players"]] and max(earned) > 0
    shot(phone, "photo-queens-necklace")
    phone.context.close()


def test_a_photo_of_each_court_ticks_its_nobles(server, browser, tmp_path):
    """Nobles: a photo per court ticks the nobles kept; the duel then scores from those courts as the rules do."""
    phone = browser.new_context(**PHONE, locale="en-GB").new_page()
    phone.goto(f"{server[0]}/score/nobles?lang=en&_names=Ana&_names=Bo")
    scans = phone.locator(".photo-scan")
    expect(scans).to_have_count(2)
    courts = (("NB-KC", "NB-QH", "NB-5C"), ("NB-JS", "NB-KH", "NB-JOKER"))
    for seat, ids in enumerate(courts):
        scans.nth(seat).locator("input[type=file]").set_input_files(photo_of(tmp_path, "nobles", ids, f"court{seat}"))
        expect(scans.nth(seat).locator("output")).to_contain_text("Cards found in the photo: 3. Added: ")
        phone.wait_for_selector("html:not([data-photo-pending])", state="attached")
    kept = [sorted(phone.locator(f"input[name='_keep{seat}']:checked").evaluate_all("els => els.map(e => e.value)"))
            for seat in (0, 1)]
    assert kept == [["king:clubs", "queen:hearts"], ["jack:spades", "joker", "king:hearts"]]
    phone.get_by_role("button", name="Start the duels").click()
    phone.wait_for_selector("#courts")
    # Ana's King of clubs attacks Bo's Jack of spades
    url = phone.url
    king = next(i for i, w in enumerate(parse_qs(urlsplit(url).query)["_keep0"]) if w == "king:clubs")
    jack = next(i for i, w in enumerate(parse_qs(urlsplit(url).query)["_keep1"]) if w == "jack:spades")
    phone.goto(f"{url}&attacker.at:int={king}&defender.at:int={jack}&attacker.dice.total:int=9&defender.dice.0:int=2")
    courts_req = [{"name": n, "nobles": [noble_of(w) for w in parse_qs(urlsplit(url).query)[f"_keep{s}"]]}
                  for s, n in enumerate(("Ana", "Bo"))]
    expected = service.score("nobles", {"turn": 0, "courts": courts_req, "attacker": {"at": king, "dice": [5, 4]},
                                        "defender": {"at": jack, "dice": [2]}})
    strengths = phone.locator("#result [data-strength]").evaluate_all("els => els.map(e => Number(e.dataset.strength))")
    assert strengths == [expected["attacker"]["total"], expected["defender"]["total"]]
    shot(phone, "photo-nobles")
    phone.context.close()


def test_a_photo_of_a_set_laid_down_scores_the_turn(server, browser, tmp_path):
    """Gemas' turn tracker: a photo of three gem cards fills the set; with who laid it down, the page shows the gem
    taken as the rules give it."""
    phone = browser.new_context(**PHONE, locale="en-GB").new_page()
    phone.goto(f"{server[0]}/score/gemas?lang=en&_n=3&_turns=1&players.0.name=Ana&players.1.name=Bo"
               "&players.2.name=Cy&lay_down.player=%231")
    scan = phone.locator(".photo-scan")
    expect(scan).to_have_count(1)
    scan.locator("input[type=file]").set_input_files(
        photo_of(tmp_path, "gemas", ("GM-VIOLET", "GM-VIOLET", "GM-ORANGE"), "set"))
    expect(scan.locator("output")).to_contain_text("Cards found in the photo: 3. Added: ")
    phone.wait_for_selector("html:not([data-photo-pending])", state="attached")
    expect(phone.locator("input[name='lay_down.set'][value='gems']")).to_be_checked()
    colours = sorted(phone.locator("input[name^='lay_down.cards.']:checked").evaluate_all(
        "els => els.map(e => e.value)"))
    assert colours == ["orange", "violet", "violet"]
    expected = service.score("gemas", {"players": [{"name": n, "gems": {}} for n in ("Ana", "Bo", "Cy")],
                                       "lay_down": {"player": "Bo", "set": "gems", "cards": colours}})
    settled(phone)
    expect(phone.locator("#result")).to_contain_text("takes a gem from the reserve: Violet")
    points = phone.locator("#result [data-points]").evaluate_all("els => els.map(e => Number(e.dataset.points))")
    assert points == [p["points"] for p in expected["players"]] and points[1] > 0
    shot(phone, "photo-gemas")
    phone.context.close()
