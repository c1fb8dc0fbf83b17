"""Real-browser tests of saved sheets (Debian's chromium via Playwright, phone viewport): two phones on one sheet
see each other's changes without reloading; with the server stopped, visited pages still open and an entry made
offline is kept and sent when the server is back."""
import io
import re

import zxingcpp
from PIL import Image

from companion import service
from helpers.browser import (  # (and skips this module without chromium)
    OFFLINE_PHONE,
    PHONE,
    new_phone,
    settled,
    shot,
    tap_card,
    total,
)
from helpers.server import Api, free_port, start_server


def test_two_phones_on_one_sheet_see_each_others_entries(server, browser):
    base = server[0]
    sheet = Api(base).call("POST", "/api/v1/sheets", {"game": "duquesa", "players": ["Ana", "Bruno"]})[1]
    (ctx_a, a, errors_a), (ctx_b, b, errors_b) = new_phone(browser), new_phone(browser)
    try:
        a.goto(sheet["links"]["edit"])
        for kind in ("edit", "view"):  # the on-screen QR codes open the two links
            image = Image.open(io.BytesIO(a.locator(f"img[data-qr={kind}]").screenshot()))
            assert [r.text for r in zxingcpp.read_barcodes(image)] == [sheet["links"][kind]]
        b.goto(sheet["links"]["view"])
        assert b.locator("[data-mode=view]").count() and b.locator("form[data-queue]").count() == 0
        a.fill("input[name='points.0']", "7")
        a.fill("input[name='points.1']", "3")
        a.locator("form[data-queue] button[type=submit]").tap()
        a.wait_for_selector('[data-player="Ana"][data-total="7"]', timeout=10_000)
        assert a.url == sheet["links"]["edit"]  # sent in the background: no page load
        b.wait_for_selector('[data-player="Ana"][data-total="7"]', timeout=10_000)  # no reload on B
        assert total(b, "Bruno") == "3"
        # Undo on A (a plain form) and B follows again.
        a.locator("#entry-1 button:has-text('Undo')").tap()
        b.wait_for_selector('[data-player="Ana"][data-total="0"]', timeout=10_000)
        assert b.locator("#entry-1.undone").count() == 1
        shot(b, "sheet-read-only")
        assert not errors_a and not errors_b, errors_a + errors_b
    finally:
        ctx_a.close()
        ctx_b.close()


def test_offline_pages_keep_working_and_entries_wait_for_the_server(browser, tmp_path):
    port = free_port()
    base, proc = start_server(port, tmp_path)
    context, page, errors = new_phone(browser)
    try:
        sheet = Api(base).call("POST", "/api/v1/sheets", {"game": "gemas", "players": ["Ana", "Bruno"]})[1]
        page.goto(f"{base}/rules/gemas")
        page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                               timeout=15_000)
        for path in ("/rules/gemas", "/score/gemas", sheet["links"]["edit"].replace(base, "")):
            page.goto(base + path)  # now through the service worker, which keeps a copy
        page.wait_for_selector("#sheet[data-awake]")
        assert page.locator("#sheet").get_attribute("data-awake") in ("on", "refused")  # the Wake Lock was asked

        proc.terminate()
        proc.wait(timeout=10)
        page.goto(f"{base}/rules/gemas")
        assert page.locator("h1").inner_text() and page.locator(".rules section").count() > 3
        page.goto(f"{base}/score/gemas")
        assert page.locator("input[name='players.0.name']").count() == 1
        page.goto(f"{base}/rules/duplicon")  # never opened: the offline page says so
        assert page.locator("h1").inner_text() == "No connection"

        page.goto(sheet["links"]["edit"])
        page.fill("input[name='points.1']", "5")
        page.locator("form[data-queue] button[type=submit]").tap()
        page.wait_for_selector("#queue:not([hidden])")
        assert re.search(r"until the connection returns: 1$", page.locator("#queue").inner_text())
        shot(page, "sheet-offline")

        base, proc = start_server(port, tmp_path)  # the connection returns
        page.wait_for_selector('[data-player="Bruno"][data-total="5"]', timeout=15_000)
        assert page.locator("#queue").is_hidden()
        state = Api(base).call("GET", f"/api/v1/sheets/{sheet['token']}")[1]
        assert state["totals"] == {"Ana": 0, "Bruno": 5} and len(state["entries"]) == 1
        assert not errors, errors
    finally:
        context.close()
        proc.terminate()
        proc.wait(timeout=10)


