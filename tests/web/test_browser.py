"""Real-browser tests on a phone viewport: Debian's chromium driven by Playwright (never a downloaded browser)."""

import pypdfium2 as pdfium
import zxingcpp

from companion import service
from companion.cli import main
from helpers.browser import PHONE, from_home, playwright_api, settled, shot, tap_card  # (skips without chromium)


def test_score_a_duquesa_hand_by_tapping_cards(server, phone):
    base = server[0]
    phone.goto(f"{base}/score/duquesa?_sets=rainbow")  # (a rainbow card below: the expansion is on)
    phone.fill("input[name='players.0.name']", "Ana")
    phone.fill("input[name='players.1.name']", "Bruno")
    tap_card(phone, 0, "DQ01")
    for card in ("DQ02", "DQ07", "DQ12", "DQ16"):
        tap_card(phone, 1, card)
    for card in ("DQ03", "DQ05", "DQ19", "DQ14"):
        tap_card(phone, 2, card)
    # a hand holds four: the fifth card can no longer be tapped
    assert phone.locator("details.pick").nth(1).locator("input[value='DQ08']").is_disabled()
    assert phone.locator("details.pick").nth(1).locator(".count").inner_text() == "4/4"
    # the answer is live: no Score button to press, the totals follow the last tap
    score = phone.locator("button[type=submit][data-not-live]")
    assert score.count() == 1 and score.is_hidden() and score.inner_text() == "Score the necklaces"
    settled(phone)
    phone.wait_for_selector("#result")
    expected = service.score("duquesa", {"common": "DQ01", "players": [
        {"name": "Ana", "hand": ["DQ02", "DQ07", "DQ12", "DQ16"]},
        {"name": "Bruno", "hand": ["DQ03", "DQ05", "DQ19", "DQ14"]}]})
    florins = phone.locator("[data-florins]").evaluate_all("els => els.map(e => Number(e.dataset.florins))")
    assert florins == [p["florins"] for p in expected["players"]]
    assert phone.locator(".winner").inner_text().startswith(f"{expected['winners'][0]} wins")
    shot(phone, "duquesa-score")


def test_run_a_queens_necklace_sale(server, phone):
    base = server[0]
    phone.goto(f"{base}/score/queens-necklace?_n=2")
    names = phone.locator("input[name='_names']")
    names.nth(0).fill("Alice")
    names.nth(1).fill("Bob")
    phone.fill("input[name='players.0.shown.diamond:ints']", "3 2")
    phone.fill("input[name='players.0.shown.amber:ints']", "1 1")
    phone.fill("input[name='players.1.shown.ruby:ints']", "2")
    phone.fill("input[name='players.1.shown.diamond:ints']", "1")
    # the answer is live: no Score button to press (Enter still sends the form)
    assert phone.locator("button[type=submit][data-not-live]").is_hidden()
    settled(phone)
    phone.wait_for_selector("#result")
    expected = service.score("queens-necklace", {"fashion": ["diamond", "emerald", "ruby", "amber"], "players": [
        {"name": "Alice", "shown": {"diamond": [3, 2], "amber": [1, 1]}},
        {"name": "Bob", "shown": {"ruby": [2], "diamond": [1]}}]})
    earned = phone.locator("[data-earned]").evaluate_all("els => els.map(e => Number(e.dataset.earned))")
    assert earned == [p["earned"] for p in expected["players"]]
    # the totals in the sticky bar under the thumb, followed as the cards are entered
    assert phone.locator(".go .totals").inner_text() == " · ".join(f"{p['name']} {p['earned']}"
                                                                    for p in expected["players"])
    assert phone.locator("table.sale th").count() == 5  # a label column and the four gem columns
    shot(phone, "queens-necklace-sale")


def test_open_a_card_page_from_its_printed_qr_code(server, phone, tmp_path):
    base = server[0]
    assert main(["build", "nobles", "--out", str(tmp_path), "--base-url", base]) == 0
    pdf = pdfium.PdfDocument(str(tmp_path / "nobles.pdf"))
    code = zxingcpp.read_barcodes(pdf[2].render(scale=200 / 72).to_pil())[0].text
    assert code.startswith("HTTP://127.0.0.1:")  # upper case: QR alphanumeric mode
    phone.goto(code)
    card_id = code.rsplit("/", 1)[1]
    assert card_id in phone.locator("h1").inner_text()
    assert phone.url.endswith(f"/c/nobles/{card_id}")
    shot(phone, "card-page")


