"""Saved score sheets over a store, with no web app: start a sheet, change it, import an export, and back up or
restore every sheet. The web app and the command line (`companion sheets export|import`) both drive it."""
from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .. import service
from ..core.schema import InputError, Problem, Problems, fmt_path, problem
from . import files as sheet_files
from . import model as sheets
from .storage import Store, Written

IMPORT_LIMIT = 4 * 1024 * 1024  # bytes; an export of a full sheet (2,000 scored changes) fits with room
MiB = 1024 * 1024


def create(store: Store, data: Any) -> str:
    """A new sheet from `{"game", "title", "players"}`; its edit token."""
    return store.create(sheets.new_sheet(data))


def read_export(raw: bytes, path: tuple = ()) -> tuple[dict, list[dict]]:
    """A sheet and its log from an export, JSON (an object) or CSV (anything else), every change checked as if it
    were made again. `path` names where the file came from in a problem (a form's file field)."""
    if len(raw) > IMPORT_LIMIT:
        raise InputError([problem(path, "is larger than %(most)s MiB", most=IMPORT_LIMIT // MiB)])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError([Problem(path, "is not UTF-8 text")]) from None
    if text.lstrip().startswith("{"):
        return sheet_files.import_json(service.parse_json(text, IMPORT_LIMIT))
    return sheet_files.import_csv(text)


def import_sheet(store: Store, raw: bytes, path: tuple = ()) -> str:
    """A new sheet from an export (see `read_export`); its edit token."""
    return store.create(*read_export(raw, path))


def change(store: Store, sheet_id: int, action: str, data: Any, target: int | None = None,
           meta: Mapping | None = None) -> Written:
    """One change from its fields (`client_id` to make a retry harmless; `base` = the entry's revision seen, for an
    edit, undo or restore; the entry's own fields for an add or edit; `meta` if the caller already read it).
    Where the game stands by its rules (no round after its end, finished when it is over) is decided by the store,
    in the write's own transaction. InputError, Conflict or NotFound."""
    if action in sheets.WITH_BODY and meta is None:
        meta = store.meta(sheet_id)
    if action == "add" and _has_end(meta):  # a game of rounds: the request's round (the kept totals say it)
        data = sheets.with_round(meta, store.summaries([sheet_id])[sheet_id], data)
    body, base, client_id = sheets.checked_change(meta, action, data)
    return store.append(sheet_id, action, target=target, body=body, base=base, client_id=client_id)


def _has_end(meta: Mapping) -> bool:
    """Whether the sheet's game says how its sheet ends, asked with the sheet's own players."""
    return sheets.game_end(meta["game"], 0, None, dict.fromkeys(meta["players"], 0)) is not None


# --- Backup and restore ----------------------------------------------------------------------------------------


def export_all(store: Store, folder: str | Path) -> list[Path]:
    """Write every saved sheet as `<folder>/sheet-<id>-<game>.json` (the export format); each file appears whole."""
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise InputError([Problem(("out",), f"{out} is a file, not a folder")])
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError([Problem(("out",), f"cannot make {out}: {e.strerror or e}")]) from None
    written = []
    for sheet_id in store.sheet_ids():
        sheet, log = store.load(sheet_id)
        path = out / f"sheet-{sheet_id:05d}-{sheet['game']}.json"
        text = json.dumps(sheet_files.export_json(sheet, log), ensure_ascii=False, indent=1) + "\n"
        try:
            _write_whole(path, text)
        except OSError as e:
            raise InputError([Problem(("out",), f"cannot write {path}: {e.strerror or e}")]) from None
        written.append(path)
    return written


def _write_whole(path: Path, text: str) -> None:
    """`text` written beside `path` and moved into its place, so the file appears whole; the half-written copy is
    removed on any failure or interruption (Ctrl+C, SIGTERM)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def import_files(store: Store, paths: Iterable[str | Path]) -> list[tuple[Path, str]]:
    """Restore sheets from export files: every file is read and checked first, and all are written in one
    transaction, so a damaged file (named, with every problem in it) imports nothing. (file, edit token) pairs."""
    read, problems = [], Problems()
    for name in map(Path, paths):
        try:
            raw = read_file(name)
        except OSError as e:
            problems.add((str(name),), f"cannot be read ({e.strerror or e})")
            continue
        except InputError as e:  # not a file to read, or too large: said of the file itself
            problems.extend(e.problems)
            continue
        try:
            read.append(read_export(raw))
        except InputError as e:
            problems.extend(Problem((str(name),), f"{fmt_path(p.path) or 'file'}: {p.message}") for p in e.problems)
    if problems:
        raise InputError(problems)
    return list(zip(map(Path, paths), store.create_many(read), strict=True))


def read_file(name: Path) -> bytes:
    """An export file's bytes, at most IMPORT_LIMIT + 1 of them (what `read_export` needs to refuse a larger one).
    Opened first and looked at through its own descriptor (no race with a swapped path): anything but a regular file
    (a device such as /dev/zero, a pipe, a folder) and a file over the limit are refused unread. O_NONBLOCK, so that
    opening a named pipe with no writer does not hang. InputError naming the file, or OSError."""
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        found = os.fstat(fd)
        if stat.S_ISDIR(found.st_mode):
            raise InputError([problem((str(name),), "is a folder, not an export file")])
        if not stat.S_ISREG(found.st_mode):
            raise InputError([problem((str(name),), "is a device, a pipe or a socket, not an export file")])
        if found.st_size > IMPORT_LIMIT:
            raise InputError([problem((str(name),), "is larger than %(most)s MiB", most=IMPORT_LIMIT // MiB)])
    except BaseException:
        os.close(fd)
        raise
    with open(fd, "rb") as f:
        return f.read(IMPORT_LIMIT + 1)
