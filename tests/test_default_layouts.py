"""The default layouts (layouts/default_layouts.yaml): what a data-only file without `layouts:` prints with, one
for each kind and size, instead of the code drawing of companion/pnp/draw.py. Each on its face and clear of the
cut, codes a phone reads, and the example game printed from them alone at every card size, with low ink too."""
import io
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import zxingcpp
from reportlab.pdfgen import canvas as rl_canvas

from companion import cards, layouts, library
from companion.cli import main
from companion.components import CARD_SIZES, SIZES
from companion.core.schema import Problems
from companion.layouts import Design
from companion.look import DRAWN_SHAPES
from companion.pnp import draw, faces, layout
from companion.pnp.build import build
from companion.pnp.design_check import QR_MIN_MODULE_MM
from companion.pnp.document import BuildSettings, card_url
from companion.pnp.geometry import MM
from helpers.games import GAME_IDS

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "example-game" / "especias.yaml"
DEFAULTS = layouts.default_layouts()
SAFE_MM = 25.4 / 8


def size_of(name: str) -> str:
    """The size a default layout is drawn at, from its name (card-bridge, back-token, tile, card-poker-long)."""
    return next(part for part in name.split("-") if part in SIZES)


def test_one_for_each_kind_and_size_a_game_prints():
    design = Design(defaults=DEFAULTS)
    for kind in ("card", "reference", "back"):
        for size in CARD_SIZES:
            assert design.default_name(kind, size) == f"{kind}-{size}"
    for size in ("tile", "token", "marker"):
        assert design.default_name(size, size) == size
        assert design.default_name("back", size) == f"back-{size}"
    assert design.default_name("card", "tile") == "tile"  # a card made tile-sized prints as a tile
    assert design.default_name("card", "poker", long=True) == "card-poker-long"
    assert Design(layouts={"base": ()}, defaults=DEFAULTS).default_name("card", "poker") is None  # a file's own win


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_each_is_on_its_face_and_clear_of_the_cut(name):
    w, h = SIZES[size_of(name)]
    problems = Problems()
    known = set(layouts.COMPONENT_KEYS) | {"icons", "value", "shape_colour", "text_list", "emblem"}
    layouts.check_elements(DEFAULTS[name], (w, h), known, Design(), set(DRAWN_SHAPES), ("layouts", name), problems)
    assert not list(problems), [p.message for p in problems]
    for e in DEFAULTS[name]:
        if e.props.get("bleed"):  # a ground to the cut and past it
            continue
        x, y, bw, bh = e.box
        margin = SAFE_MM - (0.1 if e.kind == "rect" else 0)  # a frame's line is centred 3.6 mm in
        assert min(x, y, w - x - bw, h - y - bh) >= margin - 1e-6 or size_of(name) == "marker", (name, e.name)


@pytest.mark.parametrize("name", sorted(n for n in DEFAULTS if any(e.kind == "qr" for e in DEFAULTS[n])))
def test_every_code_box_gives_modules_a_phone_reads_at_version_3(name):
    """A LAN address with a 14-character id needs version 3 (29 modules): still 0.65 mm or more."""
    code = next(e for e in DEFAULTS[name] if e.kind == "qr")
    assert layout.qr_module(code, 29) / MM >= QR_MIN_MODULE_MM - 1e-6
    assert code.props.get("plate") is False  # on the face's own cream, no white square


def test_a_file_with_layouts_never_takes_them():
    for game in GAME_IDS:
        card_set = library.load_game(game)
        assert card_set.design.layouts and not card_set.design.defaults


def test_no_code_drawing_of_faces_is_left():
    """One mechanism: the code that drew a Face or a Back is gone, not merely unused."""
    assert not hasattr(draw, "draw_face") and not hasattr(draw, "draw_back")


@pytest.mark.parametrize("low_ink", [False, True])
def test_no_face_or_back_of_any_game_is_drawn_by_code(monkeypatch, low_ink):
    """Every front from its file's layouts or the defaults; every back from its picture, its layout or the default
    back (with low ink, also where its picture is left out)."""
    draw.register_fonts()
    for card_set in [*(library.load_game(game) for game in GAME_IDS), cards.load_file(EXAMPLE)]:
        for comp in card_set.components:
            w, h = (v * MM for v in SIZES[comp.size])
            c = rl_canvas.Canvas(io.BytesIO())
            if comp.kind == "back":
                faces.paint_back(c, comp, card_set, "en", 0, 0, w, h, 3 * MM, low_ink=low_ink)
            else:
                faces.paint_front(c, comp, card_set, "en", 0, 0, w, h, 0, card_url("http://192.168.1.20:5000",
                                                                                   comp.id), None, low_ink=low_ink)


