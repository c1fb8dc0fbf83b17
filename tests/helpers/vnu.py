"""The Nu Html Checker (vnu.jar, the W3C's validator) as the tests run it: pinned, fetched from the npm registry by
`make vnu` (`.ci/run` runs it) into the virtualenv, never at a test's run time, and run once on many files (Java's
start is the slow part). Run as a script, it fetches: `python -P tests/helpers/vnu.py fetch DEST`."""
from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import urllib.request
from pathlib import Path

VERSION = "26.9.27"
URL = f"https://registry.npmjs.org/vnu-jar/-/vnu-jar-{VERSION}.tgz"
INTEGRITY = "sha512-TkQd5DFfOaWC9ebtvozTsrH2Vaod3jYg+vrOeREzIXxBexLz9+rS2DNtjn7+RPUiZhgli0SghgBX6RJRNea0KA=="
MEMBER = "package/build/dist/vnu.jar"
HOW = ("install Java (Debian: sudo apt-get install default-jre-headless) and the checker (make vnu: vnu-jar "
       f"{VERSION} from the npm registry into .venv/vnu/vnu.jar; or set VNU_JAR to a vnu.jar)")


def jar() -> Path | None:
    """Where the checker is: VNU_JAR, else the virtualenv's vnu/vnu.jar (this checkout's .venv, or the one running
    the tests: a worktree runs the main checkout's); None when it is in none of them."""
    if os.environ.get("VNU_JAR"):
        return Path(os.environ["VNU_JAR"]) if Path(os.environ["VNU_JAR"]).is_file() else None
    for venv in (Path(__file__).parents[2] / ".venv", Path(sys.prefix)):
        if (venv / "vnu" / "vnu.jar").is_file():
            return venv / "vnu" / "vnu.jar"
    return None


def missing() -> str | None:
    """Why the checker cannot run here (the skip's reason, saying how to get it), or None."""
    if shutil.which("java") is None:
        return f"HTML CHECKER SKIPPED: no java on the PATH; {HOW}"
    if jar() is None:
        return f"HTML CHECKER SKIPPED: no vnu.jar; {HOW}"
    return None


def errors(files: list[Path], timeout: float = 300) -> list[dict]:
    """The checker's errors on these files, in one run: each message as it gives it (url, message, line, extract)."""
    run = subprocess.run(["java", "-Xss8m", "-jar", str(jar()), "--errors-only", "--format", "json",
                          *map(str, files)], capture_output=True, text=True, timeout=timeout)
    try:
        return json.loads(run.stderr)["messages"]  # (vnu writes its report on stderr, and exits 1 on an error)
    except (ValueError, KeyError):
        raise AssertionError(f"the checker said no report (exit {run.returncode}): {run.stderr[-2000:]}") from None


def fetch(dest: Path) -> None:
    """The pinned vnu.jar into `dest`, checked against the registry's sha512 (a different package writes nothing)."""
    if dest.is_file():
        return
    with urllib.request.urlopen(URL, timeout=300) as answer:
        data = answer.read()
    got = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if got != INTEGRITY:
        sys.exit(f"{URL} is not the pinned vnu-jar {VERSION} (its sha512 differs); nothing was written")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tgz:
        member = tgz.extractfile(MEMBER).read()
    dest.parent.mkdir(parents=True, exist_ok=True)
    aside = dest.with_suffix(".part")
    aside.write_bytes(member)
    aside.replace(dest)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "fetch":
        sys.exit("usage: python -P tests/helpers/vnu.py fetch DEST (the vnu.jar to write)")
    fetch(Path(sys.argv[2]))
    print(f"vnu-jar {VERSION}: {sys.argv[2]}")
