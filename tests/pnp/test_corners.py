"""Rounded corners (issue 39, item 5): a file's `corner_radius` (mm) rounds its cards' cut: the sheets show it
(crop marks' corner arcs, `cut_outline: true` the whole cut), and the PNGs and Tabletop Simulator's sheets are cut
to it, transparent outside."""
import math
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from companion import cards
from companion.pnp.build import build
from companion.pnp.document import BuildSettings
from companion.pnp.geometry import layout
from companion.pnp.tts import export_tts, tile_pixels

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example-game"


def game(folder: Path, header: str) -> Path:
    path = folder / "round.yaml"
    path.write_text(f"game: round\ntitle: {{es: Redonda, en: Round}}\nprefix: RD\nplayers: [2, 4]\n{header}"
                    "components:\n"
                    "  - {id: RD-1, type: card, qty: 2, name: {es: Uno, en: One}, value: 1}\n"
                    "  - {id: RD-2, type: card, name: {es: Dos, en: Two}, value: 2}\n"
                    "  - {id: RD-BACK, type: back, for: [card], name: {es: Redonda, en: Round}}\n", encoding="utf-8")
    return path


def test_the_file_takes_a_corner_radius_up_to_a_third_of_the_short_side(tmp_path):
    s = cards.load_file(str(game(tmp_path, "corner_radius: 3\ncut_outline: true\n")))
    assert (s.design.corner_radius, s.design.cut_outline) == (3.0, True)
    assert cards.load_file(str(game(tmp_path, ""))).design.corner_radius == 0
    _, errors = cards.check_text((tmp_path / "round.yaml").read_text().replace("game: round", "corner_radius: 15\n"
                                                                             "card_size: mini\ngame: round"),
                                 "round.yaml")
    assert errors == ["round.yaml:1: -: corner_radius: must be at most a third of a mini card's short side "
                      "(14.8 mm), got 15"]


def test_the_pngs_are_cut_round_transparent_outside(tmp_path):
    out = tmp_path / "out"
    build([str(game(tmp_path, "corner_radius: 3\n"))], out, BuildSettings(lang="en"), png=True)
    for name in ("RD-1", "RD-BACK"):
        picture = Image.open(out / "round-png" / f"{name}.png")
        assert picture.mode == "RGBA"
        w, h = picture.size
        alpha = picture.getchannel("A")
        assert [alpha.getpixel(p) for p in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1))] == [0] * 4
        assert [alpha.getpixel(p) for p in ((w // 2, 0), (0, h // 2), (w - 1, h // 2), (w // 2, h - 1))] == [255] * 4
        assert alpha.getpixel((w // 2, h // 2)) == 255


def test_square_corners_keep_opaque_pngs(tmp_path):
    out = tmp_path / "out"
    build([str(game(tmp_path, ""))], out, BuildSettings(lang="en"), png=True)
    assert Image.open(out / "round-png" / "RD-1.png").mode == "RGB"


def test_tabletop_simulators_sheet_cuts_each_card_round(tmp_path):
    done = export_tts(str(game(tmp_path, "corner_radius: 3\n")), tmp_path / "tts", BuildSettings(lang="en"))
    sheet = Image.open(done.sheets[0])
    w, h = tile_pixels("poker")
    alpha = sheet.getchannel("A")
    for column in range(sheet.width // w):  # two faces and the hidden back: every tile cut round
        left = column * w
        assert alpha.getpixel((left, 0)) == 0 and alpha.getpixel((left + w - 1, h - 1)) == 0
        assert alpha.getpixel((left + w // 2, 0)) == 255 and alpha.getpixel((left, h // 2)) == 255
    assert Image.open(done.backs[0]).getchannel("A").getpixel((0, 0)) == 0


def _arc_darkness(pdf: Path, page: int, radius: float) -> float:
    """The darkest pixel on the first front's rounded top-left corner, at 300 DPI (where the arc of its cut runs)."""
    s = layout("a4", "poker", 0)
    scale = 300 / 72
    picture = pdfium.PdfDocument(str(pdf))[page].render(scale=scale).to_pil().convert("L")
    front = s.fronts[0]
    mm = 300 / 25.4
    cx, cy = front.x + radius, front.y + front.h - radius  # the arc's centre (mm, y up)
    x = (cx - radius * math.cos(math.pi / 4)) * mm
    y = (s.page_h - (cy + radius * math.sin(math.pi / 4))) * mm
    return min(picture.getpixel((round(x) + dx, round(y) + dy)) for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2))


def test_the_sheet_shows_the_rounded_cut(tmp_path):
    for header, marks, dark in (("corner_radius: 4\n", True, True), ("corner_radius: 4\n", False, False),
                                ("corner_radius: 4\ncut_outline: true\n", False, True)):
        out = tmp_path / f"out-{marks}-{len(header)}"
        build([str(game(tmp_path, header))], out, BuildSettings(lang="en", crop_marks=marks))
        darkest = _arc_darkness(out / "round.pdf", 2, 4.0)
        assert (darkest < 215) == dark, (header, marks, darkest)
