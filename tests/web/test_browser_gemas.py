"""Gemas on a phone (issues 13 and 30): the end of a whole game tallied in a few taps (names typed once on the setup
page, each player's gems by chips, who ran out of band-aids with no heart left), with the winner the rules compute;
the turn tracker, opened from the tally with every value kept, plays turns where one tap scores a set laid down and
opens the next; live scoring asks nothing while a set is half tapped in; and Duplicon's steppers. Each answer is
checked against the rules' own scoring of the same table."""
from urllib.parse import parse_qsl, urlparse

from companion import service
from helpers.browser import (  # (and skips this module without playwright or chromium)
    PHONE,
    fresh_phone,
    gemas_table_shown,
    playwright_api,
    set_the_table,
    settled,
    shot,
)

expect = playwright_api.expect
NAMES = ["Inés", "Tomás", "Lucía"]


def stepper(phone, field: str, step: str):
    """The − or + button of a field's stepper (whatever its step)."""
    return phone.locator(f".steps:has(input[name='{field}']) button[data-step]").nth(0 if step == "-" else 1)


def chip(phone, field: str, value: str):
    """The chip that picks `value` for `field` in one tap."""
    return phone.locator(f"label.tap:has(input[name='{field}'][value='{value}'])")


def answers(phone) -> list[int]:
    """The statuses of the scoring pages this phone asks for from now on (live scoring's requests included)."""
    seen: list[int] = []
    phone.on("response", lambda r: seen.append(r.status) if "/score/gemas?" in r.url else None)
    return seen


def test_the_end_of_a_whole_game_tallied_in_seven_taps_with_the_rules_winner(server, browser):
    """Three players; Tomás, heartless, has just lost his last band-aid (his gems went back to the reserve). The
    table shows each player's gems: a tap a colour held, and one for who ran out."""
    phone = fresh_phone(browser)
    set_the_table(phone, server[0], "gemas", NAMES)  # names typed once, on the setup page
    assert [phone.input_value(f"input[name='players.{i}.name']") for i in range(3)] == NAMES
    assert phone.locator("input[name='lay_down.set']").count() == 0  # the tally, not the tracker
    statuses = answers(phone)
    held = {"Inés": {"green": 1, "blue": 2, "orange": 3}, "Tomás": {}, "Lucía": {"green": 2, "violet": 3, "orange": 2}}
    taps = 0
    for i, name in enumerate(NAMES):
        for colour, count in held[name].items():
            chip(phone, f"players.{i}.gems.{colour}:int", str(count)).tap()
            taps += 1
    expect(phone.locator("#result.live-result")).to_contain_text("Leading: Lucía")  # points follow each tap
    chip(phone, "ended_by", "#1").tap()  # Tomás ran out: the game is over
    taps += 1
    assert taps <= 10
    request = {"players": [{"name": n, "gems": held[n]} for n in NAMES]}
    request["players"][1].update(bandaids=0, heart=False)
    expected = service.score("gemas", request)
    assert expected["won_by"] == "points" and expected["winners"] == ["Lucía"]
    final = phone.locator(".winner.final")
    expect(final).to_contain_text("Most points: Lucía")
    expect(final).to_be_in_viewport()  # the last tap brings the winner into view
    settled(phone)
    points = phone.locator("#result [data-points]").evaluate_all("els => els.map(e => Number(e.dataset.points))")
    assert points == [p["points"] for p in expected["players"]] == [13, 0, 16]
    assert phone.locator(".go output.live").inner_text() == "Most points: Lucía"
    assert statuses and set(statuses) == {200}  # every live answer a 200
    query = dict(parse_qsl(urlparse(phone.url).query))  # the address keeps the tally
    assert query["ended_by"] == "#1" and query["players.2.gems.violet:int"] == "3"
    shot(phone, "game-gemas-tally")
    phone.context.close()


