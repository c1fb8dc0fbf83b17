"""The Python a static site's phones run (issue 16): Pyodide, pinned, fetched from the npm registry when the site is
built (kept in a cache folder, never in the repository), and a zip of the pure rules core with the card data.

`<site>/py/` holds `pyodide/` (the runtime's own files), `companion.zip` (our code, the card data and pure-Python
PyYAML) and `worker.js` (the Web Worker that loads both and answers `browser.call`); `zxing-wasm-<version>/`
holds zxing-wasm's reader (also pinned, from the npm registry), which a scoring page loads only when a player chooses
a photo of the cards, to read their codes in the phone (issue 28).
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import pickle
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

from ... import settings
from ...core import i18n
from ...core.resources import PACKAGE_DIR
from ...core.schema import InputError, Problem
from ..shell import render

PYODIDE = {
    "version": "314.0.7",
    "url": "https://registry.npmjs.org/pyodide/-/pyodide-314.0.7.tgz",
    "integrity": "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==",
}
ZXING = {
    "version": "3.1.4",
    "url": "https://registry.npmjs.org/zxing-wasm/-/zxing-wasm-3.1.4.tgz",
    "integrity": "sha512-1+v8p7sauddySVNG+ye7GD/0TS95BG2ycdkrC+EnBrFBFkHeIghzUt2yVjtx3NucJeNrQnhT8yGAIz60Vx9o0w==",
}
# zxing-wasm's reader-only build, as the site holds it (package path → site path under its folder): the ES module
# and the chunk it imports, keeping their relative place, its WebAssembly (the page tells the module where it is)
# and its licence.
ZXING_FILES = {"dist/es/reader/index.js": "es/reader/index.js", "dist/es/share.js": "es/share.js",
               "dist/reader/zxing_reader.wasm": "zxing_reader.wasm", "LICENSE": "LICENSE"}
# The runtime files the worker loads (the package also holds source maps, type files, a console page and the list of
# Pyodide's own packages, pyodide-lock.json: the phones load none of those, so the worker gives Pyodide an empty list).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
ENTRY = "companion.web.site.browser"
SHIPPED = "companion/cards/shipped.pickle"  # the card sets as the build read them (see shipped_cards)
SITE_DIR = "/home/pyodide/companion-site"  # where the worker unpacks our code in the phone's file system
# What the worker runs once our code is unpacked, before the first call (precompile.py runs it too, so that the
# modules it imports are precompiled): the shipped card sets as the build read them, each game's unpickled when
# first asked for (a scoring page reads its own game's only; no YAML is parsed on the phone).
START_PYTHON = f"""
import pickle, sys
from collections.abc import Mapping
from types import MappingProxyType
sys.path.insert(0, {SITE_DIR!r})
import companion.cards


class Shipped(Mapping):
    def __init__(self, pickled):
        self.pickled, self.read = pickled, {{}}

    def __getitem__(self, game):
        if game not in self.read:
            self.read[game] = pickle.loads(self.pickled[game])
        return self.read[game]

    def __iter__(self):
        return iter(self.pickled)

    def __len__(self):
        return len(self.pickled)


with open({SITE_DIR + "/" + SHIPPED!r}, "rb") as _f:
    shipped = Shipped(pickle.load(_f))
