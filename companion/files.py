"""Writing a folder whole: the files go into a staging folder beside it, which replaces it in one rename when all
of them are written; on any error the staging folder is removed and the old folder is left as it was."""
from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def written_whole(folder: Path) -> Iterator[Path]:
    """Yield the staging folder to fill; on leaving without an error it becomes `folder`."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        yield staging
        old = folder.with_name(f".{folder.name}.old")
        if folder.exists():
            folder.rename(old)
        staging.rename(folder)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
