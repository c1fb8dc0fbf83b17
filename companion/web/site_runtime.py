"""The Python a static site's phones run (issue 16): Pyodide, pinned, fetched from the npm registry when the site is
built (kept in a cache folder, never in the repository), and a zip of the pure rules core with the card data.

`<site>/py/` holds `pyodide/` (the runtime's own files), `companion.zip` (our code, the card data and pure-Python
PyYAML) and `worker.js` (the Web Worker that loads both and answers `companion.browser.call`).
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

from .. import settings
from ..resources import PACKAGE_DIR, cards_dir
from ..schema import InputError, Problem

PYODIDE = {
    "version": "314.0.7",
    "url": "https://registry.npmjs.org/pyodide/-/pyodide-314.0.7.tgz",
    "integrity": "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==",
}
# The runtime files the worker loads (the package also holds source maps, type files and a console page).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
ENTRY = "companion.browser"
# Parts of Pyodide's standard library that scoring, dealing and pages never load (mail, XML, debuggers, test
# frameworks, servers, process pools): left out of the phone's copy, about 0.6 MB of its first download. The browser
# tests load every page and call through this very runtime, so a part that turns out to be needed shows there.
STDLIB_LEFT_OUT = ("email", "multiprocessing", "xml", "xmlrpc", "unittest", "doctest.py", "pdb.py", "pydoc.py",
                   "pydoc_data", "wsgiref", "imaplib.py", "pickletools.py", "http", "mailbox.py", "smtplib.py",
                   "ftplib.py", "poplib.py", "nntplib.py", "sqlite3", "dbm", "curses", "tkinter", "turtle.py",
                   "idlelib", "lib2to3", "ensurepip", "venv")
WORKER = Path(__file__).parent / "runtime" / "worker.js"


def cache_dir() -> Path:
    """Where fetched runtimes are kept between builds: COMPANION_CACHE, else ~/.cache/companion."""
    return Path(settings.environment()["CACHE"] or Path.home() / ".cache" / "companion")


def fetch_pyodide(timeout: float = 120) -> Path:
    """The pinned Pyodide package (.tgz): from the cache, else downloaded and checked against its npm integrity."""
    target = cache_dir() / f"pyodide-{PYODIDE['version']}.tgz"
    if target.exists() and _integrity(target.read_bytes()) == PYODIDE["integrity"]:
        return target
    try:
        with urllib.request.urlopen(PYODIDE["url"], timeout=timeout) as answer:
            data = answer.read()
    except (urllib.error.URLError, OSError) as e:
        raise InputError([Problem(("scoring",), f"cannot fetch Pyodide {PYODIDE['version']} from the npm registry "
                                                f"({getattr(e, 'reason', e)}); build with --no-scoring for the "
                                                "rules-only site, or try again online")]) from None
    if _integrity(data) != PYODIDE["integrity"]:
        raise InputError([Problem(("scoring",), f"the Pyodide package from {PYODIDE['url']} is not the pinned one "
                                                "(its sha512 differs); nothing was written")])
    target.parent.mkdir(parents=True, exist_ok=True)
    aside = target.with_suffix(".part")
    aside.write_bytes(data)
    aside.replace(target)
    return target


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def write(folder: Path, site: dict) -> dict:
    """Write `folder/py/` (runtime, code zip, worker); what it holds, for the service worker and the README.
    `site` is what the phone's page renderer needs to know of this site (its addresses: see web/render.py)."""
    py = folder / "py"
    runtime = py / f"pyodide-{PYODIDE['version']}"  # named by version: a phone's kept copy never mixes two
    runtime.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fetch_pyodide(), "r:gz") as tgz:
        for name in RUNTIME_FILES:
            member = tgz.extractfile(f"package/{name}").read()
            (runtime / name).write_bytes(_trimmed(member) if name == "python_stdlib.zip" else member)
    code = code_zip(site)
    (py / "companion.zip").write_bytes(code)
    version = hashlib.sha256(code).hexdigest()[:12]
    files = [runtime / name for name in RUNTIME_FILES]
    unpacked = sum(p.stat().st_size for p in files) + len(code)
    transfer = sum(len(gzip.compress(p.read_bytes(), 6)) for p in files) + len(code)
    worker = (WORKER.read_text(encoding="utf-8").replace("__CODE_VERSION__", version)
              .replace("__PYODIDE_DIR__", runtime.name).replace("__RUNTIME_BYTES__", str(unpacked))
              .replace("__TRANSFER_MB__", f"{transfer / 1e6:.1f}")
              .replace("__RUNTIME_FILES__", json.dumps(RUNTIME_FILES)))
    (py / "worker.js").write_text(worker, encoding="utf-8")
    return {"pyodide": PYODIDE["version"], "code_bytes": len(code), "code_version": version}


def _trimmed(stdlib: bytes) -> bytes:
    """Pyodide's standard library without STDLIB_LEFT_OUT."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(stdlib)) as source, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as kept:
        for item in source.infolist():
            if item.filename.split("/")[0] not in STDLIB_LEFT_OUT:
                kept.writestr(item, source.read(item), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return out.getvalue()


def modules() -> list[str]:
    """The package's modules the browser entry imports, found by importing it in a fresh interpreter (so the zip
    holds exactly what runs, and a new import of the PDF or web code would be seen by the test that checks it)."""
    probe = (f"import sys, json, {ENTRY}, companion.sheets, companion.cards; {ENTRY}.warm(); "
             "companion.cards.load_shipped(); "  # reading card data imports what it needs as it needs it
             "print(json.dumps(sorted(m for m in sys.modules if m == 'companion' or m.startswith('companion.'))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          cwd=PACKAGE_DIR.parent)
    return json.loads(done.stdout)


def code_zip(site: dict) -> bytes:
    """Our pure core (the modules the entry imports), the shipped card data, the page templates with the
    catalogues compiled, this site's addresses, and the pure-Python modules of PyYAML, Jinja2 and MarkupSafe."""
    import jinja2
    import markupsafe
    import yaml

    from .. import i18n
    from ..resources import templates_dir

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in modules():
            path = PACKAGE_DIR.parent.joinpath(*name.split("."))
            source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
            z.write(source, source.relative_to(PACKAGE_DIR.parent).as_posix())
        for data in sorted(cards_dir().glob("*.yaml")):
            z.write(data, f"companion/cards/{data.name}")
        z.write(PACKAGE_DIR / "default_layouts.yaml", "companion/default_layouts.yaml")  # a file without layouts:
        for template in sorted(templates_dir().rglob("*.html")):
            z.write(template, f"companion/templates/{template.relative_to(templates_dir()).as_posix()}")
        for lang in i18n.LANGS:
            if i18n.po_path(lang).exists():
                z.writestr(f"companion/translations/{lang}.mo", i18n.compiled(lang))
        z.writestr("companion/web/site.json", json.dumps(site, ensure_ascii=False, sort_keys=True))
        for package in (yaml, jinja2, markupsafe):
            folder = Path(package.__file__).parent
            for source in sorted(folder.glob("*.py")):
                z.write(source, f"{folder.name}/{source.name}")
    return buffer.getvalue()
