"""A cold first score on a slow phone (issue 38, item 10): the static site's phones start with the modules they import
before a first answer precompiled (the site's build runs the phones' own Pyodide in Node) and read only the card data
of the game asked for."""
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from companion.web.site import python as site_runtime

FORM = [list(p) for p in parse_qsl((Path(__file__).parent / "forms" / "duquesa.txt").read_text().strip())]
SITE = {"urls": {"es": {"scoring.score": "/score/\x00game\x00/", "pages.companion_needed": "/x/"}},
        "origin": "http://x", "trees": {"es": "", "en": "/en"}, "service_worker": {"url": "/sw.js", "scope": "/"}}


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_scoring_page_on_the_phone_reads_only_its_own_games_card_data(tmp_path):
    """Started as the worker starts it (site_runtime.START_PYTHON), the phone's Python draws Duquesa's scoring page
    with a score having unpickled Duquesa's card data only, and still knows every game."""
    zipfile.ZipFile(io.BytesIO(site_runtime.code_zip(SITE))).extractall(tmp_path)
    code = (site_runtime.START_PYTHON.replace(site_runtime.SITE_DIR, str(tmp_path)) + "\n"
            "import json\nfrom companion import service\nfrom companion.web.site import browser\n"
            "answer = json.loads(browser.call('page', json.dumps({'endpoint': 'scoring.score', 'values': "
            f"{{'game': 'duquesa'}}, 'lang': 'es', 'fields': {FORM!r}}})))\n"
            "read = sorted(shipped.read)\n"
            "print(json.dumps({'html': answer['result']['html'], 'read': read, 'games': len(shipped)}))")
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert 'id="result"' in out["html"] and "Bruno" in out["html"].split('id="result"')[1]
    assert out["read"] == ["duquesa"] and out["games"] >= 5


@pytest.mark.slow  # the session's site with the phones' Python (built once)
def test_the_phones_start_with_their_first_answers_modules_precompiled(site):
    """The site's build precompiled, with the phones' own Python, exactly what a phone imports before its first
    answer: our entry, Jinja's environment, the codecs Python starts with and the templates of a scoring page are
    .pyc without their source, docstrings left out; what no first answer imports (the photo reader, tarfile's
    kind) stays source, so the download grows as little as it can."""
    py = site[1] / "site" / "py"
    stdlib = set(zipfile.ZipFile(next(py.glob("pyodide-*/python_stdlib.zip"))).namelist())
    code = zipfile.ZipFile(py / "companion.zip")
    names = set(code.namelist())
    for compiled in ("encodings/utf_8", "json/decoder", "pickle", "asyncio/events"):
        assert f"{compiled}.pyc" in stdlib and f"{compiled}.py" not in stdlib, compiled
    for compiled in ("companion/web/site/browser", "companion/web/play/views", "companion/games/duquesa",
                     "jinja2/environment"):
        assert f"{compiled}.pyc" in names and f"{compiled}.py" not in names, compiled
    assert "companion/web/photos/fill.py" in names and "companion/web/photos/fill.pyc" not in names
    assert "statistics.py" in stdlib and "tarfile.py" not in stdlib
    templates = [n for n in names if n.startswith("companion/templates_compiled/")]
    assert any(n.endswith(".pyc") for n in templates) and not any(n.startswith("companion/templates/") for n in names)
    browser = code.read("companion/web/site/browser.pyc")
    assert b"Run one call with JSON" not in browser and b"def call" not in browser  # no docstrings, no source
