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
from pathlib import Path

import pytest

import postgres
from companion import cards, games
from companion.resources import cards_dir
from companion.web import create_app

GAME_IDS = sorted(games.GAMES)
# Every app and server the tests start keeps its database and secret in a throwaway instance folder.
os.environ["COMPANION_INSTANCE_PATH"] = tempfile.mkdtemp(prefix="companion-tests-")


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
    if postgres._failure:
        terminalreporter.section("PostgreSQL", sep="!", red=True, bold=True)
        terminalreporter.line(f"NO POSTGRESQL: {postgres._failure}", red=True, bold=True)


@pytest.fixture
def app():
    """The web app, as in Flask's tutorial: one per test."""
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


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
                 env: dict | None = None) -> tuple[str, subprocess.Popen]:
    """Start `companion serve` (optionally on a given port and instance folder, with more environment) and wait
    until it answers."""
    port = port or free_port()
    env = dict(os.environ, **({"COMPANION_INSTANCE_PATH": str(instance)} if instance else {}), **(env or {}))
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--port", str(port)],
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
