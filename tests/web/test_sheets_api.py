"""The saved-sheet API and its guards: links as capabilities (403 read-only), CSRF on every write, 409 on stale
edits, strict tokens and entry numbers, size limits, and export → import through HTTP."""
import json

import pytest

from companion.sheets import service as sheet_service
from companion.sheets import storage
from companion.web import create_app


@pytest.fixture
def app(database):
    """The web app on an empty database: SQLite, then a real PostgreSQL."""
    return create_app({"TESTING": True, "DATABASE_URL": database})

@pytest.fixture
def phone(client):
    """A test client with its session's CSRF token."""
    client.csrf = client.get("/api/v1/csrf").get_json()["csrf"]
    return client


def call(phone, method, path, data=None, csrf=True, **kw):
    headers = {"X-CSRF-Token": phone.csrf} if csrf else {}
    return phone.open(path, method=method, json=data, headers=headers, **kw)


def totals(phone, token):
    return phone.get(f"/api/v1/sheets/{token}").get_json()["totals"]


@pytest.fixture
def sheet(phone):
    r = call(phone, "POST", "/api/v1/sheets", {"game": "queens-necklace", "players": ["Ana", "Bruno", "Carla"],
                                               "title": "Sábado"})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_create_read_and_links(phone, sheet):
    token = sheet["token"]
    assert sheet["can_edit"] and sheet["version"] == 0 and sheet["totals"] == {"Ana": 0, "Bruno": 0, "Carla": 0}
    assert sheet["links"]["edit"].endswith(f"/s/{token}")
    view = sheet["links"]["view"].rsplit("/", 1)[1]
    assert view == storage.view_token(token) and view != token
    read = phone.get(f"/api/v1/sheets/{view}").get_json()
    assert not read["can_edit"] and "edit" not in read["links"] and token not in json.dumps(read)


def test_entries_undo_edit_and_the_log(phone, sheet):
    t = sheet["token"]
    r = call(phone, "POST", f"/api/v1/sheets/{t}/entries", {"points": {"Ana": 30, "Bruno": 10}, "note": "venta 1"})
    assert r.status_code == 201 and r.get_json()["change"]["seq"] == 1
    assert totals(phone, t) == {"Ana": 30, "Bruno": 10, "Carla": 0}
    r = call(phone, "PUT", f"/api/v1/sheets/{t}/entries/1", {"points": {"Ana": 40}, "base": 1})
    assert r.status_code == 200 and totals(phone, t)["Ana"] == 40
    r = call(phone, "POST", f"/api/v1/sheets/{t}/entries/1/undo", {"base": 2})
    assert r.status_code == 200 and totals(phone, t)["Ana"] == 0
    log = phone.get(f"/api/v1/sheets/{t}/log").get_json()["log"]
    assert [(x["action"], x.get("target")) for x in log] == [("add", None), ("edit", 1), ("undo", 1)]
    assert log[0]["body"]["points"]["Ana"] == 30 and log[1]["body"]["points"]["Ana"] == 40  # both kept


def test_a_stale_edit_is_a_conflict_naming_what_is_there_now(phone, sheet):
    t = sheet["token"]
    call(phone, "POST", f"/api/v1/sheets/{t}/entries", {"points": {"Ana": 30}})
    assert call(phone, "PUT", f"/api/v1/sheets/{t}/entries/1", {"points": {"Ana": 50}, "base": 1}).status_code == 200
    r = call(phone, "PUT", f"/api/v1/sheets/{t}/entries/1", {"points": {"Ana": 20}, "base": 1})  # the other phone
    assert r.status_code == 409
    assert r.get_json()["entry"]["points"]["Ana"] == 50 and r.get_json()["entry"]["rev"] == 2
    assert call(phone, "POST", f"/api/v1/sheets/{t}/entries/1/undo", {}).get_json()["field"] == "base"
    r = call(phone, "PUT", f"/api/v1/sheets/{t}/entries/1", {"points": {"Ana": 20}, "base": 2})  # merged: asked
    assert r.status_code == 200 and totals(phone, t)["Ana"] == 20


def test_polling_answers_briefly_when_nothing_changed(phone, sheet):
    t = sheet["token"]
    assert phone.get(f"/api/v1/sheets/{t}?since=0").get_json() == {"version": 0, "changed": False}
    call(phone, "POST", f"/api/v1/sheets/{t}/entries", {"points": {"Ana": 1}})
    assert phone.get(f"/api/v1/sheets/{t}?since=0").get_json()["version"] == 1