@pytest.mark.parametrize("settings", [{}, {"card_size": "bridge"}, {"card_size": "mini", "ink": "low"},
                                      {"layout": "gutterfold", "bleed": 2}])
def test_the_example_game_prints_from_them_alone(tmp_path, monkeypatch, settings):
    build([str(EXAMPLE)], tmp_path, BuildSettings(lang="en", base_url="http://192.168.1.20:5000", **settings))
    assert (tmp_path / "especias.pdf").stat().st_size > 10_000


def face_page(card_set, comp_id, lang="en", size=None):
    comp = card_set.component(comp_id)
    w, h = (v * MM for v in SIZES[size or comp.size])
    draw.register_fonts()
    buf = io.BytesIO()
    c = rl_canvas.Canvas(buf, pagesize=(w, h), invariant=1)
    url = card_url("http://192.168.1.20:5000", comp.id) if comp.kind != "token" else None
    faces.paint_front(c, comp, card_set, lang, 0, 0, w, h, 0, url, None)
    c.showPage()
    c.save()
    return pdfium.PdfDocument(buf.getvalue())[0], url


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_card_shows_its_name_value_words_code_and_id(lang):
    """Every face its name (a token, round and 25 mm, only its picture or value), value, words, code and id."""
    card_set = cards.load_file(EXAMPLE)
    for comp in card_set.components:
        if comp.kind == "back":
            continue
        page, url = face_page(card_set, comp.id, lang)
        text = re.sub(r"\s+", " ", page.get_textpage().get_text_bounded())
        assert comp.id in text and (comp.kind == "token" or comp.name.get(lang) in text), (comp.id, text)
        if "value" in comp.data:
            assert str(comp.data["value"]) in text, comp.id
        if comp.text:
            words = re.findall(r"\w+", comp.text.get(lang))
            assert all(word in text for word in words), (comp.id, text)
        if url:
            (found,) = zxingcpp.read_barcodes(page.render(scale=200 / 72).to_pil())
            assert found.text == url


def test_a_reference_card_is_a_list_at_8_pt_or_more():
    card_set = cards.load_file(EXAMPLE)
    page, _url = face_page(card_set, "SP-HELP")
    tp = page.get_textpage()
    text = tp.get_text_bounded()
    assert text.count("•") == 2  # one item a sentence
    sizes = [pdfium.raw.FPDFText_GetFontSize(tp.raw, i) for i in range(tp.count_chars())
             if tp.get_text_range(i, 1).strip()]
    assert min(s for s in sizes if s > 5.5) >= 8 - 0.01  # all but the quiet id (5 pt)


def long_game(tmp_path, text: str, card_size: str = "poker") -> Path:
    data = tmp_path / "long.yaml"
    data.write_text(f"game: long\ntitle: {{es: Largo, en: Long}}\nprefix: LG\nplayers: [2, 4]\ncard_size: {card_size}\n"
                    f"components:\n  - {{id: LG-1, type: card, value: 3, icons: [star], name: {{es: Uno, en: One}},\n"
                    f"     text: {{es: '{text}', en: '{text}'}}}}\n", encoding="utf-8")
    return data


def test_a_long_text_takes_the_variant_with_room_for_words(tmp_path, capsys):
    text = "Roba dos cartas y descarta una; si es tu turno, juega otra carta más. " * 5
    data = long_game(tmp_path, text.strip()[:399])
    card_set = cards.load_file(data)
    comp = card_set.component("LG-1")
    assert faces.front_layout(comp, card_set) is DEFAULTS["card-poker-long"]
    assert main(["validate", str(data)]) == 0
    page, _url = face_page(card_set, "LG-1")
    tp = page.get_textpage()
    sizes = {round(pdfium.raw.FPDFText_GetFontSize(tp.raw, i), 1) for i in range(tp.count_chars())}
    assert min(s for s in sizes if s > 5.5) >= 6  # only the quiet id is smaller
    short = cards.load_file(EXAMPLE)
    assert faces.front_layout(short.component("SP-SAFFRON"), short) is DEFAULTS["card-poker"]


def test_validate_names_a_text_no_default_layout_can_hold(tmp_path, capsys):
    text = ("Roba dos cartas y descarta una; si es tu turno, juega otra carta más. " * 6).strip()[:399]
    assert main(["validate", str(long_game(tmp_path, text, "mini"))]) == 2
    err = capsys.readouterr().err
    assert re.search(r"long\.yaml:7: LG-1: text \(in the default card-mini-long layout\): the es text of LG-1 cannot "
                     r"fit in [\d.]+ × [\d.]+ mm even at 6 pt: shorten it or give the file layouts: of its own",
                     err), err
