"""Issue 28 on the static site: a photo set on a scoring page's scan field is read in the phone's browser
(zxing-wasm, loaded at the first photo), the phone's own Python fills the Duquesa hand, and the page shows the
florins `companion score` gives; once used, the reader is kept (also when the first photo came before the site's
service worker), so a photo is read with the file server stopped."""
import json
import re

from companion import service
from helpers.browser import OFFLINE_PHONE, PHONE, playwright_api, settled, shot  # (skips this module without chromium)
from helpers.site import KEPT, served, until
from table import small_photo

expect = playwright_api.expect
HANDS = (("DQ03", "DQ07", "DQ11", "DQ15"), ("DQ01", "DQ05", "DQ09", "DQ13"))
ZXING = "zxing-wasm-"


def _scan(page, tmp_path, k: int) -> None:
    path = tmp_path / f"hand{k}.jpg"
    path.write_bytes(small_photo("duquesa", (*HANDS[k], "DQ20"))[0])  # the common card lies beside the hand
    scan = page.locator(".photo-scan").nth(k)
    scan.locator("input[type=file]").set_input_files(str(path))
    # (the reader's WebAssembly compiled at the first photo, then the phone's Python: over a minute on a loaded
    # 2-core machine running three browsers)
    expect(scan.locator("output")).to_contain_text("Cards found in the photo: 5. Added: ", timeout=150000)
    page.wait_for_selector("html:not([data-photo-pending])", state="attached")
    checked = page.locator(f"input[name='players.{k}.hand:list']:checked")
    expect(checked).to_have_count(4)
    assert sorted(checked.evaluate_all("els => els.map(e => e.value)")) == sorted(HANDS[k])
    said = scan.locator("figure canvas").get_attribute("aria-label")  # the cards found, outlined on the photo
    assert said.endswith("Not added (already in place, no room, or a tap says where): DQ20.")


def test_a_photo_fills_a_hand_on_the_static_site_and_is_read_again_offline(site, chromium, tmp_path):
    base, proc = served(site[1] / "site")
    context = chromium.new_context(**OFFLINE_PHONE, locale="en-GB")
    asked, held = [], []
    context.on("request", lambda r: asked.append(r.url))
    context.route("**/sw.js*", lambda route: held.append(route))
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/en/score/duquesa/?players.0.name=Ana&players.1.name=Bruno&common=DQ20")
        page.wait_for_function("document.documentElement.dataset.pythonReady", timeout=120000)
        scans = page.locator(".photo-scan[data-read-here]")
        expect(scans).to_have_count(2)
        assert not [u for u in asked if ZXING in u]  # the reader is not part of a visit: loaded at the first photo
        # the first photo comes before the site's service worker is there (its script held back until then), so
        # only the page's word can have it keep the reader
        assert page.evaluate("!navigator.serviceWorker.controller")
        _scan(page, tmp_path, 0)
        assert [u for u in asked if ZXING in u]
        for route in held:
            route.continue_()
        context.unroute("**/sw.js*")
        until(page, KEPT, 180)
        settled(page)
        expect(page).to_have_url(re.compile("DQ15"), timeout=30000)  # (the live answer keeps the filled form's address)
        until(page, """(async () => {
            const kept = (await (await caches.open("companion-runtime")).keys()).map((r) => r.url);
            return window.companionPhoto.zxing.files.every((u) => kept.includes(u));
        })()""", 60)
        proc.terminate()
        proc.wait(timeout=10)
        page.reload()  # the page, its Python and the reader all from the phone's copies: no file server
        page.wait_for_function("document.documentElement.dataset.pythonReady", timeout=120000)
        _scan(page, tmp_path, 1)
        expected = service.score("duquesa", {"common": "DQ20", "players": [
            {"name": "Ana", "hand": list(HANDS[0])}, {"name": "Bruno", "hand": list(HANDS[1])}]})
        # (the first answer after a start from the phone's copies: its templates compile, seconds on a busy machine)
        expect(page.locator(".winner.final")).to_contain_text(expected["winners"][0], timeout=60000)
        settled(page)
        florins = page.locator("#result [data-florins]").evaluate_all(
            "els => els.map(e => Number(e.dataset.florins))")
        assert florins == [p["florins"] for p in expected["players"]]
        assert json.loads(page.evaluate("JSON.stringify(window.companionPhoto.zxing)"))["wasm"].endswith(".wasm")
        assert not errors, errors
        shot(page, "site-photo-duquesa")
    finally:
        context.close()
        proc.kill()


