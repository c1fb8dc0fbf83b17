"""The pure core: the rules, the card data, the rules' entry points and saved sheets load neither Flask nor the PDF
code, so the command line, a static site or any other tool can use them alone."""
import subprocess
import sys

import pytest

HEAVY = ("flask", "werkzeug", "reportlab", "qrcode", "PIL", "pypdfium2")


def test_importing_the_core_loads_neither_flask_nor_reportlab():
    code = ("import sys\n"
            "import companion.games, companion.cards, companion.service, companion.sheets, companion.sheets.service\n"
            "from companion import cards, service\n"
            "service.score('duquesa', {'florins': 31}); service.setup('gemas', 4, 'x'); cards.load_shipped()\n"
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"the core pulled in: {out}"


def test_the_check_would_see_a_heavy_import():
    """The same probe, run on the PDF builder, does see reportlab (so the test above can fail)."""
    code = f"import sys, companion.pnp.build\nprint(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "reportlab" in out


@pytest.mark.slow  # builds and runs the phones' zip in a fresh interpreter (about 10–19 s)
def test_the_phones_zip_runs_alone(tmp_path):
    """The static site's worker runs `web.site.browser` from its zip alone (issue 16): unpacked here and run by a
    Python that sees no site-packages (`-S`, like Pyodide, which has none of ours), every call works, a scoring
    page included, and nothing beyond the standard library and the zip is loaded: no Flask, Babel, SQLAlchemy or
    reportlab, and no PyYAML, Jinja2 or MarkupSafe but the zip's own."""
    import io
    import zipfile

    from companion.web.site import python as site_runtime

    site = {"urls": {"es": {"scoring.score": "/score/\x00game\x00/", "pages.companion_needed": "/x/"}},
            "origin": "http://x", "trees": {"es": "", "en": "/en"}, "service_worker": {"url": "/sw.js", "scope": "/"}}
    zipfile.ZipFile(io.BytesIO(site_runtime.code_zip(site))).extractall(tmp_path)
    code = ("import sys, json\n"
            f"{site_runtime.START_PYTHON.replace(site_runtime.SITE_DIR, str(tmp_path))}\n"  # as the worker starts
            "from companion.web.site import browser\nimport companion.sheets\n"
            "answers = [browser.call('score', json.dumps({'game': 'duquesa', 'request': {'florins': 31}})),\n"
            "  browser.call('setup', json.dumps({'game': 'gemas', 'players': 4, 'seed': 'x'})),\n"
            "  browser.call('score_form', json.dumps({'game': 'gemas', 'fields': [['players.0.name', 'A'], "
            "['players.1.name', 'B']]})),\n"
            "  browser.call('page', json.dumps({'endpoint': 'scoring.score', "
            "'values': {'game': 'gemas'}, 'lang': 'es', "
            "'fields': [['players.0.name', 'Ana'], ['players.1.name', 'Bruno'], ['players.1.gems.blue:int', '2']]}))]\n"
            "browser.warm()\n"
            "print(json.dumps({'answers': answers, "
            "'files': sorted({m.__file__ or '' for m in list(sys.modules.values()) "
            "if getattr(m, '__file__', None) and not m.__file__.startswith(sys.base_prefix)}), "
            "'loaded': sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names))}))")
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    import json
    out = json.loads(done.stdout)
    answers = [json.loads(a) for a in out["answers"]]
    assert all("result" in a for a in answers), [a.get("error") for a in answers]
    assert "Bruno" in answers[3]["result"]["html"] and "Puntos" in answers[3]["result"]["html"]  # in Spanish
    assert all(f.startswith(str(tmp_path)) for f in out["files"]), out["files"]  # nothing from site-packages
    loaded = {m for m in out["loaded"] if not m.startswith("_") and m != "cython_runtime"}  # interpreter internals
    assert loaded <= {"companion", "yaml", "jinja2", "markupsafe"}, f"the phone's Python would need: {sorted(loaded)}"
