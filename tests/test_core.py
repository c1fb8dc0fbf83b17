"""The pure core: the rules, the card data, the rules' entry points and saved sheets load neither Flask nor the PDF
code, so the command line, a static site or any other tool can use them alone."""
import subprocess
import sys

HEAVY = ("flask", "werkzeug", "reportlab", "qrcode", "PIL", "pypdfium2")


def test_importing_the_core_loads_neither_flask_nor_reportlab():
    code = ("import sys\n"
            "import companion.games, companion.cards, companion.service, companion.sheets, companion.sheet_service\n"
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


def test_the_phones_python_needs_only_the_standard_library_and_yaml():
    """The static site's worker imports `companion.browser` from a zip holding our core and pure PyYAML only
    (issue 16): scoring, dealing and sheets there must not reach Babel, SQLAlchemy or anything else."""
    code = ("import sys, json\n"
            "from companion import browser\nimport companion.sheets\n"
            "browser.call('score', json.dumps({'game': 'duquesa', 'request': {'florins': 31}}))\n"
            "browser.call('setup', json.dumps({'game': 'gemas', 'players': 4, 'seed': 'x'}))\n"
            "browser.call('score_form', json.dumps({'game': 'gemas', 'fields': [['players.0.name', 'A'], "
            "['players.1.name', 'B']]}))\nbrowser.warm()\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = {m for m in eval(out) if not m.startswith("_") and m != "cython_runtime"}  # interpreter internals
    assert loaded <= {"companion", "yaml"}, f"the phone's Python would need: {sorted(loaded)}"
