"""Shared fixtures: the shipped card data, the registry, the web app and client, broken copies of data files."""
from __future__ import annotations

import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings

import postgres
from companion import cards, games
from companion.core.resources import cards_dir
from companion.web import create_app

GAME_IDS = sorted(games.GAMES)
# Every app and server the tests start keeps its database and secret in a throwaway instance folder.
os.environ["COMPANION_INSTANCE_PATH"] = tempfile.mkdtemp(prefix="companion-tests-")

# The fast lane (`make test-fast`) loads this profile: properties without a count of their own run 10 examples, and
# those with one run a tenth of it through examples(). `make test` runs every property at its full count.
settings.register_profile("fast", max_examples=10)


def examples(full: int) -> int:
    """A property's number of examples: `full` in `make test`, a tenth of it (at least 10) in the fast lane."""
    return max(10, full // 10) if settings.get_current_profile_name() == "fast" else full


# The lanes (README, "Tests"): `make test-fast` runs -m "not browser and not postgres and not slow". These two
# markers are put on by the tests' own needs, so no test has to remember them.
PLAYWRIGHT_WORDS = ("sync_playwright", "playwright_api")


def pytest_collection_modifyitems(items):
    for item in items:
        source = getattr(getattr(item, "function", None), "__code__", None)
        if "chromium" in item.fixturenames or (source and any(w in source.co_names or w in source.co_varnames
                                                             for w in PLAYWRIGHT_WORDS)):
            item.add_marker(pytest.mark.browser)
        params = getattr(item, "callspec", None) and item.callspec.params
        if params and params.get("database") == "postgresql":
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(scope="session")
def shipped():
    return cards.load_shipped()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """An empty database for saved sheets, as a URL: SQLite in the test's folder, then a real PostgreSQL (each
    test that takes it runs on both)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'sheets.sqlite'}"
    return postgres.cluster().new_database()


def pytest_sessionfinish(session):
    postgres.close()


def pytest_terminal_summary(terminalreporter):
    failure = postgres._failure
    for report in terminalreporter.stats.get("skipped", []):  # under xdist the workers met it, not this process
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if not failure and "NO POSTGRESQL: " in reason:
            failure = reason.split("NO POSTGRESQL: ", 1)[1]
    if failure:
        terminalreporter.section("PostgreSQL", sep="!", red=True, bold=True)
        terminalreporter.line(f"NO POSTGRESQL: {failure}", red=True, bold=True)


@pytest.fixture
def app():
    """The web app, as in Flask's tutorial: one per test."""
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def shipped_pdfs(tmp_path_factory):
    """A shipped game's PDF, built once per session for each set of build settings, when a test first asks for it:
    shipped_pdfs("gemas", paper="letter", bleed=2) is its path. Tests only read them (test_duplex and test_marks
    measure the same paper × bleed builds; the fast lane asks for one game only)."""
    from companion.pnp.build import build
    from companion.pnp.document import BuildSettings

    made = {}

    def pdf(game: str, **settings) -> Path:
        key = (game, tuple(sorted(settings.items())))
        if key not in made:
            folder = tmp_path_factory.mktemp("pdf")
            build([game], folder, BuildSettings(**settings))
            made[key] = folder / f"{game}.pdf"
        return made[key]

    return pdf


# The per-game measurements of the printed files run on every game in `make test`; in the fast lane on this one
# (cards, tokens of another size and a reference card: 15 pieces, the quickest to build and measure).
FAST_GAME = "gemas"
GAMES_ONE_FAST = [pytest.param(g, marks=() if g == FAST_GAME else pytest.mark.slow) for g in GAME_IDS]


CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def chromium():
    """Debian's chromium driven by Playwright, launched once per session (per xdist worker); each test opens its own
    context (cookies, storage, service workers and cache of its own) and closes it. Skips loudly without one."""
    playwright_api = pytest.importorskip("playwright.sync_api",
                                         reason="the playwright package is missing: make test installs it")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"BROWSER TESTS SKIPPED: no chromium at {CHROMIUM}. Install Debian's: sudo apt-get install "
                    "chromium (or set COMPANION_CHROMIUM to its path)")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield _Patient(browser)
        browser.close()


class _Patient:
    """The browser, whose contexts wait up to 90 s for a page to open (Playwright's 30 s is short for a static
    site's first pages on a busy 2-core machine, while a phone's service worker downloads the site behind them).
    How quick pages are is measured in benchmarks/, not here."""

    NAVIGATION_MS = 90000

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **kwargs):
        context = self._browser.new_context(**kwargs)
        context.set_default_navigation_timeout(self.NAVIGATION_MS)
        return context

    def new_page(self, **kwargs):
        page = self._browser.new_page(**kwargs)
        page.set_default_navigation_timeout(self.NAVIGATION_MS)
        return page

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="module", params=[("a4", 0), ("a4", 2), ("letter", 0), ("letter", 2)],
                ids=lambda p: f"{p[0]}-bleed{p[1]}")
def builds(request, shipped_pdfs):
    """(the PDF of a game built on this paper with this bleed, the bleed): built once (shipped_pdfs) for test_duplex
    and test_marks."""
    paper, bleed = request.param
    return (lambda game: shipped_pdfs(game, paper=paper, bleed=bleed, lang="en")), bleed


