"""The Nobles scoring page at court, without a browser: a duel waits for its dice, the next duel swaps roles and
carries both courts, a problem names the player, and the setup's Play link brings who attacks first."""
import re
from urllib.parse import parse_qsl, urlencode

from werkzeug.datastructures import MultiDict

COURTS = [("_names", "Ana"), ("_names", "Bea"), ("turn:int", "1"),
          ("courts.0.nobles.0.noble", "king"), ("courts.0.nobles.0.suit", "spades"),
          ("courts.0.nobles.1.noble", ""),  # a row left blank: the picks follow the filled rows
          ("courts.0.nobles.2.noble", "jack"), ("courts.0.nobles.2.suit", "hearts"),
          ("courts.0.nobles.2.wounds:int", "1"),
          ("courts.1.nobles.0.noble", "queen"), ("courts.1.nobles.0.suit", "hearts"),
          ("courts.1.resources:int", "2")]


def page(client, *pairs, lang="en"):
    r = client.get("/score/nobles?" + urlencode([*COURTS, *pairs, ("lang", lang)]))
    return r.status_code, r.get_data(as_text=True)


def test_a_duel_at_court_waits_for_its_dice(client):
    status, shown = page(client)
    assert status == 200 and 'id="result"' not in shown
    assert "1 · Bea attacks" in shown and "Target in Ana’s court" in shown
    # the target picker lists Ana's filled rows only, in order
    picker = re.search(r'<select name="defender.at:int">(.*?)</select>', shown, re.S)[1]
    assert re.findall(r'<option value="(\d)"', picker) == ["0", "1"] and "Jack · Hearts · 1 wound" in picker


def test_the_next_duel_swaps_roles_and_carries_both_courts(client):
    status, shown = page(client, ("defender.at:int", "1"), ("attacker.dice:ints", "6"), ("defender.dice:ints", "1"))
    assert status == 200 and 'data-winner="attacker"' in shown
    link = re.search(r'href="/score/nobles\?([^"]*)"[^>]*data-next-duel>Next duel: <bdi>Ana</bdi> attacks', shown)
    form = MultiDict(parse_qsl(link[1].replace("&amp;", "&")))
    assert form["turn:int"] == "0" and form.getlist("_names") == ["Ana", "Bea"]
    # Ana's Jack (her second filled row) died: one noble left, the Jack among the fallen; Bea won a resource
    assert form["courts.0.nobles.0.noble"] == "king" and "courts.0.nobles.1.noble" not in form
    assert form.getlist("courts.0.fallen:list") == ["jack:hearts"] and form["courts.1.resources:int"] == "3"
    assert not any(".dice" in k or ".cards." in k or k.endswith(".at:int") for k in form)
    again = client.get("/score/nobles?" + link[1].replace("&amp;", "&") + "&lang=en").get_data(as_text=True)
    assert 'id="result"' not in again and "1 · Ana attacks" in again and "jack" in again.split('id="courts"')[1]


def test_a_problem_at_court_names_the_player(client):
    status, shown = page(client, ("attacker.dice:ints", "9"), ("defender.dice:ints", "2 2"), lang="es")
    assert status == 400 and "Bea · dado 1" in shown


def test_the_setup_brings_who_attacks_first_and_how_many_nobles(client):
    shown = client.get("/setup/nobles?seed=s1&lang=en&_names=Ana&_names=Bea").get_data(as_text=True)
    play = re.search(r'href="/score/nobles\?([^"]*)">Play', shown)[1].replace("&amp;", "&")
    form = MultiDict(parse_qsl(play))
    assert form["turn:int"] in ("0", "1") and form["_slots"] == "3"
    scoring = client.get(f"/score/nobles?{play}&lang=en").get_data(as_text=True)
    assert scoring.count('name="courts.0.nobles.') == 3 * 4 and "Start the duels" in scoring
