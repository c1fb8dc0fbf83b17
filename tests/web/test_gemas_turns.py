"""Gemas turn to turn (issue 13): a scored turn's result is applied to the table by one link, "Next turn", whose
form holds every player's gems, band-aids and heart after the move; a colour to choose is one tap; a game that is
over has no next turn. Also the shared next-page query (forms.carried) and the steppers' plain-HTML fallback."""
import html
import re
from urllib.parse import parse_qsl, urlencode

from werkzeug.datastructures import MultiDict

from companion import service
from companion.web import forms


def page_of(client, query: str) -> tuple[int, str]:
    r = client.get(f"/score/gemas?{query}")
    return r.status_code, r.get_data(as_text=True)


def next_turn(page: str) -> str | None:
    """The query of the page's Next turn link, if it has one."""
    found = re.search(r'href="/score/gemas\?([^"#]*)#turn" data-next-turn', page)  # opens at the next move
    return html.unescape(found[1]) if found else None


def choice_links(page: str) -> dict[str, str]:
    """The one-tap colour choices: colour → the query its link opens."""
    links = re.findall(r'<a class="button light" href="/score/gemas\?([^"]*)"><i class="i i-([a-z]+)">', page)
    return {colour: html.unescape(query) for query, colour in links}


def request_of(query: str) -> dict:
    """The score request the page would make of a query (the same preparation as the page)."""
    from companion.web.game_pages.gemas import prepare
    form = MultiDict(parse_qsl(query, keep_blank_values=True))
    return prepare(forms.request_from_form(form), form)


TURN = [("_n", "3"), ("players.0.name", "Carla"), ("players.0.gems.green:int", "1"), ("players.0.gems.violet:int", "2"),
        ("players.1.name", "Bruno"), ("players.1.gems.blue:int", "2"), ("players.1.bandaids:int", "1"),
        ("players.2.name", "Ana"), ("lay_down.player", "#0"), ("lay_down.set", "chipote"), ("lay_down.target", "#1"),
        ("lay_down.choice", ""), ("lang", "en")]


def test_next_turn_carries_the_table_after_a_chipote(client):
    status, page = page_of(client, urlencode(TURN))
    assert status == 200
    expected = service.score("gemas", request_of(urlencode(TURN)))
    query = next_turn(page)
    assert query is not None
    carried = dict(parse_qsl(query))
    assert not any(k.startswith("lay_down") for k in carried)  # the set laid down is cleared
    assert "lang" not in carried and carried["_n"] == "3"
    for i, p in enumerate(expected["players"]):
        assert carried[f"players.{i}.name"] == p["name"]
        assert {c: int(carried[f"players.{i}.gems.{c}:int"]) for c in p["gems"]} == p["gems"]
        assert int(carried[f"players.{i}.bandaids:int"]) == p["bandaids"]
        assert carried[f"players.{i}.heart:bool"] == ("1" if p["heart"] else "0")
    # Bruno lost his last band-aid: his two blue gems went back to the reserve, Carla kept one, Bruno lost his heart
    assert carried["players.1.gems.blue:int"] == "0" and carried["players.0.gems.blue:int"] == "1"
    assert carried["players.1.bandaids:int"] == "3" and carried["players.1.heart:bool"] == "0"
    # the next turn's page is that table: scored as it stands, nothing laid down, the reserve from the gems
    status, after = page_of(client, query)
    assert status == 200
    table = service.score("gemas", request_of(query))
    assert table["players"] == expected["players"] and table["reserve"] == expected["reserve"]
    assert not table["events"] and next_turn(after) is None  # no move this turn yet: nothing to carry
    assert 'name="players.1.gems.blue:int" value="0"' in after
    assert re.search(r'<select name="players.1.heart:bool">.*?<option value="0" selected>', after, re.S)
    assert 'name="lay_down.set"' in after and not re.search(r'name="lay_down.set" value="\w+" checked', after)
    assert re.search(r'name="lay_down.player" value="" checked', after)  # Who: nobody


def test_a_colour_to_choose_is_one_tap_and_then_the_turn_carries(client):
    three = [("_n", "2"), ("players.0.name", "Ana"), ("players.1.name", "Bruno"), ("lay_down.player", "#1"),
             ("lay_down.set", "gems"), ("lay_down.cards.0", "green"), ("lay_down.cards.1", "blue"),
             ("lay_down.cards.2", "orange"), ("lang", "en")]
    status, page = page_of(client, urlencode(three))
    assert status == 200 and next_turn(page) is None  # nothing happens until the colour is chosen
    assert "Bruno</bdi> chooses the colour to take:" in page
    links = choice_links(page)
    assert sorted(links) == ["blue", "green", "orange"]
    assert dict(parse_qsl(links["green"]))["lay_down.choice"] == "green"
    status, chosen = page_of(client, links["green"])
    assert status == 200 and "Bruno</bdi> takes a Green gem from the reserve" in chosen
    carried = dict(parse_qsl(next_turn(chosen)))
    assert carried["players.1.gems.green:int"] == "1" and carried["players.0.gems.green:int"] == "0"
    assert not any(k.endswith("heart:bool") for k in carried)  # two players play without hearts


