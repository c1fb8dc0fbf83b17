"""Issue 28, done when: a photo set on a scoring page's scan field fills a Duquesa hand, the cards found are outlined
on the photo, and the page shows the score `companion score` gives, in a real browser against the served companion."""
from companion import service
from table import small_photo
from test_browser import PHONE, playwright_api, settled, shot  # (and skips this module without playwright or chromium)

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
        assert said.endswith("Not added (already there, or no room): DQ20.")
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
