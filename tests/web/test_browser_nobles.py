"""Nobles en duelo on a phone (issue 13, build 4; issue 30: faster than paper): a whole game at court from the setup
page (names typed once, each court tapped from the deal) through duels in which the players take turns to attack,
every noble of both courts tracked, to the winner said big, with every tap and key counted and held under the
issue's ceilings; the duel form read top to bottom in the rulebook's order (dice, announce, attacker's card,
defender's); and no chip's words cut off on a narrow phone in either language."""
from urllib.parse import parse_qs, urlparse

from companion import service
from companion.games.nobles import WOUNDS
from helpers.browser import PHONE, Counted, playwright_api, settled, shot  # (and skips this module without chromium)

expect = playwright_api.expect

# Issue 30's ceilings (174 taps and 33 keys measured before: 26 taps to type the courts by 13 dropdowns)
COURT_TAPS, DUEL_TAPS, GAME_TAPS, DUELS = 8, 6, 80, 12


def fresh_phone(browser, **more):
    return browser.new_context(**PHONE, locale="en-GB", **more).new_page()


def from_setup(phone, base: str, names: list[str], counted: Counted) -> dict:
    """The setup page: each name typed once, Deal, then Play opens the scoring page; the setup's answer."""
    phone.goto(f"{base}/setup/nobles")
    fields = phone.locator("input[name='_names']")
    for k, name in enumerate(names):
        counted.type(fields.nth(k), name)
    phone.locator(".go button[type=submit]").tap()
    phone.locator("#result").wait_for()
    dealt = service.setup("nobles", "2", parse_qs(urlparse(phone.url).query)["seed"][0], {})
    phone.get_by_role("link", name="Play: open the scoring").tap()
    phone.wait_for_url("**/score/nobles**")
    return dealt


def noble_of(card_id: str) -> dict:
    """NB-KC: the King of clubs."""
    kind = {"J": "jack", "Q": "queen", "K": "king"}[card_id[3]]
    return {"noble": kind, "suit": {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}[card_id[4]]}


def chip_of(noble: dict) -> str:
    return f"{noble['noble']}:{noble['suit']}"


def tap_chip(phone, name: str, value) -> None:
    phone.locator(f"label.tap:has(input[name='{name}'][value='{value}'])").tap()


