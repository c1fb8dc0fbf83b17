"""Where saved sheets live: one module over SQLAlchemy Core, SQLite by default, any SQLAlchemy URL (PostgreSQL) too.

A sheet row holds what the sheet is (game, title, players), the keys its two links open with, and the number of
its last change (`version`). Changes are rows of `changes`, numbered per sheet; they are only ever inserted.
A write takes the sheet row first (`UPDATE ... version = version + 1 RETURNING`), which serialises writers of one
sheet on every database, checks the change against the sheet as it is now, and commits before it is acknowledged.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import sqlite3
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    exc,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine

from . import model as sheets

SCHEMA_LOCK = 0x636F6D70  # "comp": the advisory lock servers take while making the tables
TOKEN_BYTES = 16  # 128 bits
TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")  # what token_urlsafe(16) gives; anything else is refused unread

metadata = MetaData()
SHEETS = Table(
    "sheets", metadata,
    Column("id", Integer, primary_key=True),
    Column("edit_key", String(64), nullable=False, unique=True),  # sha256 of the edit token: the token is not stored
    Column("view_key", String(64), nullable=False, unique=True),  # sha256 of the read-only token
    Column("game", String(40), nullable=False),
    Column("title", String(80), nullable=False, default=""),
    Column("players", Text, nullable=False),  # a JSON list of names
    Column("version", Integer, nullable=False, default=0),
    Column("finished", Boolean, nullable=False, default=False),
    Column("created", String(20), nullable=False),
    Column("updated", String(20), nullable=False),
)
CHANGES = Table(
    "changes", metadata,
    Column("sheet_id", Integer, ForeignKey("sheets.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("action", String(10), nullable=False),
    Column("target", Integer),
    Column("body", Text),  # JSON
    Column("at", String(20), nullable=False),
    Column("client_id", String(64)),
    UniqueConstraint("sheet_id", "client_id", name="one_change_per_client_id"),
    Index("changes_by_target", "sheet_id", "target"),
)
# What a list of sheets and a sheet's head show without reading the log: the running totals and how many entries
# count, kept by every write in the same transaction (a table of its own, so databases made before it get it by
# `create_all` and are filled once at start).
TOTALS = Table(
    "sheet_totals", metadata,
    Column("sheet_id", Integer, ForeignKey("sheets.id"), primary_key=True),
    Column("totals", Text, nullable=False),  # JSON: {player: total}
    Column("active", Integer, nullable=False),  # entries that count (not undone)
)
# The version of the card data each sheet started with (its file's `version:` or digest): what the playtest figures
# group sheets by. A table of its own, so a database made before it gets it by `create_all`; a sheet from before it
# has no row, and its version is unknown (None).
CARD_VERSIONS = Table(
    "sheet_card_versions", metadata,
    Column("sheet_id", Integer, ForeignKey("sheets.id"), primary_key=True),
    Column("card_version", String(64), nullable=False),
)
# The write limits' token buckets (companion.web.shell.limits), here so that every server on this database shares them.
# A bucket with no row is full; a row left unused for a whole refill period is full again and may be deleted.
RATE_BUCKETS = Table(
    "rate_buckets", metadata,
    Column("kind", String(10), primary_key=True),
    Column("address", String(64), primary_key=True),  # a client's address, an IPv6 client's /64
    Column("tokens", Float, nullable=False),
    Column("updated", Float, nullable=False),  # seconds since the epoch; never moved back
    Index("rate_buckets_by_age", "updated"),
)


def new_token() -> str:
    """A fresh edit token: TOKEN_BYTES random bytes, URL-safe base64."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def view_token(edit_token: str) -> str:
    """The read-only link's token, derived from the edit token so neither has to be stored."""
    digest = hmac.new(edit_token.encode(), b"read-only link", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:22]


def key(token: str) -> str:
    """What the database keeps of a token: its SHA-256 in hex, never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Access:
    """What a link opens: which sheet, and whether it may write."""

    sheet_id: int
    can_edit: bool


@dataclass(frozen=True)
class Written:
    record: dict
    replayed: bool  # the same client_id was already written: nothing new was added


class _Probe(Exception):
    """Ends a write probe: the transaction is rolled back."""


class CannotWrite(Exception):
    """The database did not take a write: full (SQLite's "database or disk is full", PostgreSQL's disk full),
    read-only (a file or a replica), damaged, or not answering. Nothing of the write was kept. The message is the
    database's own reason (its first line)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


