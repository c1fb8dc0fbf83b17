"""The sheet store: tokens, one change at a time per sheet however many writers, replays, and what it keeps."""
import sqlite3
import threading

import pytest
import sqlalchemy

import postgres

from companion import sheets, storage

SHEET = {"game": "gemas", "title": "", "players": ["A", "B", "C"]}


@pytest.fixture
def url(database):
    return database


def stored(store) -> str:
    """Every value of every row the store holds, as text."""
    with store.engine.connect() as conn:
        return repr([conn.execute(sqlalchemy.select(table)).all() for table in storage.metadata.sorted_tables])


def add(store, sheet_id, n, client_id=None):
    body = sheets.entry_body("gemas", SHEET["players"], {"points": {"A": n}})
    return store.append(sheet_id, "add", body=body, client_id=client_id)


def test_links_are_long_random_and_never_stored(url, tmp_path):
    store = storage.Store(url)
    tokens = {store.create(SHEET) for _ in range(50)}
    assert len(tokens) == 50 and all(storage.TOKEN.fullmatch(t) for t in tokens)
    token = tokens.pop()
    assert store.open(token).can_edit and not store.open(storage.view_token(token)).can_edit
    assert store.open(token).sheet_id == store.open(storage.view_token(token)).sheet_id
    assert token not in stored(store) and storage.view_token(token) not in stored(store)
    if url.startswith("sqlite"):  # and not in the file's free pages or its write-ahead log either
        raw = b"".join(f.read_bytes() for f in tmp_path.glob("sheets.sqlite*"))
        assert token.encode() not in raw and storage.view_token(token).encode() not in raw
    for bad in ("", "x" * 21, token + "A", token[:-1] + "!", "' OR 1=1 --xxxxxxxxxxx", None, 42):
        assert store.open(bad) is None


def test_concurrent_writers_on_one_sheet_lose_nothing(url):
    """Eight threads over two stores on one database (two app servers) add 40 entries each at once."""
    stores = [storage.Store(url), storage.Store(url)]
    token = stores[0].create(SHEET)
    sheet_id = stores[0].open(token).sheet_id
    errors = []

    def writer(k):
        try:
            for i in range(40):
                add(stores[k % 2], sheet_id, k * 100 + i, client_id=f"writer-{k}-{i:03d}")
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    sheet, log = stores[1].load(sheet_id)
    assert [r["seq"] for r in log] == list(range(1, 321))
    assert sorted(r["client_id"] for r in log) == sorted(f"writer-{k}-{i:03d}" for k in range(8) for i in range(40))
    assert sheets.fold(sheet, log)["totals"]["A"] == sum(k * 100 + i for k in range(8) for i in range(40))
    assert stores[0].version(sheet_id) == 320


def test_a_replayed_change_is_written_once(url):
    store = storage.Store(url)
    sheet_id = store.open(store.create(SHEET)).sheet_id
    first = add(store, sheet_id, 5, client_id="phone-1-entry-1")
    again = add(store, sheet_id, 5, client_id="phone-1-entry-1")
    assert not first.replayed and again.replayed and again.record == first.record
    assert len(store.load(sheet_id)[1]) == 1 and store.version(sheet_id) == 1


def test_a_refused_change_leaves_no_trace(url):
    store = storage.Store(url)
    sheet_id = store.open(store.create(SHEET)).sheet_id
    add(store, sheet_id, 1)
    store.append(sheet_id, "undo", target=1, base=1)
    with pytest.raises(sheets.Conflict):
        store.append(sheet_id, "undo", target=1, base=1)
    with pytest.raises(sheets.NotFound):
        store.append(sheet_id, "undo", target=7, base=7)
    assert store.version(sheet_id) == 2 and [r["action"] for r in store.load(sheet_id)[1]] == ["add", "undo"]


def test_an_imported_log_is_kept_as_it_was(url):
    store = storage.Store(url)
    log = [{"seq": 1, "action": "add", "at": "2026-01-02T03:04:05Z", "body": {"points": {"A": 1, "B": 0, "C": 0}}},
           {"seq": 2, "action": "finish", "at": "2026-01-02T04:00:00Z"}]
    sheet_id = store.open(store.create(SHEET, log)).sheet_id
    sheet, again = store.load(sheet_id)
    assert again == log and store.meta(sheet_id)["finished"] and sheet["created"] == log[0]["at"]
    with pytest.raises(sheets.Conflict, match="finished"):
        add(store, sheet_id, 1)


def test_the_database_is_in_wal_mode_with_full_sync(tmp_path):
    url = f"sqlite:///{tmp_path / 'sheets.sqlite'}"
    storage.Store(url).create(SHEET)
    with sqlite3.connect(tmp_path / "sheets.sqlite") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_servers_starting_together_on_a_new_database_make_the_tables_once(database):
    """Eight stores (eight app servers) opened at the same moment on one empty database: none fails, and all of
    them work on the same tables."""
    barrier, stores, errors = threading.Barrier(8), [], []

    def start():
        barrier.wait()
        try:
            stores.append(storage.Store(database))
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=start) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    tokens = [store.create(SHEET) for store in stores]
    assert sorted(stores[0].open(t).sheet_id for t in tokens) == list(range(1, 9))


def test_a_postgresql_restart_costs_no_request():
    """Connections the pool held die with a PostgreSQL restart; the next call gets a live one."""
    store = storage.Store(postgres.cluster().new_database())
    sheet_id = store.open(store.create(SHEET)).sheet_id
    add(store, sheet_id, 3)
    postgres.cluster().restart()
    assert store.meta(sheet_id)["version"] == 1 and add(store, sheet_id, 4).record["seq"] == 2
