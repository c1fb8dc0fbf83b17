"""The instance folder: a session secret made on first run and kept, the database beside it, both movable."""
import stat
import threading

import pytest

from companion.web import create_app
from companion.web.shell import instance


def test_first_run_makes_a_private_secret_and_later_runs_keep_it(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path / "inst")})
    key_file = tmp_path / "inst" / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600 and len(app.secret_key) == 64
    assert create_app({"INSTANCE_PATH": str(tmp_path / "inst")}).secret_key == app.secret_key
    assert create_app({"INSTANCE_PATH": str(tmp_path / "other")}).secret_key != app.secret_key


def test_a_session_survives_a_restart_on_the_same_instance(tmp_path):
    first = create_app({"INSTANCE_PATH": str(tmp_path)}).test_client()
    csrf = first.get("/api/v1/csrf").get_json()["csrf"]
    cookie = first.get_cookie("session")
    second = create_app({"INSTANCE_PATH": str(tmp_path)}).test_client()
    second.set_cookie("session", cookie.value)
    r = second.post("/api/v1/sheets", json={"game": "nobles", "players": ["A", "B"]}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201
    assert (tmp_path / "companion.sqlite").exists()


def test_processes_starting_together_agree_on_one_secret(tmp_path):
    keys = []
    threads = [threading.Thread(target=lambda: keys.append(instance.secret_key(tmp_path / "secret_key")))
               for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(keys)) == 1 and not [p for p in tmp_path.iterdir() if p.name != "secret_key"]


def test_a_damaged_secret_is_named(tmp_path):
    (tmp_path / "secret_key").write_text("")
    with pytest.raises(instance.InstanceError, match="secret_key: the secret key is too short"):
        create_app({"INSTANCE_PATH": str(tmp_path)})


def test_the_database_url_can_point_elsewhere(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DATABASE_URL", f"sqlite:///{tmp_path / 'hosted.sqlite'}")
    client = create_app({"INSTANCE_PATH": str(tmp_path / "inst")}).test_client()
    csrf = client.get("/api/v1/csrf").get_json()["csrf"]
    client.post("/api/v1/sheets", json={"game": "nobles", "players": ["A", "B"]}, headers={"X-CSRF-Token": csrf})
    assert (tmp_path / "hosted.sqlite").exists() and not (tmp_path / "inst" / "companion.sqlite").exists()


def test_serve_names_a_damaged_instance_and_exits_2(tmp_path, monkeypatch, capsys):
    from companion.cli import main

    (tmp_path / "secret_key").write_bytes(b"\xff" * 40)
    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(tmp_path))
    assert main(["serve", "--port", "1"]) == 2
    assert "secret_key: the secret key is too short or empty; delete the file" in capsys.readouterr().err
