"""Nobles en duelo on a phone (issue 13, build 4): a whole game at court from the setup page (names typed once)
through duels in which the players take turns to attack, every noble of both courts tracked, to the winner said
big; and the duel form read top to bottom in the rulebook's order (dice, announce, attacker's card, defender's)."""
from urllib.parse import parse_qs, urlparse

from companion import service
from test_browser import PHONE, playwright_api, settled, shot  # (and skips this module without playwright or chromium)

expect = playwright_api.expect

COURTS = {"Inés": [("king", "spades", "3"), ("jack", "hearts", ""), ("queen", "clubs", "2")],
          "Tomás": [("queen", "hearts", ""), ("jack", "diamonds", "3"), ("jack", "spades", "")]}


def fresh_phone(browser, **more):
    return browser.new_context(**PHONE, locale="en-GB", **more).new_page()


def from_setup(phone, base: str, names: list[str]) -> dict:
    """The setup page: each name typed once, Deal, then Play opens the scoring page; the setup's answer."""
    phone.goto(f"{base}/setup/nobles")
    fields = phone.locator("input[name='_names']")
    for k, name in enumerate(names):
        fields.nth(k).fill(name)
    phone.locator(".go button[type=submit]").tap()
    phone.locator("#result").wait_for()
    dealt = service.setup("nobles", "2", parse_qs(urlparse(phone.url).query)["seed"][0], {})
    phone.get_by_role("link", name="Play: open the scoring").tap()
    phone.wait_for_url("**/score/nobles**")
    return dealt


def type_courts(phone):
    for seat, nobles in enumerate(COURTS.values()):
        for k, (kind, suit, weapon) in enumerate(nobles):
            at = f"courts.{seat}.nobles.{k}."
            phone.select_option(f"select[name='{at}noble']", kind)
            phone.select_option(f"select[name='{at}suit']", suit)
            if weapon:
                phone.select_option(f"select[name='{at}weapon:int']", weapon)
    phone.get_by_role("button", name="Start the duels").tap()
    phone.wait_for_url("**courts.1.nobles.2.noble=jack**")


def as_request(nobles):
    return [{"noble": kind, "suit": suit, **({"weapon": int(weapon)} if weapon else {})}
            for kind, suit, weapon in nobles]


def dice_for(kind: str, value: int) -> list[int]:
    return [value] * (2 if kind == "king" else 1)


def tapped_dice(phone, side: str) -> list[int]:
    return [int(v) for v in phone.locator(f"#dice-faces input[name^='{side}.dice.']:checked").evaluate_all(
        "els => els.map(e => e.value)")]


