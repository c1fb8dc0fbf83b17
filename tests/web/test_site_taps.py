"""The phone never loses a tap on the static site (issue 43): a save right after the last "+" saves the hand on the
screen. In Debian's chromium on the session's static site (`site`, conftest), its pages drawn by the phone's own
Python."""
import json

from playwright.sync_api import expect

from companion.web.site import browser
from test_browser import PHONE, settled  # (skips this module without chromium)


def python_drawn(page) -> None:
    """The page's Python is up and has drawn the page for its address."""
    page.wait_for_function("document.documentElement.dataset.pythonReady && document.documentElement.dataset.drawn",
                           timeout=120_000)


def kept_sheets(page) -> dict:
    return json.loads(page.evaluate("localStorage.getItem('companion-phone-sheets') || '{}'"))


def new_phone_sheet(page, base: str, game: str, names: list[str]) -> None:
    """A sheet started on the phone's sheets page (its Python up), left open."""
    page.goto(f"{base}/en/phone-sheets/")
    python_drawn(page)
    page.select_option("select[name=game]", game)
    for i, name in enumerate(names):
        page.fill(f"input[name='players.{i}']", name)
    page.locator("form[data-phone=new] button[type=submit]").tap()
    page.wait_for_selector("a[data-phone-calculator]")


def scored(game: str, pairs: list[list[str]]) -> tuple[dict, dict]:
    """What a scoring form's [name, value] pairs score, read by the same glue as the page's: (request, result)."""
    answer = json.loads(browser.call("score_form", json.dumps({"game": game, "fields": pairs})))["result"]
    return answer["request"], answer["result"]


def test_a_save_right_after_the_last_plus_saves_the_hand_on_the_screen(site, chromium):
    """Five games in a row, each saved with "Save to the sheet" tapped right after the last "+" (the live answer to
    that tap still on its way): each sheet gets the hand on the screen at the tap, its totals and its leader those
    the form scores. (It saved the answer from before that tap, five games of five.)"""
    base = site[0]
    context = chromium.new_context(**PHONE, locale="en-GB")
    waited = []
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        for k in range(5):
            names = [f"Ana{k}", f"Bo{k}"]
            new_phone_sheet(page, base, "duplicon", names)
            page.locator("a[data-phone-calculator]").tap()
            page.wait_for_url("**/en/score/duplicon/**")
            python_drawn(page)
            page.fill("input[name='rounds.0.0.won:int']", "26")
            page.fill("input[name='rounds.0.1.won:int']", str(28 + 2 * k))
            page.wait_for_selector("button[data-phone-save-request]")
            settled(page)
            plus = page.get_by_role("button", name=f"{names[0]} · won: two more")
            for _ in range(k + 2):  # the last "+" and Save, one after the other as a thumb taps them
                plus.tap()
            page.evaluate("addEventListener('pagehide', () => sessionStorage.setItem("
                          "'waited', document.documentElement.dataset.saveWaited ?? '-1'))")  # (what the save waited)
            pairs = page.locator("form[data-live]").evaluate(
                "f => [...new FormData(f)].filter(([, v]) => typeof v === 'string')")
            page.locator("button[data-phone-save-request]").tap()
            page.wait_for_url("**/en/phone-sheets/?id=*")
            python_drawn(page)
            request, result = scored("duplicon", pairs)
            assert dict(pairs)["rounds.0.0.won:int"] == str(26 + 2 * (k + 2))  # (the taps all reached the form)
            for name, total in result["totals"].items():
                page.wait_for_selector(f'#totals td[data-player="{name}"][data-total="{total}"]', timeout=20_000)
            expect(page.locator("#live")).to_contain_text(f"Leading: {', '.join(result['leaders'])}")
            added = [r for s in kept_sheets(page).values() if s["sheet"]["players"] == names
                     for r in s["log"] if r["action"] == "add"]
            assert [r["body"]["request"] for r in added] == [request]  # saved once, the hand on the screen
            waited.append(int(page.evaluate("sessionStorage.getItem('waited') || '-1'")))
        assert not errors, errors
    finally:
        context.close()
    print(f"each save waited for the live answer to its last tap: {waited} ms")