# A phone's screen as the browser tests open every page: 390 × 844 CSS px at 2×, touch.
# Its service worker blocked: a first visit would also keep copies of pages (a fifth of the browser's work in a test
# that is not about offline use); the tests of offline use open an OFFLINE_PHONE.
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True,
         "service_workers": "block"}
OFFLINE_PHONE = {**PHONE, "service_workers": "allow"}


@pytest.fixture(scope="session")
def browser(chromium):
    """The browser tests' name for the session's chromium."""
    return chromium


@pytest.fixture
def phone(browser):
    """A fresh phone (a context of its own, English) that must fetch nothing beyond the local server (its service
    worker blocked, as PHONE's)."""
    context = browser.new_context(**PHONE, locale="en-GB")
    page = context.new_page()
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("http://127.0.0.1", "data:")) else None)
    yield page
    context.close()
    assert not outside, f"pages must need no network beyond the companion: {outside}"


@pytest.fixture(scope="module")
def server_pages(tmp_path_factory):
    """The server's own pages (the app as `companion serve` runs it), to hold the phone's drawing against."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path_factory.mktemp("instance"))})
    return app.test_client()


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The static site with the phones' Python (`companion site`), built once per session and served by Python's
    plain static file server on a free port: (base URL, the folder holding site/, the server process). Tests only
    read it; one that stops a server starts its own (test_site.static_server)."""
    from companion.cli import main

    folder = tmp_path_factory.mktemp("site")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    assert main(["site", "--out", str(folder / "site"), "--base-url", base]) == 0
    proc = static_server(folder / "site", port)
    yield base, folder, proc
    proc.terminate()
    proc.wait(timeout=10)


def site_with_game(folder: Path, data: Path, port: int) -> Path:
    """`companion site --cards data` into `folder/site`, its codes for `port` on loopback: the five games and the
    designer's file `data` (as a designer puts a game on the static site); the site's folder."""
    from companion.cli import main

    assert main(["site", "--out", str(folder / "site"), "--base-url", f"http://127.0.0.1:{port}",
                 "--cards", str(data)]) == 0
    return folder / "site"


def static_server(folder: Path, port: int) -> subprocess.Popen:
    """Python's plain static file server for `folder` on `port`, once it answers (the caller stops it)."""
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                            cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            break
        except OSError:
            time.sleep(0.05)
    return proc


@pytest.fixture
def broken_copy(tmp_path):
    """Write a shipped data file with one substitution applied; return (path, line of the change)."""

    def make(game: str, old: str, new: str, count: int = 1) -> tuple[Path, int]:
        text = (cards_dir() / f"{game}.yaml").read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in the shipped {game}.yaml"
        changed = text.replace(old, new, count)
        path = tmp_path / f"{game}.yaml"
        path.write_text(changed, encoding="utf-8")
        return path, text[: text.index(old)].count("\n") + 1

    return make


def error_lines(text: str) -> list[tuple[str, int, str, str, str]]:
    """Parse `file:line: card id: field: problem` lines."""
    out = []
    for line in text.strip().splitlines():
        m = re.fullmatch(r"(.+?):(\d+): (.+?): (.+?): (.+)", line)
        assert m, f"not in file:line: card id: field: problem form: {line!r}"
        out.append((m[1], int(m[2]), m[3], m[4], m[5]))
    return out

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int | None = None, instance: Path | None = None,
                 env: dict | None = None, cards: Path | None = None) -> tuple[str, subprocess.Popen]:
    """Start `companion serve` (optionally on a given port and instance folder, with more environment, serving a
    designer's card data file beside the shipped games) and wait until it answers."""
    port = port or free_port()
    env = dict(os.environ, **({"COMPANION_INSTANCE_PATH": str(instance)} if instance else {}), **(env or {}))
    more = ["--cards", str(cards)] if cards else []
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--port", str(port), *more],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=1)
            return base, proc
        except (urllib.error.URLError, ConnectionError):
            if proc.poll() is not None:
                break
            time.sleep(0.1)
    proc.kill()
    pytest.fail(f"companion serve did not start: {proc.stderr.read()}")


@contextmanager
def serving_cards(data: Path, instance: Path) -> Iterator[str]:
    """`companion serve --cards DATA` (`start_server`) until the block ends: its base URL."""
    base, proc = start_server(instance=instance, cards=data)
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class Api:
    """A client of a running server's JSON API with its own cookies and CSRF token (one phone)."""

    def __init__(self, base: str, timeout: float = 15):
        self.base, self.timeout = base, timeout
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = self.call("GET", "/api/v1/csrf")[1]["csrf"]

    def call(self, method: str, path: str, data=None, headers=None) -> tuple[int, dict]:
        body = json.dumps(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body, method=method, headers={
            "Content-Type": "application/json", **({"X-CSRF-Token": self.csrf} if hasattr(self, "csrf") else {}),
            **(headers or {})})
        try:
            with self.opener.open(request, timeout=self.timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")


@pytest.fixture(scope="module")
def server():
    """A real `companion serve` on a free loopback port: (base URL, port, process)."""
    port = free_port()
    base, proc = start_server(port)
    yield base, port, proc
    proc.terminate()
    proc.wait(timeout=10)