TROUBLE_SECONDS = 60  # how long a failed write is remembered (for /healthz) when no write has succeeded since
BUCKET_WAIT = 2.0  # seconds a write limit's take waits for a locked database (a sheet's write waits 30 s)
WRITE_WAIT = 30.0


def _cannot_write(error: BaseException) -> bool:
    """Whether a driver's error says the database cannot take the write (not a mistake of ours: a constraint
    broken, bad SQL, which stay errors)."""
    return isinstance(error, (exc.OperationalError, exc.InternalError, sqlite3.OperationalError)) \
        or type(error) in (exc.DatabaseError, sqlite3.DatabaseError)


def _reason(error: BaseException) -> str:
    lines = str(getattr(error, "orig", None) or error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


class Store:
    """Saved sheets in one database; safe to share between threads and between app processes."""

    def __init__(self, url: str):
        self.url = url
        # pool_pre_ping: a pooled connection the database dropped (a restart, a failover) is replaced before use,
        # instead of failing the request that drew it.
        self.engine: Engine = create_engine(url, future=True, pool_pre_ping=True)
        self._trouble: tuple[float, str] | None = None  # (when, why) the last write failed, if none succeeded since
        self.bucket_wait = BUCKET_WAIT
        if self.engine.dialect.name == "sqlite":
            _sqlite_settings(self.engine)
        self._create_tables()

    def _create_tables(self) -> None:
        """The tables, made once however many servers start together on one new database: inside a write
        transaction that holds a lock (SQLite: the write lock; PostgreSQL: an advisory lock), so the second
        server waits, then finds them made. PostgreSQL's DDL is transactional, so a failure leaves nothing."""
        with self._write() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            metadata.create_all(conn)
            missing = conn.execute(select(SHEETS.c.id).where(
                ~select(TOTALS.c.sheet_id).where(TOTALS.c.sheet_id == SHEETS.c.id).exists())).scalars().all()
            for sheet_id in missing:  # sheets from before the totals were kept: folded once
                folded = sheets.fold(*self._load(conn, sheet_id))
                conn.execute(insert(TOTALS).values(_totals_row(sheet_id, folded)))

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """Raises if the database does not answer."""
        with self.engine.connect() as conn:
            conn.execute(select(SHEETS.c.id).limit(1)).all()

    def write_trouble(self) -> str | None:
        """Why the last write failed, if it failed less than TROUBLE_SECONDS ago and no write succeeded since (what
        /healthz reports: a full disk shows only when a write needs room, so it is remembered, not probed)."""
        trouble = self._trouble
        if trouble and time.monotonic() - trouble[0] < TROUBLE_SECONDS:
            return trouble[1]
        return None

    def check_writable(self) -> None:
        """Raises (CannotWrite) if the database cannot take a write (read-only file, folder or replica, damaged
        file): a write that is rolled back. Cheap, and blind to a full disk (nothing is written)."""
        try:
            with self._write() as conn:
                conn.execute(SHEETS.update().where(SHEETS.c.id == -1).values(version=SHEETS.c.version))
                raise _Probe
        except _Probe:
            pass

    # --- Sheets ---

    def create(self, sheet: Mapping, log: Iterable[Mapping] = ()) -> str:
        """A new sheet (already checked) with an optional log (an import); its edit token."""
        return self.create_many([(sheet, log)])[0]

    def create_many(self, items: Iterable[tuple[Mapping, Iterable[Mapping]]]) -> list[str]:
        """Several new sheets with their logs, in one transaction: all of them are written, or none; their tokens."""
        tokens = []
        stamp = sheets.now()
        with self._write() as conn:
            for sheet, log in items:
                token = new_token()
                log = list(log)
                folded = sheets.fold(sheet, log)
                sheet_id = conn.execute(insert(SHEETS).values(
                    edit_key=key(token), view_key=key(view_token(token)), game=sheet["game"],
                    title=sheet.get("title", ""), players=json.dumps(list(sheet["players"]), ensure_ascii=False),
                    version=len(log), finished=folded["finished"],
                    created=log[0]["at"] if log else stamp, updated=log[-1]["at"] if log else stamp,
                )).inserted_primary_key[0]
                conn.execute(insert(TOTALS).values(_totals_row(sheet_id, folded)))
                if sheet.get("card_version"):
                    conn.execute(insert(CARD_VERSIONS).values(sheet_id=sheet_id, card_version=sheet["card_version"]))
                if log:
                    conn.execute(insert(CHANGES), [_row(sheet_id, r) for r in log])
                tokens.append(token)
        return tokens

    def sheet_ids(self, game: str | None = None, finished: bool | None = None) -> list[int]:
        """Every sheet's id, oldest first (for a backup); only one game's, only finished ones, when asked."""
        query = select(SHEETS.c.id).order_by(SHEETS.c.id)
        if game is not None:
            query = query.where(SHEETS.c.game == game)
        if finished is not None:
            query = query.where(SHEETS.c.finished == finished)
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def open(self, token: str) -> Access | None:
        """The sheet a token opens, or None (also for anything that is not a token: it is never looked up)."""
        if not isinstance(token, str) or not TOKEN.fullmatch(token):
            return None
        k = key(token)
        with self.engine.connect() as conn:
            row = conn.execute(select(SHEETS.c.id, SHEETS.c.edit_key).where(
                (SHEETS.c.edit_key == k) | (SHEETS.c.view_key == k))).first()
        return Access(row.id, hmac.compare_digest(row.edit_key, k)) if row else None

    def meta(self, sheet_id: int) -> dict:
        """What a sheet is, without its log: game, title, players, version, finished."""
        with self.engine.connect() as conn:
            row = conn.execute(select(SHEETS).where(SHEETS.c.id == sheet_id)).one()
        return {"game": row.game, "title": row.title, "players": json.loads(row.players), "version": row.version,
                "finished": row.finished}

    def version(self, sheet_id: int) -> int:
        """The number of the sheet's last change (0 before any), read without the sheet or its log."""
        with self.engine.connect() as conn:
            return conn.execute(select(SHEETS.c.version).where(SHEETS.c.id == sheet_id)).scalar_one()

    def load(self, sheet_id: int) -> tuple[dict, list[dict]]:
        """The sheet and its whole log, read in one transaction (a consistent snapshot)."""
        with self.engine.connect() as conn, conn.begin():
            return self._load(conn, sheet_id)

    def _load(self, conn: Connection, sheet_id: int) -> tuple[dict, list[dict]]:
        row = conn.execute(select(SHEETS, CARD_VERSIONS.c.card_version).outerjoin(
            CARD_VERSIONS, CARD_VERSIONS.c.sheet_id == SHEETS.c.id).where(SHEETS.c.id == sheet_id)).one()
        sheet = {"game": row.game, "title": row.title, "players": json.loads(row.players), "created": row.created,
                 "updated": row.updated}
        if row.card_version:
            sheet["card_version"] = row.card_version
        log = [_record(r) for r in conn.execute(
            select(CHANGES).where(CHANGES.c.sheet_id == sheet_id).order_by(CHANGES.c.seq))]
        return sheet, log

    def open_many(self, tokens: Iterable[str]) -> dict[str, Access]:
        """The sheets several tokens open, in one query (a phone's list); tokens that open nothing are left out."""
        keys = {key(t): t for t in tokens if isinstance(t, str) and TOKEN.fullmatch(t)}
        if not keys:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(SHEETS.c.id, SHEETS.c.edit_key, SHEETS.c.view_key).where(
                SHEETS.c.edit_key.in_(keys) | SHEETS.c.view_key.in_(keys))).all()
        out = {}
        for row in rows:
            for k in (row.edit_key, row.view_key):
                if k in keys:
                    out[keys[k]] = Access(row.id, k == row.edit_key)
        return out

    def summaries(self, sheet_ids: Iterable[int]) -> dict[int, dict]:
        """Several sheets as a list shows them, by id, in one query and without their logs: game, title, players,
        version, finished, created, updated, totals, leaders and winners."""
        ids = list(sheet_ids)
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(SHEETS, TOTALS.c.totals, TOTALS.c.active).join(
                TOTALS, TOTALS.c.sheet_id == SHEETS.c.id).where(SHEETS.c.id.in_(ids))).all()
            return {r.id: _ended(conn, _summary(r)) for r in rows}

    def page(self, sheet_id: int, limit: int | None = None, before: int | None = None) -> dict:
        """A sheet as a page shows it: its summary and its newest `limit` entries numbered below `before` (all of
        them if no limit), each as it is now, read in one transaction. The cost follows the entries shown, not the
        sheet's history. Also `position` (how many entries up to the newest shown) and `earlier` (the number to
        ask `before` for the next older ones, or None)."""
        adds = (CHANGES.c.sheet_id == sheet_id) & (CHANGES.c.action == "add")
        with self.engine.connect() as conn, conn.begin():
            row = conn.execute(select(SHEETS, TOTALS.c.totals, TOTALS.c.active).join(
                TOTALS, TOTALS.c.sheet_id == SHEETS.c.id).where(SHEETS.c.id == sheet_id)).one()
            chosen = select(CHANGES.c.seq).where(adds & (CHANGES.c.seq < before) if before else adds)
            seqs = list(conn.execute(chosen.order_by(CHANGES.c.seq.desc()).limit(limit)).scalars())
            out = _ended(conn, _summary(row))
            out.update(entries=[], position=0, earlier=None)
            if seqs:
                out["entries"] = _entries(conn, sheet_id, seqs)
                out["position"] = conn.execute(select(func.count()).where(adds & (CHANGES.c.seq <= seqs[0]))).scalar()
                if out["position"] > len(seqs):
                    out["earlier"] = seqs[-1]
        return out

    def entry(self, sheet_id: int, seq: int) -> dict | None:
        """One entry as it is now (its add and its changes only), or None."""
        with self.engine.connect() as conn, conn.begin():
            entries = self._state_for(conn, sheet_id, 0, seq)["entries"]
        return entries[0] if entries else None

    # --- Write limits ---

    def take_token(self, kind: str, address: str, most: int, period: float, now: float) -> float:
        """Take one token from the address's `kind` bucket (`most` at once, refilled over `period` seconds), in one
        write transaction that holds the row (SQLite's write lock, PostgreSQL's row lock): 0 if it may pass, else
        the seconds until it could. `now` is the server's clock: a clock behind the stored one refills nothing, so
        servers whose clocks disagree never add up to more than the budget."""
        return self.take_bucket(kind, address, most, period, now)[0]

    def take_bucket(self, kind: str, address: str, most: int, period: float, now: float,
                    owed: int = 0) -> tuple[float, float]:
        """`take_token`, also giving the tokens left in the bucket after it (what a server's own bucket starts from
        while the database cannot keep them). `owed`: takes a server let pass on its own while the database could
        not keep the bucket, taken from it first. Waits at most `bucket_wait` seconds for the bucket's lock: a limit
        must not hold a request while the database is locked (CannotWrite, or the driver's error, after it)."""
        rate = most / period
        here = (RATE_BUCKETS.c.kind == kind) & (RATE_BUCKETS.c.address == address)
        with self._write(durable=False) as conn:  # a new bucket is full; one there is held, as it is, till commit
            new = _insert(conn, RATE_BUCKETS).values(kind=kind, address=address, tokens=most, updated=now)
            row = conn.execute(new.on_conflict_do_update(index_elements=["kind", "address"],
                                                         set_={"tokens": RATE_BUCKETS.c.tokens})
                               .returning(RATE_BUCKETS.c.tokens, RATE_BUCKETS.c.updated)).one()
            tokens = min(most, row.tokens + max(0.0, now - row.updated) * rate) - owed
            wait = 0.0 if tokens >= 1 else (1 - tokens) / rate
            left = tokens - 1 if tokens >= 1 else tokens
            conn.execute(update(RATE_BUCKETS).where(here).values(tokens=left, updated=max(now, row.updated)))
        return wait, left

    def forget_full_buckets(self, kind: str, period: float, now: float) -> None:
        """Delete the `kind` buckets unused for a whole period: full again, as a bucket with no row."""
        with self._write(durable=False) as conn:
            conn.execute(RATE_BUCKETS.delete().where((RATE_BUCKETS.c.kind == kind)
                                                     & (RATE_BUCKETS.c.updated < now - period)))

    # --- Changes ---

    def append(self, sheet_id: int, action: str, *, target: int | None = None, body: Mapping | None = None,
               base: int | None = None, client_id: str | None = None) -> Written:
        """Add one change, checked against the sheet as it is inside the transaction; committed on return.

        Where the game stands by its rules is decided here too, from the totals kept in the same transaction: an add
        after the game's end is refused (Conflict "over"), a change that leaves the game over is followed by the
        sheet's `finish` in the same write, and a correction of a finished sheet is made only if its game stays
        over (`sheets.check_change`, `sheets.check_end`). So writers racing one another (two phones, two servers)
        cannot pass the end: each one's write sees the one before it.

        Raises sheets.Conflict or sheets.NotFound, or InputError if the game's own end cannot be computed for this
        sheet (nothing is written then); a client_id already written returns that change (replayed).
        """
        with self._write() as conn:
            stamp = sheets.now()  # the change's time is the sheet's last update
            version = conn.execute(update(SHEETS).where(SHEETS.c.id == sheet_id).values(
                version=SHEETS.c.version + 1, updated=stamp).returning(SHEETS.c.version)).scalar_one()
            if client_id:  # a client_id names one request: the same one again is a replay, another a Conflict
                earlier = conn.execute(select(CHANGES).where(
                    (CHANGES.c.sheet_id == sheet_id) & (CHANGES.c.client_id == client_id))).first()
                if earlier is not None:
                    conn.rollback()
                    return Written(sheets.replayed(_record(earlier), action, target, body), replayed=True)
            entry_change = action in ("add", *sheets.TARGETED)
            state = self._state_for(conn, sheet_id, version - 1, target, with_end=entry_change)
            sheets.check_change(state, action, target, base)
            record = sheets.new_record(version, action, stamp, target, body, client_id)
            replay = self._replay(conn, sheet_id, state) if entry_change else None
            if replay is not None:  # a game whose rounds read the game so far: the rounds after it move too
                replay.apply(record)
                if body is not None:  # (its points as its rules give them after the rounds before it)
                    record["body"] = replay.entries[record.get("target", record["seq"])]["body"]
            conn.execute(insert(CHANGES).values(_row(sheet_id, record)))
            finished = {"finish": True, "reopen": False}.get(action, state["finished"])
            if entry_change:  # points move: the kept totals, then where the game stands after them
                before = state["entries"][0] if state["entries"] else None
                totals, active = (replay.totals, replay.active) if replay is not None else sheets.tally(
                    state["totals"], state["active"], before, sheets.changed_entry(before, record))
                conn.execute(update(TOTALS).where(TOTALS.c.sheet_id == sheet_id).values(
                    totals=json.dumps(totals, ensure_ascii=False), active=active))
                end = sheets.game_end(state["game"], active, None, totals) if state["end"] is not None else None
                if sheets.check_end(state, action, end, before):  # over by the game's rules: finished in this write
                    finish = sheets.new_record(version + 1, "finish", stamp)
                    conn.execute(insert(CHANGES).values(_row(sheet_id, finish)))
                    conn.execute(update(SHEETS).where(SHEETS.c.id == sheet_id).values(version=version + 1))
                    finished = True
            if finished != state["finished"]:
                conn.execute(update(SHEETS).where(SHEETS.c.id == sheet_id).values(finished=finished))
        return Written(record, replayed=False)

    def _replay(self, conn: Connection, sheet_id: int, state: Mapping) -> sheets.Replay | None:
        """The sheet's whole log replayed inside the write, for a game whose rounds read the game so far (None for
        one whose rounds stand alone: the kept totals are enough)."""
        if sheets.restater(state["game"]) is None:
            return None
        replay = sheets.Replay({"game": state["game"], "players": list(state["totals"])})
        for row in conn.execute(select(CHANGES).where(CHANGES.c.sheet_id == sheet_id).order_by(CHANGES.c.seq)):
            replay.apply(_record(row))
        return replay

    def _state_for(self, conn: Connection, sheet_id: int, version: int, target: int | None,
                   with_end: bool = False) -> dict:
        """What `sheets.check_change` needs, read without the whole log: the sheet's version, whether it is finished,
        the one entry a change names as it is now (its add, then its latest change), and where its game stands by
        its rules (`end`, from the kept totals, if `with_end`); also its game, and the totals and the number of
        entries counting before it."""
        row = conn.execute(select(SHEETS.c.finished, SHEETS.c.game, SHEETS.c.players, TOTALS.c.totals,
                                  TOTALS.c.active).join(TOTALS, TOTALS.c.sheet_id == SHEETS.c.id)
                           .where(SHEETS.c.id == sheet_id)).one()
        totals = {**dict.fromkeys(json.loads(row.players), 0), **json.loads(row.totals)}
        state = {"version": version, "finished": row.finished, "entries": [], "game": row.game, "totals": totals,
                 "active": row.active, "end": sheets.game_end(row.game, row.active, None, totals) if with_end else None}
        if target is not None:
            rows = conn.execute(select(CHANGES).where((CHANGES.c.sheet_id == sheet_id) & (
                ((CHANGES.c.seq == target) & (CHANGES.c.action == "add")) | (CHANGES.c.target == target))
            ).order_by(CHANGES.c.seq)).all()
            state["entries"] = sheets.fold({"game": "", "players": []}, [_record(r) for r in rows])["entries"]
        return state

    def _write(self, durable: bool = True):
        """A write transaction; on SQLite it takes the write lock at once (BEGIN IMMEDIATE), so it never deadlocks.
        The one place a write meets the database: an error saying it cannot take the write (full, read-only, gone)
        becomes CannotWrite, and is remembered until a write commits again. Not `durable` (a write limit's bucket):
        its commit waits for no fsync (SQLite's synchronous=NORMAL, PostgreSQL's synchronous_commit off); a crash
        may lose it, never a durable write (whose commit syncs what came before it)."""
        return _WriteTransaction(self, durable)