def test_a_game_that_is_over_shows_the_winner_and_no_next_turn(client):
    # a complete set: Ana takes the orange she lacked
    win = [("_n", "3"), ("players.0.name", "Ana"), ("players.0.gems.green:int", "1"), ("players.0.gems.blue:int", "1"),
           ("players.0.gems.violet:int", "1"), ("players.1.name", "Bruno"), ("players.2.name", "Carla"),
           ("lay_down.player", "#0"), ("lay_down.set", "gems"), ("lay_down.cards.0", "orange"),
           ("lay_down.cards.1", "orange"), ("lay_down.cards.2", "blue"), ("lang", "en")]
    status, page = page_of(client, urlencode(win))
    assert status == 200 and 'class="winner final"' in page and "complete set, wins at once" in page
    assert next_turn(page) is None
    # the last heart: Bruno, heartless, loses his last band-aid
    last = [("_n", "3"), ("players.0.name", "Ana"), ("players.0.gems.green:int", "1"), ("players.1.name", "Bruno"),
            ("players.1.bandaids:int", "1"), ("players.1.heart:bool", "0"), ("players.2.name", "Carla"),
            ("lay_down.player", "#0"), ("lay_down.set", "chipote"), ("lay_down.target", "#1"), ("lang", "en")]
    status, page = page_of(client, urlencode(last))
    assert status == 200 and 'class="winner final"' in page and "Most points: <bdi>Ana</bdi>" in page
    assert next_turn(page) is None


def test_a_bad_turn_is_named_and_carries_nothing(client):
    bad = [(k, v) for k, v in TURN if k != "players.1.bandaids:int"] + [("players.1.bandaids:int", "0")]
    status, page = page_of(client, urlencode(bad))
    assert status == 400 and "Bruno" in page and "no band-aid left" in page
    assert next_turn(page) is None


def test_carried_keeps_the_form_in_order_with_its_changes():
    form = MultiDict([("_n", "2"), ("a", "1"), ("lang", "es"), ("b", "x"), ("b", "y"), ("_seats", "3"), ("c", "2")])
    assert forms.carried(form) == "_n=2&a=1&b=x&b=y&c=2"
    assert forms.carried(form, lambda k: k == "b", {"a": "5", "d": "new"}) == "_n=2&a=5&c=2&d=new"
    assert forms.carried(form, lambda k: True, {"c": "3", "_n": "4"}) == "_n=4&c=3"


def test_steppers_are_number_fields_without_script_named_for_their_buttons(client):
    """Without script a stepper is a plain number field (companion.js adds its − and +); what the buttons will be
    called is in the page: the form's words once, in the page's language; whose number and which is the seat's
    name shown beside it (data-seat) and the field's label, which the script joins (test_browser_gemas)."""
    for game, field, seat, label, step in (("gemas", "players.0.gems.green:int", "Player 1", "Green", ""),
                                           ("duplicon", "rounds.0.1.won:int", "Player 2", "won", ' step="2"')):
        page = client.get(f"/score/{game}?lang=en").get_data(as_text=True)
        box = re.search(rf'<label>(?:<i class="i i-\w+"></i> )?{label}<span class="steps">'
                        rf'<input type="number" inputmode="numeric" name="{re.escape(field)}" value="" min="0" '
                        rf'max="\d+"{step} placeholder="0"></span></label>', page)  # (a field in its label)
        assert box, game  # (Duplicon's cards won go by two: they are won in pairs)
        assert f'data-seat="{field.split(".")[2 if game == "duplicon" else 1]}">{seat}<' in page
        assert 'data-less="{what}: one less" data-more="{what}: one more"' in page
        # the words for a step of two only on a form that has one
        assert ('data-less-two="{what}: two less" data-more-two="{what}: two more"' in page) == (game == "duplicon")
        assert "data-step" not in page and "data-said" not in page  # no button without script
    es = client.get("/score/gemas?lang=es").get_data(as_text=True)
    assert 'data-less="{what}: uno menos" data-more="{what}: uno más"' in es and "Verde<span" in es
    # a gem's most is what the game has of that colour
    assert re.search(r'name="players.0.gems.green:int" value="" min="0" max="4"', es)
    assert re.search(r'name="players.0.gems.orange:int" value="" min="0" max="6"', es)


def test_the_heaviest_gemas_page_ten_players_steppers_and_all_stays_under_60_kb(client):
    """The steppers' buttons and names are made by companion.js, not sent forty times: ten players' gem steppers
    keep the page and what it loads under the 60 KB budget (issue 13)."""
    from test_budget import BUDGET, assets
    page = client.get("/score/gemas?_n=10").get_data()
    total = len(page) + sum(len(client.get(a).get_data()) for a in assets(page.decode()))
    assert page.decode().count('class="steps"') == 40
    assert total < BUDGET, f"{total} bytes"
