"""A photo of the table fills a scoring page (issue 28): POST /score/<game>/photo with the page's form, its photo and
the part it fills (`_to`): the cards found go where the game's glue puts them, and the page comes back filled (303),
or as JSON for the page's script; a bad photo is the page again with what is wrong, and a 400."""
import io
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from companion import service
from companion.web.games.nobles import noble_of
from table import small_photo

HAND = ("DQ03", "DQ07", "DQ11", "DQ15")
NAMES = {"players.0.name": "Ana", "players.1.name": "Bruno"}


def send(client, form: dict, data: bytes | None, json=False, lang="en", game="duquesa"):
    fields = {**form, "_photo": (io.BytesIO(data or b""), "table.jpg" if data is not None else "", "image/jpeg")}
    headers = {"Accept": "application/json"} if json else {}
    return client.post(f"/score/{game}/photo?lang={lang}", data=fields, content_type="multipart/form-data",
                       headers=headers)


def test_a_photo_of_a_hand_fills_that_hand_and_the_page_scores_it(client):
    data, _laid = small_photo("duquesa", HAND)
    r = send(client, {**NAMES, "common": "DQ20", "_to": "players.0.hand:list"}, data)
    assert r.status_code == 303
    query = parse_qs(urlsplit(r.location).query)
    assert sorted(query["players.0.hand:list"]) == sorted(HAND) and query["common"] == ["DQ20"]
    assert "players.1.hand:list" not in query
    page = client.get(r.location).get_data(as_text=True)
    assert "Cards found in the photo: 4." in page and "Added: " in page
    for card in HAND:
        assert f'value="{card}" checked' in page.split("Hand of")[1].split("Hand of")[0]
    # the second hand by a second photo, and the page scores as `companion score` does
    second = ("DQ01", "DQ05", "DQ09", "DQ13")
    data2, _ = small_photo("duquesa", second)
    form = {k: v[0] if len(v) == 1 else v for k, v in query.items() if not k.startswith("_")}
    r = send(client, {**form, "_to": "players.1.hand:list"}, data2, json=True)
    assert r.status_code == 200 and sorted(c["id"] for c in r.json["cards"]) == sorted(second)
    assert all(c["added"] for c in r.json["cards"]) and len(r.json["cards"][0]["corners"]) == 4
    filled = parse_qs(r.json["query"])
    expected = service.score("duquesa", {"common": "DQ20", "players": [
        {"name": "Ana", "hand": filled["players.0.hand:list"]},
        {"name": "Bruno", "hand": filled["players.1.hand:list"]}]})
    page = client.get("/score/duquesa?lang=en&" + r.json["query"]).get_data(as_text=True)
    for p in expected["players"]:
        assert f'data-florins="{p["florins"]}"' in page


def test_the_common_card_and_a_full_hand_are_not_filled_again(client):
    """Laid with the hand, the common card is found too: it stays the common card, and a fifth card has no room."""
    data, _laid = small_photo("duquesa", (*HAND, "DQ20"))
    r = send(client, {**NAMES, "common": "DQ20", "_to": "players.0.hand:list"}, data, json=True, lang="es")
    assert r.status_code == 200
    assert {c["id"]: c["added"] for c in r.json["cards"]} == {**dict.fromkeys(HAND, True), "DQ20": False}
    assert r.json["said"].startswith("Cartas encontradas en la foto: 5.") and "No añadidas" in r.json["said"]
    assert parse_qs(r.json["query"])["common"] == ["DQ20"]


def test_a_bad_photo_is_the_page_again_with_what_is_wrong(client):
    form = {**NAMES, "players.0.hand:list": "DQ03", "_to": "players.0.hand:list"}
    r = send(client, form, b"this is not a photo", lang="es")
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert "Foto:" in page and 'value="DQ03" checked' in page  # what was tapped in is kept
    r = send(client, form, None)
    assert r.status_code == 400 and "Photo: is missing" in r.get_data(as_text=True)
    r = send(client, form, b"\xff\xd8\xff\xe0 cut short", json=True)
    assert r.status_code == 400 and r.json["message"].startswith("Photo: ")


