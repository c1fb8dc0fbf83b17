"""Real-browser tests of the offline queue of a saved sheet (issue 15, item 2), with Playwright playing whatever
sits between the phone and the server: a captive portal, a proxy, a lost answer. An entry leaves the queue only on
the server's own JSON answer naming its client_id (written or replayed), or refusing it for good (then the sheet
shows it, to copy, try again or remove); anything else keeps it, and it is sent once the way is clear."""
import json

import pytest

from helpers.browser import OFFLINE_PHONE, shot  # (and skips this module without playwright or chromium)
from helpers.server import Api

PORTAL = "<!doctype html><html><body><h1>Welcome to CafeNet</h1><form><button>Accept and connect</button></form>"


def proxy_page(code: int, text: str):
    return lambda route: route.fulfill(status=code, content_type="text/html", body=f"<html><h1>{code} {text}</h1>")


def portal_redirect(base: str):
    return lambda route: route.fulfill(status=302, headers={"Location": f"{base}/hotspot/login?from=companion"})


# Whatever answers instead of the server, one case each: the entry must stay in the queue.
IN_BETWEEN = {
    "captive portal page (200 HTML)": lambda base: lambda route: route.fulfill(
        status=200, content_type="text/html", body=PORTAL),
    "redirect to a portal (302)": portal_redirect,
    "proxy timeout (408)": lambda base: proxy_page(408, "Request Timeout"),
    "proxy rate limit (429 JSON)": lambda base: lambda route: route.fulfill(
        status=429, content_type="application/json", headers={"Retry-After": "30"},
        body=json.dumps({"error": "too many requests", "field": ""})),
    "proxy bad gateway (502 HTML)": lambda base: proxy_page(502, "Bad Gateway"),
    "proxy unavailable (503 HTML)": lambda base: proxy_page(503, "Service Unavailable"),
    "network failure": lambda base: lambda route: route.abort("internetdisconnected"),
}


@pytest.fixture
def phone(browser, server):
    """A phone on the edit link of a new sheet (Ana and Bruno): (page, sheet, api of another phone, page errors)."""
    base = server[0]
    api = Api(base)
    sheet = api.call("POST", "/api/v1/sheets", {"game": "gemas", "players": ["Ana", "Bruno"], "title": "Friday"})[1]
    context = browser.new_context(**OFFLINE_PHONE, locale="en-GB")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # A portal only ever answers when the test puts one in between.
    context.route(f"{base}/hotspot/**", lambda route: route.fulfill(status=200, content_type="text/html", body=PORTAL))
    page.goto(sheet["links"]["edit"])
    yield page, sheet, api, errors
    context.close()


def queued(page) -> list[dict]:
    return page.evaluate("() => JSON.parse(localStorage.getItem('companion-queue') || '[]')")


def refused(page) -> list[dict]:
    return page.evaluate("() => JSON.parse(localStorage.getItem('companion-refused') || '[]')")


def state(api: Api, sheet: dict) -> dict:
    return api.call("GET", f"/api/v1/sheets/{sheet['token']}")[1]


def add(page, ana: str, bruno: str, note: str = ""):
    page.fill("input[name='points.0']", ana)
    page.fill("input[name='points.1']", bruno)
    page.fill("input[name=note]", note)
    page.locator("form[data-queue] button[type=submit]").tap()


def try_now(page):
    """What the phone does when the connection comes back (the page also tries every 3 s by itself)."""
    page.evaluate("() => window.dispatchEvent(new Event('online'))")


def wait_until(page, predicate, timeout: float = 10):
    for _ in range(int(timeout * 10)):
        if predicate():
            return
        page.wait_for_timeout(100)
    raise AssertionError("gave up waiting")


