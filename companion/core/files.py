"""Writing a folder of made files (a static site, a game's PNGs) over the previous build without losing anything
the build did not make, and without ever leaving a half-written folder behind after an error.

A build fills a staging folder; nothing in the user's folder changes while it runs, so any error in it (a page
that fails, a runtime that cannot be fetched, Ctrl+C) leaves the folder as it was. The folder keeps a record
(a small JSON file, e.g. `.companion-site`) listing every file the build wrote. A rebuild then

* replaces the files it writes again, adds the new ones, and removes only the files the previous record lists that
  it no longer writes (and the folders they leave empty);
* keeps every other file and folder: a `CNAME`, a `.git/` folder, notes, a print service's order form;
* refuses, before anything is moved and naming them, files the previous build did not make where it would write
  (a hand-made `index.html`; a file where it needs a folder); they are never overwritten.

Why file by file and not one rename of the whole folder: the folder is the user's (`--out .` may be a git checkout
their shell is sitting in, a symlink to a web server's folder, a mount point, a folder with its own permissions),
so the folder itself stays; only its entries are swapped. The staging folder is a hidden folder inside it
(`.companion-build-*`), so every swap is a rename within one file system (atomic: a file is always either the old
one or the new one, never half-written) and the folder's parent needs no write access. The swap is all renames:
each file replaced is first moved aside into the staging area, and any error during the swap moves everything
back, so the folder ends as it was (old files restored) or as the new build (and the set of files is checked
before the first rename, so the swap has nothing left to refuse). Between the first and the last rename the folder
holds some old and some new files; against a crash there (power loss, kill -9) the record is first rewritten to
list the files of both builds, so the next build still knows every file it may remove. Ctrl+C is undone like any
error. A previous record with no list of files (written by an older companion) counts the files the build writes
as its own, and removes nothing else.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from .schema import InputError, Problem, problem

WORK_PREFIX = ".companion-build-"  # the staging area inside the folder, removed when the build ends
RECORD_LIMIT = 16 * 1024 * 1024  # bytes: a site's record is ~60 KB
SHOWN_AT_MOST = 5  # paths named in one message


def shown(path: Path) -> str:
    """A path as a user would type it: relative to the current folder when it lies below it."""
    rel = os.path.relpath(path)
    return str(path) if rel.startswith("..") else rel


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def read_record(folder: Path, record: str) -> dict | None:
    """The folder's record of its last build: None if there is none; {} if it is there but unreadable."""
    path = folder / record
    found = _lstat(path)
    if found is None:
        return None
    if not stat.S_ISREG(found.st_mode) or found.st_size > RECORD_LIMIT:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _listed(data: dict | None, record: str) -> set[str] | None:
    """The files a record lists (each a safe relative path inside the folder), None if it lists none."""
    files = (data or {}).get("files")
    if not isinstance(files, list):
        return None
    out = set()
    for entry in files:
        if not isinstance(entry, str) or "\\" in entry or "\0" in entry:
            continue
        parts = PurePosixPath(entry).parts
        if (parts and not PurePosixPath(entry).is_absolute() and not {".", ".."} & set(parts)
                and entry == "/".join(parts) and parts != (record,) and not parts[0].startswith(WORK_PREFIX)):
            out.add(entry)
    return out


def folder_problems(folder: Path) -> list[Problem]:
    """Why `folder` cannot be written into (it is a file, or something in its path is): nothing is touched."""
    if folder.exists() and not folder.is_dir():
        return [problem(("out",), "%(folder)s is a file, not a folder", folder=shown(folder))]
    for parent in folder.parents:
        if parent.exists():
            if not parent.is_dir():
                return [problem(("out",), "%(folder)s is a file, not a folder", folder=shown(parent))]
            break
    return []