def test_a_read_only_link_cannot_write(phone, sheet):
    view = storage.view_token(sheet["token"])
    t = sheet["token"]
    call(phone, "POST", f"/api/v1/sheets/{t}/entries", {"points": {"Ana": 1}})
    for method, path, data in [("POST", "entries", {"points": {"Ana": 1}}),
                               ("PUT", "entries/1", {"points": {}, "base": 1}),
                               ("POST", "entries/1/undo", {"base": 1}), ("POST", "finish", {})]:
        r = call(phone, method, f"/api/v1/sheets/{view}/{path}", data)
        assert r.status_code == 403 and "read-only" in r.get_json()["error"], path
    assert phone.get(f"/api/v1/sheets/{t}").get_json()["version"] == 1


def writes(app):
    """Every route of the app that accepts a write, with its URL filled in for a real sheet."""
    out = []
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods & {"POST", "PUT", "PATCH", "DELETE"}):
            out.append((rule, method))
    return out


def test_every_write_refuses_a_missing_or_forged_csrf_token(app, phone, sheet):
    t = sheet["token"]
    call(phone, "POST", f"/api/v1/sheets/{t}/entries", {"points": {"Ana": 1}})
    checked = 0
    for rule, method in writes(app):
        if rule.endpoint in ("api.score", "api.scan", "photo_pages.fill"):
            continue  # computes an answer from the body; changes nothing (csrf.EXEMPT, each with its reason)
        values = {"token": t, "seq": 1, "action": next(iter(getattr(rule._converters.get("action"), "items", None) or
                                                             ["undo"])), "game": "gemas"}
        path = rule.build({k: v for k, v in values.items() if k in rule.arguments})[1]
        for headers, data in [({}, {}), ({"X-CSRF-Token": "forged" + phone.csrf[6:]}, {}),
                              ({}, {"_csrf": "forged" + phone.csrf[6:]})]:
            r = phone.open(path, method=method, headers={**headers, "Accept-Language": "en"}, data=data)
            assert r.status_code == 400 and "security token" in r.get_data(as_text=True), (path, headers, data)
        checked += 1
    assert checked >= 12
    assert phone.get(f"/api/v1/sheets/{t}").get_json()["version"] == 1  # nothing was written


def test_another_sessions_token_is_refused(app, phone, sheet):
    other = app.test_client()
    other.csrf = phone.csrf  # a token stolen from another phone is no good without that phone's session
    r = call(other, "POST", f"/api/v1/sheets/{sheet['token']}/entries", {"points": {"Ana": 1}})
    assert r.status_code == 400


@pytest.mark.parametrize("path", ["/api/v1/sheets/short", "/api/v1/sheets/" + "A" * 23, "/api/v1/sheets/..%2F..%2Fetc",
                                  "/api/v1/sheets/" + "A" * 22, "/api/v1/sheets/%27%20OR%201%3D1%20--%20xxxxxxxx",
                                  "/s/" + "A" * 22, "/s/x'--"])
def test_anything_but_a_real_token_is_not_found(phone, path):
    assert phone.get(path).status_code == 404


@pytest.mark.parametrize("seq", ["0", "2001", "99999999999999999999", "-1", "1.5", "x"])
def test_entry_numbers_are_checked_in_the_url(phone, sheet, seq):
    r = call(phone, "PUT", f"/api/v1/sheets/{sheet['token']}/entries/{seq}", {"points": {}, "base": 1})
    assert r.status_code == 404


def test_bad_bodies_name_the_field(phone, sheet):
    t = sheet["token"]
    for data, field in [({"points": {"Zoe": 1}}, "points.Zoe"),
                        ({"points": {"Ana": 1}, "client_id": "no"}, "client_id"),
                        ({"request": {"fashion": ["ruby"]}}, "request.fashion"), ([1], "")]:
        r = call(phone, "POST", f"/api/v1/sheets/{t}/entries", data)
        assert r.status_code == 400 and r.get_json()["field"] == field, r.get_json()
    r = phone.post(f"/api/v1/sheets/{t}/entries", data="points=1", headers={"X-CSRF-Token": phone.csrf},
                   content_type="application/x-www-form-urlencoded")
    assert r.status_code == 400 and "JSON" in r.get_json()["error"]
    r = call(phone, "POST", f"/api/v1/sheets/{t}/entries", {"points": {"Ana": 1}, "note": "x" * 300_000})
    assert r.status_code == 413


