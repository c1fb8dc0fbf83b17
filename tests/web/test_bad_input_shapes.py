"""Shapes of bad input that used to answer 500 (issue 15, item 5), each a clear 4xx now: query keys that url_for
would have taken as its own, digits str.isdigit() accepts and int() refuses, deep JSON, broken CSV, text no
database keeps, and numbers int() reads too kindly."""
import json

import pytest

from companion.core.schema import InputError
from companion.sheets import files as sheet_files
from companion.sheets import service as sheet_service


@pytest.fixture
def phone(client):
    csrf = client.get("/api/v1/csrf").get_json()["csrf"]
    token = client.post("/api/v1/sheets", json={"game": "gemas", "players": ["Ana", "Bruno"]},
                        headers={"X-CSRF-Token": csrf}).get_json()["token"]
    return client, csrf, token


@pytest.mark.parametrize("path", [
    "/?_anchor=x", "/rules/gemas?_method=x", "/rules/gemas?_scheme=x", "/rules/duquesa?game=x",
    "/c/duquesa/DQ07?card_id=x&_external=1", "/setup/duquesa?seed=a&_external=1", "/setup/duquesa?_anchor=x",
    "/setup/duquesa?seed=a&game=x", "/setup/duquesa?players=%C2%B2&seed=a", "/score/gemas?players.%C2%B2.name=A",
    "/api/v1/gemas/setup?players=%C2%B2",
])
def test_query_keys_and_odd_digits_never_fail(client, path):
    r = client.get(path)
    assert r.status_code < 500, (path, r.status_code)


def test_a_route_part_named_in_the_query_keeps_its_page(client):
    page = client.get("/rules/duquesa?game=x&lang=en").get_data(as_text=True)
    assert 'href="/rules/duquesa?game=x&amp;lang=es"' in page


def test_sheet_inputs_with_odd_digits_deep_json_and_unstorable_text(phone):
    client, csrf, token = phone
    head = {"X-CSRF-Token": csrf}
    assert client.get(f"/api/v1/sheets/{token}?since=%C2%B2").status_code == 200
    deep = "[" * 100_000 + "]" * 100_000
    r = client.post(f"/api/v1/sheets/{token}/entries", data=deep, content_type="application/json", headers=head)
    assert r.status_code == 400 and "JSON" in r.get_json()["error"]
    for text in ("Ana\ud800", "Ana\x00"):
        r = client.post("/api/v1/sheets", data=json.dumps({"game": "gemas", "players": [text, "B"]}),
                        content_type="application/json", headers=head)
        assert r.status_code == 400 and r.get_json()["field"] == "players[0]"
    r = client.post(f"/s/{token}/entries/1/undo", data={"_csrf": csrf, "base": "²"})
    assert r.status_code < 500
    for points in ("1_000", "\uff11"):
        r = client.post(f"/s/{token}/entries", data={"_csrf": csrf, "points.0": points})
        assert r.status_code == 400, points


@pytest.mark.parametrize("text,row", [
    ("game,title,seq\n" + '"' + "x" * 200_000 + '"\n', "row"),
    ('game,title,seq,action\n"unterminated\n', "row"),
    ("game,title\rseq,action\n\"a\rb", "row"),
])
def test_broken_csv_is_named_not_a_crash(text, row):
    with pytest.raises(InputError) as e:
        sheet_files.import_csv(text)
    assert row in str(e.value)


def test_csv_numbers_are_plain_digits():
    head = ",".join(sheet_files.CSV_HEAD) + ",Ana\n"
    text = head + "gemas,,0,create,,2026-11-21T20:00:00Z,,,,,\n" + "gemas,,1,add,,2026-11-21T20:00:00Z,,,,,1_000\n"
    with pytest.raises(InputError) as e:
        sheet_files.import_csv(text)
    assert "must be a whole number" in str(e.value)


def test_impossible_dates_and_duplicate_keys_are_refused(phone):
    client, csrf, token = phone
    export = {"format": "companion-sheet", "version": 1, "game": "gemas", "players": ["Ana", "Bruno"],
              "log": [{"seq": 1, "action": "add", "at": "2026-02-31T20:00:00Z", "body": {"points": {"Ana": 1}}}]}
    with pytest.raises(InputError, match=r"log\[0\]\.at: '2026-02-31T20:00:00Z' is not a real date"):
        sheet_files.import_json(export)
    r = client.post(f"/api/v1/sheets/{token}/entries", data='{"points": {"Ana": 1}, "points": {"Ana": 2}}',
                    content_type="application/json", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 400 and "appears twice" in r.get_json()["error"]


def test_share_links_come_from_the_configured_address_never_the_host_header(tmp_path):
    from companion.web import create_app

    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "BASE_URL": "https://games.example.org"})
    client = app.test_client()
    csrf = client.get("/api/v1/csrf").get_json()["csrf"]
    token = client.post("/api/v1/sheets", json={"game": "gemas", "players": ["Ana", "Bruno"]},
                        headers={"X-CSRF-Token": csrf}).get_json()["token"]
    read = client.get(f"/api/v1/sheets/{token}", headers={"Host": "evil.example"}).get_json()
    assert read["links"]["edit"] == f"https://games.example.org/s/{token}"
    page = client.get("/setup/gemas?seed=a", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert "https://games.example.org/setup/gemas?seed=a" in page and "evil.example" not in page


def test_a_csv_of_blank_lines_is_refused_early_and_makes_no_sheet(phone):
    """Issue 15, item 3: 4 MiB of blank lines cost seconds and hundreds of MB, and still made an empty sheet."""
    client, csrf, _ = phone
    before = client.get("/sheets").get_data(as_text=True).count("/s/")
    r = client.post("/api/v1/sheets/import", data=b"\r\n" * (2 * 1024 * 1024), content_type="text/csv",
                    headers={"X-CSRF-Token": csrf})
    assert r.status_code == 400 and "blank rows" in r.get_json()["error"]
    assert client.get("/sheets").get_data(as_text=True).count("/s/") == before
    with pytest.raises(InputError, match="at most 2000 changes"):
        sheet_files.import_csv(",".join(sheet_files.CSV_HEAD) + ",Ana\n" + "x,y,1,add\n" * 2100)


def test_a_large_csv_import_is_refused_at_a_small_multiple_of_its_size():
    """Issue 15, item 3: measured with tracemalloc, a 4 MiB import of blank lines or of too many rows peaks at
    under six times its own size (it was ~280 MB: 70 times) and stops at the row that is too many."""
    import tracemalloc
    header = ",".join(sheet_files.CSV_HEAD) + ",Ana\n"
    for text, message in [("\n" * (4 * 1024 * 1024 - 1), "blank rows"),
                          (header + "gemas,t,1,add,,2026-01-01T00:00:00Z,,,,,1\n" * 90_000, "at most 2000")]:
        data = text.encode()[:4 * 1024 * 1024]
        tracemalloc.start()
        try:
            with pytest.raises(InputError, match=message):
                sheet_service.read_export(data)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 6 * len(data), f"{message}: {peak / 1e6:.1f} MB for {len(data) / 1e6:.1f} MB"