def test_a_photo_chosen_while_the_page_is_still_being_drawn_reads_the_form_as_drawn(site, chromium, tmp_path):
    """At a page's start the phone's Python draws it for its address (here: the common card); a photo chosen before
    that drawing ends is placed on the form as drawn, so the common card is not taken into the hand."""
    context = chromium.new_context(**PHONE, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(f"{site[0]}/en/score/duquesa/?players.0.name=Ana&players.1.name=Bruno&common=DQ20")
        page.wait_for_function("document.documentElement.dataset.pythonReady", timeout=120000)
        assert not page.evaluate("document.documentElement.dataset.drawn")  # (the photo comes before the drawing)
        _scan(page, tmp_path, 0)
        expect(page.locator("input[name='common']:checked")).to_have_value("DQ20")
    finally:
        context.close()


def test_a_photo_chosen_before_the_phones_python_is_up_is_read_once_it_is(site, chromium, tmp_path):
    """A player who takes the photo as the page opens (its Python still starting) gets it read once Python is up,
    on the form drawn for the page's address; the frozen form's own answer never replaces it, nor its address."""
    context = chromium.new_context(**PHONE, locale="en-GB")
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{site[0]}/en/score/duquesa/?players.0.name=Ana&players.1.name=Bruno&common=DQ20",
                  wait_until="domcontentloaded")
        assert not page.evaluate("document.documentElement.dataset.pythonReady")  # (the photo comes first)
        path = tmp_path / "hand0.jpg"
        path.write_bytes(small_photo("duquesa", (*HANDS[0], "DQ20"))[0])
        page.locator(".photo-scan input[type=file]").first.set_input_files(str(path))
        page.wait_for_function("document.documentElement.dataset.pythonReady", timeout=90000)
        scan = page.locator(".photo-scan").first
        expect(scan.locator("output")).to_contain_text("Cards found in the photo: 5. Added: ", timeout=90000)
        page.wait_for_selector("html:not([data-photo-pending])", state="attached")
        settled(page)
        checked = page.locator("input[name='players.0.hand:list']:checked")
        assert sorted(checked.evaluate_all("els => els.map(e => e.value)")) == sorted(HANDS[0])
        expect(page.locator("input[name='common']:checked")).to_have_value("DQ20")
        assert "players.0.name=Ana" in page.url and "common=DQ20" in page.url, page.url
        assert not errors, errors
    finally:
        context.close()


def test_a_photo_whose_picker_was_open_while_the_page_was_drawn_is_not_lost(site, chromium):
    """The player opens the photo picker on the page as it first shows; meanwhile the phone's Python draws the page
    anew for its address, so the photo arrives on a field no longer in the page (its change reaches no document
    listener: the full run of this stop lost it). The field hears it itself and the photo fills the drawn form."""
    import base64

    context = chromium.new_context(**PHONE, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(f"{site[0]}/en/score/duquesa/?players.0.name=Ana&players.1.name=Bruno&common=DQ20",
                  wait_until="domcontentloaded")
        page.evaluate("window.__picked = document.querySelector('.photo-scan input[type=file]')")  # its picker open
        assert not page.evaluate("document.documentElement.dataset.drawn")
        page.wait_for_function("document.documentElement.dataset.drawn", timeout=120000)
        assert not page.evaluate("window.__picked.isConnected")  # (the page was drawn anew meanwhile)
        photo = base64.b64encode(small_photo("duquesa", (*HANDS[0], "DQ20"))[0]).decode()
        page.evaluate("""(b64) => {  // the picker closes: the photo is set on the field it was opened from
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const files = new DataTransfer();
            files.items.add(new File([bytes], "hand.jpg", { type: "image/jpeg" }));
            window.__picked.files = files.files;
            window.__picked.dispatchEvent(new Event("change", { bubbles: true }));
        }""", photo)
        scan = page.locator(".photo-scan").first
        expect(scan.locator("output")).to_contain_text("Cards found in the photo: 5. Added: ", timeout=150000)
        page.wait_for_selector("html:not([data-photo-pending])", state="attached")
        checked = page.locator("input[name='players.0.hand:list']:checked")
        assert sorted(checked.evaluate_all("els => els.map(e => e.value)")) == sorted(HANDS[0])
        expect(page.locator("input[name='common']:checked")).to_have_value("DQ20")
    finally:
        context.close()
