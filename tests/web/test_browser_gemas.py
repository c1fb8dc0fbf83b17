"""Gemas turn to turn on a phone (issue 13): a whole game from the setup page (names typed once) through turns
carried by "Next turn" and gems set by − / + steppers, to the winner said big; and Duplicon's steppers. Each
answer is checked against the rules' own scoring of the same table."""
from urllib.parse import parse_qsl, urlparse

from companion import service
from test_browser import PHONE, playwright_api, settled, shot  # (and skips this module without playwright or chromium)
from test_browser_games import fresh_phone, set_the_table

expect = playwright_api.expect
COLOURS = ("green", "blue", "violet", "orange")
NAMES = ["Inés", "Tomás", "Lucía"]


def stepper(phone, field: str, step: str):
    """The − or + button of a field's stepper (whatever its step)."""
    return phone.locator(f".steps:has(input[name='{field}']) button[data-step]").nth(0 if step == "-" else 1)


def chip(phone, field: str, value: str):
    """The chip that picks `value` for `field` in one tap."""
    return phone.locator(f"label.tap:has(input[name='{field}'][value='{value}'])")


def lay_down(phone, who: int, kind: str, cards=(), target: int | None = None) -> int:
    """A set laid down, one tap a choice; the taps it took (Score included)."""
    expect(chip(phone, "lay_down.cards.0", "green")).to_be_hidden()  # the gem cards only once gem cards are laid
    expect(chip(phone, "lay_down.target", "#0")).to_be_hidden()  # and who is hit only for a thief or a bump
    taps = [chip(phone, "lay_down.player", f"#{who}"), chip(phone, "lay_down.set", kind)]
    taps += [chip(phone, f"lay_down.cards.{k}", colour) for k, colour in enumerate(cards)]
    taps += [chip(phone, "lay_down.target", f"#{target}")] if target is not None else []
    for target_chip in taps:
        target_chip.tap()
    with phone.expect_navigation():
        phone.locator(".go button[type=submit]").tap()
    return len(taps) + 1


def table_shown(phone) -> dict:
    """The table the scoring form holds now: each player's name, gems, band-aids and heart, as a score request."""
    players = []
    for i in range(len(NAMES)):
        at = f"players.{i}."
        gems = {c: int(phone.input_value(f"input[name='{at}gems.{c}:int']") or 0) for c in COLOURS}
        players.append({"name": phone.input_value(f"input[name='{at}name']"), "gems": gems,
                        "bandaids": int(phone.input_value(f"select[name='{at}bandaids:int']")),
                        "heart": phone.input_value(f"select[name='{at}heart:bool']") == "1"})
    return {"players": players}


def next_turn(phone, expected: dict):
    """Tap Next turn; the new form is the table after the move, with nothing laid down."""
    with phone.expect_navigation():
        phone.locator("[data-next-turn]").tap()
    table = table_shown(phone)
    for shown, after in zip(table["players"], expected["players"], strict=True):
        assert shown == {k: after[k] for k in ("name", "gems", "bandaids", "heart")}
    expect(phone.locator("#turn")).to_be_in_viewport()  # the page opens at the next move, not at the top
    expect(phone.locator("#turn input[name='lay_down.set']:checked")).to_have_count(0)
    expect(phone.locator("#turn input[name='lay_down.player']:checked")).to_have_value("")  # "nobody"
    return table


def test_a_whole_gemas_game_turn_to_turn_from_setup_to_winner(server, browser):
    phone = fresh_phone(browser)
    set_the_table(phone, server[0], "gemas", NAMES)
    assert [phone.input_value(f"input[name='players.{i}.name']") for i in range(3)] == NAMES
    # The table before the first scored turn: Lucía already holds an orange gem, set by the steppers (+ + −).
    plus, minus = stepper(phone, "players.2.gems.orange:int", "+"), stepper(phone, "players.2.gems.orange:int", "-")
    assert minus.is_disabled()  # nothing to take away from 0
    box = plus.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    assert plus.get_attribute("aria-label") == "Lucía · Orange: one more"
    assert minus.get_attribute("aria-label") == "Lucía · Orange: one less"
    phone.fill("input[name='players.2.name']", "Lucía Mar")  # a name typed later: the buttons follow it
    assert plus.get_attribute("aria-label") == "Lucía Mar · Orange: one more"
    phone.fill("input[name='players.2.name']", "Lucía")
    plus.tap()
    plus.tap()
    minus.tap()
    assert phone.input_value("input[name='players.2.gems.orange:int']") == "1"
    expect(phone.locator("#result.live-result")).to_contain_text("Leading: Lucía")  # the live answer followed the steps
    table = table_shown(phone)

    # Turn 1: Inés lays down green, green, blue: the majority colour, a green gem.
    assert lay_down(phone, 0, "gems", ("green", "green", "blue")) == 6  # who, gem cards, three colours, Score
    expected = service.score("gemas", {**table, "lay_down": {"player": "Inés", "set": "gems",
                                                              "cards": ["green", "green", "blue"]}})
    expect(phone.locator("#result")).to_contain_text("Inés takes a Green gem from the reserve")
    table = next_turn(phone, expected)
    assert table["players"][0]["gems"]["green"] == 1

    # Turn 2: Tomás lays down three different colours: he chooses violet with one tap.
    lay_down(phone, 1, "gems", ("blue", "violet", "orange"))
    expect(phone.locator("#result")).to_contain_text("Tomás chooses the colour to take:")
    assert phone.locator("[data-next-turn]").count() == 0  # nothing happens until the colour is chosen
    shot(phone, "gemas-choose")
    with phone.expect_navigation():
        phone.locator(".choices a", has_text="Violet").tap()
    expected = service.score("gemas", {**table, "lay_down": {"player": "Tomás", "set": "gems",
                                                              "cards": ["blue", "violet", "orange"],
                                                              "choice": "violet"}})
    expect(phone.locator("#result")).to_contain_text("Tomás takes a Violet gem from the reserve")
    table = next_turn(phone, expected)

    # Turn 3: Lucía bumps Tomás: a band-aid less, carried to the next turn.
    assert lay_down(phone, 2, "chipote", target=1) == 4
    expected = service.score("gemas", {**table, "lay_down": {"player": "Lucía", "set": "chipote", "target": "Tomás"}})
    expect(phone.locator("#result")).to_contain_text("Tomás loses a band-aid (2 left)")
    table = next_turn(phone, expected)
    assert table["players"][1]["bandaids"] == 2

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
    assert phone.locator("[data-next-turn]").count() == 0  # the game is over: no next turn
    settled(phone)
    points = phone.locator("#result [data-points]").evaluate_all("els => els.map(e => Number(e.dataset.points))")
    assert points == [p["points"] for p in expected["players"]]
    query = dict(parse_qsl(urlparse(phone.url).query))
    assert query["players.0.name"] == "Inés"  # names typed once, on the setup page, never again
    shot(phone, "game-gemas")
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
    for path in (f"/score/gemas?_n=7&{long}", "/score/duplicon?_n=6"):
        phone.goto(server[0] + path)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 320, path
        sizes = phone.locator(".steps button").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })")
        assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), path
        # every stepper's field still shows two digits
        widths = phone.locator(".steps input").evaluate_all("els => els.map(e => e.getBoundingClientRect().width)")
        assert min(widths) >= 30, path
    context.close()