companion.cards.load_shipped = (lambda cards: lambda: cards)(MappingProxyType(shipped))
"""
PRECOMPILE = Path(__file__).parent / "runtime" / "precompile.mjs"
# Parts of Pyodide's standard library that scoring, dealing and pages never load (mail, XML, debuggers, test
# frameworks, servers, process pools): left out of the phone's copy, about 0.6 MB of its first download. The browser
# tests load every page and call through this very runtime, so a part that turns out to be needed shows there.
STDLIB_LEFT_OUT = ("email", "multiprocessing", "xml", "xmlrpc", "unittest", "doctest.py", "pdb.py", "pydoc.py",
                   "pydoc_data", "wsgiref", "imaplib.py", "pickletools.py", "http", "mailbox.py", "smtplib.py",
                   "ftplib.py", "poplib.py", "nntplib.py", "sqlite3", "dbm", "curses", "tkinter", "turtle.py",
                   "idlelib", "lib2to3", "ensurepip", "venv", "_pyrepl", "optparse.py", "getopt.py", "telnetlib.py",
                   "cgi.py", "cgitb.py", "tarfile.py", "_pyio.py", "bdb.py", "trace.py", "plistlib.py",
                   "socketserver.py", "pstats.py", "profile.py", "cProfile.py", "modulefinder.py", "wave.py",
                   "compileall.py", "cmd.py", "timeit.py", "fileinput.py", "configparser.py", "tomllib", "ctypes")
# Of the codecs (a third of the standard library's download: tables of old code pages), only those Python itself and
# the pages use: UTF-8/16/32, Latin-1, ASCII, the escapes and IDNA.
ENCODINGS_KEPT = ("__init__", "aliases", "ascii", "latin_1", "utf_8", "utf_8_sig", "utf_16", "utf_16_le", "utf_16_be",
                  "utf_32", "utf_32_le", "utf_32_be", "unicode_escape", "raw_unicode_escape", "charmap", "idna",
                  "punycode", "cp1252", "cp437", "undefined", "_win_cp_codecs")
WORKER = Path(__file__).parent / "runtime" / "worker.js"


def cache_dir() -> Path:
    """Where fetched runtimes are kept between builds: COMPANION_CACHE, else ~/.cache/companion."""
    return Path(settings.environment()["CACHE"] or Path.home() / ".cache" / "companion")


def fetch_pyodide(timeout: float = 120) -> Path:
    """The pinned Pyodide package (.tgz): from the cache, else downloaded and checked against its npm integrity."""
    return _fetched("pyodide", PYODIDE, timeout)


def fetch_zxing(timeout: float = 120) -> Path:
    """The pinned zxing-wasm package (.tgz): from the cache, else downloaded and checked against its npm integrity."""
    return _fetched("zxing-wasm", ZXING, timeout)


def _fetched(name: str, pinned: dict, timeout: float) -> Path:
    target = cache_dir() / f"{name}-{pinned['version']}.tgz"
    if target.exists() and _integrity(target.read_bytes()) == pinned["integrity"]:
        return target
    try:
        with urllib.request.urlopen(pinned["url"], timeout=timeout) as answer:
            data = answer.read()
    except (urllib.error.URLError, OSError) as e:
        raise InputError([Problem(("scoring",), f"cannot fetch {name} {pinned['version']} from the npm registry "
                                                f"({getattr(e, 'reason', e)}); build with --no-scoring for the "
                                                "rules-only site, or try again online")]) from None
    if _integrity(data) != pinned["integrity"]:
        raise InputError([Problem(("scoring",), f"the {name} package from {pinned['url']} is not the pinned one "
                                                "(its sha512 differs); nothing was written")])
    target.parent.mkdir(parents=True, exist_ok=True)
    aside = target.with_suffix(".part")
    aside.write_bytes(data)
    aside.replace(target)
    return target


def write_zxing(py: Path) -> dict:
    """zxing-wasm's reader in `py/zxing-wasm-<version>/` (named by version, as the runtime); what a page needs to
    load it (its module and WebAssembly, as paths from py/) and the files, for the service worker to keep once
    used."""
    folder = py / f"zxing-wasm-{ZXING['version']}"
    with tarfile.open(fetch_zxing(), "r:gz") as tgz:
        for source, name in ZXING_FILES.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(tgz.extractfile(f"package/{source}").read())
    here = f"{folder.name}/"
    return {"module": here + ZXING_FILES["dist/es/reader/index.js"], "wasm": here + "zxing_reader.wasm",
            "files": [here + name for name in ZXING_FILES.values() if name != "LICENSE"]}


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def write(folder: Path, site: dict) -> dict:
    """Write `folder/py/` (runtime and code zip; the worker comes later, see write_worker); what it holds: the
    files a phone keeps (site paths from the site's root, each named by its version), the worker's address and
    their weight as a compressing host sends them. `site` is what the phone's page renderer needs to know of this
    site (its addresses: see web/render.py)."""
    py = folder / "py"
    runtime = py / f"pyodide-{PYODIDE['version']}"  # named by version: a phone's kept copy never mixes two
    runtime.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fetch_pyodide(), "r:gz") as tgz:
        for name in RUNTIME_FILES:
            member = tgz.extractfile(f"package/{name}").read()
            (runtime / name).write_bytes(_trimmed(member) if name == "python_stdlib.zip" else member)
        lock = json.loads(tgz.extractfile("package/pyodide-lock.json").read())
    (py / "companion.zip").write_bytes(code_zip(site))
    precompiled = precompile(runtime, py / "companion.zip", lock["info"])
    code = (py / "companion.zip").read_bytes()
    zxing = write_zxing(py)
    code_version = hashlib.sha256(code).hexdigest()[:12]
    files = [runtime / name for name in RUNTIME_FILES]
    template = WORKER.read_text(encoding="utf-8")
    # The worker's address changes with what it loads, so a phone's kept copy never runs another site's code.
    version = hashlib.sha256(template.encode() + code + PYODIDE["version"].encode() + ZXING["version"].encode()
                             ).hexdigest()[:12]
    kept = [f"py/{runtime.name}/{name}" for name in RUNTIME_FILES] + [f"py/companion.zip?v={code_version}"]
    return {"pyodide": PYODIDE["version"], "code_bytes": len(code), "code_version": code_version,
            "worker": f"py/worker.js?v={version}", "files": [*kept, f"py/worker.js?v={version}"],
            "unpacked": sum(p.stat().st_size for p in files) + len(code),
            "sent": sum(sent_bytes(p.read_bytes()) for p in files) + sent_bytes(code),
            "zxing": {"version": ZXING["version"], "later": [f"py/{f}" for f in zxing["files"]]},
            "precompiled": precompiled,
            "_lock_info": lock["info"], "_dir": runtime.name, "_zxing": zxing}


def precompile(runtime: Path, code: Path, lock_info: dict) -> dict | None:
    """The modules a phone imports before its first answer precompiled in the runtime's standard library and in our
    code's zip (both rewritten in place; see runtime/precompile.mjs), by Node running this very Pyodide; what it did
    ({zip name: modules compiled, their bytes as source and as .pyc, compressed}). Without Node, or if it fails, the
    zips stay source (the phones compile them, seconds more on a slow one) and a warning says so."""
    node = shutil.which("node")
    if node is None:
        return _not_precompiled("Node (node) is not on PATH")
    with tempfile.TemporaryDirectory() as folder:
        plan = Path(folder) / "plan.json"
        plan.write_text(json.dumps({"lock": lock_info, "stdlib": str(runtime / "python_stdlib.zip"),
                                    "code": str(code), "start": START_PYTHON, "site": SITE_DIR}), encoding="utf-8")
        try:
            done = subprocess.run([node, str(PRECOMPILE), str(runtime), str(plan)], capture_output=True, text=True,
                                  timeout=900)
        except (OSError, subprocess.TimeoutExpired) as e:
            return _not_precompiled(str(e))
    if done.returncode != 0:  # (the error's own line, not the minified runtime Node quotes before it)
        said = [line for line in done.stderr.splitlines()
                if len(line) < 300 and re.match(r"\w*(Error|Exception)\b", line)]
        return _not_precompiled((said or [f"node exited with {done.returncode}"])[-1])
    return json.loads(done.stdout.strip().splitlines()[-1])


def _not_precompiled(why: str) -> None:
    print(f"warning: the phones' Python modules are not precompiled ({why}): a cold first score takes seconds "
          "longer on a slow phone; install Node.js 18 or later and build again", file=sys.stderr)


def write_worker(folder: Path, runtime: dict, first_visit: dict[str, int]) -> None:
    """Write `folder/py/worker.js` for what `write` wrote; `first_visit` is what a phone's first visit downloads in
    each language (bytes as a compressing host sends them: the runtime and that language's pages), for its banner."""
    worker = (WORKER.read_text(encoding="utf-8").replace("__CODE_VERSION__", runtime["code_version"])
              .replace("__PYODIDE_DIR__", runtime["_dir"]).replace("__RUNTIME_BYTES__", str(runtime["unpacked"]))
              .replace("__FIRST_VISIT_MB__", json.dumps({k: round(v / 1e6, 1) for k, v in first_visit.items()}))
              .replace("__LOCK_INFO__", json.dumps(runtime["_lock_info"]))
              .replace("__START__", json.dumps(START_PYTHON))
              .replace("__SITE_DIR__", json.dumps(SITE_DIR))
              .replace("__RUNTIME_FILES__", json.dumps(RUNTIME_FILES))
              .replace("__ZXING__", json.dumps({k: runtime["_zxing"][k] for k in ("module", "wasm", "files")})))
    (folder / "py" / "worker.js").write_text(worker, encoding="utf-8")


def sent_bytes(data: bytes) -> int:
    """About what a compressing static host sends for a file (gzip at its usual level)."""
    return len(gzip.compress(data, 6, mtime=0))


def _trimmed(stdlib: bytes) -> bytes:
    """Pyodide's standard library without STDLIB_LEFT_OUT and the codecs not in ENCODINGS_KEPT."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(stdlib)) as source, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as kept:
        for item in source.infolist():
            parts = item.filename.split("/")
            if parts[0] == "encodings" and len(parts) == 2 and parts[1].removesuffix(".py") not in ENCODINGS_KEPT \
                    and parts[1]:
                continue
            if parts[0] not in STDLIB_LEFT_OUT:
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


def shipped_cards() -> bytes:
    """The site's card sets (the shipped ones and those `companion site --cards` adds) as this build read them,
    each pickled apart, in a pickled {game: bytes}: the worker hands them to `cards.load_shipped`, so that a phone
    does not parse the card data's YAML in pure Python (half its first answer's time) and unpickles a game's only
    when asked for it (START_PYTHON). Pickle's protocol 4 is read alike by every Python from 3.8 on; a read-only
    mapping is pickled as the call that makes it."""
    from types import MappingProxyType

    from ... import library

    a_proxy = object()  # stands for vars(object), a mappingproxy that unpickling can make from two builtins

    class Pickler(pickle.Pickler):
        def reducer_override(self, obj):
            if type(obj) is MappingProxyType:
                return MappingProxyType, (dict(obj),)
            if obj is MappingProxyType:  # (its name, mappingproxy, is nowhere to import it from): the type of one
                return type, (a_proxy,)
            if obj is a_proxy:
                return vars, (object,)
            return NotImplemented

    def pickled(card_set) -> bytes:
        out = io.BytesIO()
        Pickler(out, protocol=4).dump(card_set)
        return out.getvalue()

    return pickle.dumps({game: pickled(card_set) for game, card_set in library.current().all().items()}, protocol=4)


def compiled_templates(site: dict) -> dict[str, str]:
    """The page templates compiled to Python by Jinja, for the phones' renderer (render.PhoneRenderer, whose
    environment compiles them here, with its settings), by module file name."""
    import tempfile

    renderer = render.PhoneRenderer(i18n.DEFAULT_LANG, {}, site)
    with tempfile.TemporaryDirectory() as folder:
        renderer.env.compile_templates(folder, zip=None, log_function=None)
        return {p.name: p.read_text(encoding="utf-8") for p in sorted(Path(folder).glob("*.py"))}


def code_zip(site: dict) -> bytes:
    """Our pure core (the modules the entry imports), the shipped card data (as the build read it: not its YAML),
    the page templates compiled (not their sources: the phone never compiles one), the catalogues compiled, this
    site's addresses, and the pure-Python modules of PyYAML, Jinja2 and MarkupSafe."""
    import jinja2
    import markupsafe
    import yaml

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in modules():
            path = PACKAGE_DIR.parent.joinpath(*name.split("."))
            source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
            z.write(source, source.relative_to(PACKAGE_DIR.parent).as_posix())
        z.writestr(SHIPPED, shipped_cards())
        layouts = "layouts/default_layouts.yaml"  # a file without layouts gets them
        z.write(PACKAGE_DIR / layouts, f"companion/{layouts}")
        for name, code in compiled_templates(site).items():
            z.writestr(f"companion/{render.COMPILED_TEMPLATES}/{name}", code)
        for lang in i18n.LANGS:
            if i18n.po_path(lang).exists():
                z.writestr(f"companion/translations/{lang}.mo", i18n.compiled(lang))
        z.writestr("companion/web/site.json", json.dumps(site, ensure_ascii=False, sort_keys=True))
        for package in (yaml, jinja2, markupsafe):
            folder = Path(package.__file__).parent
            for source in sorted(folder.glob("*.py")):
                z.write(source, f"{folder.name}/{source.name}")
    return buffer.getvalue()
