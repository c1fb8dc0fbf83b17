"""Issue 13's solo helper in chromium on a phone: a whole solo game through the turn helper, the hand carried turn
to turn in the address, to the rank page and its percentile; the expansions switch on the scoring pages."""
import re

from playwright.sync_api import expect

from companion import service
from companion.games import duquesa
from helpers.browser import PHONE, Taps, shot  # (and skips this module without playwright or chromium)
from helpers.site import text_of, wait_drawn

SEED = "1"  # a deal where the helper keeps the card turned up twice and takes the hidden card three times


def small_targets(page) -> list[str]:
    """Visible tap targets of the page under 44 × 44 CSS px."""
    return page.evaluate("""() => [...document.querySelectorAll('a, button, summary, label.card, label.chk')]
        .filter((el) => el.offsetParent !== null && !el.closest('.enter-key'))
        .map((el) => [el, el.getBoundingClientRect()]).filter(([, r]) => r.width < 44 || r.height < 44)
        .map(([el]) => el.outerHTML.slice(0, 80))""")


def test_a_whole_solo_game_through_the_turn_helper_to_its_rank_and_percentile(server, phone):
    base = server[0]
    deal = service.setup("duquesa", 1, SEED, {})
    hand, common, gone = list(deal["hand"]), deal["common"], []
    phone.goto(f"{base}/setup/duquesa?players=1&seed={SEED}&lang=en")  # the deal's hand and common card carry on
    tap = Taps()
    tap(phone.locator("#result a[data-play]"))
    phone.wait_for_url("**/solo/duquesa/turn?**")
    kept = []
    for turn, (seen, hidden) in enumerate(deal["turns"], 1):
        expect(phone.locator("p.turn")).to_have_attribute("data-turn", str(turn))
        if True:  # the hand came along from the setup and from turn to turn: only the card turned up is asked
            assert phone.locator("details.pick").nth(0).evaluate("d => !d.open")
            checked = phone.locator("details.pick").nth(0).locator("input:checked")
            assert sorted(checked.evaluate_all("els => els.map(e => e.value)")) == sorted(hand)
        tap(phone.locator("details.pick").nth(2).locator(f"label.card:has(input[value='{seen}'])"))
        tap(phone.get_by_role("button", name="Advise me"))
        req = {"hand": hand, "common": common, "seen": seen, "gone": gone, "turn": turn}
        advice = service.solo_turn("duquesa", req)
        expect(phone.locator("#result .winner")).to_have_attribute("data-keep", advice["keep"])
        kept.append(advice["keep"])
        if turn == 1:
            shot(phone, "solo-turn-advice")
        if advice["keep"] == "seen":
            after = advice["after_seen"]
        else:  # one tap in a picker says which card was drawn; the page names the discard
            tap(phone.locator(f"#result button[name='drawn'][value='{hidden}']"))
            after = service.solo_turn("duquesa", {**req, "drawn": hidden})["after_drawn"]
            expect(phone.locator("#result .winner")).to_have_attribute("data-discard", after["discard"])
            if kept.count("unseen") == 1:
                shot(phone, "solo-turn-drawn")
        hand, gone = after["hand"], after["gone"]
        assert not small_targets(phone), small_targets(phone)
        step = phone.locator("#result button[data-step]")
        expect(step).to_have_attribute("data-step", "rank" if turn == 5 else "next")
        tap(step)
    assert kept.count("seen") >= 1 and kept.count("unseen") >= 1
    phone.wait_for_url("**/solo/duquesa?**")
    final = service.score("duquesa", {"common": common, "players": [{"name": "x", "hand": hand}]})["players"][0]
    expect(phone.locator(".rank")).to_have_attribute("data-rank", final["rank"])
    expect(phone.locator("#result .total").first).to_have_attribute("data-florins", str(final["florins"]))
    pct = duquesa.solo_percentile(final["florins"])
    expect(phone.locator(".percentile")).to_contain_text(
        f"Better than {pct['better_than']}% of 10,000 games played by the turn helper’s strategy.")
    # taps: Play on the setup, then each turn the card turned up, Advise me, the next step, and the card drawn
    # when the hidden one was taken; the hand is never tapped
    assert tap.count == 1 + 3 * 5 + kept.count("unseen")
    shot(phone, "solo-rank")


def test_the_rank_page_in_spanish_says_the_percentile_in_its_words(server, phone):
    phone.goto(f"{server[0]}/solo/duquesa?lang=es&florins:int=30")
    pct = duquesa.solo_percentile(30)
    expect(phone.locator(".percentile")).to_contain_text(
        f"Mejor que el {pct['better_than']} % de 10.000 partidas jugadas con la estrategia de la ayuda por turno.")
    expect(phone.locator(".percentile")).to_contain_text(f"{pct['same']} de ellas acabaron con los mismos florines.")


