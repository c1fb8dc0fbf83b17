"""Real servers the tests start: `companion serve`, a plain static file server, and a phone's JSON client."""
from __future__ import annotations

import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


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