class _WriteTransaction:
    def __init__(self, store: Store, durable: bool = True):
        self.store, self.durable = store, durable
        try:
            self.conn = store.engine.connect().execution_options(
                companion_write="durable" if durable else "light",
                companion_wait=WRITE_WAIT if durable else store.bucket_wait)
        except Exception as e:  # noqa: BLE001 (any driver's error: _failed re-raises all but 'cannot write')
            self._failed(e)

    def _failed(self, error: BaseException) -> None:
        """Re-raise a driver's error, as CannotWrite when it says the database cannot take the write."""
        if not _cannot_write(error):
            raise error
        reason = _reason(error)
        self.store._trouble = (time.monotonic(), reason)
        raise CannotWrite(reason) from error

    def __enter__(self) -> Connection:
        try:
            self.conn.begin()
            if not self.durable and self.conn.dialect.name == "postgresql":
                self.conn.execute(text("SET LOCAL synchronous_commit TO OFF"))
                self.conn.execute(text(f"SET LOCAL lock_timeout = {round(1000 * self.store.bucket_wait)}"))
        except Exception as e:  # noqa: BLE001 (any driver's error: _failed re-raises all but 'cannot write')
            self.conn.close()
            self._failed(e)
        return self.conn

    def __exit__(self, kind, value, tb) -> None:
        committed = False
        try:
            if self.conn.in_transaction():
                if kind is None:
                    self.conn.commit()
                    committed = True
                else:
                    try:
                        self.conn.rollback()
                    except Exception:  # noqa: BLE001 (the connection may be gone with the failed write)
                        pass
        except Exception as e:  # noqa: BLE001 (a commit's driver error: _failed re-raises all but 'cannot write')
            self._failed(e)
        finally:
            try:
                self.conn.close()
            except Exception:  # noqa: BLE001 (closing a connection the failed write already lost)
                pass
        if committed and self.durable:  # (a bucket's update takes no new room: it says nothing of a full disk)
            self.store._trouble = None
        elif kind is not None and _cannot_write(value):
            self._failed(value)


