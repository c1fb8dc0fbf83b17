"""`companion build --watch`: build, then build again whenever a game's data file, its spreadsheet (`rows:`), art or
fonts change. A build that fails prints its errors as `companion build` does and leaves the last good PDF in place
(`build` writes each PDF whole or not at all), and the watch goes on until Ctrl+C.

What is watched: the folder of each data file, and everything below it (a data file's art, fonts and spreadsheets
must all be there), through watchfiles (inotify, FSEvents or ReadDirectoryChangesW; polling only where the system
has none, or with WATCHFILES_FORCE_POLLING). Changes are grouped until the folder has been quiet for QUIET_MS, so an
editor's save (written in place, or written aside and renamed over the file as vim and LibreOffice do) is one
rebuild."""
from __future__ import annotations

import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .. import cards, service
from ..core.files import shown
from ..core.schema import InputError, Problem
from .build import build
from .document import BuildSettings

# What a build reads: the data file, its spreadsheets, art and fonts.
WATCHED_SUFFIXES = (".yaml", ".yml", ".csv", ".xlsx", ".ods", ".svg", ".png", ".jpg", ".jpeg", ".ttf", ".otf")
DATA_SUFFIXES = (".yaml", ".yml")  # only the data file itself: another game's data file beside it is not read
QUIET_MS = 300  # a change is built once nothing more has changed for this long (watchfiles' `step`)
LONGEST_MS = 1_600  # ... or once changes have kept coming for this long (watchfiles' `debounce`)
TICK_MS = 300  # the watcher reports "nothing yet" this often: the first build waits for the watcher to be running


def scratch_name(name: str) -> bool:
    """An editor's or office program's temporary, lock or backup file, a hidden file, or the build's own temporary
    files: never what a build reads, whatever it is named like (`.especias.yaml.swp`, `~$cards.xlsx`,
    `.~lock.cards.ods#`, vim's `4913` probe, `x.pdf.part`, `.companion-build-*`)."""
    return (name.startswith((".", "~", "#")) or name.endswith(("~", "#", ".part", ".tmp", ".swp", ".swx", ".bak"))
            or name == "4913")


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def relevant(path: str | Path, data_file: str | Path, out_dir: str | Path, games: Iterable[str] = ()) -> bool:
    """Whether a change to `path` can change the build of `data_file` written into `out_dir`: the data file itself,
    or a spreadsheet, art or font file in its folder or below; never anything inside the output folder (the
    build's own writes), unless that folder holds the data file's folder too, in which case only the games' PNG
    folders (`<out>/<game>-png/`, for each of `games`) are left out; never a hidden, temporary or lock file."""
    path = os.path.abspath(path)
    data_files, folders = _where(data_file)
    if os.path.splitext(path)[1].lower() in DATA_SUFFIXES:
        if path not in data_files:
            return False
    elif os.path.splitext(path)[1].lower() not in WATCHED_SUFFIXES:
        return False
    folder = next((f for f in folders if _inside(path, f)), None)
    if folder is None:
        return False
    if any(scratch_name(part) for part in os.path.relpath(path, folder).split(os.sep)):
        return False
    out = os.path.realpath(out_dir)
    if _inside(path, out) and not any(_inside(f, out) for f in folders):
        return False
    return not any(_inside(path, os.path.join(out, f"{game}-png")) for game in games)


def _where(data_file: str | Path) -> tuple[set[str], list[str]]:
    """A data file's own paths (as named, and where a link leads) and the folders a build of it reads from."""
    named = os.path.abspath(data_file)
    real = os.path.realpath(named)
    folder = os.path.realpath(os.path.dirname(named))  # art and fonts: below this (design_check.check_art)
    in_folder = os.path.join(folder, os.path.basename(named))
    folders = [folder] + ([os.path.dirname(real)] if not _inside(real, folder) else [])
    return {named, real, in_folder}, folders


@dataclass
class _Target:
    """One game being watched: what was named, its data file, and the last good build."""

    name: str  # as the command line named it: a data file's path or a shipped game's id
    data_file: str  # its data file, as given to `build` (and so named in its errors)
    pdf: Path | None = None  # the last good PDF this watch wrote
    game: str | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        """How messages name it: a data file's path as given, or a game's id with its data file in brackets."""
        return self.name if self.name.endswith(DATA_SUFFIXES) else f"{self.name} ({shown(Path(self.data_file))})"


def _target(name: str) -> _Target:
    """A data file's path, or a shipped game's id watched through its data file (read again at each build: the
    shipped card sets are loaded once per process)."""
    if name.endswith(DATA_SUFFIXES):
        folder = os.path.dirname(os.path.abspath(name))
        if not os.path.isdir(folder):
            raise InputError([Problem(("games",), f"{name}: no folder {shown(Path(folder))} to watch")])
        return _Target(name, name)
    return _Target(name, str(service.card_set(name).path), game=name)


