"""A real PostgreSQL for the tests: a throwaway cluster from the machine's own server (Debian's `postgresql`).

Our own fixture rather than pytest-postgresql's process fixture: the server refuses to run as root, and CI runs the
suite as root, so the cluster is made and started as the `postgres` user (`runuser`) in a folder that user owns.
Where no server is installed, the PostgreSQL half of the storage and sheet tests is skipped with a loud reason.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

MISSING = ("PostgreSQL is not installed, so the storage and sheet tests ran on SQLite only "
           "(install it: apt-get install postgresql; .ci/run does)")


def _bindir() -> Path | None:
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True) + \
            [os.path.dirname(shutil.which("initdb") or "")]:
        if candidate and (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """One PostgreSQL server on a free loopback port, data in a temporary folder; stopped and deleted at the end."""

    def __init__(self):
        bindir = _bindir()
        if bindir is None:
            raise RuntimeError(MISSING)
        try:
            import psycopg  # noqa: F401  (the driver SQLAlchemy uses: `pip install -e '.[test]'` brings it)
        except ImportError:
            raise RuntimeError("psycopg is not installed: pip install -e '.[test]'") from None
        self.bindir = bindir
        self.as_user: list[str] = []
        self.folder = Path(tempfile.mkdtemp(prefix="companion-pg-"))
        if os.geteuid() == 0:  # the server refuses root: it runs as `postgres`, in a folder it owns
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.data = self.folder / "data"
        self.port = _free_port()
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync",
                  "--locale=C")
        self.start()

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run([*self.as_user, str(self.bindir / tool), *args], capture_output=True, text=True,
                              timeout=120)
        if done.returncode:
            raise RuntimeError(f"{tool} failed: {done.stderr or done.stdout}")

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        """Stop and start again: every connection a pool holds is now dead."""
        self.stop()
        self.start()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its SQLAlchemy URL."""
        import psycopg
        name = f"t{time.monotonic_ns()}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        try:
            self.stop("immediate")
        except RuntimeError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


_cluster: Cluster | None = None
_failure: str | None = None


def cluster() -> Cluster:
    """The session's cluster, started on first use; skips the calling test (loudly) if it cannot be had."""
    global _cluster, _failure
    if _cluster is None and _failure is None:
        try:
            _cluster = Cluster()
        except (RuntimeError, OSError, KeyError, subprocess.TimeoutExpired) as e:
            _failure = str(e)
    if _cluster is None:
        pytest.skip(f"NO POSTGRESQL: {_failure}")
    return _cluster


def close() -> None:
    global _cluster
    if _cluster is not None:
        _cluster.close()
        _cluster = None
