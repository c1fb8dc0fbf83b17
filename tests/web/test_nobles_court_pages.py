"""The Nobles scoring page at court, without a browser: a duel waits for its dice, the next duel swaps roles and
carries both courts, a problem names the player, and the setup's Play link brings who attacks first and the deal;
courts, dice totals and number cards given as chips (issue 30), resources left to the table's counters."""
import re
from urllib.parse import parse_qsl, urlencode

from werkzeug.datastructures import MultiDict

from companion import library, service

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
    # the target's chips list Ana's filled rows only, in order, each with its suit and wounds named
    picker = re.search(r'<legend>Target in Ana’s court</legend>(.*?)</fieldset>', shown, re.S)[1]
    assert re.findall(r'name="defender.at:int" value="(\d)"', picker) == ["0", "1"]
    assert re.sub(r"<[^>]+>", "", picker.split('value="1">')[1]).split() == ["Jack", "Hearts", "●1", "wound"]


def test_the_next_duel_swaps_roles_and_carries_both_courts(client):
    status, shown = page(client, ("defender.at:int", "1"), ("attacker.dice:ints", "6"), ("defender.dice:ints", "1"))
    assert status == 200 and 'data-winner="attacker"' in shown
    link = re.search(r'href="/score/nobles\?([^"]*)"[^>]*data-next-duel><span>Next duel: <bdi>Ana</bdi> attacks', shown)
    form = MultiDict(parse_qsl(link[1].replace("&amp;", "&")))
    assert form["turn:int"] == "0" and form.getlist("_names") == ["Ana", "Bea"]
    # Ana's Jack (her second filled row) died: one noble left, the Jack among the fallen; Bea won a resource
    assert form["courts.0.nobles.0.noble"] == "king" and "courts.0.nobles.1.noble" not in form
    assert form.getlist("courts.0.fallen:list") == ["jack:hearts"]
    # resources are the table's counters: the duel says who takes one, no running count is carried or shown
    assert not any("resources" in k for k in form) and "Bea: +1 resource" in shown
    assert not re.search(r"\d resources?</", shown.split('id="courts"')[1])
    assert not any(".dice" in k or ".cards." in k or k.endswith(".at:int") for k in form)
    again = client.get("/score/nobles?" + link[1].replace("&amp;", "&") + "&lang=en").get_data(as_text=True)
    assert 'id="result"' not in again and "1 · Ana attacks" in again and "jack" in again.split('id="courts"')[1]


def test_a_problem_at_court_names_the_player(client):
    status, shown = page(client, ("attacker.dice:ints", "9"), ("defender.dice:ints", "2 2"), lang="es")
    assert status == 400 and "Bea · dado 1" in shown


def test_the_setup_brings_who_attacks_first_how_many_nobles_and_the_deal(client):
    shown = client.get("/setup/nobles?seed=s1&lang=en&_names=Ana&_names=Bea").get_data(as_text=True)
    play = re.search(r'href="/score/nobles\?([^"]*)">Play', shown)[1].replace("&amp;", "&")
    form = MultiDict(parse_qsl(play))
    dealt = service.setup("nobles", "2", "s1", {})
    assert form["turn:int"] == str(dealt["first_player"]) and form["_slots"] == "3"
    # each player's six nobles as the cards say them: NB-KC is the King of clubs
    words = [[f"{ {11: 'jack', 12: 'queen', 13: 'king'}[int(card.data['rank'])]}:{card.data['suit']}"
              for card in map(library.current().get("nobles").component, ids)] for ids in dealt["nobles_dealt"]]
    assert [form.getlist("_deal0"), form.getlist("_deal1")] == words
    scoring = client.get(f"/score/nobles?{play}&lang=en").get_data(as_text=True)
    assert "Start the duels" in scoring and "Dealt: tap the 3 you keep." in scoring
    for seat in (0, 1):  # one chip a dealt noble, none picked yet
        assert re.findall(rf'name="_keep{seat}" value="([^"]+)"', scoring) == words[seat]
    assert 'name="_keep0" value="' + words[0][0] + '" checked' not in scoring


