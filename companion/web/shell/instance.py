"""The app's instance folder: the session secret (made on first run) and the saved-sheet store it holds."""
from __future__ import annotations

import os
import secrets
import tempfile
import threading
from pathlib import Path

from flask import Flask, current_app

from ... import settings
from ...sheets import Store

_lock = threading.Lock()


class InstanceError(RuntimeError):
    """The instance folder cannot be used as it is (the message says which file and what to do)."""


def instance_path(config: dict, env: dict | None = None) -> str | None:
    """`INSTANCE_PATH` in the config, else `COMPANION_INSTANCE_PATH` (`env`: companion.settings.environment()),
    else Flask's own default (None)."""
    env = settings.environment() if env is None else env
    chosen = config.get("INSTANCE_PATH") or env["INSTANCE_PATH"]
    return str(Path(chosen).expanduser().resolve()) if chosen else None


def init_app(app: Flask, env: dict | None = None) -> None:
    """The instance folder made; the session key and the database URL from the config, else the environment
    (`env`: companion.settings.environment()), else the instance folder's own."""
    env = settings.environment() if env is None else env
    folder = Path(app.instance_path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InstanceError(f"{folder}: cannot make the instance folder: {e.strerror or e}") from None
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"], app.config["SECRET_KEY_FROM"] = shared_secret_key(env) or (
            secret_key(folder / "secret_key"), "instance")
    app.config.setdefault("DATABASE_URL", env["DATABASE_URL"]
                          or f"sqlite:///{folder / 'companion.sqlite'}")


def shared_secret_key(env: dict | None = None) -> tuple[str, str] | None:
    """A key every server of a fleet shares (sessions and form tokens made by one are good on the others):
    `COMPANION_SECRET_KEY` (the key), else `COMPANION_SECRET_KEY_FILE` (a file holding it); None if neither.
    `env`: companion.settings.environment()."""
    env = settings.environment() if env is None else env
    if env["SECRET_KEY"] is not None:  # set, even empty (an empty key is too short: said, not ignored)
        key = env["SECRET_KEY"].strip()
        if len(key) < 32:
            raise InstanceError("COMPANION_SECRET_KEY: the key is too short (at least 32 characters; make one with "
                                "python3 -c 'import secrets; print(secrets.token_hex(32))')")
        return key, "COMPANION_SECRET_KEY"
    if env["SECRET_KEY_FILE"]:
        path = Path(env["SECRET_KEY_FILE"]).expanduser()
        try:
            return _read_key(path), "COMPANION_SECRET_KEY_FILE"
        except FileNotFoundError:
            raise InstanceError(f"{path}: COMPANION_SECRET_KEY_FILE names a file that does not exist") from None
    return None


def secret_key(path: Path) -> str:
    """The key sessions are signed with: read, or made once and kept (0600). Two processes starting together
    agree, because the file appears whole or not at all (written aside, then linked into place)."""
    try:
        return _read_key(path)
    except FileNotFoundError:
        pass
    fd, aside = tempfile.mkstemp(dir=path.parent, prefix=".secret-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32) + "\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(aside, path)
        except FileExistsError:
            pass  # another process made it first: use theirs
    finally:
        os.unlink(aside)
    return _read_key(path)


def _read_key(path: Path) -> str:
    try:
        key = path.read_text(encoding="ascii").strip()
    except UnicodeDecodeError:
        key = ""
    except IsADirectoryError:
        raise InstanceError(f"{path}: is a folder, not the secret key file; move it away to make a new key") from None
    except PermissionError:
        raise InstanceError(f"{path}: cannot be read (permission denied)") from None
    except FileNotFoundError:
        raise
    except OSError as e:
        raise InstanceError(f"{path}: cannot be read ({e.strerror or e})") from None
    if len(key) < 32:
        raise InstanceError(f"{path}: the secret key is too short or empty; delete the file to make a new one")
    return key


def store() -> Store:
    """The app's store, opened on first use (creating its tables)."""
    ext = current_app.extensions
    if "companion.store" not in ext:
        with _lock:
            if "companion.store" not in ext:
                ext["companion.store"] = Store(current_app.config["DATABASE_URL"])
    return ext["companion.store"]


def shown_database(url: str) -> str:
    """A database URL as messages show it: a SQLite file's path, or a server's host and database (never its
    user name and password)."""
    return url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else url.split("@")[-1]


def check_database(app: Flask) -> None:
    """Before serving: the database opens, holds our tables (made if missing) and takes a write; else one clear
    InstanceError naming it (a damaged file, a folder in its place, a read-only file, a server that is down)."""
    shown = shown_database(app.config["DATABASE_URL"])
    try:
        with app.app_context():
            store().check_writable()
    except InstanceError:
        raise
    except Exception as e:  # noqa: BLE001 (any driver's error: each becomes the same clear message)
        reason = str(getattr(e, "orig", None) or e).splitlines()[0]
        raise InstanceError(f"{shown}: the saved-sheet database cannot be used: {reason}. Move a damaged file away "
                            "(a new one is made), or fix the permissions or COMPANION_DATABASE_URL") from None