def _insert(conn: Connection, table: Table):
    """INSERT with the dialect's ON CONFLICT (SQLite and PostgreSQL both have it)."""
    from sqlalchemy.dialects import postgresql, sqlite

    return (postgresql if conn.dialect.name == "postgresql" else sqlite).insert(table)


def _sqlite_settings(engine: Engine) -> None:
    """WAL (readers never wait for the writer), full fsync on commit, a wait instead of 'database is locked'."""

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # we say when transactions begin (below)
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={round(1000 * WRITE_WAIT)}")
        for attempt in range(100):  # the switch to WAL (kept in the file) can be refused at once while another
            try:                    # process makes the same new file: then it is tried again shortly
                cursor.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError:
                if attempt == 99:
                    raise
                time.sleep(0.05)
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn):
        options = conn.get_execution_options()
        write = options.get("companion_write")
        if write:  # (synchronous is the connection's, so every write says which it wants)
            conn.exec_driver_sql("PRAGMA synchronous=FULL" if write == "durable" else "PRAGMA synchronous=NORMAL")
        # (and so is the wait for a lock: a write limit's take waits less than anything else)
        conn.exec_driver_sql(f"PRAGMA busy_timeout={round(1000 * options.get('companion_wait', WRITE_WAIT))}")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _totals_row(sheet_id: int, folded: Mapping) -> dict:
    return {"sheet_id": sheet_id, "totals": json.dumps(folded["totals"], ensure_ascii=False),
            "active": sum(e["active"] for e in folded["entries"])}


