"""Gemas played whole, turn by turn, on a phone in Spanish (issue 46, item 6): three players, twenty turns from the
setup page (names typed once) to a complete set, every tap and key counted as a player makes them. Each turn's
"Who" is already the player whose turn it is (the setup's first player, then clockwise), and a move that needs
nothing more is made by the tap that completes it: three gem cards of one colour or healing in one tap, a thief or a
bump by its target, an exchange of gems by its two colours. Each table after a move is the rules' own."""
from urllib.parse import parse_qs, urlparse

from companion import service
from helpers.browser import GEMAS_COLOURS as COLOURS
from helpers.browser import (  # (skips this module without chromium)
    PHONE,
    Counted,
    gemas_table_shown,
    playwright_api,
    shot,
)

expect = playwright_api.expect
NAMES = ["Ana", "Beto", "Caro"]
# Issue 46: 108 taps and 11 keys for this game before; at most half now
GAME_TAPS, GAME_KEYS = 59, 11

# Twenty moves, each by the player whose turn it is (seats counted from the first player): a set of three gem cards
# of one colour ("three"), a mixed set of gem cards (its three colours, and the colour chosen when all three
# differ), a thief or a bump against a seat, healing, an exchange of two gems of a colour held three times.
MOVES = [("three", "orange"), ("three", "violet"), ("three", "orange"), ("gems", ("violet", "violet", "blue")),
         ("chipote", 2), ("healing",), ("three", "orange"), ("thief", 0), ("three", "blue"), ("three", "violet"),
         ("three", "violet"), ("chipote", 1), ("three", "orange"), ("thief", 2),
         ("gems", ("green", "blue", "orange"), "green"), ("three", "orange"), ("three", "blue"),
         ("gems", ("green", "green", "violet")), ("exchange", "orange", "blue"), ("three", "green")]


def chip(phone, field: str, value: str):
    return phone.locator(f"label.tap:has(input[name='{field}'][value='{value}'])")


def table_shown(phone) -> list[dict]:
    return gemas_table_shown(phone, len(NAMES))


def request_of(move: tuple, seat: int, first: int) -> dict:
    """The rules' `lay_down` for a move made by `seat` (targets counted from the first player, as MOVES are)."""
    kind, *rest = move
    who = NAMES[seat]
    if kind == "three":
        return {"player": who, "set": "gems", "cards": [rest[0]] * 3}
    if kind == "gems":
        return {"player": who, "set": "gems", "cards": list(rest[0]), **({"choice": rest[1]} if len(rest) > 1 else {})}
    if kind in ("thief", "chipote"):
        return {"player": who, "set": kind, "target": NAMES[(first + rest[0]) % 3]}
    if kind == "exchange":
        return {"player": who, "set": "exchange", "give": rest[0], "take": rest[1]}
    return {"player": who, "set": kind}


def play(phone, move: tuple, first: int) -> None:
    """The move's taps, as a player makes them, up to the page of the next turn."""
    kind, *rest = move
    with phone.expect_navigation():
        if kind == "three":
            chip(phone, "lay_down.set", f"three-{rest[0]}").tap()
        elif kind == "healing":
            chip(phone, "lay_down.set", "healing").tap()
        elif kind in ("thief", "chipote"):
            chip(phone, "lay_down.set", kind).tap()
            target = chip(phone, "lay_down.target", f"#{(first + rest[0]) % 3}")
            target.tap()
        elif kind == "exchange":
            chip(phone, "lay_down.set", "exchange").tap()
            chip(phone, "lay_down.give", rest[0]).tap()
            chip(phone, "lay_down.take", rest[1]).tap()
        else:  # a mixed set: its three colours, then the button (a colour to choose: one tap more)
            chip(phone, "lay_down.set", "gems").tap()
            for k, colour in enumerate(rest[0]):
                chip(phone, f"lay_down.cards.{k}", colour).tap()
            phone.locator(".go button[type=submit]").tap()
    if kind == "gems" and len(rest) > 1:
        with phone.expect_navigation():
            phone.locator(f".choices a:has(i.i-{rest[1]})").tap()


def test_a_whole_gemas_game_turn_by_turn_in_at_most_half_the_taps(server, browser):
    phone = browser.new_context(**PHONE, locale="es-ES").new_page()
    counted = Counted(phone)
    phone.goto(f"{server[0]}/setup/gemas")
    counted.choose(phone.locator("select[name=players]"), "3")
    fields = phone.locator("input[name='_names']")
    expect(fields).to_have_count(3)
    for k, name in enumerate(NAMES):
        counted.type(fields.nth(k), name)
    phone.locator(".go button[type=submit]").tap()
    phone.locator("#result").wait_for()
    dealt = service.setup("gemas", "3", parse_qs(urlparse(phone.url).query)["seed"][0], {})
    first = dealt["first_player"]
    phone.get_by_role("link", name="Jugar: abrir la puntuación").tap()
    phone.wait_for_url("**/score/gemas**")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Seguir la partida turno a turno").tap()
    setup_taps = counted.now()[0]
    assert setup_taps == 8  # the count (its field and the option), three names, Deal, Play, the switch
    table = [{"name": n, "gems": dict.fromkeys(COLOURS, 0), "bandaids": 3, "heart": True} for n in NAMES]
    assert table_shown(phone) == table
    turn_taps = []
    for turn, move in enumerate(MOVES):
        seat = (first + turn) % 3
        # the player whose turn it is is already picked
        expect(phone.locator("input[name='lay_down.player']:checked")).to_have_value(f"#{seat}")
        before = counted.now()[0]
        play(phone, move, first)
        turn_taps.append(counted.now()[0] - before)
        expected = service.score("gemas", {"players": table, "lay_down": request_of(move, seat, first)})
        table = [{k: p[k] for k in ("name", "gems", "bandaids", "heart")} for p in expected["players"]]
        if expected["won_by"]:
            break
        expect(phone.locator("[data-moved]")).to_be_visible()
        assert table_shown(phone) == table, (turn, move)
    assert turn == len(MOVES) - 1 and expected["won_by"] == "complete_set"
    winner = NAMES[(first + 19) % 3]
    assert expected["winners"] == [winner]
    expect(phone.locator(".winner.final")).to_contain_text(f"{winner}: juego completo, gana al instante")
    # the game is over: no next move is offered
    expect(phone.locator("#turn")).to_have_count(0)
    expect(phone.locator(".go button[type=submit]")).to_have_count(0)
    one_colour = [t for t, m in zip(turn_taps, MOVES, strict=True) if m[0] in ("three", "healing")]
    assert set(one_colour) == {1}, turn_taps  # a set of one colour: one tap
    taps, keys = counted.now()
    print(f"gemas turn by turn: {taps} taps + {keys} keys (setup {setup_taps}, turns {turn_taps})")
    assert taps == setup_taps + sum(turn_taps) and taps <= GAME_TAPS and keys == GAME_KEYS, (taps, turn_taps)
    shot(phone, "game-gemas-turns")
    phone.context.close()
