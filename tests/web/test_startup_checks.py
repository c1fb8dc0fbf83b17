"""A damaged instance folder is refused at start-up with one clear message and exit 2 (issue 15, item 7), and
/healthz reports the database."""
import os
import socket
import sqlite3
import subprocess
import sys

import pytest

from companion.web import create_app


def serve(instance, timeout=20, **env):
    return subprocess.run([sys.executable, "-m", "companion.cli", "serve", "--port", "1"], capture_output=True,
                          text=True, timeout=timeout,
                          env={**os.environ, "COMPANION_INSTANCE_PATH": str(instance), **env})


def damage(kind, folder):
    folder.mkdir()
    db = folder / "companion.sqlite"
    if kind == "garbage":
        db.write_bytes(b"this is not a database at all " * 100)
    elif kind == "truncated":
        sqlite3.connect(db).executescript("CREATE TABLE t (x); INSERT INTO t VALUES (1);" * 1)
        db.write_bytes(db.read_bytes()[:100])
    elif kind == "folder":
        db.mkdir()
    elif kind == "read-only":
        create_app({"INSTANCE_PATH": str(folder)})
        from companion.sheets.storage import Store

        Store(f"sqlite:///{db}").close()
        for p in folder.iterdir():
            if p.name.startswith("companion.sqlite"):
                p.chmod(0o444)
        folder.chmod(0o555)
    elif kind == "secret-folder":
        (folder / "secret_key").mkdir()
    return db


# Each case starts `companion serve`: one of a kind in the fast lane, every one in make test.
@pytest.mark.parametrize("kind", ["garbage", *(pytest.param(k, marks=pytest.mark.slow)
                                               for k in ("truncated", "folder", "read-only", "secret-folder"))])
def test_a_damaged_instance_is_one_clear_message_and_exit_2(tmp_path, kind):
    if kind == "read-only" and os.geteuid() == 0:
        pytest.skip("running as root: file permissions do not stop root, so a read-only file cannot be simulated")
    folder = tmp_path / "inst"
    damage(kind, folder)
    try:
        result = serve(folder)
    finally:
        folder.chmod(0o755)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and str(folder) in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


def test_healthz_reports_the_database(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path / "ok")})
    assert app.test_client().get("/healthz").get_json() == {"status": "ok", "database": "ok"}
    folder = tmp_path / "bad"
    damage("garbage", folder)
    bad = create_app({"INSTANCE_PATH": str(folder)}).test_client().get("/healthz")
    assert bad.status_code == 503 and bad.get_json()["database"] == "unavailable"


@pytest.mark.parametrize("setting, value, named", [
    ("COMPANION_SECRET_KEY", "short", "COMPANION_SECRET_KEY: the key is too short"),
    pytest.param("COMPANION_SECRET_KEY_FILE", "{tmp}/no-such-key",
                 "no-such-key: COMPANION_SECRET_KEY_FILE names a file that", marks=pytest.mark.slow),
    pytest.param("COMPANION_SECRET_KEY_FILE", "{tmp}", "is a folder, not the secret key file", marks=pytest.mark.slow),
])
def test_a_bad_shared_key_is_one_clear_message_and_exit_2(tmp_path, setting, value, named):
    result = serve(tmp_path / "inst", **{setting: value.format(tmp=tmp_path)})
    assert result.returncode == 2 and named in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


@pytest.mark.slow  # starts `companion serve`, which waits for the driver to give up
def test_a_postgresql_that_does_not_answer_is_one_clear_message_and_exit_2(tmp_path):
    with socket.socket() as s:  # a port where nothing listens
        s.bind(("127.0.0.1", 0))
        url = f"postgresql+psycopg://companion@127.0.0.1:{s.getsockname()[1]}/sheets"
    result = serve(tmp_path / "inst", COMPANION_DATABASE_URL=url)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert f"127.0.0.1:{url.split(':')[-1]}" in result.stderr and "cannot be used" in result.stderr
