"""Writes and photos limited per client address (issue 25, item 12; issue 28): one client could otherwise start
sheets and import full ones without end (2,000 changes in 0.14 s, ~25 MB/s of database growth) until the disk is
full, or keep the server's CPUs reading photos.

Three budgets, each a token bucket per client address: `sheets` (starting or importing a sheet), `changes`
(adding, editing, undoing or restoring an entry, finishing or reopening) and `photos` (a photo of the table read:
`POST /api/v1/<game>/scan` and a scoring page's photo, about 0.6 s of a CPU each). A request takes one token,
refused or not; an empty bucket is a 429 with `Retry-After`, and the phone's queue keeps its entry for the next
try. Reading is never limited. Defaults (`DEFAULT`), sized so that no real table meets them and a script does at
once:
- changes: 600 at once, then one a second. A table of six phones on one Wi-Fi (one address) adding a round
  every few seconds makes a few hundred changes in an evening; a game café's tables behind one address, one a
  second for hours. A script gets 600, then 3,600 an hour (~2 MB of database an hour, not 25 MB a second).
- sheets: 30 at once, then 30 an hour (one every two minutes). A table starts a few sheets an evening; a café's
  tables, a few dozen. A script gets 30 full imports, then 30 an hour.
- photos: 60 at once, then two a minute. A table photographs a hand or a sale at a time, a few dozen photos an
  evening; a script gets 60 photos, then 1.2 s of a CPU a minute.
`COMPANION_WRITE_LIMIT` changes them (`sheets=30/1h changes=600/10m photos=60/30m`: so many at once, refilled
over that time; `off` for none).

The buckets live in the saved-sheet database (storage.RATE_BUCKETS, issue 37), always: servers on one database
(a fleet on one PostgreSQL, or several processes on one SQLite file, which nothing tells apart from one) share one
budget per address, and a restart refills nothing. Each take is one small write transaction holding the bucket's
row, committed without waiting for the disk (a crash may lose the last takes, never a sheet's write): about 1 ms
on SQLite beside a change's 13 ms. Rows unused for a refill period are full again and swept. When the database cannot
keep a bucket (down, full, read-only, locked: a take waits for it at most `storage.BUCKET_WAIT`, 2 s), the
server's own buckets (`Limiter`) stand in, with a log line: not a 500, and not a 503 either, which would refuse the
photos that need no database; a write then meets the database's own 503 as before. They stand in from the last
state the database gave for each client, not full (a client that spent its budget was given a whole new one while
the database was locked: ten writes against a budget of five), and what they let pass is taken from the
database's bucket once it answers again.

Behind a proxy every request comes from the proxy's address: `COMPANION_TRUST_PROXY=<hops>` (1 for one proxy)
reads the client's address from the last <hops> entries of `X-Forwarded-For` (werkzeug's ProxyFix); unset or 0,
that header is never believed (a script would name a new address each time). IPv6 clients count by their /64
network (one machine can hold a whole /64).
"""
from __future__ import annotations

import ipaddress
import math
import re
import threading
import time

from flask import Flask, current_app, request
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import HTTPException

from ... import settings
from . import instance

DEFAULT = "sheets=30/1h changes=600/10m photos=60/30m"
UNITS = {"s": 1, "m": 60, "h": 3600}
ENDPOINTS = {  # the requests each budget counts (POST and PUT only)
    "sheets": ("sheets_api.create", "sheets_api.import_sheet", "sheet_pages.create", "sheet_pages.import_sheet"),
    "changes": ("sheets_api.add", "sheets_api.edit", "sheets_api.undo", "sheets_api.finish", "sheet_pages.add",
                "sheet_pages.edit", "sheet_pages.undo", "sheet_pages.finish"),
    "photos": ("api.scan", "photo_pages.fill"),
}
BUDGET_OF = {endpoint: kind for kind, endpoints in ENDPOINTS.items() for endpoint in endpoints}
FORGET_EVERY = 1000  # takes between two sweeps of the shared buckets left full again
SHARED_TROUBLE_LOG = 60  # seconds between two log lines of a database that cannot keep the buckets
MOST_CLIENTS = 50_000  # buckets kept in a process; beyond, the least recently used are dropped (a new one is full)
_SPEC = re.compile(rf"({'|'.join(ENDPOINTS)})=(\d{{1,9}})/(\d{{1,9}})([smh]?)")


