"""SVG art read once per machine rather than once per process: what reading an SVG found (its ArtInfo) and the PDF
operators that draw it, kept in the companion's cache folder (COMPANION_CACHE, else ~/.cache/companion) under the
digest of the file's bytes and of the code that read them (art.py, this file, svglib, reportlab and lxml). A fresh
`companion build` or `validate` then skips svglib for every picture it has read before: half of a cold build of
the shipped games. Only pictures that passed every check and whose operators name no document resource (a font,
an image, a transparency) are kept; anything unreadable in the folder is read as nothing kept."""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path

MAX_ENTRY_BYTES = 32 * 2**20  # an entry larger than this is not read (the shipped pictures' are under 200 KB)


@lru_cache(maxsize=1)
def _code_version() -> str:
    """A digest of the code that turns an SVG's bytes into operators: a change to it leaves old entries unread.
    The versions of svglib and lxml are read from their installed metadata, not by importing them: a cold build
    whose every picture is kept here never loads either (they were a third of such a build's time)."""
    from importlib.metadata import PackageNotFoundError, version

    import reportlab

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return ""

    h = hashlib.sha1()
    for name in ("art.py", "art_cache.py"):
        h.update((Path(__file__).with_name(name)).read_bytes())
    h.update(f"{installed('svglib')} {reportlab.Version} {installed('lxml')}".encode())
    return h.hexdigest()[:16]


def folder() -> Path:
    """Where the entries are kept."""
    from .. import settings

    return Path(settings.environment()["CACHE"] or Path.home() / ".cache" / "companion") / "art"


def _entry(data: bytes) -> Path:
    return folder() / f"{hashlib.sha1(data).hexdigest()}-{_code_version()}.json"


def get(data: bytes) -> tuple[list, list[str]] | None:
    """(the ArtInfo's fields, the operators) kept for an SVG's bytes, or None."""
    path = _entry(data)
    try:
        if path.stat().st_size > MAX_ENTRY_BYTES:
            return None
        kept = json.loads(path.read_bytes())
        fields, ops = kept["info"], kept["ops"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not (isinstance(fields, list) and len(fields) == 6 and isinstance(ops, list)
            and all(isinstance(op, str) for op in ops)):
        return None
    return fields, ops


def put(data: bytes, fields: list, ops: list[str]) -> None:
    """Keep an SVG's ArtInfo fields and operators (whole or not at all: written aside, then renamed)."""
    path = _entry(data)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _forget_other_versions(path.parent)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".part-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"info": fields, "ops": ops}, f, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except (OSError, UnboundLocalError):
            pass


def _forget_other_versions(where: Path) -> None:
    """Remove the entries an older (or newer) version of the code wrote: they are never read again."""
    ours = f"-{_code_version()}.json"
    for old in where.glob("*.json"):
        if not old.name.endswith(ours):
            old.unlink(missing_ok=True)