def page_height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def test_an_expansion_switch_brings_its_cards_and_keeps_what_was_tapped(server, phone):
    base = server[0]
    phone.goto(f"{base}/score/duquesa")
    shorter = page_height(phone)
    assert phone.locator("input[value='DQ19']").count() == 0
    expect(phone.locator("[data-redraw-button]")).to_be_hidden()  # the switch itself redraws
    phone.locator("details.pick").nth(0).locator("label.card:has(input[value='DQ04'])").tap()
    phone.locator("label.chk:has(input[value='rainbow'])").tap()
    phone.wait_for_url("**_sets=rainbow**")
    expect(phone.locator("details.pick").nth(1).locator("input[value='DQ19']")).to_have_count(1)
    expect(phone.locator("details.pick").nth(0).locator("input[value='DQ04']")).to_be_checked()
    assert phone.locator("#result").count() == 0 and phone.locator(".problems").count() == 0
    phone.locator("label.chk:has(input[value='gold'])").tap()
    phone.wait_for_url(re.compile(r".*_sets=gold.*"))
    both = page_height(phone)
    assert phone.locator("input[value='DQ23']").count() == 3
    assert shorter < both
    print(f"two-player page height: {shorter} px base only, {both} px with both expansions (every card, as before)")
    assert not small_targets(phone), small_targets(phone)
    phone.goto(f"{base}/solo/duquesa")
    solo_short = page_height(phone)
    phone.goto(f"{base}/solo/duquesa?_sets=rainbow&_sets=gold")
    print(f"solo rank page height: {solo_short} px base only, {page_height(phone)} px with both expansions")


def test_screenshots_light_and_dark(server, browser):
    base = server[0]
    deal = service.setup("duquesa", 1, SEED, {})
    carried = "&".join([*(f"hand:list={c}" for c in deal["hand"]), f"common={deal['common']}",
                        f"seen={deal['turns'][0][0]}", "turn:int=1"])
    pages = {"turn": f"/solo/duquesa/turn?{carried}",
             "turn2": f"/solo/duquesa/turn?{carried}&drawn={deal['turns'][0][1]}",
             "rank": "/solo/duquesa?florins:int=31", "score": "/score/duquesa",
             "score-sets": "/score/duquesa?_sets=rainbow"}
    for scheme in ("light", "dark"):
        context = browser.new_context(**PHONE, color_scheme=scheme, locale="en-GB")
        page = context.new_page()
        try:
            for name, path in pages.items():
                page.goto(base + path)
                assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
                shot(page, f"solo-{name}-{scheme}")
        finally:
            context.close()
    narrow = browser.new_context(viewport={"width": 320, "height": 700}, is_mobile=True, has_touch=True)
    page = narrow.new_page()
    try:
        for name, path in pages.items():
            for lang in ("es", "en"):
                page.goto(f"{base}{path}&lang={lang}" if "?" in path else f"{base}{path}?lang={lang}")
                assert page.evaluate("document.documentElement.scrollWidth") <= 320, (name, lang)
                shot(page, f"solo-{name}-320-{lang}")
    finally:
        narrow.close()


def test_the_static_sites_phone_draws_the_solo_steps_and_percentile_as_the_server(browser, site, server_pages):
    """On a static site the phone's own Python draws these pages: the same advice, next step and percentile."""
    base = site[0]
    carried = "hand:list=DQ11&hand:list=DQ12&hand:list=DQ18&hand:list=DQ06&common=DQ16&seen=DQ14&turn:int=5"
    context = browser.new_context(**PHONE, locale="en-GB")
    page = context.new_page()

    def same(path: str, query: str, drawn) -> None:
        mine = server_pages.get(f"/{path}?{query}&lang=en").get_data(as_text=True)
        assert text_of(drawn, "#result") == text_of(mine, "#result") and text_of(drawn, "#result"), path

    try:
        page.goto(f"{base}/")
        page.evaluate("localStorage.setItem('companion-lang', 'en')")
        page.goto(f"{base}/en/solo/duquesa/turn/?{carried}")
        wait_drawn(page)
        same("solo/duquesa/turn", carried, page)
        # the next step as the page's live form asks its Python for it (the same worker, no second start)
        same("solo/duquesa/turn", carried + "&drawn=DQ10", page.evaluate("(q) => window.companionPage(q)",
                                                                           carried + "&drawn=DQ10"))
        page.goto(f"{base}/en/solo/duquesa/?florins:int=30")
        wait_drawn(page)
        same("solo/duquesa", "florins:int=30", page)
        assert "Better than 61%" in text_of(page, "#result")
    finally:
        context.close()
