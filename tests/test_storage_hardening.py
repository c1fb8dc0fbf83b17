"""The store under misuse and trouble (issue 25, items 11 and 12), on SQLite and on PostgreSQL: a `client_id` names
one request (the same again is a replay, another is a conflict), and a database that cannot write refuses the
write with one clear error, keeps everything saved before, and says so until a write succeeds again."""
import pytest
import sqlalchemy
from sqlalchemy import event

from companion import sheets
from companion.sheets import storage

SHEET = {"game": "gemas", "title": "", "players": ["A", "B", "C"]}


def body(**points):
    return sheets.entry_body("gemas", SHEET["players"], {"points": points})


def test_a_client_id_names_one_request(database):
    store = storage.Store(database)
    sheet_id = store.open(store.create(SHEET)).sheet_id
    first = store.append(sheet_id, "add", body=body(A=5), client_id="phone-1-entry-1")
    again = store.append(sheet_id, "add", body=body(A=5), client_id="phone-1-entry-1")
    assert not first.replayed and again.replayed and again.record == first.record
    for action, kwargs in [("add", {"body": body(A=6)}), ("add", {"body": body(A=5, B=1)}),
                           ("undo", {"target": 1, "base": 1}), ("finish", {}),
                           ("edit", {"target": 1, "base": 1, "body": body(A=5)})]:
        with pytest.raises(sheets.Conflict) as e:
            store.append(sheet_id, action, client_id="phone-1-entry-1", **kwargs)
        assert e.value.kind == "reused" and e.value.field == "client_id" and "phone-1-entry-1" in str(e.value)
    assert store.version(sheet_id) == 1 and store.load(sheet_id)[1] == [first.record]
    # an edit sent twice is still one edit, though its base is no longer the entry's revision the second time
    edit = store.append(sheet_id, "edit", target=1, base=1, body=body(A=7), client_id="phone-1-edit-1")
    assert store.append(sheet_id, "edit", target=1, base=1, body=body(A=7), client_id="phone-1-edit-1").replayed
    assert store.load(sheet_id)[1] == [first.record, edit.record]


def read_only(store: storage.Store, url: str) -> None:
    """From now on the database takes no write: a replica after a failover (PostgreSQL), a file opened read-only
    (SQLite's query_only: file permissions do not stop root, who runs the tests)."""
    if url.startswith("sqlite"):
        event.listen(store.engine, "connect", lambda dbapi, _rec: dbapi.execute("PRAGMA query_only=ON"))
    else:
        name = store.engine.url.database
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(sqlalchemy.text(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on'))
    store.engine.dispose()


def test_a_read_only_database_refuses_writes_clearly_and_keeps_what_was_saved(database):
    store = storage.Store(database)
    token = store.create(SHEET)
    sheet_id = store.open(token).sheet_id
    store.append(sheet_id, "add", body=body(A=3))
    assert store.write_trouble() is None
    read_only(store, database)
    with pytest.raises(storage.CannotWrite) as e:
        store.append(sheet_id, "add", body=body(A=4))
    assert "read" in str(e.value).lower() and "only" in str(e.value).lower(), str(e.value)
    with pytest.raises(storage.CannotWrite):
        store.create(SHEET)
    with pytest.raises(storage.CannotWrite):
        store.check_writable()
    assert store.write_trouble()  # remembered, for /healthz
    sheet, log = store.load(sheet_id)  # reads still work, and nothing saved is lost
    assert [r["body"]["points"]["A"] for r in log] == [3] and store.version(sheet_id) == 1


def test_a_full_database_refuses_writes_clearly_and_recovers(tmp_path):
    """SQLite with `max_page_count` at the file's size: the disk is full for this database."""
    url = f"sqlite:///{tmp_path / 'sheets.sqlite'}"
    store = storage.Store(url)
    sheet_id = store.open(store.create(SHEET)).sheet_id

    def cap(dbapi, _record):
        pages = dbapi.execute("PRAGMA page_count").fetchone()[0]
        dbapi.execute(f"PRAGMA max_page_count={pages}")

    event.listen(store.engine, "connect", cap)
    store.engine.dispose()
    written = []
    with pytest.raises(storage.CannotWrite) as e:
        for i in range(1000):
            written.append(store.append(sheet_id, "add", body=sheets.entry_body(
                "gemas", SHEET["players"], {"points": {"A": i}, "note": "x" * 200})).record)
    assert "full" in str(e.value), str(e.value)
    assert store.write_trouble() and store.load(sheet_id)[1] == written  # nothing acknowledged is lost
    event.remove(store.engine, "connect", cap)
    store.engine.dispose()
    store.append(sheet_id, "add", body=body(A=1))  # room again: the trouble is over
    assert store.write_trouble() is None
