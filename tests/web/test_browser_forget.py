"""Issue 25, items 9 and 12 in a real browser (Debian's chromium via Playwright): a phone forgets a sheet, and with
it the service worker's copies of its pages and of every page holding its link, and the entries it kept for it;
another sheet's copies stay. And the server's own 429 keeps an entry in the phone's queue until it may pass."""
import re

from helpers.browser import OFFLINE_PHONE  # (and skips this module without playwright or chromium)
from helpers.server import Api, free_port, start_server

COPIES = """async (needle) => {  // cached requests whose address or page holds `needle`
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const copy = await cache.match(request);
      if (request.url.includes(needle) || (await copy.text()).includes(needle)) found.push(request.url);
    }
  }
  return found;
}"""


def test_forgetting_a_sheet_deletes_its_copies_on_the_phone(browser, tmp_path):
    port = free_port()
    base, proc = start_server(port, tmp_path)
    context = browser.new_context(**OFFLINE_PHONE, locale="en-GB")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        api = Api(base)
        forgotten = api.call("POST", "/api/v1/sheets", {"game": "gemas", "players": ["Ana", "Bruno"],
                                                        "title": "Forget me"})[1]
        kept = api.call("POST", "/api/v1/sheets", {"game": "gemas", "players": ["Ana", "Bruno"], "title": "Keep me"})[1]
        token, view = forgotten["token"], forgotten["links"]["view"].rsplit("/", 1)[1]
        page.goto(f"{base}/rules/gemas")
        page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                               timeout=15_000)
        for url in (kept["links"]["edit"], forgotten["links"]["view"], forgotten["links"]["edit"],
                    forgotten["links"]["edit"] + "/log", f"{base}/sheets"):
            page.goto(url)  # through the service worker, which keeps a copy of each
        assert "Forget me" in page.content() and "Keep me" in page.content()
        page.evaluate("""([mine, other]) => localStorage.setItem('companion-refused', JSON.stringify([
            {action: mine, fields: {client_id: 'r1'}, refused: {status: 409, message: 'x', at: ''}},
            {action: other, fields: {client_id: 'r2'}, refused: {status: 409, message: 'y', at: ''}}]))""",
                      [forgotten["links"]["edit"] + "/entries", kept["links"]["edit"] + "/entries"])
        page.wait_for_timeout(500)  # the service worker's last copy is put
        assert len(page.evaluate(COPIES, token)) >= 3 and page.evaluate(COPIES, view)

        page.goto(forgotten["links"]["edit"])
        page.get_by_text("Forget this sheet on this phone…").tap()
        page.get_by_role("button", name="Yes, forget it on this phone").tap()
        page.wait_for_url(f"{base}/sheets", timeout=10_000)
        page.wait_for_timeout(500)
        assert "Forget me" not in page.content() and "Keep me" in page.content()
        assert page.evaluate(COPIES, token) == [] and page.evaluate(COPIES, view) == []
        assert page.evaluate(COPIES, kept["token"])  # another sheet's copies stay
        left = page.evaluate("() => JSON.parse(localStorage.getItem('companion-refused'))")
        assert [item["fields"]["client_id"] for item in left] == ["r2"]

        proc.terminate()  # offline now: the forgotten sheet has no copy left; the other one has
        proc.wait(timeout=10)
        page.goto(forgotten["links"]["edit"])
        assert page.locator("h1").inner_text() == "No connection"
        page.goto(kept["links"]["edit"])
        assert page.locator("h1").inner_text() == "Keep me"
        assert not errors, errors
    finally:
        context.close()
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)


def test_the_servers_own_429_keeps_an_entry_queued_until_it_may_pass(browser, tmp_path):
    base, proc = start_server(instance=tmp_path, env={"COMPANION_WRITE_LIMIT": "changes=2/4s"})
    context = browser.new_context(**OFFLINE_PHONE, locale="en-GB")
    page = context.new_page()
    statuses = []
    page.on("response", lambda r: statuses.append(r.status) if re.search(r"/entries$", r.url) else None)
    try:
        sheet = Api(base).call("POST", "/api/v1/sheets", {"game": "gemas", "players": ["Ana", "Bruno"]})[1]
        page.goto(sheet["links"]["edit"])
        for n in range(1, 5):
            page.fill("input[name='points.0']", str(n))
            page.locator("form[data-queue] button[type=submit]").tap()
            page.wait_for_function("() => document.querySelector('form[data-queue] [name=\"points.0\"]').value === ''")
        page.wait_for_selector('[data-player="Ana"][data-total="10"]', timeout=20_000)  # all four, in the end
        assert 429 in statuses
        assert page.evaluate("() => JSON.parse(localStorage.getItem('companion-refused') || '[]')") == []
        assert page.locator("#queue").is_hidden()
    finally:
        context.close()
        proc.terminate()
        proc.wait(timeout=10)
