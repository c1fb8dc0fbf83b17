"""POST /api/v1/<game>/scan (issue 28): the game's cards in a photo of the table, each with its code's corners; a
bad photo is a 400 naming the problem in the reader's language, never a 500."""
import functools
import io
import math

import pytest

from companion import photo
from companion.cli import SERVE_LIMITS
from table import png_claiming, small_photo

HAND = ("DQ03", "DQ07", "DQ11", "DQ15", "DQ22")
MIXED = ("DQ07", "QN-D3", "DQ07", "DQ12", "QN-E2")  # two copies of DQ07 among another game's cards


def scan(client, game: str, data: bytes | None, name="table.jpg", **headers):
    form = {} if data is None else {"photo": (io.BytesIO(data), name, "image/jpeg")}
    return client.post(f"/api/v1/{game}/scan", data=form, content_type="multipart/form-data", headers=headers)


def test_the_cards_of_a_hand_with_their_corners(client):
    data, laid = small_photo("duquesa", HAND)
    r = scan(client, "duquesa", data)  # no CSRF token: nothing is stored (as /score)
    assert r.status_code == 200, r.json
    assert r.json["size"] == [2000, 1500]
    assert sorted(card["id"] for card in r.json["cards"]) == sorted(HAND)
    for card in r.json["cards"]:
        corners = card["corners"]
        assert len(corners) == 4 and all(len(c) == 2 and all(isinstance(v, int) for v in c) for c in corners)
        centre = (sum(x for x, _ in corners) / 4, sum(y for _, y in corners) / 4)
        assert min(math.dist(centre, c.code_centre) for c in laid if c.id == card["id"]) < 6


def test_only_the_games_cards_and_each_copy_apart(client):
    data, laid = small_photo(("duquesa", "queens-necklace"), MIXED)
    cards = scan(client, "duquesa", data).json["cards"]
    assert sorted(card["id"] for card in cards) == ["DQ07", "DQ07", "DQ12"]
    copies = [card["corners"] for card in cards if card["id"] == "DQ07"]
    assert math.dist(copies[0][0], copies[1][0]) > 100  # two places on the table
    other = scan(client, "queens-necklace", data).json["cards"]
    assert sorted(card["id"] for card in other) == ["QN-D3", "QN-E2"]


def test_an_unknown_game_is_a_404(client):
    r = scan(client, "chess", small_photo("duquesa", HAND)[0])
    assert r.status_code == 404 and r.json["field"] == "game"


def test_a_missing_field_is_a_400_in_the_readers_language(client):
    r = scan(client, "duquesa", None, **{"Accept-Language": "es"})
    assert r.status_code == 400
    assert r.json["field"] == "photo" and r.json["error"] == "photo: is missing: choose a photo of the cards"
    assert r.json["message"] == "Foto: falta: elige una foto de las cartas"
    r = scan(client, "duquesa", None, **{"Accept-Language": "en"})
    assert r.json["message"] == "Photo: is missing: choose a photo of the cards"


@functools.cache
def truncated():
    data = small_photo("duquesa", HAND)[0]
    return data[: len(data) // 3]




@pytest.mark.parametrize("make, english, spanish", [
    (lambda: b"DQ03 DQ07 DQ11\n", "send a JPEG, PNG or WebP picture", "envía una imagen JPEG, PNG o WebP"),
    (truncated, "the picture is cut short or damaged", "la imagen está cortada o dañada"),
    (lambda: png_claiming(9000, 6000), "has 54 megapixels (9000 × 6000); the most is 50",
     "tiene 54 megapíxeles (9000 × 6000); como mucho 50"),
    (lambda: b"\xff\xd8" + bytes(photo.MAX_BYTES + 10), "is larger than 20 MiB", "ocupa más de 20 MiB"),
    (lambda: bytes(photo.MAX_REQUEST), "is larger than 20 MiB", "ocupa más de 20 MiB"),  # refused unread
])
def test_a_bad_photo_is_a_400_naming_the_problem(client, make, english, spanish):
    for lang, said in (("en", english), ("es", spanish)):
        r = scan(client, "duquesa", make(), **{"Accept-Language": lang})
        assert r.status_code == 400, r.data[:200]
        assert r.json["field"] == "photo" and english in r.json["error"] and said in r.json["message"]


def test_the_server_takes_a_photo_as_large_as_the_api_does():
    assert SERVE_LIMITS["max_request_body_size"] >= photo.MAX_REQUEST


def test_a_third_photo_at_once_waits_its_turn_then_is_a_503(client, monkeypatch):
    from companion.web.photos import pages as photo_pages  # (the API and the scoring pages' photos take turns together)

    monkeypatch.setattr(photo_pages, "SCAN_WAIT", 0.05)
    assert photo_pages.SCANS.acquire(timeout=5) and photo_pages.SCANS.acquire(timeout=5)  # two photos being read
    try:
        r = scan(client, "duquesa", small_photo("duquesa", HAND)[0])
    finally:
        photo_pages.SCANS.release()
        photo_pages.SCANS.release()
    assert r.status_code == 503 and r.headers["Retry-After"] == "5" and "other photos" in r.json["error"]
    assert r.json["field"] == "photo"
    assert scan(client, "duquesa", small_photo("duquesa", HAND)[0]).status_code == 200


def test_a_busy_companion_says_so_on_the_scoring_page_in_its_language(client, monkeypatch):
    """Not the storage's 503 ("not saved"): the page, and its script's JSON, say photos are being read."""
    from companion.web.photos import pages as photo_pages

    monkeypatch.setattr(photo_pages, "SCAN_WAIT", 0.05)
    assert photo_pages.SCANS.acquire(timeout=5) and photo_pages.SCANS.acquire(timeout=5)
    try:
        form = {"_to": "0", "_photo": (io.BytesIO(small_photo("duquesa", HAND)[0]), "t.jpg", "image/jpeg")}
        page = client.post("/score/duquesa/photo?lang=es", data=dict(form), content_type="multipart/form-data")
        form["_photo"] = (io.BytesIO(small_photo("duquesa", HAND)[0]), "t.jpg", "image/jpeg")
        script = client.post("/score/duquesa/photo?lang=es", data=form, content_type="multipart/form-data",
                             headers={"Accept": "application/json"})
    finally:
        photo_pages.SCANS.release()
        photo_pages.SCANS.release()
    assert page.status_code == script.status_code == 503 and page.headers["Retry-After"] == "5"
    text = page.get_data(as_text=True)
    assert "leyendo otras fotos" in text and "guard" not in text.lower()
    assert "leyendo otras fotos" in script.json["message"]


def test_photos_are_limited_per_client_address(monkeypatch):
    """A script sending photos meets the `photos` budget (the API and the pages share it); another address has its
    own. A 429 says photos in the reader's language."""
    from companion.web import create_app

    app = create_app({"TESTING": True, "WRITE_LIMIT": "photos=2/1m"})
    data = small_photo("duquesa", HAND)[0]
    ana, bruno = app.test_client(), app.test_client()
    ana.environ_base["REMOTE_ADDR"], bruno.environ_base["REMOTE_ADDR"] = "203.0.113.7", "198.51.100.9"
    statuses = [scan(ana, "duquesa", data).status_code for _ in range(3)]
    r = ana.post("/score/duquesa/photo?lang=es", data={"_to": "0", "_photo": (io.BytesIO(data), "t.jpg")},
                 content_type="multipart/form-data")
    assert statuses == [200, 200, 429] and r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 60
    assert "Demasiadas fotos" in r.get_data(as_text=True)
    other = scan(bruno, "duquesa", data)
    assert other.status_code == 200