def watch(game_ids_or_files: list[str], out_dir: str | Path, settings: BuildSettings, png: bool = False, *,
          checked: Callable[[], None] | None = None, stop_event=None, quiet_ms: int = QUIET_MS,
          only: list[str] | None = None) -> int:
    """Build each game into `out_dir`, then again each time its files change, until Ctrl+C (or `stop_event`, for
    tests); returns how many builds were made. The settings and the games named are checked first (no file change
    can fix them), then `checked` is called (the command line's warnings about the settings)."""
    import watchfiles

    problems = settings.problems()
    if problems:
        raise InputError(problems)
    targets = [_target(name) for name in game_ids_or_files]
    if checked is not None:
        checked()
    out = Path(os.path.abspath(out_dir))
    folders = _outermost({f for t in targets for f in _where(t.data_file)[1]})
    def games() -> list[str]:  # known once built: their PNG folders are the build's own writes
        return [t.game for t in targets if t.game]

    def wanted(change, path: str) -> bool:
        return any(relevant(path, t.data_file, out, games()) for t in targets)

    names = ", ".join(t.label for t in targets)
    _say(f"watching {', '.join(shown(Path(f)) + os.sep for f in folders)} for {names}; Ctrl+C stops")
    builds = 0
    first = True
    try:
        for changes in watchfiles.watch(*folders, watch_filter=wanted, step=quiet_ms,
                                        debounce=max(LONGEST_MS, quiet_ms), rust_timeout=TICK_MS,
                                        yield_on_timeout=True, stop_event=stop_event, ignore_permission_denied=True,
                                        raise_interrupt=True):
            if first:  # the watcher runs from here on: nothing saved during the first build is missed
                first = False
                for t in targets:
                    _build_one(t, out, settings, png, None, only)
                    builds += 1
                continue
            paths = sorted({os.path.normpath(p) for _, p in changes})
            for t in targets:
                mine = [p for p in paths if relevant(p, t.data_file, out, games())]
                if mine:
                    _build_one(t, out, settings, png, mine, only)
                    builds += 1
    except KeyboardInterrupt:
        _say("stopped watching")
    return builds


def _outermost(folders: set[str]) -> list[str]:
    """The folders to watch recursively, none inside another."""
    return sorted(f for f in folders if not any(o != f and _inside(f, o) for o in folders))


def _build_one(t: _Target, out: Path, settings: BuildSettings, png: bool, changed: list[str] | None,
               only: list[str] | None = None) -> None:
    """One build of one game, reported on one line (its errors first, as `companion build` prints them)."""
    stamp = time.strftime("%H:%M:%S")
    what = f"{_changed(changed)}: " if changed else ""
    start = time.perf_counter()
    warnings: list[str] = []
    errors: list[str]
    try:
        (path, pages), = build([t.data_file], out, settings, png=png, warn=warnings.append, only=only)
    except cards.DataError as e:
        errors = list(e.errors)
    except InputError as e:
        errors = [f"companion build: {problem}" for problem in e.problems]
    except OSError as e:  # the disk is full, the folder went away
        errors = [f"companion build: {e.strerror or e}" + (f": {e.filename}" if e.filename else "")]
    except Exception:  # a bug: said with its traceback, and the watch goes on
        errors = [traceback.format_exc().rstrip(), "companion build: this is a bug in companion; please report it"]
    else:
        t.pdf, t.game = path, path.stem
        extra = f" (+ {shown(path.with_suffix(''))}-png/)" if png else ""
        took = time.perf_counter() - start
        _say(f"{stamp} {what}{shown(path)}: {pages} pages{extra} ({took:.2f} s)" if only else
             f"{stamp} {what}{shown(path)}: {pages} pages{extra} ({took:.1f} s)")
        if warnings != t.warnings:  # said again only when they change
            for line in warnings:
                _say(line, err=True)
        t.warnings = warnings
        return
    for line in errors:
        _say(line, err=True)
    n = len(errors)
    kept = f"the last good {shown(t.pdf)} is kept" if t.pdf is not None and t.pdf.exists() else \
        "no PDF written yet"
    _say(f"{stamp} {what}{t.label} not built ({n} error{'s' * (n != 1)} above); {kept}; waiting for a fix",
         err=True)
    t.warnings = []


def _changed(paths: list[str]) -> str:
    names = [shown(Path(p)) for p in paths]
    more = f" and {len(names) - 3} more" if len(names) > 3 else ""
    return ", ".join(names[:3]) + more + " changed"


def _say(line: str, err: bool = False) -> None:
    print(line, file=sys.stderr if err else sys.stdout, flush=True)