def test_a_whole_nobles_game_at_court_from_setup_to_winner(server, browser):
    """Twelve duels, each court tapped from the deal, every tap and key counted as a player makes them. Each player
    keeps the three dealt nobles that take most wounds (kings first), so that both courts together take at least 13
    wounds and the game can run to its twelfth duel: the first duels wound the later winner's nobles, the last ones
    the loser's, whose last noble falls on the twelfth. The duel's winner plays an ace (one chip), the dice are
    tapped as they show (a v1 King's two by their total), and each answer is the rules' own."""
    phone = fresh_phone(browser)
    counted = Counted(phone)
    names = ["Inés", "Tomás"]
    dealt = from_setup(phone, server[0], names, counted)
    setup_taps = counted.now()[0]
    assert setup_taps == len(names) + 2  # a name field each, Deal and Play
    # the names, who attacks first and the deal came along: one chip a dealt noble, none kept yet
    assert phone.locator("input[name='_names']").evaluate_all("els => els.map(e => e.value)") == names
    expect(phone.locator(f"input[name='turn:int'][value='{dealt['first_player']}']")).to_be_checked()
    deal = [[noble_of(c) for c in ids] for ids in dealt["nobles_dealt"]]
    for seat in (0, 1):
        shown = phone.locator(f"input[name='_keep{seat}']").evaluate_all("els => els.map(e => e.value)")
        assert shown == [chip_of(n) for n in deal[seat]]
    shot(phone, "nobles-courts-from-the-deal")
    kept = [sorted(nobles, key=lambda n: -WOUNDS[n["noble"]])[:3] for nobles in deal]
    court_taps = []
    for seat in (0, 1):
        before = counted.now()[0]
        for noble in kept[seat]:
            tap_chip(phone, f"_keep{seat}", chip_of(noble))
        court_taps.append(counted.now()[0] - before)
    before = counted.now()[0]
    phone.get_by_role("button", name="Start the duels").tap()
    court_taps[-1] += counted.now()[0] - before
    assert max(court_taps) <= COURT_TAPS, court_taps
    expect(phone.locator("#who > legend")).to_have_text(f"1 · {names[dealt['first_player']]} attacks")
    # what each court took in the order the deal showed them (the rules keep a court's order)
    order = [[n for n in deal[seat] if n in kept[seat]] for seat in (0, 1)]
    courts = [{"name": name, "nobles": order[seat]} for seat, name in enumerate(names)]
    wounds = [sum(WOUNDS[n["noble"]] for n in court["nobles"]) for court in courts]
    loser = 0 if wounds[0] <= wounds[1] else 1  # the court that falls; the other takes 12 - its wounds first
    assert sum(wounds) >= DUELS + 1, wounds
    turn, duels, duel_taps, expected = dealt["first_player"], 0, [], None
    while True:
        duels += 1
        before = counted.now()[0]
        attacker, defender = names[turn], names[1 - turn]
        expect(phone.locator("#who > legend")).to_have_text(f"1 · {attacker} attacks")
        mine, theirs = courts[turn]["nobles"], courts[1 - turn]["nobles"]
        assert phone.locator("input[name='attacker.at:int']").count() == len(mine)
        assert phone.locator("input[name='defender.at:int']").count() == len(theirs)
        pick, target = len(mine) - 1, (1 if duels == 2 and len(theirs) > 1 else 0)  # both pickers are used
        if pick:
            tap_chip(phone, "attacker.at:int", pick)
        if target:
            tap_chip(phone, "defender.at:int", target)
        settled(phone)  # the dice rows follow the nobles picked: a v1 King's dice by their total
        dice = {}
        for side, noble in (("attacker", mine[pick]), ("defender", theirs[target])):
            face = 1 + (duels + (side == "defender")) % 6
            if noble["noble"] == "king":  # (the page gives a total of 7 as 4 and 3: the rules only add them)
                dice[side] = [(face + 2) // 2, (face + 1) // 2]
                tap_chip(phone, f"{side}.dice.total:int", face + 1)
            else:
                dice[side] = [face]
                tap_chip(phone, f"{side}.dice.0:int", face)
        # the loser's court takes the last wounds: until then its nobles win their duels
        wins = "attacker" if (turn == loser) == (duels <= DUELS - wounds[loser]) else "defender"
        tap_chip(phone, f"{wins}.cards.0.rank:int", 1)  # an ace: a critical hit wins the duel
        settled(phone)
        request = {"courts": courts, "turn": turn, "attacker": {"at": pick, "dice": dice["attacker"]},
                   "defender": {"at": target, "dice": dice["defender"]}}
        request[wins]["cards"] = [{"rank": 1}]
        expected = service.score("nobles", request)
        expect(phone.locator("#result [data-winner]")).to_have_attribute("data-winner", wins)
        shown = phone.locator("#result [data-strength]").evaluate_all("els => els.map(e => Number(e.dataset.strength))")
        assert shown == [expected["attacker"]["total"], expected["defender"]["total"]], duels
        announced = phone.locator("#announced [data-announced]").evaluate_all(
            "els => els.map(e => Number(e.dataset.announced))")
        assert announced == [expected[s]["total"] - expected[s]["parts"]["cards"] for s in ("attacker", "defender")]
        # both courts after the duel, as the rules keep them: each noble's wounds, the fallen struck out
        for seat in (0, 1):
            court = phone.locator("#result .court").nth(seat)
            assert court.locator("li.noble:not(.fallen)").evaluate_all(
                "els => els.map(e => Number(e.dataset.wounds))") == [
                    n.get("wounds", 0) for n in expected["courts"][seat]["nobles"]], (duels, seat)
            expect(court.locator("li.fallen")).to_have_count(len(expected["courts"][seat]["fallen"]))
        courts = expected["courts"]
        if expected["finished"]:
            duel_taps.append(counted.now()[0] - before)
            break
        if duels == 3:
            shot(phone, "nobles-duel")
        next_duel = phone.locator("[data-next-duel]")
        expect(next_duel).to_have_text(f"Next duel: {defender} attacks")  # the roles swap
        next_duel.tap()
        phone.wait_for_url("**turn%3Aint=*")
        expect(phone.locator("#result")).to_have_count(0)  # a new duel, nobody rolled yet
        duel_taps.append(counted.now()[0] - before)
        turn = 1 - turn
    final = phone.locator(".winner.final")
    expect(final).to_contain_text(f"{names[1 - loser]} wins: {names[loser]} has no noble left")
    assert expected["champion"] == 1 - loser and duels == DUELS
    expect(phone.locator("[data-next-duel]")).to_have_count(0)
    loser_court = phone.locator("#result .court").nth(loser)
    expect(loser_court.locator("li.noble:not(.fallen)")).to_have_count(0)
    expect(loser_court.locator("li.fallen")).to_have_count(3)
    # resources are the table's counters: the page says who takes one, and keeps no count of its own
    expect(phone.locator("#result .court p")).to_have_text(names)
    expect(phone.locator("#result li.met")).to_contain_text(f"{names[1 - loser]}: +1 resource")
    taps, keys = counted.now()
    assert max(duel_taps) <= DUEL_TAPS, duel_taps
    assert taps == setup_taps + sum(court_taps) + sum(duel_taps) and taps <= GAME_TAPS, (taps, court_taps, duel_taps)
    assert keys == sum(map(len, names))
    print(f"nobles: {taps} taps + {keys} keys (courts {court_taps}, duels {duel_taps})")
    shot(phone, "nobles-winner")
    phone.context.close()


def test_the_duel_form_reads_dice_announce_attacker_card_defender_card(server, browser):
    """Top to bottom as the table plays it, at court and in the one-duel calculator (element positions); a number
    card by two chips, its rank and, when it gives the bonus, its suit (the noble's suit says +2)."""
    base = server[0]
    court = ("_names=Ana&_names=Bea&turn%3Aint=1&courts.0.nobles.0.noble=king&courts.0.nobles.0.suit=spades"
             "&courts.1.nobles.0.noble=queen&courts.1.nobles.0.suit=hearts")
    for dark in (False, True):
        phone = fresh_phone(browser, color_scheme="dark" if dark else "light")
        for query in (court, "_mode=duel"):
            phone.goto(f"{base}/score/nobles?{query}")
            steps = ["#who", "#dice", "#announce", "#attacker-cards", "#defender-cards"]
            tops = [phone.locator(s).bounding_box()["y"] for s in steps]
            assert tops == sorted(tops) and len(set(tops)) == len(tops), (query, tops)
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390
            if query == court:  # Bea attacks: her Queen from her court, against Ana's King
                expect(phone.locator("#attacker-cards legend").first).to_have_text("4 · Bea’s number card")
                expect(phone.locator("#defender-cards legend").first).to_have_text("5 · Ana’s number card")
                # a row of faces for Bea's Queen's die, one of totals for Ana's v1 King's two: one tap each
                expect(phone.locator("#dice-faces fieldset.dice legend")).to_have_text(
                    ["Bea", "Ana · total of 2 dice"])
                tap_chip(phone, "attacker.dice.0:int", 4)
                tap_chip(phone, "defender.dice.total:int", 4)
                said = phone.locator("#announced [data-announced]")
                expect(said).to_have_count(2)
                assert said.evaluate_all("els => els.map(e => Number(e.dataset.announced))") == [12 + 4, 13 + 4]
                # a second number card only for a noble that plays two (a v1 Jack): neither here
                expect(phone.locator("input[name$='.cards.1.rank:int']")).to_have_count(0)
                # Bea's 7 of hearts, her Queen's suit: +2 (its chip says so); Ana's 9 of another suit: no bonus
                expect(phone.locator("#attacker-card-rows label.tap:has(input[value='hearts'])")).to_have_text(
                    "Hearts +2")
                tap_chip(phone, "attacker.cards.0.rank:int", 7)
                tap_chip(phone, "attacker.cards.0.suit", "hearts")
                tap_chip(phone, "defender.cards.0.rank:int", 9)
                settled(phone)
                strengths = phone.locator("#result [data-strength]").evaluate_all(
                    "els => els.map(e => Number(e.dataset.strength))")
                assert strengths == [12 + 4 + 7 + 2, 13 + 4 + 9]
                expect(phone.locator("#result [data-winner]")).to_have_attribute("data-winner", "defender")
            else:  # the calculator: the rows follow the nobles picked, redrawn as they change
                expect(phone.locator("#dice-faces fieldset.dice")).to_have_count(2)
                phone.select_option("select[name='attacker.noble']", "king")
                phone.select_option("select[name='attacker.version:int']", "1")
                expect(phone.locator("input[name='attacker.dice.total:int']")).to_have_count(11)
                phone.select_option("select[name='defender.noble']", "jack")
                expect(phone.locator("input[name='defender.cards.1.rank:int']")).to_have_count(11)
                expect(phone.locator("input[name='attacker.cards.1.rank:int']")).to_have_count(0)
            shot(phone, f"nobles-order-{'court' if query == court else 'duel'}-{'dark' if dark else 'light'}")
        phone.context.close()


# every chip of a full court page: six nobles a court with weapons and wounds, a v1 Jack's two cards
FULL = ("_names=Maximiliano&_names=Guadalupe&turn%3Aint=0"
        + "".join(f"&courts.{seat}.nobles.{k}.noble={kind}&courts.{seat}.nobles.{k}.suit={suit}"
                  f"&courts.{seat}.nobles.{k}.weapon%3Aint={weapon}&courts.{seat}.nobles.{k}.wounds%3Aint={wounds}"
                  for seat in (0, 1)
                  for k, (kind, suit, weapon, wounds) in enumerate([
                      ("king", "diamonds", 3, 2), ("queen", "diamonds", 2, 1), ("jack", "diamonds", 3, 1),
                      ("king", "clubs", 2, 0), ("queen", "spades", 3, 1), ("jack", "hearts", 2, 1)]))
        + "&attacker.at%3Aint=2&attacker.dice.0%3Aint=3")
FITS = """() => [...document.querySelectorAll('.tap > span')].filter((e) => e.offsetParent)
  .map((e) => [e.textContent.trim(), e.scrollWidth - e.clientWidth, e.getBoundingClientRect().height])"""


def test_no_chip_is_cut_off_or_broken_on_a_narrow_phone(server, browser):
    """Issue 30: "King · Diamonc" was cut off in a dropdown. Every chip of the court pages (the deal to keep, the
    grid of nobles, the pickers, dice and cards) holds its words whole on one line at 320 and 390 px wide, in
    Spanish and in English, and nothing scrolls sideways."""
    base = server[0]
    deal = "&".join(f"_deal{seat}={kind}" for seat in (0, 1)
                    for kind in ("king:diamonds", "queen:diamonds", "jack:hearts", "queen:spades", "king:clubs",
                                 "jack:diamonds"))
    pages = [f"_names=Maximiliano&_names=Guadalupe&{deal}", "_names=Maximiliano&_names=Guadalupe", FULL]
    for width in (320, 390):
        for lang in ("es", "en"):
            phone = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 844}}).new_page()
            for query in pages:
                phone.goto(f"{base}/score/nobles?{query}&lang={lang}")
                chips = phone.evaluate(FITS)
                assert len(chips) >= 14, (query, len(chips))  # (the deal: 2 who-attacks-first, 12 nobles)
                cut = [c for c in chips if c[1] > 0 or c[2] > 50]
                assert not cut, (width, lang, query[:40], cut)
                assert phone.evaluate("document.documentElement.scrollWidth") <= width, (width, lang, query[:40])
                if width == 320 and query == FULL:
                    shot(phone, f"nobles-chips-320-{lang}")
            phone.context.close()