def lay_down(phone, who: int, kind: str, cards=(), target: int | None = None) -> int:
    """A set laid down, one tap a choice, and the one tap that scores it and opens the next turn (the Score button
    for mixed gem cards; a thief or a bump is made by its target's tap: issue 46); the taps."""
    expect(chip(phone, "lay_down.cards.0", "green")).to_be_hidden()  # the gem cards only once gem cards are laid
    expect(chip(phone, "lay_down.target", "#0")).to_be_hidden()  # and who is hit only for a thief or a bump
    taps = [chip(phone, "lay_down.player", f"#{who}"), chip(phone, "lay_down.set", kind)]
    taps += [chip(phone, f"lay_down.cards.{k}", colour) for k, colour in enumerate(cards)]
    taps += [chip(phone, "lay_down.target", f"#{target}")] if target is not None else []
    for target_chip in taps[:-1]:
        target_chip.tap()
    if kind != "gems":
        with phone.expect_navigation():
            taps[-1].tap()
        return len(taps)
    taps[-1].tap()
    with phone.expect_navigation():
        phone.locator(".go button[type=submit]").tap()
    return len(taps) + 1


def table_shown(phone) -> dict:
    """The table the scoring form holds now, as a score request."""
    return {"players": gemas_table_shown(phone, len(NAMES))}


def next_turn(phone, expected: dict, seat: int):
    """The page a set laid down opens: the move's result, and the form already the next turn's table."""
    expect(phone.locator("[data-moved]")).to_be_visible()
    table = table_shown(phone)
    for shown, after in zip(table["players"], expected["players"], strict=True):
        assert shown == {k: after[k] for k in ("name", "gems", "bandaids", "heart")}
    expect(phone.locator("#turn")).to_be_in_viewport()  # the page opens on the result and the next move
    expect(phone.locator("#turn input[name='lay_down.set']:checked")).to_have_count(0)
    # the player whose turn it is next is picked (issue 46)
    expect(phone.locator("#turn input[name='lay_down.player']:checked")).to_have_value(f"#{seat}")
    return table