def test_export_then_import_over_http_gives_the_same_sheet(phone, sheet):
    t = sheet["token"]
    example = json.loads(open("docs/examples/queens-necklace-score.json").read())
    call(phone, "POST", f"/api/v1/sheets/{t}/entries", {"request": example, "seats": ["Carla", "Ana"],
                                                         "client_id": "phone-a-1"})
    call(phone, "POST", f"/api/v1/sheets/{t}/entries", {"points": {"Bruno": 25}})
    call(phone, "POST", f"/api/v1/sheets/{t}/entries/2/undo", {"base": 2})
    call(phone, "POST", f"/api/v1/sheets/{t}/finish", {})
    for kind, mimetype in [("json", "application/json"), ("csv", "text/csv")]:
        exported = phone.get(f"/api/v1/sheets/{t}/export.{kind}")
        assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
        r = phone.post("/api/v1/sheets/import", data=exported.get_data(), content_type=mimetype,
                       headers={"X-CSRF-Token": phone.csrf})
        assert r.status_code == 201, r.get_json()
        copy = r.get_json()["token"]
        assert copy != t
        assert phone.get(f"/api/v1/sheets/{copy}/export.json").get_json() == \
            phone.get(f"/api/v1/sheets/{t}/export.json").get_json()
        assert r.get_json()["winners"] == ["Ana"] and r.get_json()["finished"]  # Bob's 70 pounds, in Ana's seat


def test_a_big_sheet_imports_beyond_the_usual_request_limit(phone):
    log = [{"seq": i, "action": "add", "at": "2026-11-21T20:00:00Z",
            "body": {"points": {"A": i, "B": 0}, "note": "n" * 190}} for i in range(1, 1501)]
    body = json.dumps({"format": "companion-sheet", "version": 1, "game": "nobles", "players": ["A", "B"],
                       "log": log})
    assert 256 * 1024 < len(body) < sheet_service.IMPORT_LIMIT
    r = phone.post("/api/v1/sheets/import", data=body, content_type="application/json",
                   headers={"X-CSRF-Token": phone.csrf})
    assert r.status_code == 201 and r.get_json()["totals"]["A"] == sum(range(1, 1501))
    too_big = phone.post("/api/v1/sheets/import", data=b" " * (sheet_service.IMPORT_LIMIT + 1), content_type="text/csv",
                         headers={"X-CSRF-Token": phone.csrf})
    assert too_big.status_code == 413


@pytest.mark.parametrize("text", ["Ana\x00", "Ana\ud800", "Ana\u202e"])
def test_text_no_database_can_keep_is_refused_before_it_reaches_one(phone, sheet, text):
    """A NUL (PostgreSQL refuses it), a lone surrogate (no UTF-8 for it) or a bidi control: a 400 naming the
    field, on SQLite and on PostgreSQL alike, and nothing is written."""
    t = sheet["token"]
    for path, data, field in [("/api/v1/sheets", {"game": "gemas", "title": text, "players": ["A", "B"]}, "title"),
                              (f"/api/v1/sheets/{t}/entries", {"points": {"Ana": 1}, "note": text}, "note")]:
        r = phone.post(path, data=json.dumps(data), content_type="application/json",
                       headers={"X-CSRF-Token": phone.csrf})
        assert r.status_code == 400 and r.get_json()["field"] == field, r.get_json()
    assert phone.get(f"/api/v1/sheets/{t}").get_json()["version"] == sheet["version"]


def test_a_read_can_ask_for_the_newest_entries_only(phone, sheet):
    t = sheet["token"]
    for n in range(1, 8):
        assert call(phone, "POST", f"/api/v1/sheets/{t}/entries", {"points": {"Ana": n}}).status_code == 201
    newest = phone.get(f"/api/v1/sheets/{t}?limit=3").get_json()
    assert [e["seq"] for e in newest["entries"]] == [5, 6, 7] and newest["earlier"] == 5
    assert newest["totals"]["Ana"] == 28 and newest["position"] == 7
    older = phone.get(f"/api/v1/sheets/{t}?limit=3&before=5").get_json()
    assert [e["seq"] for e in older["entries"]] == [2, 3, 4] and older["earlier"] == 2
    assert len(phone.get(f"/api/v1/sheets/{t}").get_json()["entries"]) == 7  # no limit: every entry
    for bad in ("limit=0", "limit=x", "limit=%C2%B2", "before=1", "limit=2001", "before=-3"):
        r = phone.get(f"/api/v1/sheets/{t}?{bad}")
        assert r.status_code == 400 and r.get_json()["field"] == bad.split("=")[0], bad
