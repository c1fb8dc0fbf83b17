"""Issue 37, item 10: the write and photo budgets are kept in the database, so servers sharing one database share
one budget per client address (two servers do not allow twice as much), a restart does not refill them, and a
database that cannot keep them falls back to the server's own buckets instead of a 500."""
import logging
import threading
import time
from contextlib import contextmanager

import sqlalchemy

from companion.sheets import storage
from companion.web import create_app
from companion.web.shell import instance

BUDGET = 10
LIMIT = f"changes={BUDGET}/10m"
SCRIPT = "203.0.113.7"


def server(database, limit=LIMIT):
    """One more server (an app as `companion serve` makes it) on the shared database."""
    return create_app({"TESTING": True, "DATABASE_URL": database, "WRITE_LIMIT": limit})


def phone(app, address=SCRIPT):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    client.csrf = client.get("/api/v1/csrf").get_json()["csrf"]
    return client


def add(client, token):
    return client.post(f"/api/v1/sheets/{token}/entries", json={"points": {"Ana": 1}},
                       headers={"X-CSRF-Token": client.csrf}).status_code


def new_sheet(client):
    r = client.post("/api/v1/sheets", json={"game": "gemas", "players": ["Ana", "Bruno"]},
                    headers={"X-CSRF-Token": client.csrf})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["token"]


def written(client, token):
    return client.get(f"/api/v1/sheets/{token}").get_json()["totals"]["Ana"]


def test_two_servers_on_one_database_share_one_budget(database):
    """A burst from one address spread over two servers, one request to each in turn: the budget once, not twice."""
    a, b = phone(server(database)), phone(server(database))
    token = new_sheet(a)
    start = time.perf_counter()
    statuses = [add(a if i % 2 else b, token) for i in range(3 * BUDGET)]
    assert time.perf_counter() - start < 10
    assert statuses.count(201) == BUDGET and statuses[BUDGET:] == [429] * (2 * BUDGET), statuses
    assert written(a, token) == written(b, token) == BUDGET
    assert add(phone(server(database), "198.51.100.9"), token) == 201  # another address has its own budget
    assert add(phone(server(database)), token) == 429  # a server started now finds the budget spent