class Update:
    """One folder written over: `begin` makes the staging folder to fill, `check` names what stands in the way,
    `commit` swaps the files in (undoing itself on an error), then `finish` (or `undo`, then `discard`)."""

    def __init__(self, folder: str | Path, record: str, note: Mapping | None = None, unrecorded: str = "refuse"):
        """`note`: more to keep in the record (what the build was made with). `unrecorded`: what a folder with no
        record at all means for the files the build writes there: "refuse" (they are someone else's) or
        "replace" (an older companion's build, which kept no record)."""
        assert unrecorded in ("refuse", "replace")
        self.folder = Path(os.path.abspath(folder))
        self.record, self.note, self.unrecorded = record, dict(note or {}), unrecorded
        self.work: Path | None = None
        self.made_folder = False
        self.log: list[tuple[str, Path]] = []
        self.record_aside = False

    @property
    def staging(self) -> Path:
        """The folder the new files are written into (made by `begin`) before `commit` moves them in."""
        return self.work / "new"

    def begin(self) -> Path:
        """Make the folder if need be and a work folder in it; the staging folder to fill. InputError if unwritable."""
        problems = folder_problems(self.folder)
        if problems:
            raise InputError(problems)
        try:
            self.made_folder = not self.folder.exists()
            self.folder.mkdir(parents=True, exist_ok=True)
            self.work = Path(tempfile.mkdtemp(prefix=WORK_PREFIX, dir=self.folder))
        except OSError as e:
            self.discard()
            raise InputError([problem(("out",), "cannot write to %(folder)s: %(reason)s", folder=shown(self.folder),
                                      reason=e.strerror or str(e))]) from None
        (self.work / "new").mkdir()
        (self.work / "old").mkdir()
        return self.staging

    def _new_files(self) -> list[str]:
        out = []
        for top, dirs, files in os.walk(self.staging):
            rel = Path(top).relative_to(self.staging).as_posix()
            out += [name if rel == "." else f"{rel}/{name}" for name in files]
            # a symlink to a folder is an entry to place, not a folder to go into
            out += [name if rel == "." else f"{rel}/{name}" for name in dirs if os.path.islink(os.path.join(top, name))]
        if self.record in out:
            raise ValueError(f"a build may not write its own record {self.record}")
        return sorted(out)

    def check(self) -> list[Problem]:
        """What stands where the build writes and was not made by the previous build: nothing is touched."""
        previous = read_record(self.folder, self.record)
        self.listed = _listed(previous, self.record)
        self.new_files = self._new_files()
        replace_unlisted = self.listed is None and (previous is not None or self.unrecorded == "replace")
        listed = self.listed or set()
        in_the_way = set()
        for rel in self.new_files:
            parts = rel.split("/")
            for i in range(1, len(parts) + 1):
                found = _lstat(self.folder.joinpath(*parts[:i]))
                if found is None:
                    break
                if i < len(parts) and not stat.S_ISDIR(found.st_mode):
                    in_the_way.add("/".join(parts[:i]))  # a file (or a link) where the build needs a folder
                    break
                if i == len(parts) and (stat.S_ISDIR(found.st_mode) or not (rel in listed or replace_unlisted)):
                    in_the_way.add(rel)
        new = set(self.new_files)
        self.stale = sorted(rel for rel in listed - new if self._removable(rel))
        if not in_the_way:
            return []
        paths = sorted(in_the_way)
        named = ", ".join(paths[:SHOWN_AT_MOST]) + (f" (+{len(paths) - SHOWN_AT_MOST})" if len(paths) > SHOWN_AT_MOST
                                                     else "")
        return [problem(("out",), "%(folder)s already holds %(paths)s, which this build would overwrite and did not "
                                  "make; move it away and build again (nothing was changed)",
                        folder=shown(self.folder), paths=named)]

    def _removable(self, rel: str) -> bool:
        """A file (or link) the previous build listed, still there, and reached through real folders only (never
        through a link to somewhere else)."""
        parts = rel.split("/")
        for i in range(1, len(parts)):
            found = _lstat(self.folder.joinpath(*parts[:i]))
            if found is None or not stat.S_ISDIR(found.st_mode):
                return False
        found = _lstat(self.folder / rel)
        return found is not None and not stat.S_ISDIR(found.st_mode)

    # --- the swap: renames only, each one logged so that it can be undone ------------------------------------

    def _aside(self, rel: str) -> None:
        """Move the folder's `rel` into the staging area's old/ (undone by moving it back)."""
        target = self.work / "old" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(self.folder / rel, target)
        self.log.append(("aside", Path(rel)))

    def _put(self, source: Path, rel: str) -> None:
        os.rename(source, self.folder / rel)
        self.log.append(("placed", Path(rel)))

    def _place(self, source: Path, rel: str = "") -> None:
        for entry in sorted(os.scandir(source), key=lambda e: e.name):
            here = f"{rel}/{entry.name}" if rel else entry.name
            if entry.is_dir(follow_symlinks=False) and _lstat(self.folder / here) is not None:
                self._place(Path(entry.path), here)  # a folder both builds write into (checked: a real one)
                continue
            if _lstat(self.folder / here) is not None:
                self._aside(here)
            self._put(Path(entry.path), here)  # a file, or a whole new folder in one rename

    def _write_record(self, files: list[str]) -> None:
        if not self.record_aside and _lstat(self.folder / self.record) is not None:
            self._aside(self.record)
        self.record_aside = True
        part = self.work / "record.part"
        part.write_text(json.dumps({**self.note, "files": files}, ensure_ascii=False, indent=0) + "\n",
                        encoding="utf-8")
        os.chmod(part, 0o644)
        self._put(part, self.record)

    def commit(self) -> None:
        """Swap the staging files in (after `check` found nothing in the way); on any error, undo and re-raise."""
        try:
            # Against a crash in the middle: a record listing the files of both builds, so none is ever orphaned.
            self._write_record(sorted(set(self.listed or ()) | set(self.new_files)))
            self._place(self.staging)
            for rel in self.stale:
                self._aside(rel)
            emptied = {p for rel in self.stale for p in map(str, PurePosixPath(rel).parents) if p != "."}
            for rel in sorted(emptied, key=lambda p: -p.count("/")):  # the deepest first
                path = self.folder / rel
                found = _lstat(path)
                if found is not None and stat.S_ISDIR(found.st_mode) and not os.listdir(path):
                    os.rmdir(path)
                    self.log.append(("rmdir", Path(rel)))
            self._write_record(self.new_files)
        except BaseException:
            self.undo()
            raise

    def undo(self) -> None:
        """Put the folder back as it was before `commit`: the build's files out, the old ones back."""
        failed = False
        for action, rel in reversed(self.log):
            path = self.folder / rel
            try:
                if action == "placed":
                    if _lstat(path) is not None:
                        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
                elif action == "aside":
                    os.rename(self.work / "old" / rel, path)
                elif action == "rmdir":
                    path.mkdir()
            except OSError:
                failed = True
        self.log = []
        if failed:  # what could not go back stays in the staging area's old/, never deleted
            self.work = None

    def finish(self) -> None:
        """The swap done: remove the staging area (and the replaced files kept in it)."""
        if self.work is not None:
            shutil.rmtree(self.work, ignore_errors=True)
            self.work = None

    def discard(self) -> None:
        """The build failed: remove the staging area, and the folder if `begin` made it."""
        self.finish()
        if self.made_folder:
            try:
                self.folder.rmdir()
            except OSError:
                pass