class LimitError(ValueError):
    """COMPANION_WRITE_LIMIT or COMPANION_TRUST_PROXY cannot be read (the message says which and how)."""


def parse(text: str) -> dict[str, tuple[int, float]] | None:
    """`sheets=30/1h changes=600/10m` (commas or spaces between; a budget left out keeps its default) as
    {kind: (at once, seconds to refill them)}; `off` (or `0`, `none`) as None."""
    if text.strip().lower() in ("off", "0", "none", "no"):
        return None
    return {**BUDGETS, **_parse(text)}


def _parse(text: str) -> dict[str, tuple[int, float]]:
    out = {}
    for part in re.split(r"[\s,]+", text.strip()):
        m = _SPEC.fullmatch(part)
        if not m or int(m[2]) < 1 or int(m[3]) < 1:
            raise LimitError(f"COMPANION_WRITE_LIMIT: cannot read {part!r}; write e.g. {DEFAULT!r} (so many writes "
                             "at once per client address, refilled over that time: s, m or h), or 'off'")
        out[m[1]] = (int(m[2]), int(m[3]) * UNITS[m[4] or "s"])
    return out


BUDGETS = _parse(DEFAULT)


def proxy_hops(text: str | None) -> int:
    """COMPANION_TRUST_PROXY as a number of proxies (unset: 0); LimitError for anything but 0 to 99."""
    text = (text or "0").strip()
    if not re.fullmatch(r"\d{1,2}", text):
        raise LimitError(f"COMPANION_TRUST_PROXY: {text!r} is not a number of proxies (e.g. 1 behind one proxy that "
                         "sets X-Forwarded-For; 0 or unset: trust none)")
    return int(text)


class TooMany(HTTPException):
    """A client address out of its budget: 429, with the seconds until its next write may pass."""

    code = 429

    def __init__(self, kind: str, wait: float):
        self.retry_after = max(1, math.ceil(wait))
        super().__init__(f"too many {kind} from this address just now; try again in {self.retry_after} s")
        self.field = "address"
        if kind == "photos":
            self.title = _l("Too many photos")
            self.message = _l("Too many photos came from your network in a short time, so this one was not read. "
                              "Wait %(seconds)s seconds and try again.", seconds=self.retry_after)
        else:
            self.message = _l("Too many changes came from your network in a short time, so this one was not saved. "
                              "Wait %(seconds)s seconds and try again.", seconds=self.retry_after)


class Limiter:
    """Token buckets per (budget, client), in this process; safe between threads."""

    def __init__(self, budgets: dict[str, tuple[int, float]], clock=time.monotonic):
        self.budgets, self.clock = budgets, clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}  # (tokens, when), oldest use first
        self._lock = threading.Lock()

    def take(self, kind: str, client: str) -> float:
        """Take one write from the client's budget: 0 if it may pass, else the seconds until it could."""
        if kind not in self.budgets:
            return 0.0
        most, period = self.budgets[kind]
        rate = most / period
        now = self.clock()
        with self._lock:
            tokens, when = self._buckets.pop((kind, client), (most, now))
            tokens = min(most, tokens + (now - when) * rate)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / rate
            self._keep(kind, client, tokens - 1 if tokens >= 1 else tokens, now)
        return wait

    def put(self, kind: str, client: str, tokens: float) -> None:
        """Set the client's bucket to `tokens` now (what the database's bucket holds after a take)."""
        with self._lock:
            self._buckets.pop((kind, client), None)
            self._keep(kind, client, tokens, self.clock())

    def _keep(self, kind: str, client: str, tokens: float, now: float) -> None:
        self._buckets[(kind, client)] = (tokens, now)
        while len(self._buckets) > MOST_CLIENTS:
            del self._buckets[next(iter(self._buckets))]


