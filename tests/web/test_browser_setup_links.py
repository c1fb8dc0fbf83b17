"""A setup's links to the scoring page carry what its form shows (issue 46, items 5 and 6): the player count chosen
and the names typed before any deal (the page opens on a deal for the default count) reach the scoring page by the
tab as by the Play button, so a three-player table never opens with a "Jugador 4"; a name corrected after the deal
keeps the deal (its seed), and the hands of two players named alike are told apart by their seats."""
from urllib.parse import parse_qs, urlparse

from helpers.browser import PHONE, playwright_api  # (and skips this module without playwright or chromium)

expect = playwright_api.expect


def spanish(browser):
    return browser.new_context(**PHONE, locale="es-ES").new_page()


def test_the_scoring_tab_and_play_carry_the_count_and_names_the_form_shows(server, browser):
    for link in ("tab", "play"):
        phone = spanish(browser)
        phone.goto(f"{server[0]}/setup/gemas")
        expect(phone.locator("select[name=players]")).to_have_value("4")  # the page opens dealt for four
        phone.locator("select[name=players]").select_option("3")
        fields = phone.locator("input[name='_names']")
        expect(fields).to_have_count(3)
        for k, name in enumerate(("Ana", "Beto", "Caro")):
            fields.nth(k).fill(name)
        tap = (phone.locator(".tabs a", has_text="Puntuar") if link == "tab"
               else phone.get_by_role("link", name="Jugar: abrir la puntuación"))
        tap.tap()
        phone.wait_for_url("**/score/gemas**")
        names = phone.locator("input[data-name-of]").evaluate_all("els => els.map(e => e.value)")
        assert names == ["Ana", "Beto", "Caro"], (link, names)
        expect(phone.locator("main")).not_to_contain_text("Jugador 4")
        phone.context.close()


def test_a_name_corrected_after_the_deal_keeps_the_deal(server, browser):
    phone = spanish(browser)
    phone.goto(f"{server[0]}/setup/nobles")
    fields = phone.locator("input[name='_names']")
    fields.nth(0).fill("Ines")
    fields.nth(1).fill("Tomás")
    phone.locator(".go button[type=submit]").tap()
    phone.wait_for_url("**_names=Ines**")
    seed = parse_qs(urlparse(phone.url).query)["seed"][0]
    dealt = phone.locator("details.dealer").inner_html()
    fields.nth(0).fill("Inés")  # a typo seen once dealt, corrected: Enter sends the form again
    with phone.expect_navigation():
        fields.nth(0).press("Enter")
    query = parse_qs(urlparse(phone.url).query)
    assert query["_names"] == ["Inés", "Tomás"] and query["seed"] == [seed]
    assert phone.locator("details.dealer").inner_html() == dealt.replace("Ines", "Inés")
    phone.context.close()


def test_two_players_named_alike_are_told_apart_by_their_seats(server, browser):
    """The rules refuse two players of one name; meanwhile each hand is headed by its name and its seat, as it is
    typed and once the page is drawn again (a reload keeps the table as it stands)."""
    phone = spanish(browser)
    phone.goto(f"{server[0]}/score/duquesa?common=DQ05")
    heads = phone.locator("[data-seat]:visible")
    for i in (0, 1):
        phone.locator(f"input[name='players.{i}.name']").fill("Ana")
    expect(phone.locator("summary [data-seat='0']").first).to_have_text("Ana (Jugador 1)")
    expect(phone.locator("summary [data-seat='1']").first).to_have_text("Ana (Jugador 2)")
    phone.locator("details.pick").nth(1).locator("label.card").first.tap()  # a card in the first hand
    phone.wait_for_selector("html:not([data-live-pending])", state="attached")
    texts = heads.evaluate_all("els => els.map(e => e.textContent)")
    assert "Ana" not in texts and {"Ana (Jugador 1)", "Ana (Jugador 2)"} <= set(texts), texts
    url = phone.url
    phone.reload()
    assert phone.url == url
    assert [phone.input_value(f"input[name='players.{i}.name']") for i in (0, 1)] == ["Ana", "Ana"]
    expect(phone.locator("summary [data-seat='1']").first).to_have_text("Ana (Jugador 2)")
    expect(phone.locator("details.pick").nth(1).locator("label.card input:checked")).to_have_count(1)
    # with JavaScript off, the page says the same
    off = browser.new_context(**PHONE, locale="es-ES", java_script_enabled=False).new_page()
    off.goto(url)
    expect(off.locator("summary [data-seat='0']").first).to_have_text("Ana (Jugador 1)")
    off.context.close()
    phone.context.close()


def test_another_count_or_option_after_the_deal_is_a_new_deal(server, browser):
    phone = spanish(browser)
    phone.goto(f"{server[0]}/setup/nobles?_names=Inés&_names=Tomás")
    seed = parse_qs(urlparse(phone.url).query)["seed"][0]
    phone.locator("label.chk", has_text="comodines").tap()  # the Jokers added: dealt anew
    with phone.expect_navigation():
        phone.locator(".go button[type=submit]").tap()
    query = parse_qs(urlparse(phone.url).query)
    assert query["seed"] != [seed] and query["jokers"] == ["yes"] and query["_names"] == ["Inés", "Tomás"]
    phone.context.close()