def test_switch_language(server, phone):
    base = server[0]
    phone.goto(f"{base}/rules/duquesa")
    assert phone.locator("html").get_attribute("lang") == "en"  # the browser's language
    phone.get_by_role("link", name="ES", exact=True).tap()
    phone.wait_for_load_state()
    assert phone.locator("html").get_attribute("lang") == "es"
    assert "Deseos" in phone.locator("main").inner_text()
    phone.goto(f"{base}/score/gemas")  # remembered on the next page
    assert phone.locator("html").get_attribute("lang") == "es"
    assert phone.get_by_role("button", name="Puntuar").is_visible()
    shot(phone, "gemas-es")


def test_the_targets_a_thumb_aims_at_are_44_px(server, phone):
    """Issue 13: the player-count links were 9×16 px, the bar's links 26 px high, Edit/Undo 26 px, the language
    switch 37×28 px. Each is measured on a scoring page and on a sheet with an entry."""
    base = server[0]
    phone.goto(f"{base}/score/gemas?_n=3")
    targets = ".bar a, .bar strong, .tabs a, .seats button, .seats strong"
    phone.goto(f"{base}/sheets")
    phone.select_option("select[name=game]", "gemas")
    phone.fill("input[name='players.0']", "Ana")
    phone.fill("input[name='players.1']", "Bruno")
    phone.click("form[action$='/sheets'] button[type=submit]")
    phone.fill("input[name='points.0']", "3")
    phone.click("form[data-queue] button[type=submit]")
    phone.wait_for_selector("tbody[data-seq='1'] .act .icon-button")  # (the sheet's grid: a row's actions)
    small = []
    for url, selector in ((f"{base}/score/gemas?_n=3", targets), (phone.url, ".bar a, .bar strong, .entries .act a, "
                                                                             ".entries .act button")):
        phone.goto(url)
        boxes = phone.eval_on_selector_all(selector, "els => els.map((e) => { const r = e.getBoundingClientRect(); "
                                                     "return [e.textContent.trim(), r.width, r.height]; })")
        assert len(boxes) >= 5, (url, boxes)
        small += [(url, *b) for b in boxes if b[1] < 44 or b[2] < 44]
    shot(phone, "sheet-targets")
    assert not small, small


def test_adding_a_player_keeps_what_was_typed(server, phone):
    """Issue 13: the player-count links (`?_n=3`) wiped every typed name and score, a Duplicon round included."""
    phone.goto(f"{server[0]}/score/duplicon?_n=2")
    names = phone.locator("input[name='_names']")
    names.nth(0).fill("Ana")
    names.nth(1).fill("Bruno")
    phone.fill("input[name='rounds.0.0.won:int']", "12")
    phone.fill("input[name='rounds.0.1.won:int']", "8")
    phone.locator(".seats").get_by_role("button", name="3").tap()
    names.nth(2).wait_for()
    assert [names.nth(i).input_value() for i in range(3)] == ["Ana", "Bruno", "Player 3"]
    assert phone.input_value("input[name='rounds.0.0.won:int']") == "12"
    assert phone.input_value("input[name='rounds.0.1.won:int']") == "8"
    assert phone.locator(".problems").count() == 0  # still being filled: no complaint
    phone.press("input[name='rounds.0.2.won:int']", "Enter")  # the keyboard's Enter scores, it adds no player
    phone.wait_for_selector("#result")
    settled(phone)
    assert phone.locator("#result th").all_inner_texts()[1:] == ["Ana", "Bruno", "Player 3"]


