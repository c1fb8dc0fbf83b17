"""The phone never loses a tap on the static site (issue 43): a save right after the last "+" saves the hand on the
screen; a setup's "open the scoring" carries the deal on the screen and the players the form shows; a tap made before
the phone's Python is up (a first visit, an offline reload) is kept, said in the reader's language, and done once it
is. In Debian's chromium on the session's static site (`site`, conftest), its pages drawn by the phone's own Python."""
import json
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import expect

from companion import service
from companion.core import i18n
from companion.web.site import browser
from helpers.browser import OFFLINE_PHONE, PHONE, settled  # (skips this module without chromium)
from helpers.site import kept_sheets, new_phone_sheet, python_drawn, wait_drawn


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


def address(page) -> str:
    """The page's address as it is now (Playwright's page.url can lag behind a history.replaceState)."""
    return page.evaluate("location.href")


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
            seed = dict(query_of(address(page)))["seed"]  # (the new deal's, in the address at once)
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


# --- Taps made before the phone's Python is up: kept, said, and done once it is. ---

KEPT_WORDS = "Getting the scoring ready… What you tapped is kept and done as soon as it is."


def kept_words(lang: str) -> str:
    """What the page says of a tap kept until its Python is up, in `lang` (the catalogue's words)."""
    said = i18n._(KEPT_WORDS, lang)
    assert lang == "en" or said != KEPT_WORDS, f"not translated into {lang}"
    return said


def start_sheet(page, names: list[str], game: str = "duplicon") -> None:
    page.select_option("select[name=game]", game)
    for i, name in enumerate(names):
        page.fill(f"input[name='players.{i}']", name)
    page.locator("form[data-phone=new] button[type=submit]").tap()


def expect_started(page, names: list[str]) -> None:
    """The sheet just started is the page shown and is kept in the phone's storage (once)."""
    page.wait_for_url("**/phone-sheets/?id=*", timeout=120_000)
    wait_drawn(page, timeout=120_000)
    sheet_id = dict(query_of(address(page)))["id"]
    expect(page.locator("input[data-player]")).to_have_count(len(names))
    assert page.locator("input[data-player]").evaluate_all("els => els.map((e) => e.dataset.player)") == names
    kept = kept_sheets(page)
    assert kept[sheet_id]["sheet"]["players"] == names and kept[sheet_id]["log"] == []
    assert sum(k["sheet"]["players"] == names for k in kept.values()) == 1  # (started once)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_sheet_started_while_the_phones_python_starts_is_started_once_it_is_up(site, chromium, lang):
    """A first visit of the phone's sheets page: "Start the sheet" tapped while Python downloads says, in the
    reader's language, that the tap is kept; once Python is up the sheet is started and kept. (The tap did nothing
    and said nothing.) Our code for the phone's Python is held back until the tap is made, as a slow download."""
    base = site[0]
    context = chromium.new_context(**PHONE, locale="es-ES" if lang == "es" else "en-GB")
    held = []
    context.route("**/py/companion.zip*", lambda route: held.append(route))
    try:
        page = context.new_page()
        page.goto(f"{base}{'' if lang == 'es' else '/en'}/phone-sheets/")
        names = ["Ana", "Bruno"]
        start_sheet(page, names)
        expect(page.locator(".python-status")).to_have_text(kept_words(lang))
        assert not page.evaluate("document.documentElement.dataset.pythonReady"), "Python was up before the tap"
        for route in held:
            route.continue_()
        context.unroute("**/py/companion.zip*")
        expect_started(page, names)
        expect(page.locator(".python-status")).to_be_hidden()
    finally:
        context.close()


def test_a_setup_dealt_while_the_phones_python_starts_is_dealt_as_the_form_says(site, chromium):
    """A first visit of Gems' setup: 3 players chosen and Deal tapped while Python downloads: the page says the tap
    is kept, and once Python is up it deals for those 3 players. Opened again, 3 chosen but no Deal tapped: once
    Python is up the address's deal is drawn for the 3 players the form shows (it was drawn for 4, the count lost)."""
    base = site[0]
    context = chromium.new_context(**PHONE, locale="en-GB")
    held = []
    try:
        page = context.new_page()
        for deal in (True, False):
            context.route("**/py/companion.zip*", lambda route: held.append(route))
            page.goto(f"{base}/en/setup/gemas/?seed=golden-42")
            page.select_option("select[name=players]", "3")
            if deal:
                page.locator(".go button[type=submit]").tap()
                expect(page.locator(".python-status")).to_have_text(kept_words("en"))
            assert not page.evaluate("document.documentElement.dataset.pythonReady"), "Python was up before the taps"
            for route in held:
                route.continue_()
            held.clear()
            context.unroute("**/py/companion.zip*")
            python_drawn(page)
            asked = dict(query_of(address(page)))
            assert asked["players"] == "3" and (asked["seed"] != "golden-42") == deal  # (Deal: a new deal's seed)
            assert page.locator("select[name=players]").input_value() == "3"
            assert page.locator("input[name=_names]").count() == 3
            first = service.setup("gemas", "3", asked["seed"])["first_player"]
            assert page.locator("#part-first_player + .lead [data-seat]").get_attribute("data-seat") == str(first)
            assert dict(query_of(page.locator("#result a[data-play]").get_attribute("href")))["_n"] == "3"
    finally:
        context.close()


# An offline reload's Python held back: the lock the worker takes to read our code from the phone's copy
# (py/worker.js) is the page's first while the phone is offline, until `__releasePython()`.
HOLD_OFFLINE_PYTHON = """(() => {
  if (navigator.onLine) return;
  const code = new URL("/py/companion.zip?v=%s", location.href).href;
  const held = new Promise((resolve) => { window.__releasePython = resolve; });
  navigator.locks.request(`companion-keep ${code}`, () => held);
})()"""


def test_a_sheet_started_after_an_offline_reload_is_started_and_kept(site, chromium):
    """The phone's sheets page visited once, then offline and reloaded: it opens at once from the phone's copy while
    Python restores. "Start the sheet" tapped then starts the sheet once Python is up (it did nothing), and names
    typed before Python drew the page are still there for the next start (they were wiped)."""
    from helpers.site import served, visited_then_offline

    version = re.search(r"companion\.zip\?v=(\w+)", (site[1] / "site" / "py" / "worker.js").read_text())[1]
    base, proc = served(site[1] / "site")
    context = chromium.new_context(**OFFLINE_PHONE, locale="en-GB")
    context.add_init_script(HOLD_OFFLINE_PYTHON % version)
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        visited_then_offline(context, page, f"{base}/en/phone-sheets/", proc)
        start_sheet(page, ["Ana", "Bruno"])  # tapped at once: the page is there before Python
        expect(page.locator(".python-status")).to_have_text(kept_words("en"))
        assert not page.evaluate("document.documentElement.dataset.pythonReady"), "Python was up before the tap"
        page.evaluate("window.__releasePython()")
        expect_started(page, ["Ana", "Bruno"])
        page.goto(f"{base}/en/phone-sheets/")  # offline again, Python held again: names typed before it draws
        page.select_option("select[name=game]", "duplicon")
        page.fill("input[name='players.0']", "Cleo")
        page.evaluate("window.__releasePython()")
        python_drawn(page)
        expect(page.locator("ul.sheets li")).to_have_count(1)  # (drawn from the phone's storage)
        page.fill("input[name='players.1']", "Dario")
        page.locator("form[data-phone=new] button[type=submit]").tap()
        expect_started(page, ["Cleo", "Dario"])
        assert not errors, errors
    finally:
        context.close()
        proc.kill()