def test_a_whole_gemas_game_turn_to_turn_from_the_tally_to_the_winner(server, browser):
    phone = fresh_phone(browser)
    set_the_table(phone, server[0], "gemas", NAMES)
    # The table before the first scored turn: Lucía already holds an orange gem, tapped on the tally, and the switch
    # opens the tracker with it.
    chip(phone, "players.2.gems.orange:int", "1").tap()
    settled(phone)
    with phone.expect_navigation():
        phone.get_by_role("button", name="Follow the game turn by turn").tap()
    assert [phone.input_value(f"input[name='players.{i}.name']") for i in range(3)] == NAMES
    assert phone.input_value("input[name='players.2.gems.orange:int']") == "1"
    plus, minus = stepper(phone, "players.2.gems.orange:int", "+"), stepper(phone, "players.2.gems.orange:int", "-")
    box = plus.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    assert plus.get_attribute("aria-label") == "Lucía · Orange: one more"
    assert minus.get_attribute("aria-label") == "Lucía · Orange: one less"
    phone.fill("input[name='players.2.name']", "Lucía Mar")  # a name typed later: the buttons follow it
    assert plus.get_attribute("aria-label") == "Lucía Mar · Orange: one more"
    phone.fill("input[name='players.2.name']", "Lucía")
    plus.tap()
    minus.tap()
    expect(phone.locator("input[name='players.2.gems.orange:int']")).to_have_value("1")
    minus.tap()
    expect(minus).to_be_disabled()  # nothing to take away from 0
    plus.tap()
    expect(phone.locator("#result.live-result")).to_contain_text("Leading: Lucía")  # the live answer followed the steps
    settled(phone)
    table = table_shown(phone)

    # Turn 1: Inés lays down green, green, blue: the majority colour, a green gem; the same tap opens turn 2.
    assert lay_down(phone, 0, "gems", ("green", "green", "blue")) == 6  # who, gem cards, three colours, Score
    expected = service.score("gemas", {**table, "lay_down": {"player": "Inés", "set": "gems",
                                                              "cards": ["green", "green", "blue"]}})
    expect(phone.locator("#result")).to_contain_text("Inés takes a gem from the reserve: Green")
    table = next_turn(phone, expected, 1)
    assert table["players"][0]["gems"]["green"] == 1

    # Turn 2: Tomás lays down three different colours: he chooses violet with one tap.
    lay_down(phone, 1, "gems", ("blue", "violet", "orange"))
    expect(phone.locator("#result")).to_contain_text("Tomás chooses the colour to take:")
    assert phone.locator("[data-moved]").count() == 0  # nothing happens until the colour is chosen
    shot(phone, "gemas-choose")
    with phone.expect_navigation():
        phone.locator(".choices a", has_text="Violet").tap()
    expected = service.score("gemas", {**table, "lay_down": {"player": "Tomás", "set": "gems",
                                                              "cards": ["blue", "violet", "orange"],
                                                              "choice": "violet"}})
    expect(phone.locator("#result")).to_contain_text("Tomás takes a gem from the reserve: Violet")
    table = next_turn(phone, expected, 2)

    # Turn 3: Lucía bumps Tomás: a band-aid less, in the next turn's form.
    assert lay_down(phone, 2, "chipote", target=1) == 3
    expected = service.score("gemas", {**table, "lay_down": {"player": "Lucía", "set": "chipote", "target": "Tomás"}})
    expect(phone.locator("#result")).to_contain_text("Tomás loses a band-aid (2 left)")
    table = next_turn(phone, expected, 0)
    assert table["players"][1]["bandaids"] == 2
    shot(phone, "gemas-next-turn")

    # Between turns the table trades 2 equal gems: corrected with the steppers, Inés now holds a blue and a violet.
    for colour in ("blue", "violet"):
        stepper(phone, f"players.0.gems.{colour}:int", "+").tap()
        expect(phone.locator(f"input[name='players.0.gems.{colour}:int']")).to_have_value("1")
    table = table_shown(phone)
    assert table["players"][0]["gems"] == {"green": 1, "blue": 1, "violet": 1, "orange": 0}

    # Turn 4: Inés lays down orange, orange, green: the orange completes her set, and she wins at once.
    lay_down(phone, 0, "gems", ("orange", "orange", "green"))
    expected = service.score("gemas", {**table, "lay_down": {"player": "Inés", "set": "gems",
                                                              "cards": ["orange", "orange", "green"]}})
    assert expected["winners"] == ["Inés"] and expected["won_by"] == "complete_set"
    final = phone.locator(".winner.final")
    expect(final).to_contain_text("Inés: complete set, wins at once")
    assert phone.locator("[data-moved]").count() == 0  # the game is over: no next turn
    settled(phone)
    points = phone.locator("#result [data-points]").evaluate_all("els => els.map(e => Number(e.dataset.points))")
    assert points == [p["points"] for p in expected["players"]]
    query = dict(parse_qsl(urlparse(phone.url).query))
    assert query["players.0.name"] == "Inés"  # names typed once, on the setup page, never again
    shot(phone, "game-gemas")
    phone.context.close()


def test_live_scoring_asks_nothing_while_a_set_is_half_tapped_in(server, browser):
    """Issue 30: a game logged 27 refused (400) requests as sets were tapped in. The set's fieldset declares what
    it needs once in use (who and the set; three gem cards for gem cards; who is hit for a thief or a chipote):
    live scoring waits until it is there, and dims the answer that no longer is the form's."""
    phone = fresh_phone(browser)
    names = "&".join(f"players.{i}.name={name}" for i, name in enumerate(NAMES))
    phone.goto(f"{server[0]}/score/gemas?_n=3&_turns=1&{names}&players.0.gems.blue:int=1&players.1.gems.orange:int=2")
    expect(phone.locator("#result .winner")).to_contain_text("Leading: Inés")
    statuses = answers(phone)
    steps = [("lay_down.set", "gems", False), ("lay_down.cards.0", "green", False), ("lay_down.player", "#0", False),
             ("lay_down.cards.1", "green", False), ("lay_down.cards.2", "violet", True),
             ("lay_down.set", "thief", False), ("lay_down.set", "gems", True), ("lay_down.player", "", False)]
    # (a thief's target and healing make their move by their tap, issue 46: test_browser_gemas_game.py)
    asked = 0
    for field, value, complete in steps:
        chip(phone, field, value).tap()
        settled(phone)
        asked += complete  # a request only for a form that can be scored
        assert len(statuses) == asked, (field, value, statuses)
        expect(phone.locator("#result.stale")).to_have_count(0 if complete else 1)
        if (field, value) == ("lay_down.cards.2", "violet"):
            expect(phone.locator("#result")).to_contain_text("Inés takes a gem from the reserve: Green")
    assert statuses == [200, 200]
    phone.context.close()


