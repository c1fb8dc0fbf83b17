"""Nobles' last duel and its words on a phone in Spanish (issue 46, item 6): the duel that ends the game leaves no
form and no live Duel button under the winner (a link corrects it); a duel won by an ace reads as the ace, not as
the weaker total with the ace counted as 1; the next duel's button keeps the space before the attacker's name."""
import re

from helpers.browser import PHONE, playwright_api, settled  # (and skips this module without playwright or chromium)

expect = playwright_api.expect
LAST = ("_names=Inés&_names=Tomás&turn%3Aint=0&courts.0.nobles.0.noble=king&courts.0.nobles.0.suit=spades"
        "&courts.1.nobles.0.noble=queen&courts.1.nobles.0.suit=hearts&courts.1.nobles.0.wounds%3Aint=1")


def tap_chip(phone, name: str, value) -> None:
    phone.locator(f"label.tap:has(input[name='{name}'][value='{value}'])").tap()


def last_duel(browser, base: str, ace: bool = True):
    """Inés's King (13 + 4) against Tomás's wounded Queen (12 + 6), Inés playing an ace or not: the phone."""
    phone = browser.new_context(**PHONE, locale="es-ES").new_page()
    phone.goto(f"{base}/score/nobles?{LAST}")
    tap_chip(phone, "attacker.dice.total:int", 4)
    tap_chip(phone, "defender.dice.0:int", 6)
    settled(phone)
    if ace:  # her King wins whatever the totals, and the Queen's second wound kills: the game is over
        tap_chip(phone, "attacker.cards.0.rank:int", 1)
        settled(phone)
        expect(phone.locator(".winner.final")).to_contain_text("Gana Inés: a Tomás no le queda ningún noble")
    return phone


def test_the_next_duel_button_keeps_the_space_before_the_name(server, browser):
    phone = last_duel(browser, server[0], ace=False)
    next_duel = phone.locator("[data-next-duel]")
    expect(next_duel).to_be_visible()
    assert next_duel.inner_text() == "Siguiente duelo: ataca Tomás"  # (the players take turns to attack)
    phone.context.close()


def test_the_duel_that_ends_the_game_leaves_no_form_under_the_winner(server, browser):
    phone = last_duel(browser, server[0])
    for part in ("#who", "#dice", "#announce", "#attacker-cards", "#defender-cards"):
        expect(phone.locator(part)).to_be_hidden()
    expect(phone.locator("button[name=_roll]:visible")).to_have_count(0)
    expect(phone.locator("[data-next-duel]")).to_have_count(0)
    correct = phone.get_by_role("link", name="Corregir este duelo")  # the duel afresh, to correct it
    with phone.expect_navigation():
        correct.tap()
    expect(phone.locator("#dice")).to_be_visible()
    expect(phone.locator("input[name='attacker.cards.0.rank:int']:checked")).to_have_value("")
    expect(phone.locator("#who > legend")).to_have_text("1 · Ataca Inés")
    phone.context.close()


def test_a_duel_won_by_an_ace_reads_as_the_ace(server, browser):
    phone = last_duel(browser, server[0])
    summary = phone.locator("#result details.strengths summary")  # Inés's 18 with the ace as 1, beside Tomás's 18
    assert re.sub(r"\s+", " ", summary.inner_text()).strip() == "Inés · Rey As — Tomás · Reina 18"
    summary.tap()
    strengths = phone.locator("#result details.strengths")
    expect(strengths).to_contain_text("Un as: golpe crítico, gana el duelo")
    expect(strengths.locator("h2").first).to_have_text("Inés: Rey v1 As")
    expect(strengths.locator("ul.lines").first).not_to_contain_text("cartas de número")
    phone.context.close()