def test_a_whole_nobles_game_at_court_from_setup_to_winner(server, browser):
    phone = fresh_phone(browser)
    names = list(COURTS)
    dealt = from_setup(phone, server[0], names)
    # the names typed once at the setup came along, and so did who attacks first
    assert phone.locator("input[name='_names']").evaluate_all("els => els.map(e => e.value)") == names
    assert phone.input_value("select[name='turn:int']") == str(dealt["first_player"])
    type_courts(phone)
    courts = [{"name": name, "nobles": as_request(nobles)} for name, nobles in COURTS.items()]
    turn, duels = dealt["first_player"], 0
    while True:
        duels += 1
        attacker, defender = names[turn], names[1 - turn]
        expect(phone.locator("#who legend")).to_have_text(f"1 · {attacker} attacks")
        # the attacker's noble comes from the attacker's court, the target from the other one
        options = phone.locator("select[name='attacker.at:int'] option").all_inner_texts()
        assert len(options) == len(courts[turn]["nobles"]), (duels, options)
        kinds = [n["noble"] for n in courts[turn]["nobles"]], [n["noble"] for n in courts[1 - turn]["nobles"]]
        pick = len(kinds[0]) - 1  # the last noble attacks the first: both pickers are used
        phone.select_option("select[name='attacker.at:int']", str(pick))
        a_dice, d_dice = dice_for(kinds[0][pick], 2), dice_for(kinds[1][0], 3)
        # a row of six faces for each die the picked nobles roll (a v1 king two), following the noble picked
        expect(phone.locator("#dice-faces fieldset.dice")).to_have_count(len(a_dice) + len(d_dice))
        if duels == 1:  # the phone rolls: the dice come back picked in the form, and are announced
            phone.get_by_role("button", name="Roll blank dice here").tap()
            phone.locator("#result").wait_for()
            a_dice, d_dice = tapped_dice(phone, "attacker"), tapped_dice(phone, "defender")
            assert len(a_dice) == len(dice_for(kinds[0][pick], 1)) and len(d_dice) == len(dice_for(kinds[1][0], 1))
        else:  # one tap a die
            for side, dice in (("attacker", a_dice), ("defender", d_dice)):
                for k, face in enumerate(dice):
                    phone.locator(f"label.tap:has(input[name='{side}.dice.{k}:int'][value='{face}'])").tap()
            assert tapped_dice(phone, "attacker") == a_dice and tapped_dice(phone, "defender") == d_dice
        expect(phone.locator("#announced [data-announced]")).to_have_count(2)  # redrawn live between dice and cards
        # the attacker plays an ace (a critical hit: the duel is won whatever the strengths)
        phone.fill("input[name='attacker.cards.0.rank:int']", "1")
        phone.select_option("select[name='attacker.cards.0.suit']", "hearts")
        phone.locator(".go button[type=submit]").tap()
        phone.wait_for_url("**_roll=1**")
        expected = service.score("nobles", {"courts": courts, "turn": turn,
                                            "attacker": {"at": pick, "dice": a_dice,
                                                         "cards": [{"rank": 1, "suit": "hearts"}]},
                                            "defender": {"at": 0, "dice": d_dice}})
        expect(phone.locator("#result [data-winner]")).to_have_attribute("data-winner", "attacker")
        settled(phone)
        shown = phone.locator("#result [data-strength]").evaluate_all("els => els.map(e => Number(e.dataset.strength))")
        assert shown == [expected["attacker"]["total"], expected["defender"]["total"]]
        # both courts after the duel, as the rules keep them: each noble's wounds, the fallen struck out
        for seat in (0, 1):
            court = phone.locator("#result .court").nth(seat)
            wounds = court.locator("li.noble:not(.fallen)").evaluate_all(
                "els => els.map(e => Number(e.dataset.wounds))")
            assert wounds == [n.get("wounds", 0) for n in expected["courts"][seat]["nobles"]], (duels, seat)
            expect(court.locator("li.fallen")).to_have_count(len(expected["courts"][seat]["fallen"]))
        courts = [{k: v for k, v in c.items()} for c in expected["courts"]]
        if expected["finished"]:
            break
        if duels == 3:
            shot(phone, "nobles-duel")
        next_duel = phone.locator("[data-next-duel]")
        expect(next_duel).to_have_text(f"Next duel: {defender} attacks")  # the roles swap
        next_duel.tap()
        phone.wait_for_url("**turn%3Aint=*")
        expect(phone.locator("#result")).to_have_count(0)  # a new duel, nobody rolled yet
        turn = 1 - turn
    final = phone.locator(".winner.final")
    winner = names[expected["champion"]]
    expect(final).to_contain_text(f"{winner} wins")
    expect(phone.locator("[data-next-duel]")).to_have_count(0)
    expect(phone.locator("form.nobles-court")).to_have_count(0)  # no duel form once the game is over
    loser_court = phone.locator("#result .court").nth(1 - expected["champion"])
    expect(loser_court.locator("li.noble:not(.fallen)")).to_have_count(0)
    expect(loser_court.locator("li.fallen")).to_have_count(3)
    # every attack wins: Tomás's court, with 6 wounds to give (Inés's has 7), falls on his 6th defence
    assert winner == "Inés" and duels == (11 if dealt["first_player"] == 0 else 12)
    resources = phone.locator("#result .court p").all_inner_texts()
    assert f"{winner} · 6 resources" in resources  # a resource for each duel won
    shot(phone, "nobles-winner")
    phone.context.close()


def test_the_duel_form_reads_dice_announce_attacker_card_defender_card(server, browser):
    """Top to bottom as the table plays it, at court and in the one-duel calculator (element positions)."""
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
                expect(phone.locator("#attacker-cards legend")).to_have_text("4 · Bea’s number card")
                expect(phone.locator("#defender-cards legend")).to_have_text("5 · Ana’s number card")
                # one row of faces a die: Bea's Queen rolls one, Ana's v1 King two; one tap a die
                expect(phone.locator("#dice-faces fieldset.dice legend")).to_have_text(
                    ["Bea", "Ana · die 1 of 2", "Ana · die 2 of 2"])
                for name, face in (("attacker.dice.0:int", 4), ("defender.dice.0:int", 2), ("defender.dice.1:int", 2)):
                    phone.locator(f"label.tap:has(input[name='{name}'][value='{face}'])").tap()
                said = phone.locator("#announced [data-announced]")
                expect(said).to_have_count(2)
                assert said.evaluate_all("els => els.map(e => Number(e.dataset.announced))") == [12 + 4, 13 + 4]
                # a second number card only for a noble that plays two (a v1 Jack): neither here
                expect(phone.locator("input[name$='.cards.1.rank:int']")).to_have_count(0)
            else:  # the calculator: the rows follow the nobles picked, redrawn as they change
                expect(phone.locator("#dice-faces fieldset.dice")).to_have_count(2)
                phone.select_option("select[name='attacker.noble']", "king")
                phone.select_option("select[name='attacker.version:int']", "1")
                expect(phone.locator("#dice-faces fieldset.dice")).to_have_count(3)
                phone.select_option("select[name='defender.noble']", "jack")
                expect(phone.locator("input[name='defender.cards.1.rank:int']")).to_have_count(1)
                expect(phone.locator("input[name='attacker.cards.1.rank:int']")).to_have_count(0)
            shot(phone, f"nobles-order-{'court' if query == court else 'duel'}-{'dark' if dark else 'light'}")
        phone.context.close()
