"""Shared fixtures: the shipped card data, the registry, the web app and client, the browser, servers and sites
started for a module or a session. Plain helpers (values, functions, classes) live in tests/helpers/, never here."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

import postgres
from companion import cards
from companion.core.resources import cards_dir
from companion.web import create_app
from helpers.phones import CHROMIUM, PHONE
from helpers.server import free_port, start_server, static_server

# Every app and server the tests start keeps its database and secret in a throwaway instance folder.
os.environ["COMPANION_INSTANCE_PATH"] = tempfile.mkdtemp(prefix="companion-tests-")

# The fast lane (`make test-fast`) loads this profile: properties without a count of their own run 10 examples, and
# those with one run a tenth of it through examples(). `make test` runs every property at its full count.
settings.register_profile("fast", max_examples=10)


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


@pytest.fixture(scope="module")
def server():
    """A real `companion serve` on a free loopback port: (base URL, port, process)."""
    port = free_port()
    base, proc = start_server(port)
    yield base, port, proc
    proc.terminate()
    proc.wait(timeout=10)