def test_names_typed_once_fill_every_page(server, phone):
    """Issue 13: names were typed on every page, and headings did not follow them as they were typed."""
    base = server[0]
    phone.goto(f"{base}/score/duquesa")
    phone.fill("input[name='players.0.name']", "Ana")
    assert phone.locator("details.pick summary").nth(1).inner_text().startswith("Hand of Ana")  # as it is typed
    phone.fill("input[name='players.1.name']", "Bruno")
    phone.goto(f"{base}/score/duplicon?_n=3")
    names = phone.locator("input[name='_names']")
    assert [names.nth(i).input_value() for i in range(3)] == ["Ana", "Bruno", "Player 3"]
    assert phone.locator(".who").first.inner_text() == "Ana"
    names.nth(2).fill("Carla")
    phone.goto(f"{base}/score/gemas?_n=3&_turns=1")  # (its turn tracker: Who and Against)
    assert [phone.input_value(f"input[name='players.{i}.name']") for i in range(3)] == ["Ana", "Bruno", "Carla"]
    assert (phone.locator("#turn label.tap:has(input[name='lay_down.player']) [data-seat]").all_inner_texts()
            == ["Ana", "Bruno", "Carla"])
    phone.goto(f"{base}/setup/queens-necklace?players=3&seed=s")
    assert [phone.locator("input[name='_names']").nth(i).input_value() for i in range(3)] == ["Ana", "Bruno", "Carla"]
    # the count changed: the name fields follow at once, before the form is sent (issue 30)
    phone.select_option("select[name=players]", "4")
    assert phone.locator("input[name='_names']").evaluate_all("els => els.map(e => e.value)") == [
        "Ana", "Bruno", "Carla", "Player 4"]
    assert phone.locator("label:has(input[data-name-of='3']) span").inner_text() == "Player 4"
    phone.locator("input[data-name-of='3']").fill("Dani")
    phone.select_option("select[name=players]", "2")
    assert phone.locator("input[name='_names']").count() == 2
    phone.select_option("select[name=players]", "4")  # Dani was kept on this phone for the fourth seat
    assert phone.locator("input[data-name-of='3']").input_value() == "Dani"
    # names carried in the address (a setup's link, a sheet's calculator) win over the phone's
    phone.goto(f"{base}/score/duplicon?_n=2&_names=Zoe&_names=Yago")
    assert [names.nth(i).input_value() for i in range(2)] == ["Zoe", "Yago"]


def test_a_two_player_duquesa_game_in_ten_taps_from_the_home_page(server, phone):
    """Issue 13: 13 taps and 1,140 px of scrolling for a two-player game. With the names known, the home page's
    link, the common card and eight cards are the ten taps: totals and the winner follow each tap, full sections
    close and the next opens, and a card taken is greyed elsewhere."""
    base = server[0]
    tap = from_home(phone, base, "duquesa", ["Ana", "Bruno"])
    sections = phone.locator("details.pick")
    tap(sections.nth(0).locator("label.card:has(input[value='DQ01'])"))
    playwright_api.expect(sections.nth(0)).not_to_have_attribute("open", "")  # the common card is chosen: closed
    assert sections.nth(1).evaluate("d => d.open") and sections.nth(1).locator("input[value='DQ01']").is_disabled()
    hands = {"Ana": ["DQ02", "DQ07", "DQ12", "DQ16"], "Bruno": ["DQ03", "DQ05", "DQ18", "DQ14"]}
    for k, cards in enumerate(hands.values()):
        for card in cards:
            tap(sections.nth(k + 1).locator(f"label.card:has(input[value='{card}'])"))
    expected = service.score("duquesa", {"common": "DQ01", "players": [
        {"name": name, "hand": cards} for name, cards in hands.items()]})
    settled(phone)
    phone.locator("#result [data-florins]").nth(1).wait_for()
    florins = phone.locator("#result [data-florins]").evaluate_all("els => els.map(e => Number(e.dataset.florins))")
    assert florins == [p["florins"] for p in expected["players"]] and tap.count == 10
    assert phone.locator(".go output.live").inner_text() == f"{expected['winners'][0]} wins"
    top = phone.locator("#result .winner.final").bounding_box()["y"]  # after the last tap: the winner in view
    assert 0 <= top < PHONE["viewport"]["height"] / 2, top
    assert "players.1.hand%3Alist=DQ14" in phone.url  # a reload or a shared link keeps the game
    shot(phone, "duquesa-live")


