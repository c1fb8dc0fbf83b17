"""The phone never loses a tap on the static site (issue 43): a save right after the last "+" saves the hand on the
screen; a setup's "open the scoring" carries the deal on the screen and the players the form shows. In Debian's
chromium on the session's static site (`site`, conftest), its pages drawn by the phone's own Python."""
import json
from urllib.parse import parse_qsl, urlsplit

from playwright.sync_api import expect

from companion import service
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


# The phone's calls to its Python held back while `window.__held` is a list (a slow phone's Python answering), until
# `__releasePython()`: the page's script is the site's own, only its messages to the worker wait.
HOLD_ANSWERS = """(() => {
  const send = Worker.prototype.postMessage;
  window.__held = null;
  Worker.prototype.postMessage = function (...args) {
    if (window.__held) window.__held.push(() => send.apply(this, args)); else send.apply(this, args);
  };
  window.__releasePython = () => { const held = window.__held || []; window.__held = null; held.forEach((f) => f()); };
})()"""


def query_of(url: str) -> list[tuple[str, str]]:
    return parse_qsl(urlsplit(url).query, keep_blank_values=True)


def test_a_setups_open_the_scoring_tapped_right_after_a_new_deal_carries_that_deal(site, chromium):
    """El Collar de la Duquesa's setup: "Jugar: abrir la puntuación" tapped right after Deal (or Reroll), while the
    phone's Python is still drawing the new deal, opens the scoring with the new deal's common card (the one the
    address and the screen then show), not the one it replaces."""
    base = site[0]
    context = chromium.new_context(**PHONE, locale="es-ES")
    context.add_init_script(HOLD_ANSWERS)
    changed = 0
    try:
        page = context.new_page()
        for new_deal in (".go button[type=submit]", ".go a.button.light", ".go button[type=submit]"):
            page.goto(f"{base}/setup/duquesa/?seed=golden-42")
            python_drawn(page)
            before = dict(query_of(page.locator("#result a[data-play]").get_attribute("href")))["common"]
            page.evaluate("window.__held = []")  # the new deal's answer held: the old deal is still drawn
            page.locator(new_deal).tap()
            seed = dict(query_of(page.url))["seed"]  # (the new deal's, in the address at once)
            assert seed != "golden-42"
            page.locator("#result a[data-play]").tap()
            try:
                page.evaluate("window.__releasePython?.()")
            except Exception:  # (the tap had left the page already: the old scripts)
                pass
            page.wait_for_url("**/score/duquesa/**")
            dealt = service.setup("duquesa", "2", seed)["common"]
            assert dict(query_of(page.url))["common"] == dealt, (before, dealt)
            changed += dealt != before
        assert changed  # (at least one new deal had another common card: the test could tell them apart)
    finally:
        context.close()


def test_a_setups_open_the_scoring_carries_the_players_the_form_shows(site, chromium):
    """Gems' setup dealt for its default 4 players: with 3 chosen and a name typed, not dealt again, the link opens
    the scoring for those 3 players by those names (it carried 4 and "Jugador 4"), and its new sheet link too."""
    base = site[0]
    context = chromium.new_context(**PHONE, locale="es-ES")
    try:
        page = context.new_page()
        page.goto(f"{base}/setup/gemas/")
        python_drawn(page)
        assert page.locator("select[name=players]").input_value() == "4"
        assert dict(query_of(page.locator("#result a[data-play]").get_attribute("href")))["_n"] == "4"
        page.select_option("select[name=players]", "3")
        page.fill("input[name=_names] >> nth=0", "Ana")
        shown = page.locator("input[name=_names]").evaluate_all("els => els.map((e) => e.value)")
        assert shown == ["Ana", "Jugador 2", "Jugador 3"]
        sheet = query_of(page.locator("#result a[href*='sheets']").get_attribute("href"))
        assert [v for k, v in sheet if k.startswith("players.")] == shown
        page.locator("#result a[data-play]").tap()
        page.wait_for_url("**/score/gemas/**")
        carried = query_of(page.url)
        assert dict(carried)["_n"] == "3" and [v for k, v in carried if k == "_names"] == shown
        python_drawn(page)  # (the scoring page's seats: those names)
        assert page.locator("input[data-name-of]").evaluate_all("els => els.map((e) => e.value)") == shown
    finally:
        context.close()
