"""Layouts as data (companion/layouts/): extends merged, null drops, loops refused; placeholders, markup, and the
text fitting validate and the build share (companion/pnp/textfit.py)."""
import pytest

from companion import layouts
from companion.core.schema import Problems, Texts
from companion.layouts import Design, Missing, Run, fill, markup, resolve
from companion.pnp import textfit
from companion.pnp.draw import BOLD, FONT, ITALIC, register_fonts

BASE = {
    "band": {"rect": [0, 0, 63.5, 14], "fill": "{colour:suit}"},
    "title": {"text": "{name}", "at": [4, 3, 55.5, 8], "size": 11, "align": "center"},
    "index": {"text": "**{rank}**", "at": [2.5, 16, 9, 9], "size": 12, "corners": 2},
    "code": {"qr": True, "at": [40, 65, 22, 22]},
}


def resolved(raw):
    problems = Problems()
    out = resolve(raw, ("layouts",), problems)
    return out, [f"{'.'.join(map(str, p.path))}: {p.message}" for p in problems]


def test_extends_keeps_the_parents_order_changes_one_property_and_drops_with_null():
    out, problems = resolved({"base": BASE, "action": {"extends": "base", "index": None, "title": {"size": 9},
                                                        "note": {"text": "!", "at": [1, 1, 5, 5]}}})
    assert problems == []
    action = {e.name: e for e in out["action"]}
    assert [e.name for e in out["action"]] == ["band", "title", "code", "note"]
    assert action["title"].props["size"] == 9 and action["title"].props["align"] == "center"
    assert [e.name for e in out["base"]] == ["band", "title", "index", "code"]  # the parent is untouched
    assert {e.name: e.props.get("size") for e in out["base"]}["title"] == 11


def test_an_element_with_a_kind_replaces_the_parents():
    out, _ = resolved({"base": BASE, "other": {"extends": "base", "title": {"icon": "heart", "at": [1, 1, 9, 9]}}})
    title = {e.name: e for e in out["other"]}["title"]
    assert title.kind == "icon" and "size" not in title.props


def test_loops_and_unknown_parents_are_named():
    _, problems = resolved({"a": {"extends": "b"}, "b": {"extends": "a"}, "c": {"extends": "nope"}})
    assert any(p.endswith("extends: is a loop: a → b → a") or p.endswith("extends: is a loop: b → a → b")
               for p in problems), problems
    assert any(p.startswith("layouts.c.extends: no layout is named 'nope'") for p in problems)


@pytest.mark.parametrize("element, expected", [
    ({"text": "x"}, "is missing"),  # no box
    ({"at": [0, 0, 5, 5]}, "must have one kind"),
    ({"text": "x", "qr": True, "at": [0, 0, 5, 5]}, "must have one kind"),
    ({"text": "x", "at": [0, 0, 5, 5], "size": 4}, "must be from 6.0 to 120"),
    ({"text": "x", "at": [0, 0, 0, 5]}, "width and a height above 0"),
    ({"rect": [0, 0, 5, 5], "fill": "red"}, "must be a colour like #5b2a6e"),
    ({"text": "x", "at": [0, 0, 5, float("nan")]}, "must be a number"),
    ({"text": "x", "at": [0, 0, 5, 5], "colur": "#000000"}, "unknown key"),
])
def test_broken_elements_are_refused_by_name(element, expected):
    _, problems = resolved({"base": {"thing": element}})
    assert problems and any(p.startswith("layouts.base.thing") and expected in p for p in problems), problems


def test_fill_fields_colours_labels_and_languages():
    design = Design(colours={"suit": {"apple": "#c0392b"}}, labels={"apple": Texts("manzana", "apple")})
    values = {"name": Texts("Manzana", "Apple"), "suit": "apple", "rank": 3, "stones": ["jet", "ruby"]}
    assert fill("{name} {rank}", values, "es", design) == "Manzana 3"
    assert fill("{name.es}/{name}", values, "en", design) == "Manzana/Apple"
    assert fill("{colour:suit}", values, "en", design) == "#c0392b"
    assert fill("{label:suit}", values, "es", design) == "manzana"
    assert fill("{stones} {icon:heart}", values, "es", design) == "jet, ruby {icon:heart}"
    with pytest.raises(Missing):
        fill("{flavour}", values, "es", design)
    with pytest.raises(Missing):
        fill("{colour:rank}", values, "es", design)


def test_markup_bold_italic_icons_breaks_and_escapes():
    lines = markup("Roba **una** carta\n*dulce* {icon:heart} 2\\*3")
    assert lines[0] == [Run("Roba "), Run("una", bold=True), Run(" carta")]
    assert lines[1] == [Run("dulce", italic=True), Run(" "), Run(icon="heart"), Run(" 2*3")]
    assert layouts.plain("**a** *b*") == "a b"


def fonts(bold, italic):
    register_fonts()
    return BOLD if bold else ITALIC if italic else FONT


def test_text_shrinks_to_fit_and_says_when_it_cannot():
    text = markup("Roba una carta y descarta otra; si es tu turno, juega dos más.")
    roomy = textfit.fit(text, fonts, 10, 6, 60 * 2.835, 20 * 2.835)
    assert roomy.fits and roomy.size == 10
    tight = textfit.fit(text, fonts, 10, 6, 30 * 2.835, 10 * 2.835)
    assert tight.fits and 6 <= tight.size < 10
    for width in tight.widths:
        assert width <= 30 * 2.835 + 1e-6  # every wrapped line inside the box
    hopeless = textfit.fit(text, fonts, 10, 6, 20 * 2.835, 3 * 2.835)
    assert not hopeless.fits and hopeless.size == 6