def test_finishing_a_sheet_is_asked_first(server, browser):
    """Issue 13: 'Finish the game' was one tap with no confirmation right under Add (it ended a three-sale game
    after one sale)."""
    api = Api(server[0])
    token = api.call("POST", "/api/v1/sheets", {"game": "queens-necklace", "players": ["Ana", "Bruno"]})[1]["token"]
    context = browser.new_context(**OFFLINE_PHONE, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{server[0]}/s/{token}")
        assert not page.get_by_role("button", name="Yes, finish the game").is_visible()
        page.get_by_text("Finish the game…").tap()
        page.get_by_role("button", name="Yes, finish the game").tap()
        page.wait_for_selector("p.winner")
        assert api.call("GET", f"/api/v1/sheets/{token}")[1]["finished"] is True
    finally:
        context.close()


def test_entry_times_are_the_phones_own(server, browser):
    """Issue 13: sheet times read '06:56 UTC'; each phone shows them in its own time zone."""
    from datetime import datetime, timedelta, timezone

    api = Api(server[0])
    token = api.call("POST", "/api/v1/sheets", {"game": "duplicon", "players": ["Ana", "Bruno"]})[1]["token"]
    assert api.call("POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 1, "Bruno": 2}})[0] == 201
    context = browser.new_context(**PHONE, locale="en-GB", timezone_id="Asia/Kolkata")  # UTC+5:30, no summer time
    page = context.new_page()
    try:
        page.goto(f"{server[0]}/s/{token}")
        time = page.locator(".entries time").first
        stored = datetime.fromisoformat(time.get_attribute("datetime").replace("Z", "+00:00"))
        local = stored.astimezone(timezone(timedelta(hours=5, minutes=30)))
        assert time.inner_text() == local.strftime("%H:%M") and "UTC" not in time.inner_text()
    finally:
        context.close()


def test_the_calculators_save_box_saves_the_answer_on_the_screen(server, phone):
    """Opened from a sheet, the scoring page's "Save to the sheet" follows each live answer (the issue-36 gap: it
    sent the last answer the page was loaded with, and none before an Add up): the hands tapped, then one card
    changed, are what the sheet gets, with the seats as chosen."""
    base = server[0]
    sheet = Api(base).call("POST", "/api/v1/sheets", {"game": "duquesa", "players": ["Bruno", "Ana"]})[1]
    phone.goto(sheet["links"]["edit"])
    phone.get_by_role("button", name="Score it with the calculator").tap()
    phone.wait_for_url(re.compile("/score/duquesa"))
    assert phone.locator("section.save form").count() == 0  # nothing scored yet: nothing to save
    tap_card(phone, 0, "DQ01")
    for card in ("DQ02", "DQ07", "DQ12", "DQ16"):
        tap_card(phone, 1, card)
    for card in ("DQ03", "DQ05", "DQ18", "DQ14"):
        tap_card(phone, 2, card)
    settled(phone)
    save = phone.locator("section.save form")
    expect_seats = ["Bruno", "Ana"]  # seat 0 is the sheet's Bruno: the names on the form are the sheet's
    assert [save.locator(f"select[name='seats.{k}']").input_value() for k in range(2)] == expect_seats
    phone.locator("details.pick").nth(2).locator("summary").tap()  # (a full hand folds away)
    tap_card(phone, 2, "DQ18")  # a card changed after the first answer
    tap_card(phone, 2, "DQ09")
    settled(phone)
    hands = {"Bruno": ["DQ02", "DQ07", "DQ12", "DQ16"], "Ana": ["DQ03", "DQ05", "DQ09", "DQ14"]}
    expected = service.score("duquesa", {"common": "DQ01", "players": [
        {"name": name, "hand": hand} for name, hand in hands.items()]})
    points = [int(p) for p in save.locator("label.sel").evaluate_all("els => els.map(e => e.dataset.points)")]
    assert points == [p["florins"] for p in expected["players"]]
    save.scroll_into_view_if_needed()
    shot(phone, "calculator-save-live")
    save.locator("button[type=submit]").tap()
    phone.wait_for_url(sheet["links"]["edit"])
    state = Api(base).call("GET", f"/api/v1/sheets/{sheet['token']}")[1]
    entry = state["entries"][0]
    assert entry["request"]["players"][1]["hand"] == hands["Ana"]
    assert entry["points"] == {p["name"]: p["florins"] for p in expected["players"]}


def test_a_save_right_after_the_last_plus_saves_the_hand_on_the_screen(server, phone):
    """As on the static site (test_site_taps), the server's calculator: "Save to the sheet" tapped right after the
    last "+" (its live answer still on its way), five games in a row: each sheet gets the hand on the screen at the
    tap, not the one before it."""
    import json

    from companion.web.site import browser as phone_python

    base = server[0]
    for k in range(5):
        names = [f"Ana{k}", f"Bo{k}"]
        sheet = Api(base).call("POST", "/api/v1/sheets", {"game": "duplicon", "players": names})[1]
        phone.goto(sheet["links"]["edit"])
        phone.get_by_role("button", name="Score it with the calculator").tap()
        phone.wait_for_url(re.compile("/score/duplicon"))
        phone.fill("input[name='rounds.0.0.won:int']", "26")
        phone.fill("input[name='rounds.0.1.won:int']", str(28 + 2 * k))
        phone.wait_for_selector("section.save form")
        settled(phone)
        plus = phone.get_by_role("button", name=f"{names[0]} · won: two more")
        for _ in range(k + 2):  # the last "+" and Save, one after the other as a thumb taps them
            plus.tap()
        pairs = phone.locator("form[data-live]").evaluate(
            "f => [...new FormData(f)].filter(([, v]) => typeof v === 'string')")
        phone.locator("section.save button[type=submit]").tap()
        phone.wait_for_url(sheet["links"]["edit"])
        request = json.loads(phone_python.call("score_form", json.dumps({"game": "duplicon", "fields": pairs})))
        expected = service.score("duplicon", request["result"]["request"])["totals"]
        entries = Api(base).call("GET", f"/api/v1/sheets/{sheet['token']}")[1]["entries"]
        assert [e["points"] for e in entries] == [expected], k
