"""What a build computes per card is kept for the next build of the same process (the watch loop): a second
build of a game fits none of its texts again, and a font registered again under its name (a designer's edit) is
fitted anew (the widths reportlab measures are the font object's it has under that name)."""
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from companion.layouts import Run
from companion.pnp import textfit
from companion.pnp.build import build
from companion.pnp.document import BuildSettings
from companion.pnp.font import FONT_DIR


def counted(monkeypatch) -> list:
    calls = []
    original = textfit._fit
    monkeypatch.setattr(textfit, "_fit", lambda *a: (calls.append(a), original(*a))[1])
    return calls


def test_the_second_build_fits_no_text_again(tmp_path, monkeypatch):
    calls = counted(monkeypatch)
    build(["gemas"], tmp_path / "a", BuildSettings())
    first = (tmp_path / "a" / "gemas.pdf").read_bytes()
    assert len(calls) > 20
    calls.clear()
    build(["gemas"], tmp_path / "b", BuildSettings())
    assert calls == []
    assert (tmp_path / "b" / "gemas.pdf").read_bytes() == first


def test_a_font_registered_again_is_fitted_anew(monkeypatch):
    calls = counted(monkeypatch)
    pdfmetrics.registerFont(TTFont("cache-test", str(FONT_DIR / "NotoSerif-Regular.ttf")))
    lines = [[Run("Wide words that wrap")]]
    narrow = textfit.fit(lines, lambda b, i: "cache-test", 12, 6, 80, 100)
    assert textfit.fit(lines, lambda b, i: "cache-test", 12, 6, 80, 100) is narrow and len(calls) == 1
    pdfmetrics._fonts["cache-test"] = TTFont("cache-test", str(FONT_DIR / "NotoSerif-Bold.ttf"))  # another font
    wide = textfit.fit(lines, lambda b, i: "cache-test", 12, 6, 80, 100)
    assert len(calls) == 2
    assert max(wide.widths) > max(narrow.widths)  # the bold face's widths, not the kept regular ones
