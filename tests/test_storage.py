"""The sheet store: tokens, one change at a time per sheet however many writers, replays, and what it keeps."""
import sqlite3
import threading

import pytest
import sqlalchemy

import postgres
from companion import sheets
from companion.sheets import storage

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


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
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


@pytest.mark.postgres
def test_a_postgresql_restart_costs_no_request():
    """Connections the pool held die with a PostgreSQL restart; the next call gets a live one."""
    store = storage.Store(postgres.cluster().new_database())
    sheet_id = store.open(store.create(SHEET)).sheet_id
    add(store, sheet_id, 3)
    postgres.cluster().restart()
    assert store.meta(sheet_id)["version"] == 1 and add(store, sheet_id, 4).record["seq"] == 2


def replay_at_random(store, sheet_id, rng, n=120):
    """n random changes (adds, edits, undos, restores, finish and reopen) as phones would make them."""
    for _ in range(n):
        state = sheets.fold(*store.load(sheet_id))
        entries = state["entries"]
        roll = rng.random()
        try:
            if roll < 0.45 or not entries:
                add(store, sheet_id, rng.randint(-5, 20))
            elif roll < 0.9:
                entry = rng.choice(entries)
                action = rng.choice(["edit", "undo"]) if entry["active"] else "restore"
                body = sheets.entry_body("gemas", SHEET["players"], {"points": {"B": rng.randint(0, 9)}}) \
                    if action == "edit" else None
                store.append(sheet_id, action, target=entry["seq"], body=body, base=entry["rev"])
            else:
                store.append(sheet_id, "reopen" if state["finished"] else "finish")
        except sheets.Conflict:
            pass


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_the_kept_totals_always_equal_the_folded_log(database):
    """After every kind of change, in any order, the totals a list shows (kept by the writes, never folded) are
    the log's own; a page shows the newest entries exactly as the fold has them, and paging back reaches all."""
    import random
    store = storage.Store(database)
    ids = [store.open(store.create(SHEET)).sheet_id for _ in range(3)]
    for k, sheet_id in enumerate(ids):
        replay_at_random(store, sheet_id, random.Random(k))
    summaries = store.summaries(ids)
    for sheet_id in ids:
        folded = sheets.fold(*store.load(sheet_id))
        summary = summaries[sheet_id]
        assert (summary["totals"], summary["leaders"], summary["winners"], summary["finished"]) == \
            (folded["totals"], folded["leaders"], folded["winners"], folded["finished"])
        shown, before = [], None
        while True:
            page = store.page(sheet_id, 7, before)
            assert page["totals"] == folded["totals"] and page["position"] == len(folded["entries"]) - len(shown)
            shown = page["entries"] + shown
            if page["earlier"] is None:
                break
            before = page["earlier"]
        assert shown == folded["entries"]
        assert store.entry(sheet_id, folded["entries"][3]["seq"]) == folded["entries"][3]


def test_a_database_from_before_the_kept_totals_gets_them_at_start(database):
    store = storage.Store(database)
    sheet_id = store.open(store.create(SHEET)).sheet_id
    add(store, sheet_id, 5)
    add(store, sheet_id, 7)
    store.append(sheet_id, "undo", target=1, base=1)
    with store.engine.begin() as conn:
        conn.execute(sqlalchemy.text("DROP TABLE sheet_totals"))
    store.close()
    again = storage.Store(database)
    assert again.summaries([sheet_id])[sheet_id]["totals"] == {"A": 7, "B": 0, "C": 0}


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_list_and_a_page_read_what_they_show_not_the_history(database):
    """Counted in queries: a phone's list of 30 full sheets reads no change at all, and a page of the newest 50
    entries of a full sheet asks for those entries and their changes by number, never for the whole log (the
    time each takes is measured in benchmarks/bench_sheet_reads.py)."""
    store = storage.Store(database)
    log = [{"seq": i, "action": "add", "at": "2026-11-20T20:00:00Z", "body": {"points": {"A": i, "B": 0, "C": 0}}}
           for i in range(1, 1601)]
    log += [{"seq": i, "action": "undo", "target": i - 400, "at": "2026-11-20T21:00:00Z"} for i in range(1601, 2001)]
    tokens = store.create_many([(SHEET, log)] * 30)
    rows = []
    sqlalchemy.event.listen(store.engine, "after_cursor_execute",
                            lambda conn, cursor, statement, *a: rows.append((statement, 0)))
    opened = store.open_many(tokens)
    summaries = store.summaries(a.sheet_id for a in opened.values())
    assert len(summaries) == 30 and not [s for s, _ in rows if "changes" in s]
    rows.clear()
    page = store.page(opened[tokens[0]].sheet_id, 50)
    assert [e["seq"] for e in page["entries"]] == list(range(1551, 1601))
    assert page["totals"]["A"] == sum(range(1, 1201)) and page["earlier"] == 1551 and page["position"] == 1600
    asked = [s for s, _ in rows if "changes" in s]
    assert len(asked) == 3  # the numbers shown (LIMIT 50), their changes (by number), and how many come before
    assert "LIMIT" in asked[0] and "IN" in asked[1]