def test_courts_tapped_as_chips_start_the_duels_and_a_half_picked_start_waits(client):
    picked = [("_names", "Ana"), ("_names", "Bea"), ("_keep0", "king:spades"), ("_keep0", "joker"),
              ("_keep1", "queen:hearts"), ("_keep1", "queen:hearts")]  # (a double deck deals a noble twice)
    shown = client.get("/score/nobles?" + urlencode([*picked, ("lang", "en")])).get_data(as_text=True)
    assert "1 · Ana attacks" in shown and "Start the duels" not in shown
    ana, bea = re.findall(r'<div class="court">(.*?)</div>', shown.split('id="courts"')[1], re.S)[:2]
    assert re.findall(r'data-noble="(\w+)"', ana) == ["king", "joker"]
    assert re.findall(r'data-noble="(\w+)"', bea) == ["queen", "queen"]
    # Bea not picked yet: the start form again, Ana's chips as she tapped them
    half = client.get("/score/nobles?" + urlencode([*picked[:4], ("lang", "en")])).get_data(as_text=True)
    assert "Start the duels" in half and 'id="courts"' not in half
    assert re.findall(r'name="_keep0" value="([^"]+)" checked', half) == ["king:spades", "joker"]
    assert not re.findall(r'name="_keep1" value="[^"]+" checked', half)
    status, bad = page(client, ("_keep0", "bishop:hearts"))
    assert status == 200 and "Start the duels" not in bad  # (Ana has rows: the duel waits, shown below)
    r = client.get("/score/nobles?" + urlencode([*picked[:2], ("_keep0", "bishop"), *picked[4:],
                                                 ("attacker.dice.0:int", "3"), ("defender.dice.0:int", "3"),
                                                 ("lang", "en")]))
    assert r.status_code == 400 and "bishop" in r.get_data(as_text=True)


def test_dice_by_their_total_cards_by_rank_and_suit_chips_and_a_v2_kings_resources(client):
    """Ana's King (two dice) by their total, Bea's Queen by her die; a 7 given by its rank alone has no suit
    bonus, one of the noble's suit has; a v2 King's resources are asked with the duel."""
    court = [("_names", "Ana"), ("_names", "Bea"), ("_keep0", "king:spades"), ("_keep1", "queen:hearts")]
    duel = [("attacker.dice.total:int", "9"), ("defender.dice.0:int", "2"), ("attacker.cards.0.rank:int", "7")]
    r = client.get("/score/nobles?" + urlencode([*court, *duel, ("lang", "en")]))
    shown = r.get_data(as_text=True)
    expected = service.score("nobles", {"courts": [{"nobles": [{"noble": "king", "suit": "spades"}]},
                                                   {"nobles": [{"noble": "queen", "suit": "hearts"}]}],
                                        "attacker": {"at": 0, "dice": [5, 4], "cards": [{"rank": 7}]},
                                        "defender": {"at": 0, "dice": [2]}})
    assert r.status_code == 200 and expected["attacker"]["total"] == 13 + 9 + 7
    assert re.findall(r'data-strength="(\d+)"', shown) == [str(expected[s]["total"]) for s in ("attacker", "defender")]
    assert "Dice: 9</p>" in shown and 'name="attacker.dice.total:int" value="9" checked' in shown
    assert re.search(r'value="spades"><span><i class="i i-spades"></i><span class="vh">Spades</span> \+2</span>', shown)
    same = client.get("/score/nobles?" + urlencode([*court, *duel, ("attacker.cards.0.suit", "spades")]))
    assert re.findall(r'data-strength="(\d+)"', same.get_data(as_text=True))[0] == str(13 + 9 + 7 + 2)
    v2 = client.get("/score/nobles?" + urlencode([*court, ("versions.king:int", "2"), ("attacker.dice.0:int", "4"),
                                                  *duel[1:], ("attacker.resources:int", "3"), ("lang", "en")]))
    assert re.findall(r'data-strength="(\d+)"', v2.get_data(as_text=True))[0] == str(13 + 4 + 7 + 2 * 3)
    assert "Ana: unspent resources (King v2)" in v2.get_data(as_text=True)
    wrong = client.get("/score/nobles?" + urlencode([*court, ("attacker.dice.total:int", "13"),
                                                     ("defender.dice.0:int", "2"), ("lang", "en")]))
    assert wrong.status_code == 400 and "Ana · die 1: must be from 1 to 6, got 13" in wrong.get_data(as_text=True)
