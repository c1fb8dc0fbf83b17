"""Whether a file a data file names stays inside that file's folder once links are followed: the one check every
reader and server of a game's art and fonts makes (validate, the PDF build, the phone's pages, the static site)."""
from __future__ import annotations

import os


def leads_outside(path: str | os.PathLike, folder: str | os.PathLike) -> bool:
    """Whether `path` leads outside `folder` once every link is followed (a link to /etc/passwd, to the instance's
    session key, a dangling link out); a path that is not there does not (reading it says "no such file")."""
    if not os.path.lexists(path):
        return False
    real = os.path.realpath(folder)
    return os.path.commonpath([real, os.path.realpath(path)]) != real


def inside(path: str | os.PathLike, folder: str | os.PathLike) -> bool:
    """Whether `path` is there and, links followed, inside `folder`: what may be read or served."""
    return os.path.lexists(path) and not leads_outside(path, folder)