def test_duplicon_numbers_by_steppers(server, browser):
    phone = browser.new_context(**PHONE, locale="en-GB").new_page()
    phone.goto(f"{server[0]}/score/duplicon?_n=2&_names=Ana&_names=Bruno")
    won = stepper(phone, "rounds.0.1.won:int", "+")
    box = won.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    assert won.get_attribute("aria-label") == "Bruno · won: two more"  # cards are won in pairs (issue 30)
    assert won.get_attribute("data-step") == "2"
    for _ in range(2):
        won.tap()
    expect(phone.locator("input[name='rounds.0.1.won:int']")).to_have_value("4")
    assert stepper(phone, "rounds.0.1.hand:int", "+").get_attribute("aria-label") == "Bruno · in hand: one more"
    expect(phone.locator("#result.live-result")).to_contain_text("Leading: Bruno")  # the live redraw followed
    hand_less = stepper(phone, "rounds.0.1.hand:int", "-")
    assert hand_less.is_disabled()
    stepper(phone, "rounds.0.1.hand:int", "+").tap()
    expected = service.score("duplicon", {"rounds": [[{"name": "Ana", "won": 0, "hand": 0, "zone": 0},
                                                      {"name": "Bruno", "won": 4, "hand": 1, "zone": 0}]]})
    total = phone.locator("#result.live-result [data-total]").nth(1)
    expect(total).to_have_attribute("data-total", str(expected["totals"]["Bruno"]))
    # the field stays typeable, and a step never leaves its bounds
    phone.fill("input[name='rounds.0.0.zone:int']", "95")
    stepper(phone, "rounds.0.0.zone:int", "+").tap()
    expect(phone.locator("input[name='rounds.0.0.zone:int']")).to_have_value("96")
    assert stepper(phone, "rounds.0.0.zone:int", "+").is_disabled()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "duplicon-steppers")
    phone.context.close()


def test_steppers_fit_four_gems_a_player_at_320_px(server, browser):
    context = browser.new_context(viewport={"width": 320, "height": 700}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    long = "&".join(f"players.{i}.name={'Bartolomé de las Casas y Fernández'}" for i in range(7))
    for path in (f"/score/gemas?_n=7&_turns=1&{long}", "/score/duplicon?_n=6"):
        phone.goto(server[0] + path)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 320, path
        sizes = phone.locator(".steps button").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })")
        assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), path
        # every stepper's field still shows two digits
        widths = phone.locator(".steps input").evaluate_all("els => els.map(e => e.getBoundingClientRect().width)")
        assert min(widths) >= 30, path
    context.close()


def test_the_tally_chips_fit_at_320_px_and_are_44_px(server, browser):
    """Seven players, each colour's chips from 0 to what a game of seven has (orange 0-6), long names: nothing
    scrolls sideways, every chip is a 44 px target, and a colour's chips stay beside its icon."""
    context = browser.new_context(viewport={"width": 320, "height": 700}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    long = "&".join(f"players.{i}.name={'Bartolomé de las Casas y Fernández'}" for i in range(7))
    phone.goto(f"{server[0]}/score/gemas?_n=7&lang=es&{long}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 320
    chips = phone.locator("fieldset.icon-rows label.tap > span")
    assert chips.count() == 7 * (5 + 6 + 6 + 7)
    sizes = chips.evaluate_all("els => els.map(e => e.getBoundingClientRect()).map(r => [r.width, r.height])")
    assert all(w >= 44 and h >= 44 for w, h in sizes)
    green, orange = (phone.locator("fieldset.icon-rows").first.locator("fieldset.taps").nth(k) for k in (0, 3))
    for row in (green, orange):  # every chip right of the icon's column, wrapped ones included
        left = row.locator("legend").bounding_box()
        assert all(c["x"] >= left["x"] + left["width"] for c in row.locator("label.tap > span").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); return {x: r.x}; })"))
    context.close()