@contextmanager
def all_written_over(updates: list[Update]) -> Iterator[list[Path]]:
    """Yield each update's staging folder to fill; on leaving without an error, every folder is checked, then
    swapped in (one failing undoes the ones already swapped). On an error every folder is left as it was."""
    begun: list[Update] = []
    try:
        for update in updates:
            update.begin()
            begun.append(update)
        yield [update.staging for update in updates]
        problems = [p for update in updates for p in update.check()]
        if problems:
            raise InputError(problems)
        done: list[Update] = []
        try:
            for update in updates:
                update.commit()
                done.append(update)
        except BaseException:
            for update in reversed(done):
                update.undo()
            raise
        for update in updates:
            update.finish()
    except BaseException:
        for update in reversed(begun):
            update.discard()
        raise


@contextmanager
def written_over(folder: str | Path, record: str, note: Mapping | None = None,
                 unrecorded: str = "refuse") -> Iterator[Path]:
    """One folder written over (see `Update` and the module's docstring): yields the staging folder to fill."""
    with all_written_over([Update(folder, record, note, unrecorded)]) as (staging,):
        yield staging


# --- Reading a file that must be a regular one --------------------------------------------------------------------


class NotReadable(Exception):
    """A file that cannot be read as asked: str() is the English message ("no such file", "is a folder, not a data
    file"); `template` and `params` let a caller say it in another language."""

    def __init__(self, template: str, **params):
        self.template, self.params = template, params
        super().__init__(template % params if params else template)


def read_regular(path: str | Path, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file at `path`, of at most `limit` bytes; NotReadable for anything else. Opened
    first and looked at through its own descriptor: a device (/dev/zero never ends), a pipe (O_NONBLOCK: opening
    one with no writer does not hang), a socket or a folder is refused unread, and at most `limit` + 1 bytes are
    ever read. `what` names the file a caller expects ("data file")."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise NotReadable("no such file") from None
    except IsADirectoryError:
        raise NotReadable("is a folder, not a %(what)s", what=what) from None
    except OSError as e:
        raise NotReadable("cannot be read (%(reason)s)", reason=e.strerror or str(e)) from None
    most = f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit // 1024} KiB" if limit % 1024 == 0 \
        else f"{limit} bytes"
    try:
        found = os.fstat(fd)
        if stat.S_ISDIR(found.st_mode):
            raise NotReadable("is a folder, not a %(what)s", what=what)
        if not stat.S_ISREG(found.st_mode):
            raise NotReadable("is a device, a pipe or a socket, not a %(what)s", what=what)
        if found.st_size > limit:
            raise NotReadable("is larger than %(most)s", most=most)
    except BaseException:
        os.close(fd)
        raise
    with open(fd, "rb") as f:
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise NotReadable("cannot be read (%(reason)s)", reason=e.strerror or str(e)) from None
    if len(data) > limit:  # it grew since
        raise NotReadable("is larger than %(most)s", most=most)
    return data

