"""One design at every size (issue 39, item 4): a layout in percent of the card prints at poker and mini size from
one file, its boxes measured in the rendered cards, its text in points scaled by `scale: poker` where asked."""
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image, ImageChops

from companion import cards
from companion.cli import main
from companion.components import SIZES
from companion.core.schema import Problems
from companion.layouts import Percent, sized
from companion.layouts import extends as layout_resolve
from companion.pnp.export import DPI, SERVICE_BLEED_MM

BAND = (10, 20, 50, 30)  # the red rect's box, in percent of the card
DATA = """\
game: onedesign
title: One design
languages: [en]
prefix: OD
players: [2, 4]
card_size: poker
layouts:
  face:
    band: {rect: ["10%", "20%", "50%", "30%"], fill: "#ff0000"}
    title: {text: "{name}", at: ["5%", "3%", "90%", "14%"], size: 14, scale: poker, align: center}
    code: {qr: true, at: ["2%", "58%", "55%", "39%"]}
    id: {text: "{id}", at: ["60%", "92%", "35%", "5%"], quiet: true}
  back:
    ground: {rect: [0, 0, "100%", "100%"], fill: "#224488", bleed: true}
back: {layout: back}
components:
  - {id: OD-POKER, type: card, name: Same, layout: face}
  - {id: OD-MINI, type: card, size: mini, name: Same, layout: face}
"""


@pytest.fixture
def game(tmp_path) -> Path:
    path = tmp_path / "onedesign.yaml"
    path.write_text(DATA, encoding="utf-8")
    return path


def test_one_layout_in_percent_validates_at_both_sizes(game, capsys):
    assert main(["validate", str(game)]) == 0, capsys.readouterr().err
    card_set = cards.load_file(str(game))
    band = card_set.design.layouts["face"][0]
    assert band.props["rect"][0] == Percent(10) and band.relative


def test_the_same_layout_in_mm_is_off_a_mini_face(game, capsys):
    """What a designer met before: poker millimetres on a mini card (here the band's box as poker's mm)."""
    w, h = SIZES["poker"]
    x, y, bw, bh = (BAND[0] * w / 100, BAND[1] * h / 100, 60 * w / 100, 60 * h / 100)
    game.write_text(DATA.replace('["10%", "20%", "50%", "30%"]', f"[{x:g}, {y:g}, {bw:g}, {bh:g}]"), "utf-8")
    assert main(["validate", str(game)]) == 2
    err = capsys.readouterr().err
    assert f"{game}:9: face: band: is off the face" in err and "44.5 × 63.5 mm" in err


@pytest.mark.parametrize("given, said", [('"12x%"', "must be a number (mm) or a percentage like 12.5%"),
                                         ('"300%"', "must be from -100 to 200, got 300")])
def test_a_wrong_percentage_is_named_at_its_line(game, capsys, given, said):
    game.write_text(DATA.replace('"50%", "30%"]', f'{given}, "30%"]'), encoding="utf-8")
    assert main(["validate", str(game)]) == 2
    err = capsys.readouterr().err
    assert f"{game}:9: face: band.rect[2]: {said}" in err and "Traceback" not in err


def _red_box_mm(png: Path) -> tuple[float, float, float, float]:
    """The red rect's box in mm from the card's top-left corner (the PNG has the print services' bleed around)."""
    r, g, b = Image.open(png).convert("RGB").split()
    low = (g.point(lambda v: 255 * (v < 60)), b.point(lambda v: 255 * (v < 60)))
    red = ImageChops.multiply(ImageChops.multiply(r.point(lambda v: 255 * (v > 200)), low[0]), low[1])
    left, top, right, bottom = red.getbbox()
    mm = 25.4 / DPI
    x0, y0 = left * mm - SERVICE_BLEED_MM, top * mm - SERVICE_BLEED_MM
    return x0, y0, right * mm - SERVICE_BLEED_MM - x0, bottom * mm - SERVICE_BLEED_MM - y0


def _font_sizes(pdf: Path) -> list[dict[str, float]]:
    """Each page's characters → the size (pt) they are printed at."""
    doc = pdfium.PdfDocument(str(pdf))
    out = []
    for page in doc:
        text = page.get_textpage()
        out.append({text.get_text_range(k, 1): round(pdfium_c.FPDFText_GetFontSize(text.raw, k), 2)
                    for k in range(text.count_chars())})
    return out


def test_printed_at_poker_and_mini_the_boxes_are_the_same_share_of_the_card(game, tmp_path, capsys):
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--png"]) == 0, capsys.readouterr().err
    folder = tmp_path / "out" / "onedesign-png"
    for card_id, size in (("OD-POKER", "poker"), ("OD-MINI", "mini")):
        w, h = SIZES[size]
        expected = (BAND[0] * w / 100, BAND[1] * h / 100, BAND[2] * w / 100, BAND[3] * h / 100)
        measured = _red_box_mm(folder / f"{card_id}.png")
        assert measured == pytest.approx(expected, abs=0.15), (card_id, measured, expected)
    poker, mini = _font_sizes(folder / "cards.pdf")[:2]
    assert poker["S"] == 14 and mini["S"] == pytest.approx(14 * 63.5 / 88.9, abs=0.01)  # scale: poker
    assert poker["O"] == mini["O"] == 5  # the quiet id, in points, at both sizes: no scale asked


def test_a_scaled_text_never_goes_below_six_points():
    props = {"text": "x", "at": ["0%", "0%", "50%", "10%"], "size": 7, "scale": "poker"}
    text = layout_resolve._element("t", props, 1, ("t",), Problems())
    (small,) = sized((text,), SIZES["mini"])
    assert small.props["size"] == 6 and small.box == pytest.approx((0, 0, 22.25, 6.35))


def test_a_layouts_scale_applies_to_each_of_its_elements(game):
    game.write_text(DATA.replace("  face:\n", "  face:\n    scale: poker\n").replace(", scale: poker", ""), "utf-8")
    card_set = cards.load_file(str(game))
    from companion.pnp import faces

    mini = {e.name: e for e in faces.front_layout(card_set.component("OD-MINI"), card_set)}
    assert mini["title"].props["size"] == pytest.approx(10)
    assert mini["id"].props["size"] == pytest.approx(5 * 63.5 / 88.9)  # a quiet text's 5 pt, scaled (3 pt at least)