@pytest.mark.parametrize("case", IN_BETWEEN)
def test_an_answer_not_from_the_server_keeps_the_entry(phone, server, case):
    page, sheet, api, errors = phone
    base = server[0]
    answer = IN_BETWEEN[case](base)
    hits = []
    entries_url, csrf_url = f"{base}/s/{sheet['token']}/entries", f"{base}/api/v1/csrf"

    def in_between(route):
        hits.append(route.request.url)
        answer(route)

    # 1. The entry meets it on its way to the server.
    page.route(entries_url, in_between)
    add(page, "7", "3", "round one")
    page.wait_for_selector("#queue:not([hidden])", timeout=10_000)  # the try is over, and the entry waits
    assert hits == [entries_url]
    assert [item["fields"]["points.0"] for item in queued(page)] == ["7"]
    assert page.locator("#queue").inner_text().endswith("until the connection returns: 1")
    assert page.locator("#refused").is_hidden() and refused(page) == []
    assert state(api, sheet)["entries"] == []

    # 2. The phone's session expired meanwhile: the form token it fetches meets it too.
    page.unroute(entries_url)
    page.context.clear_cookies()
    page.route(csrf_url, in_between)
    try_now(page)
    wait_until(page, lambda: csrf_url in hits)
    page.wait_for_timeout(300)
    assert len(queued(page)) == 1 and state(api, sheet)["entries"] == []
    assert page.locator("#queue").is_visible() and page.locator("#refused").is_hidden()

    # 3. The way is clear: sent, exactly once.
    page.unroute(csrf_url)
    try_now(page)
    page.wait_for_selector('[data-player="Ana"][data-total="7"]', timeout=10_000)
    page.wait_for_selector("#queue", state="hidden")
    assert queued(page) == [] and refused(page) == []
    now = state(api, sheet)
    assert now["totals"] == {"Ana": 7, "Bruno": 3} and len(now["entries"]) == 1
    assert now["entries"][0]["note"] == "round one"
    assert page.url == sheet["links"]["edit"] and not errors, errors


def test_a_refusal_for_good_is_shown_to_copy_retry_or_remove(phone, server):
    page, sheet, api, errors = phone
    token = sheet["token"]
    assert api.call("POST", f"/api/v1/sheets/{token}/finish", {})[0] == 200  # another phone ends the game
    add(page, "7", "3", "last round")
    box = page.locator("#refused")
    box.locator("li").wait_for(timeout=10_000)
    assert page.url == sheet["links"]["edit"]  # no page load: the entry is on the screen
    assert box.locator("li").count() == 1
    text = box.locator("li").inner_text()
    assert "Sheet: Friday" in text and "Ana 7 · Bruno 3" in text and "Note: last round" in text
    assert "The game was finished on another phone; reopen the sheet to change it." in text  # the server's reason
    assert queued(page) == [] and page.locator("#queue").is_hidden()
    [kept] = refused(page)
    assert kept["refused"]["status"] == 409 and kept["fields"]["points.0"] == "7"
    client_id = kept["fields"]["client_id"]
    shot(page, "sheet-refused")

    # Copy: a readable text of the entry and the reason.
    box.get_by_role("button", name="Copy").tap()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.splitlines()[1:] == ["Ana 7 · Bruno 3", "Note: last round", "Not saved: The game was finished on "
                                       "another phone; reopen the sheet to change it."]
    assert copied.startswith("Sheet: Friday · ")
    assert box.get_by_role("button", name="Copied").count() == 1

    # Try again while the game is still finished: refused again, still shown once.
    box.get_by_role("button", name="Try again").tap()
    wait_until(page, lambda: (r := refused(page)) and r[0]["refused"]["at"] != kept["refused"]["at"])
    assert box.locator("li").count() == 1 and queued(page) == [] and state(api, sheet)["entries"] == []

    # Reopened: Try again writes it, once, with the same client_id.
    assert api.call("POST", f"/api/v1/sheets/{token}/reopen", {})[0] == 200
    box.get_by_role("button", name="Try again").tap()
    page.wait_for_selector('[data-player="Ana"][data-total="7"]', timeout=10_000)
    assert box.is_hidden() and refused(page) == [] and queued(page) == []
    _status, log = api.call("GET", f"/api/v1/sheets/{token}/log")
    adds = [c for c in log["log"] if c["action"] == "add"]
    assert [c["client_id"] for c in adds] == [client_id]
    assert state(api, sheet)["totals"] == {"Ana": 7, "Bruno": 3}

    # Remove: gone from the phone, never written.
    api.call("POST", f"/api/v1/sheets/{token}/finish", {})
    page.reload()
    page.locator("section[aria-labelledby=add]").wait_for(state="detached")
    page.evaluate("""() => localStorage.setItem('companion-queue', JSON.stringify([{action: location.pathname +
        '/entries', fields: {_csrf: 'x', 'points.0': '1', 'points.1': '2',
        client_id: 'c0ffee0000000000000000ff'}}]))""")
    try_now(page)
    box.locator("li").wait_for(timeout=10_000)
    assert "#1 1 · #2 2" in box.locator("li").inner_text()  # an entry queued by an older page still reads plainly
    box.get_by_role("button", name="Remove").tap()
    box.wait_for(state="hidden")
    assert refused(page) == [] and queued(page) == []
    page.wait_for_timeout(500)
    assert len(state(api, sheet)["entries"]) == 1 and not errors, errors


