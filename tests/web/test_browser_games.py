"""Whole games on a phone (issue 13, done when): from the setup page, where the names are typed once, through the
scoring page its Play button opens, to the winner said big. Each final answer is checked against the rules' own
scoring of the same game. (Gemas and Nobles: test_browser_gemas.py and test_browser_nobles.py.)"""
from urllib.parse import parse_qs, urlparse

from companion import service
from test_browser import PHONE, playwright_api, settled, shot  # (and skips this module without playwright or chromium)

expect = playwright_api.expect


def fresh_phone(browser):
    """A phone that has never met these players (no names kept)."""
    return browser.new_context(**PHONE, locale="en-GB").new_page()


def set_the_table(phone, base: str, game: str, names: list[str]) -> dict:
    """The setup page: the player count, each name typed once, Deal; then Play opens the scoring page. Returns the
    setup's answer as the server deals it for the seed in the page's address."""
    phone.goto(f"{base}/setup/{game}")
    phone.select_option("select[name=players]", str(len(names)))  # the name fields follow the count at once
    fields = phone.locator("input[name='_names']")
    expect(fields).to_have_count(len(names))
    for k, name in enumerate(names):
        fields.nth(k).fill(name)
    phone.locator(".go button[type=submit]").tap()
    phone.locator("#result").wait_for()
    seed = parse_qs(urlparse(phone.url).query)["seed"][0]
    dealt = service.setup(game, str(len(names)), seed, {})
    phone.get_by_role("link", name="Play: open the scoring").tap()
    phone.wait_for_url(f"**/score/{game}**")
    return dealt


def test_a_whole_duquesa_game_from_setup_to_winner(server, browser):
    phone = fresh_phone(browser)
    dealt = set_the_table(phone, server[0], "duquesa", ["Inés", "Tomás"])
    common = dealt["common"]
    sections = phone.locator("details.pick")
    expect(sections.nth(0).locator(f"input[value='{common}']")).to_be_checked()  # the setup's common card came along
    assert phone.locator("legend[data-seat='0'], summary [data-seat='0']").first.inner_text() == "Inés"
    free = [f"DQ{k:02d}" for k in range(1, 24) if f"DQ{k:02d}" != common]
    hands = {"Inés": free[:4], "Tomás": free[4:8]}
    for k, cards in enumerate(hands.values()):
        for card in cards:
            sections.nth(k + 1).locator(f"label.card:has(input[value='{card}'])").tap()
    expected = service.score("duquesa", {"common": common,
                                         "players": [{"name": n, "hand": h} for n, h in hands.items()]})
    final = phone.locator(".winner.final")
    expect(final).to_contain_text(expected["winners"][0])
    settled(phone)
    florins = phone.locator("#result [data-florins]").evaluate_all("els => els.map(e => Number(e.dataset.florins))")
    assert florins == [p["florins"] for p in expected["players"]]
    shot(phone, "game-duquesa")
    phone.context.close()


def test_a_whole_queens_necklace_game_of_three_sales_from_setup_to_winner(server, browser):
    phone = fresh_phone(browser)
    dealt = set_the_table(phone, server[0], "queens-necklace", ["Alice", "Bob", "Chloé"])
    fashion = [phone.input_value(f"input[name='sales.0.fashion.{k}']:checked") for k in range(4)]
    assert fashion == list(dealt["fashion"]) if "fashion" in dealt else len(set(fashion)) == 4
    sales = [{"Alice": {"diamond": [3]}, "Bob": {"ruby": [2, 1]}, "Chloé": {"emerald": [2]}},
             {"Alice": {"amber": [1, 1]}, "Bob": {"diamond": [2]}, "Chloé": {"ruby": [3]}},
             {"Alice": {"emerald": [3, 1]}, "Bob": {"amber": [1]}, "Chloé": {"diamond": [1]}}]
    for s, shown in enumerate(sales):
        sale = phone.locator("details.pick").nth(s)
        if not sale.evaluate("d => d.open"):
            sale.locator("summary").first.tap()
        # the fashion is kept from the sale before: nothing to choose again
        assert [phone.input_value(f"input[name='sales.{s}.fashion.{k}']:checked") for k in range(4)] == fashion
        for i, gems in enumerate(shown.values()):
            for gem, cards in gems.items():
                for n in cards:
                    sale.locator(f"label:has(input[name='sales.{s}.players.{i}.shown.{gem}:ints']) .taps button",
                                 has_text=f"+{n}").tap()
    phone.locator(".go button[type=submit]").tap()
    expected = service.score("queens-necklace", {"sales": [
        {"fashion": fashion, "players": [{"name": name, "shown": gems} for name, gems in shown.items()]}
        for shown in sales]})
    assert expected["finished"]
    final = phone.locator(".winner.final")
    for name in expected["winners"]:
        expect(final).to_contain_text(name)
    settled(phone)
    totals = phone.locator("#result [data-total]").evaluate_all("els => els.map(e => Number(e.dataset.total))")
    assert totals == list(expected["totals"].values())
    shot(phone, "game-queens-necklace")
    phone.context.close()


def test_a_whole_duplicon_game_from_setup_to_winner(server, browser):
    phone = fresh_phone(browser)
    set_the_table(phone, server[0], "duplicon", ["Ana", "Bruno", "Carla"])
    assert [phone.locator("input[name='_names']").nth(k).input_value() for k in range(3)] == ["Ana", "Bruno", "Carla"]
    rounds = [(30, 22, 18), (26, 40, 20), (50, 20, 16)]  # Ana reaches the target (100) in round 3
    for r, points in enumerate(rounds):
        for k, won in enumerate(points):
            phone.fill(f"input[name='rounds.{r}.{k}.won:int']", str(won))
        phone.locator(".go button[type=submit]").tap()
        phone.locator(f"input[name='rounds.{r + 1}.0.won:int']").or_(phone.locator(".winner.final")).first.wait_for()
    expected = service.score("duplicon", {"rounds": [
        [{"name": n, "won": w, "hand": 0, "zone": 0} for n, w in zip(("Ana", "Bruno", "Carla"), points, strict=True)]
        for points in rounds]})
    assert expected["finished"]
    expect(phone.locator(".winner.final")).to_contain_text(expected["winners"][0])
    assert phone.locator(f"input[name='rounds.{len(rounds)}.0.won:int']").count() == 0  # no round after the end
    shot(phone, "game-duplicon")
    phone.context.close()