def test_a_game_whose_page_takes_no_cards_has_no_photo_page(client):
    data, _ = small_photo("duquesa", HAND)
    r = client.post("/score/duplicon/photo", data={"_photo": (io.BytesIO(data), "t.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 404
    assert client.post("/score/chess/photo").status_code == 404


def added(r) -> dict[str, list[bool]]:
    """A photo's answer: each card found → whether each copy of it was added."""
    out: dict[str, list[bool]] = {}
    for c in r.json["cards"]:
        out.setdefault(c["id"], []).append(c["added"])
    return out


def numbers(text: str) -> list[int]:
    return sorted(int(n) for n in text.split())


QN = {"_n": "2", "_names": ["Ana", "Bo"]}


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_photo_of_the_cards_a_player_shows_fills_their_sale_column(client):
    """Queen's Necklace, one sale: each gem card is its gems in its colour (two copies: two numbers), a Banker is
    counted; a Ring (played on a colour the photo does not show) is left for a tap and said."""
    data, _ = small_photo("queens-necklace", ("QN-D3", "QN-D1", "QN-D1", "QN-A1", "QN-BANKER", "QN-RING"))
    form = {**QN, "players.0.shown.diamond:ints": "2 2", "players.0.shown.ruby:ints": "3", "_to": "players.1."}
    r = send(client, form, data, json=True, game="queens-necklace")
    assert r.status_code == 200
    assert added(r) == {"QN-D3": [True], "QN-D1": [True, True], "QN-A1": [True], "QN-BANKER": [True],
                        "QN-RING": [False]}
    assert r.json["said"].endswith("Not added (already in place, no room, or a tap says where): QN-RING.")
    query = parse_qs(r.json["query"])
    assert numbers(query["players.1.shown.diamond:ints"][0]) == [1, 1, 3]
    assert query["players.1.shown.amber:ints"] == ["1"] and query["players.1.bankers:int"] == ["1"]
    assert query["players.0.shown.diamond:ints"] == ["2 2"] and "players.0.bankers:int" not in query  # Ana's as typed
    expected = service.score("queens-necklace", {"fashion": ["diamond", "emerald", "ruby", "amber"], "players": [
        {"name": "Ana", "shown": {"diamond": [2, 2], "ruby": [3]}},
        {"name": "Bo", "shown": {"diamond": [3, 1, 1], "amber": [1]}, "bankers": 1}]})
    page = client.get("/score/queens-necklace?lang=en&" + r.json["query"]).get_data(as_text=True)
    earned = [int(e) for e in re.findall(r'<td data-earned="(-?\d+)">', page)]
    assert earned == [p["earned"] for p in expected["players"]] and max(earned) > 0
    # a third Banker has no room (the deck has two), a card of another game is not one of this game's at all
    data, _ = small_photo("queens-necklace", ("QN-BANKER", "QN-E2"))
    r = send(client, {**QN, "players.1.bankers:int": "2", "_to": "players.1."}, data, json=True,
             game="queens-necklace")
    assert added(r) == {"QN-BANKER": [False], "QN-E2": [True]}
    data, _ = small_photo("duquesa", HAND)
    r = send(client, {**QN, "_to": "players.1."}, data, json=True, game="queens-necklace")
    assert r.json["cards"] == [] and r.json["said"].startswith("No card found in the photo")


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_in_the_three_sale_game_a_sale_stays_open_while_its_players_photograph_their_cards(client):
    """A photo of Ana's cards makes sale 1 played; Bo's photo still goes to sale 1, whose fold stays open with its
    photo fields (without a script the page comes back after each photo), and the game scores as the rules do."""
    game = {**QN, "_mode": "game"}
    data, _ = small_photo("queens-necklace", ("QN-R3", "QN-R2"))
    r = send(client, {**game, "_to": "sales.0.players.0."}, data, game="queens-necklace")
    assert r.status_code == 303
    page = client.get(r.location).get_data(as_text=True)
    sale1 = page.split('<details class="pick" name="sale"')[1]
    assert sale1.startswith(" open") and 'value="sales.0.players.1."' in sale1 and page.count('class="photo-scan"') == 2
    form = {k: v for k, v in parse_qs(urlsplit(r.location).query).items() if not k.startswith("_") or k in game}
    assert numbers(form["sales.0.players.0.shown.ruby:ints"][0]) == [2, 3]
    data, _ = small_photo("queens-necklace", ("QN-R1", "QN-E3"))
    r = send(client, {**form, "_to": "sales.0.players.1."}, data, json=True, game="queens-necklace")
    assert added(r) == {"QN-R1": [True], "QN-E3": [True]}
    filled = r.json["query"]
    assert parse_qs(filled)["sales.0.players.1.shown.emerald:ints"] == ["3"]
    # sale 3 is not being entered: nothing goes there
    r = send(client, {**form, "_to": "sales.2.players.1."}, data, json=True, game="queens-necklace")
    assert added(r) == {"QN-R1": [False], "QN-E3": [False]}
    expected = service.score("queens-necklace", {"sales": [{"fashion": ["diamond", "emerald", "ruby", "amber"],
                                                            "players": [{"name": "Ana", "shown": {"ruby": [3, 2]}},
                                                                        {"name": "Bo", "shown": {"ruby": [1],
                                                                                                 "emerald": [3]}}]}]})
    page = client.get("/score/queens-necklace?lang=en&" + filled).get_data(as_text=True)
    totals = {name: int(t) for name, t in re.findall(r'<tr><td><bdi>([^<]+)</bdi></td>.*?data-total="(-?\d+)"', page)}
    assert totals == expected["totals"] and max(totals.values()) > 0


NB = {"_names": ["Ana", "Bo"], "turn:int": "0", "_slots": "3"}


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_photo_of_a_court_taps_its_nobles(client):
    """Nobles: a photo of the nobles a player keeps ticks their chips in that court; a number card is left, and a
    noble the other court keeps is not kept twice (a Joker may be: the deck has two)."""
    data, _ = small_photo("nobles", ("NB-KC", "NB-QH", "NB-JOKER", "NB-5H"))
    r = send(client, {**NB, "_to": "_keep0"}, data, json=True, game="nobles")
    assert added(r) == {"NB-KC": [True], "NB-QH": [True], "NB-JOKER": [True], "NB-5H": [False]}
    query = parse_qs(r.json["query"])
    assert sorted(query["_keep0"]) == ["joker", "king:clubs", "queen:hearts"]
    data, _ = small_photo("nobles", ("NB-JS", "NB-KH", "NB-QD", "NB-KC", "NB-JOKER"))
    r = send(client, {**NB, "_keep0": query["_keep0"], "_to": "_keep1"}, data, game="nobles")
    assert r.status_code == 303
    query = parse_qs(urlsplit(r.location).query)
    assert sorted(query["_keep1"]) == ["jack:spades", "joker", "king:hearts", "queen:diamonds"]
    assert query["_took"] == [",".join(c for c in query["_seen"][0].split(",") if c != "NB-KC")]
    # the courts as photographed are those the duels start from: the page scores a duel as the rules do (Ana's King
    # of clubs attacks Bo's Jack of spades, wherever the photos put them in their courts)
    duel = {k: v for k, v in query.items() if not k.startswith("_") or k in ("_names", "_keep0", "_keep1")}
    at = (duel["_keep0"].index("king:clubs"), duel["_keep1"].index("jack:spades"))
    page = client.get(f"/score/nobles?lang=en&attacker.at:int={at[0]}&defender.at:int={at[1]}&attacker.dice.total:int=9"
                      f"&defender.dice.0:int=2&{urlencode(duel, doseq=True)}").get_data(as_text=True)
    courts = [{"name": name, "nobles": [noble_of(w) for w in duel[f"_keep{seat}"]]}
              for seat, name in enumerate(("Ana", "Bo"))]
    expected = service.score("nobles", {"turn": 0, "courts": courts, "attacker": {"at": at[0], "dice": [5, 4]},
                                        "defender": {"at": at[1], "dice": [2]}})
    strengths = [str(expected[side]["total"]) for side in ("attacker", "defender")]
    assert re.findall(r'data-strength="(\d+)"', page) == strengths
    assert expected["attacker"]["noble"] == "king" and expected["defender"]["noble"] == "jack"


def test_a_court_dealt_by_the_setup_takes_only_its_own_nobles(client):
    data, _ = small_photo("nobles", ("NB-KC", "NB-QH", "NB-JOKER"))
    form = {**NB, "_deal1": ["king:clubs", "jack:spades", "joker", "queen:spades"], "_to": "_keep1"}
    r = send(client, form, data, json=True, game="nobles")
    assert added(r) == {"NB-KC": [True], "NB-QH": [False], "NB-JOKER": [True]}
    # a court full (the 3 it keeps) takes no more; once the duels have started, no court is tapped
    r = send(client, {**form, "_keep1": ["jack:spades", "queen:spades", "joker"]}, data, json=True, game="nobles")
    assert not any(c["added"] for c in r.json["cards"])
    started = {**NB, "courts.0.nobles.0.noble": "king", "courts.1.nobles.0.noble": "jack", "_to": "_keep0"}
    r = send(client, started, data, json=True, game="nobles")
    assert not any(c["added"] for c in r.json["cards"])


GM = {"_n": "3", "_turns": "1", "players.0.name": "Ana", "players.1.name": "Bo", "players.2.name": "Cy"}


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_photo_of_a_set_laid_down_fills_the_turn_tracker(client):
    """Gemas: the three gem cards of a set give its colours (two copies: two cards), an action card in the same
    photo is left; the page then scores the move as the rules do. Three thieves make a set of thieves."""
    data, _ = small_photo("gemas", ("GM-BLUE", "GM-BLUE", "GM-GREEN", "GM-THIEF"))
    r = send(client, {**GM, "lay_down.player": "#1", "_to": "lay_down"}, data, json=True, game="gemas")
    assert added(r) == {"GM-BLUE": [True, True], "GM-GREEN": [True], "GM-THIEF": [False]}
    query = parse_qs(r.json["query"])
    assert query["lay_down.set"] == ["gems"]
    assert sorted(query[f"lay_down.cards.{k}"][0] for k in range(3)) == ["blue", "blue", "green"]
    expected = service.score("gemas", {"players": [{"name": n, "gems": {}} for n in ("Ana", "Bo", "Cy")],
                                       "lay_down": {"player": "Bo", "set": "gems",
                                                    "cards": [query[f"lay_down.cards.{k}"][0] for k in range(3)]}})
    page = client.get("/score/gemas?lang=en&" + r.json["query"]).get_data(as_text=True)
    assert "takes a gem from the reserve: Blue" in page and expected["events"][0]["gem"] == "blue"
    points = [int(p) for p in re.findall(r'data-points="(-?\d+)"', page)]
    assert points == [p["points"] for p in expected["players"]] == [0, 3, 0]
    data, _ = small_photo("gemas", ("GM-THIEF", "GM-THIEF", "GM-THIEF", "GM-ORANGE"))
    r = send(client, {**GM, "_to": "lay_down"}, data, json=True, game="gemas")
    assert added(r) == {"GM-THIEF": [True, True, True], "GM-ORANGE": [False]}
    four, _ = small_photo("gemas", ("GM-THIEF",) * 4)
    assert added(send(client, {**GM, "_to": "lay_down"}, four, json=True, game="gemas")) == {
        "GM-THIEF": [True, True, True, False]}  # a set is three cards
    assert parse_qs(r.json["query"])["lay_down.set"] == ["thief"]
    # the end-of-game tally lays nothing down: nothing is added there
    r = send(client, {**GM, "_turns": "0", "_to": "lay_down"}, data, json=True, game="gemas")
    assert not any(c["added"] for c in r.json["cards"])