def test_a_lost_answer_is_sent_again_and_written_once(phone, server):
    page, sheet, api, errors = phone
    entries_url = f"{server[0]}/s/{sheet['token']}/entries"
    answers = []

    def lose_the_answer(route):
        response = route.fetch()  # the server writes (or replays) the entry...
        answers.append(response.json())
        if len(answers) == 1:
            route.abort("connectionreset")  # ...and the phone never hears it
        elif len(answers) == 2:  # ...and a proxy gave up waiting
            route.fulfill(status=408, content_type="text/html", body="<h1>408 Request Timeout</h1>")
        else:
            route.fulfill(response=response)

    page.route(entries_url, lose_the_answer)
    add(page, "7", "3")
    page.wait_for_selector("#queue:not([hidden])", timeout=10_000)
    assert len(queued(page)) == 1 and answers[0]["replayed"] is False
    assert len(state(api, sheet)["entries"]) == 1  # written, though the phone does not know

    try_now(page)
    wait_until(page, lambda: len(answers) >= 2)
    page.wait_for_timeout(300)
    assert answers[1]["replayed"] is True and len(queued(page)) == 1  # a 408 is no proof: still kept

    try_now(page)
    page.wait_for_selector("#queue", state="hidden", timeout=10_000)
    assert answers[2]["replayed"] is True and answers[2]["change"]["client_id"] == answers[0]["change"]["client_id"]
    assert queued(page) == [] and refused(page) == [] and page.locator("#refused").is_hidden()
    page.wait_for_selector('[data-player="Ana"][data-total="7"]', timeout=10_000)
    now = state(api, sheet)
    assert now["totals"] == {"Ana": 7, "Bruno": 3} and len(now["entries"]) == 1
    assert not errors, errors


def test_a_refused_calculator_result_waits_on_the_scoring_page(phone, server):
    page, sheet, api, errors = phone
    page.locator("form[action$='/calculator'] button").tap()  # this sheet is a Gemas one: its calculator
    page.wait_for_url("**/score/gemas**")
    page.goto(page.url.split("?")[0] + "?_n=2")  # two players, as on the sheet
    page.locator("form:not([data-queue]) .go button[type=submit]").tap()  # score the empty hands: 0 each
    save = page.locator("form[data-queue]")
    save.wait_for()
    assert api.call("POST", f"/api/v1/sheets/{sheet['token']}/finish", {})[0] == 200
    save.locator("button[type=submit]").tap()
    item = page.locator("#refused li")
    item.wait_for(timeout=10_000)
    assert "(scored)" in item.inner_text() and "finished on another phone" in item.inner_text()
    assert "/score/gemas" in page.url and queued(page) == []
    api.call("POST", f"/api/v1/sheets/{sheet['token']}/reopen", {})
    item.get_by_role("button", name="Try again").tap()
    page.wait_for_url(sheet["links"]["edit"], timeout=10_000)  # written: on to the sheet, as a first save does
    assert len(state(api, sheet)["entries"]) == 1 and refused(page) == [] and not errors, errors
