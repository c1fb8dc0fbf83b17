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