def test_bold_words_are_wider_than_regular_ones():
    regular = textfit.lay_out(markup("Manzana"), fonts, 10, 1000)[1][0]
    bold = textfit.lay_out(markup("**Manzana**"), fonts, 10, 1000)[1][0]
    assert bold > regular


def test_only_a_quiet_text_goes_below_6_pt_and_it_is_grey():
    from companion.pnp import layout

    out, problems = resolved({"base": {"id": {"text": "{id}", "at": [1, 1, 8, 2], "quiet": True, "min_size": 3},
                                       "loud": {"text": "{id}", "at": [1, 4, 8, 2], "min_size": 3}}})
    assert [p for p in problems if "layouts.base.id" in p] == []
    assert any(p.startswith("layouts.base.loud.min_size: must be from 6.0 to 120") for p in problems), problems
    (element,) = out["base"]
    shown = layout.Shown({"id": "QN-MARKER"}, "en", Design(), None, ".")
    laid, _ = layout.text_layout(element, shown)
    assert laid.fits and 3 <= laid.size <= 5  # 5 pt unless told, shrunk to fit an 8 mm piece


def test_an_outline_colour_replaces_the_dark_line_round_icons_and_pips(monkeypatch):
    """A French deck's pips have no line round them: `outline: "{colour:suit}"` draws it in the pip's own colour."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from companion.look import Look, Term
    from companion.pnp import draw, layout

    out, problems = resolved({"base": {
        "pips": {"pips": "{rank}", "icon": "{suit}", "at": [13, 5, 37, 55], "outline": "{colour:suit}"},
        "index": {"icon": "{suit}", "at": [4, 11, 6, 6], "outline": "#123456"},
        "plain": {"icon": "{suit}", "at": [4, 20, 6, 6]}}})
    assert problems == []
    drawn = []
    monkeypatch.setattr(draw, "draw_icon", lambda c, icon, *a, **k: drawn.append(("pip", icon.outline)))
    monkeypatch.setattr(layout, "draw_icon", lambda c, icon, *a, **k: drawn.append(("icon", icon.outline)))
    look = Look(terms={"hearts": Term("#c0392b", "heart")})
    shown = layout.Shown({"suit": "hearts", "rank": 3}, "en", Design(colours={"suit": {"hearts": "#c0392b"}}),
                         look, ".")
    layout.draw(Canvas(io.BytesIO()), out["base"], shown, 0, 0, 180, 252, 0)
    assert drawn == [("pip", "#c0392b")] * 3 + [("icon", "#123456"), ("icon", "#2b2b2b")]


def test_with_low_ink_a_backs_picture_to_the_bleed_is_left_off_and_a_fronts_kept(monkeypatch):
    import io

    from reportlab.pdfgen.canvas import Canvas

    from companion.pnp import art, layout

    placed = []
    monkeypatch.setattr(art, "place", lambda c, path, *a, **k: placed.append(path))
    out, _ = resolved({"back": {"silk": {"art": "silk.svg", "at": [0, 0, 63.5, 88.9], "bleed": True},
                                "medal": {"art": "medal.svg", "at": [20, 30, 20, 20]}}})
    for back, low in ((True, True), (True, False), (False, True)):
        placed.clear()
        shown = layout.Shown({}, "en", Design(), None, "/cards", low_ink=low, back=back)
        layout.draw(Canvas(io.BytesIO()), out["back"], shown, 0, 0, 180, 252, 8)
        names = [p.rsplit("/", 1)[-1] for p in placed]
        assert names == (["medal.svg"] if back and low else ["silk.svg", "medal.svg"]), (back, low, names)


def test_icon_captions_register_their_font_in_a_fresh_process():
    """The phone's card page draws a layout in a process that never built a PDF: captions must not need the
    fonts registered beforehand (a KeyError 'NotoSerif' there was a 500)."""
    import subprocess
    import sys

    code = """
import io
from reportlab.pdfgen.canvas import Canvas
from companion.layouts import Design, resolve
from companion.look import Look, Term
from companion.pnp import layout
from companion.core.schema import Problems, Texts
out = resolve({"b": {"s": {"icons": "{stones}", "at": [0, 0, 40, 20], "captions": True}}}, ("layouts",), Problems())
look = Look(terms={"ruby": Term("#c0392b", "heart")})
shown = layout.Shown({"stones": ["ruby"]}, "es", Design(labels={"ruby": Texts("Rubí", "Ruby")}), look, ".")
layout.draw(Canvas(io.BytesIO()), out["b"], shown, 0, 0, 180, 252, 0)
print("drawn")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "drawn" in done.stdout, done.stderr[-800:]


def test_with_low_ink_a_dark_fill_to_the_bleed_is_a_tint_with_no_line_on_the_cut():
    import io

    from reportlab.pdfgen.canvas import Canvas

    from companion.pnp import layout

    out, _ = resolved({"b": {"band": {"rect": [0, 0, 63.5, 14], "fill": "#1f3a5f", "bleed": True},
                             "box": {"rect": [10, 30, 20, 20], "fill": "#1f3a5f"}}})
    strokes = []

    class Recording(Canvas):
        def rect(self, x, y, w, h, stroke=1, fill=0):
            strokes.append(bool(stroke))
            return super().rect(x, y, w, h, stroke=stroke, fill=fill)

    shown = layout.Shown({}, "en", Design(), None, ".", low_ink=True)
    layout.draw(Recording(io.BytesIO()), out["b"], shown, 0, 0, 180, 252, 8)
    assert strokes == [False, True]  # the band to the bleed: no outline; the box inside keeps its colour's line