def test_a_burst_at_the_same_moment_on_both_servers_takes_the_budget_once(database):
    """Four clients of one address, two on each server, sending at once: each token is taken by one request only."""
    apps = [server(database), server(database)]
    token = new_sheet(phone(apps[0]))
    clients = [phone(apps[i % 2]) for i in range(4)]
    statuses, go = [], threading.Barrier(len(clients))

    def burst(client):
        go.wait()
        statuses.extend(add(client, token) for _ in range(BUDGET))

    threads = [threading.Thread(target=burst, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(statuses) == [201] * BUDGET + [429] * (3 * BUDGET), statuses
    assert written(clients[0], token) == BUDGET


def test_a_database_that_cannot_keep_the_buckets_falls_back_to_the_servers_own(database, caplog):
    """The limiter's table gone (a database that cannot keep the buckets): no 500, one log line, and the server's
    own buckets still hold the address to its budget."""
    app = server(database)
    client = phone(app)
    token = new_sheet(client)
    with app.app_context():
        store = instance.store()
    with store.engine.begin() as conn:
        conn.execute(sqlalchemy.text("DROP TABLE rate_buckets"))
    with caplog.at_level(logging.WARNING):
        statuses = [add(client, token) for _ in range(2 * BUDGET)]
    assert statuses == [201] * BUDGET + [429] * BUDGET, statuses
    warnings = [r.getMessage() for r in caplog.records if "rate_buckets" in r.getMessage()]
    assert len(warnings) == 1 and "this server's own" in warnings[0], warnings


def test_a_bucket_kept_while_the_disk_is_full_does_not_hide_it_from_healthz(tmp_path):
    """A full SQLite file still takes a bucket's update (no new page), but a sheet's write fails: /healthz keeps
    saying the database cannot write after a limited request that wrote nothing else."""
    app = server(f"sqlite:///{tmp_path / 'full.sqlite'}", "changes=1000/10m")
    client = phone(app)
    token = new_sheet(client)
    with app.app_context():
        store = instance.store()

    def cap(dbapi, _record):
        dbapi.execute(f"PRAGMA max_page_count={dbapi.execute('PRAGMA page_count').fetchone()[0]}")

    sqlalchemy.event.listen(store.engine, "connect", cap)
    store.engine.dispose()
    statuses = []
    while not statuses or statuses[-1] == 201:
        statuses.append(client.post(f"/api/v1/sheets/{token}/entries", json={"points": {"Ana": 1}, "note": "x" * 200},
                                    headers={"X-CSRF-Token": client.csrf}).status_code)
        assert len(statuses) < 1000
    assert statuses[-1] == 503, statuses
    r = client.post("/api/v1/sheets/import", headers={"X-CSRF-Token": client.csrf})  # a sheet's token, no write
    assert r.status_code == 400
    assert client.get("/healthz").get_json() == {"status": "error", "database": "cannot write"}


def test_servers_whose_clocks_disagree_never_refill_more_than_the_budget(database):
    """One server's clock a minute ahead of the other's, a script alternating between them: the slow clock never
    moves a bucket back, so the fast one finds no minute to refill."""
    store = storage.Store(database)
    try:
        ahead, behind = 1_000_060.0, 1_000_000.0
        waits = [store.take_token("changes", SCRIPT, 10, 10, ahead) for _ in range(10)]
        waits += [store.take_token("changes", SCRIPT, 10, 10, (behind, ahead)[i % 2]) for i in range(10)]
        assert waits[:10] == [0.0] * 10 and all(w > 0 for w in waits[10:]), waits
        assert store.take_token("changes", SCRIPT, 10, 10, ahead + 1) == 0.0  # a second later, a token is back
        store.take_token("photos", SCRIPT, 10, 10, ahead + 20)
        store.forget_full_buckets("changes", 10, ahead + 20)  # unused for a whole period: full again, swept
        with store.engine.connect() as conn:
            kept = conn.execute(sqlalchemy.select(storage.RATE_BUCKETS.c.kind)).scalars().all()
        assert kept == ["photos"]
    finally:
        store.close()


@contextmanager
def locked(store):
    """The database locked by another client for as long as the block lasts: SQLite's write lock (every write
    waits), PostgreSQL's lock on the buckets' table (sheets stay writable). The store's connections give up on a
    lock after 0.2 s (`bucket_wait`, and for a server without it, the connection's own setting)."""
    store.bucket_wait = 0.2
    sqlite = store.engine.dialect.name == "sqlite"

    def short(dbapi, _record):
        cursor = dbapi.cursor()
        cursor.execute("PRAGMA busy_timeout=200" if sqlite else "SET lock_timeout = 200")
        cursor.close()
        if not sqlite:
            dbapi.commit()

    sqlalchemy.event.listen(store.engine, "connect", short)
    store.engine.dispose()
    other = sqlalchemy.create_engine(store.url)
    conn = other.connect()
    try:
        if sqlite:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.execute(sqlalchemy.text("LOCK TABLE rate_buckets IN ACCESS EXCLUSIVE MODE"))
        yield
    finally:
        conn.rollback()
        conn.close()
        other.dispose()


def test_a_locked_database_gives_no_client_a_new_budget(database):
    """Budget five, five written; then the database is locked: the server's own buckets stand in from the state the
    database gave (empty), not full, so the next five are 429 at once (they passed: ten writes against five), and
    nothing more is written once the lock is gone."""
    app = server(database, "changes=5/10m")
    client = phone(app)
    token = new_sheet(client)
    with app.app_context():
        store = instance.store()
    assert [add(client, token) for _ in range(5)] == [201] * 5
    statuses = []
    with locked(store):
        worker = threading.Thread(target=lambda: statuses.extend(add(client, token) for _ in range(5)), daemon=True)
        worker.start()
        worker.join(timeout=20)
        assert not worker.is_alive(), "a limited write waited for the lock"
    assert statuses == [429] * 5, statuses
    assert add(client, token) == 429
    assert written(client, token) == 5


def test_what_the_servers_own_buckets_let_pass_is_taken_from_the_database_after(database):
    """Three of five spent; while the database cannot keep the buckets, two more pass (the two it had left) and a
    third does not; when it answers again, the two are taken from its bucket: five in all, then none."""
    app = server(database, "changes=5/10m")
    limiter = app.extensions["companion.limiter"]
    with app.app_context():
        store = instance.store()
        takes = [limiter.take("changes", SCRIPT) for _ in range(3)]
        with locked(store):
            takes += [limiter.take("changes", SCRIPT) for _ in range(3)]
        takes += [limiter.take("changes", SCRIPT) for _ in range(2)]
    passed = [wait == 0 for wait in takes]
    assert passed == [True] * 5 + [False] * 3, takes
    with store.engine.connect() as conn:
        left = conn.execute(sqlalchemy.select(storage.RATE_BUCKETS.c.tokens)).scalar_one()
    assert left < 0.1  # the two that passed on their own are counted there too
