"""A photo of the table fills a scoring page (issue 28): POST /score/<game>/photo with the page's form, its photo and
the part it fills (`_to`): the cards found go where the game's glue puts them, and the page comes back filled (303),
or as JSON for the page's script; a bad photo is the page again with what is wrong, and a 400."""
import io
from urllib.parse import parse_qs, urlsplit

from companion import service
from table import small_photo

HAND = ("DQ03", "DQ07", "DQ11", "DQ15")
NAMES = {"players.0.name": "Ana", "players.1.name": "Bruno"}


def send(client, form: dict, data: bytes | None, json=False, lang="en"):
    fields = {**form, "_photo": (io.BytesIO(data or b""), "table.jpg" if data is not None else "", "image/jpeg")}
    headers = {"Accept": "application/json"} if json else {}
    return client.post(f"/score/duquesa/photo?lang={lang}", data=fields, content_type="multipart/form-data",
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