def test_a_queens_necklace_sale_in_twelve_taps_or_fewer(server, phone):
    """Issue 13: 17 taps and 24 keystrokes for one sale ('3 2' typed with a space the iPhone number pad lacks). With
    the names known, a tap per card shown: the home page's link and six cards are seven taps, and the totals follow."""
    base = server[0]
    tap = from_home(phone, base, "queens-necklace", ["Alice", "Bob"])
    shown = {"Alice": {"diamond": [3, 2], "amber": [1, 1]}, "Bob": {"ruby": [2], "diamond": [1]}}
    for i, gems in enumerate(shown.values()):
        for gem, cards in gems.items():
            for n in cards:
                tap(phone.locator(f".txt:has(input[name='players.{i}.shown.{gem}:ints']) .taps button",
                                  has_text=f"+{n}"))
    seats = phone.locator("input[name='_names']").count()  # the game's default; nobody else showed a card
    rest = [{"name": f"Player {k + 1}", "shown": {}} for k in range(len(shown), seats)]
    expected = service.score("queens-necklace", {"fashion": ["diamond", "emerald", "ruby", "amber"], "players": [
        *({"name": name, "shown": gems} for name, gems in shown.items()), *rest]})
    settled(phone)
    phone.locator("#result [data-earned]").nth(1).wait_for()
    earned = phone.locator("#result [data-earned]").evaluate_all("els => els.map(e => Number(e.dataset.earned))")
    assert earned == [p["earned"] for p in expected["players"]] and tap.count == 7
    assert phone.input_value("input[name='players.0.shown.diamond:ints']") == "3 2"
    phone.locator("input[name='players.0.shown.diamond:ints'] + button").tap()  # the last card back
    assert phone.input_value("input[name='players.0.shown.diamond:ints']") == "3"
    shot(phone, "queens-necklace-taps")


def test_duplicon_ends_at_its_target_with_a_big_winner(server, phone):
    """Issue 13: Duplicon ends at its target with a winner screen: rounds entered live until someone reaches it,
    then the winner is said big, and no further round is offered."""
    phone.goto(f"{server[0]}/score/duplicon?_n=2&_names=Ana&_names=Bruno")
    rounds = [(48, 10), (56, 12)]  # Ana reaches the target (100) in round 2
    for r, (ana, bruno) in enumerate(rounds):
        phone.fill(f"input[name='rounds.{r}.0.won:int']", str(ana))
        phone.fill(f"input[name='rounds.{r}.1.won:int']", str(bruno))
        phone.locator(".go button[type=submit]").tap()
        phone.locator(f"input[name='rounds.{r + 1}.0.won:int']").or_(phone.locator(".winner.final")).first.wait_for()
    expected = service.score("duplicon", {"rounds": [[{"name": "Ana", "won": a, "hand": 0, "zone": 0},
                                                      {"name": "Bruno", "won": b, "hand": 0, "zone": 0}]
                                                     for a, b in rounds]})
    assert expected["finished"] and expected["winners"] == ["Ana"]
    final = phone.locator(".winner.final")
    assert "Ana" in final.inner_text() and final.bounding_box()["height"] > 80
    assert phone.locator("input[name='rounds.2.0.won:int']").count() == 0
    shot(phone, "duplicon-winner")


def test_an_empty_fields_hint_is_clearly_lighter_than_a_value(server, phone):
    """Issue 30: a Queen's Necklace field's placeholder read 117 against a value's 93 (grey levels): a hint looked
    like something typed. Amber cards hold one gem each: its hint says 1, not "3 2 1"."""
    phone.goto(f"{server[0]}/score/queens-necklace")
    field = phone.locator("input[name='players.0.shown.diamond:ints']")

    def grey(colour: str) -> float:
        r, g, b = (float(v) for v in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hint = field.evaluate("e => getComputedStyle(e, '::placeholder').color")
    value = field.evaluate("e => getComputedStyle(e).color")
    assert grey(hint) - grey(value) >= 100, (hint, value)
    assert phone.locator("input[name='players.0.shown.amber:ints']").get_attribute("placeholder") == "1"
    assert field.get_attribute("placeholder") == "3 2 1"