def _summary(row: Any) -> dict:
    players = json.loads(row.players)
    totals = {**dict.fromkeys(players, 0), **json.loads(row.totals)}
    return {"id": row.id, "game": row.game, "title": row.title, "players": players, "version": row.version,
            "finished": row.finished, "created": row.created, "updated": row.updated,
            **sheets.standing(totals, row.active, row.finished, row.game)}


def _entries(conn: Any, sheet_id: int, seqs: list[int]) -> list[dict]:
    """The entries added by the changes `seqs`, each as it is now (its add and the changes that name it)."""
    records = [_record(r) for r in conn.execute(select(CHANGES).where(
        (CHANGES.c.sheet_id == sheet_id) & ((CHANGES.c.seq.in_(seqs) & (CHANGES.c.action == "add"))
                                            | CHANGES.c.target.in_(seqs))).order_by(CHANGES.c.seq))]
    return sheets.fold({"game": "", "players": []}, records)["entries"]


LAST_LOOK = 200  # adds read back, newest first, for the last entry counting when a game is over


def _ended(conn: Any, out: dict) -> dict:
    """A summary of a sheet whose game is over by its rules, with its winners broken by the last entry counting
    (the game's `ties:` read its hands), as `sheets.fold` names them; any other summary as it is."""
    end = out.get("end")
    if not end or not end["over"]:
        return out
    seqs = list(conn.execute(select(CHANGES.c.seq).where((CHANGES.c.sheet_id == out["id"])
                                                         & (CHANGES.c.action == "add"))
                             .order_by(CHANGES.c.seq.desc()).limit(LAST_LOOK)).scalars())
    last = next((e["body"] for e in reversed(_entries(conn, out["id"], seqs)) if e["active"]), None) if seqs else None
    return {**out, **sheets.standing(out["totals"], end["played"], out["finished"], out["game"], last)}


def _row(sheet_id: int, record: Mapping) -> dict:
    return {"sheet_id": sheet_id, "seq": record["seq"], "action": record["action"], "target": record.get("target"),
            "body": json.dumps(record["body"], ensure_ascii=False) if record.get("body") is not None
            else None, "at": record["at"], "client_id": record.get("client_id")}


def _record(row: Any) -> dict:
    record = {"seq": row.seq, "action": row.action, "at": row.at}
    if row.target is not None:
        record["target"] = row.target
    if row.body is not None:
        record["body"] = json.loads(row.body)
    if row.client_id:
        record["client_id"] = row.client_id
    return record