class SharedLimiter:
    """Token buckets per (budget, client) in the database (`store()` gives it), shared by every server on it; the
    in-process Limiter stands in while the database cannot keep them (logged once a minute at most).

    The stand-in starts from the last state the database gave for each client (every take's answer is copied into
    it), not full: a client that spent its budget is not given another one because the database is locked, down or
    full. (A client this server has not seen since it started starts full there: nothing else can tell.) What the
    stand-in let pass is owed to the database's bucket, and taken from it with the next take that reaches it."""

    def __init__(self, budgets: dict[str, tuple[int, float]], store, clock=time.time):
        self.budgets, self.store, self.clock = budgets, store, clock
        self.fallback = Limiter(budgets)
        self._owed: dict[tuple[str, str], int] = {}  # takes the stand-in let pass, not yet in the database
        self._owed_lock = threading.Lock()
        self._takes = 0
        self._logged = -math.inf

    def take(self, kind: str, client: str) -> float:
        """Take one write from the client's budget: 0 if it may pass, else the seconds until it could."""
        if kind not in self.budgets:
            return 0.0
        most, period = self.budgets[kind]
        now = self.clock()
        with self._owed_lock:  # (taken now, given back if the database does not answer)
            owed = self._owed.pop((kind, client), 0)
        try:
            store = self.store()
            wait, left = store.take_bucket(kind, client, most, period, now, owed)
        except Exception as e:  # noqa: BLE001 (whatever the driver raises, the limit still holds, in-process)
            self._log(e)
            wait = self.fallback.take(kind, client)
            with self._owed_lock:
                owed += self._owed.pop((kind, client), 0) + (not wait)
                if owed and len(self._owed) < MOST_CLIENTS:
                    self._owed[(kind, client)] = owed
            return wait
        self.fallback.put(kind, client, left)
        self._takes += 1
        if self._takes % FORGET_EVERY == 0:
            try:
                store.forget_full_buckets(kind, period, now)
            except Exception as e:  # noqa: BLE001 (a sweep can wait for the next one)
                self._log(e)
        return wait

    def _log(self, error: BaseException) -> None:
        if time.monotonic() - self._logged >= SHARED_TROUBLE_LOG:
            self._logged = time.monotonic()
            reason = str(getattr(error, "orig", None) or error).strip().splitlines()
            current_app.logger.warning(
                "the write limits cannot be kept in the database's rate_buckets (%s): this server's own buckets "
                "count instead, from the database's last state, until it can",
                reason[0] if reason else type(error).__name__)


def client_address(address: str | None) -> str:
    """Who a budget belongs to: the address, IPv6 by its /64 network (an IPv4 address mapped into IPv6 as itself)."""
    try:
        ip = ipaddress.ip_address((address or "").split("%", 1)[0])
    except ValueError:
        return (address or "unknown")[:64]  # (not an address: kept to what the database's column holds)
    if ip.version == 6:
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def init_app(app: Flask, env: dict | None = None) -> None:
    """Read the limits (config WRITE_LIMIT and TRUST_PROXY, else COMPANION_WRITE_LIMIT and COMPANION_TRUST_PROXY,
    from `env`: companion.settings.environment()); LimitError if they cannot be read. A test app (TESTING) has no
    limit unless it names one."""
    env = settings.environment() if env is None else env
    text = app.config.get("WRITE_LIMIT") or env["WRITE_LIMIT"]
    budgets = parse(text) if text else (None if app.testing else parse(DEFAULT))
    hops = proxy_hops(str(app.config.get("TRUST_PROXY") or env["TRUST_PROXY"] or "0"))
    if hops:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=0, x_host=0, x_port=0, x_prefix=0)
    app.extensions["companion.limiter"] = limiter = SharedLimiter(budgets, instance.store) if budgets else None
    warned = []

    @app.before_request
    def limit():
        kind = BUDGET_OF.get(request.endpoint or "")
        if limiter is None or kind is None or request.method not in ("POST", "PUT"):
            return
        if not hops and "X-Forwarded-For" in request.headers and not warned:
            warned.append(True)
            current_app.logger.warning("requests carry X-Forwarded-For but COMPANION_TRUST_PROXY is not set: every "
                                       "client behind the proxy shares the write limit of its address (%s)",
                                       request.remote_addr)
        wait = limiter.take(kind, client_address(request.remote_addr))
        if wait:
            raise TooMany(kind, wait)
