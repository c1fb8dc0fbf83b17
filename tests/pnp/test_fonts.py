"""The typeface chosen for cards (Noto Serif, OFL) ships inside the package and is embedded in every PDF."""
import re

import pytest

from companion.pnp import draw
from companion.pnp.build import build
from companion.pnp.document import BuildSettings


@pytest.fixture(scope="module")
def nobles_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("fonts")
    build(["nobles"], out, BuildSettings())
    return (out / "nobles.pdf").read_bytes()


def test_the_font_files_and_their_licence_ship_in_the_package():
    assert draw.FONT_DIR.parent.name == "pnp"  # inside companion/, so inside the wheel
    for file in draw.FONT_FILES.values():
        assert (draw.FONT_DIR / file).read_bytes()[:4] == b"\x00\x01\x00\x00"  # a TrueType font, as reportlab needs
    licence = (draw.FONT_DIR / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE" in licence and "Version 1.1" in licence


def test_the_pdf_embeds_noto_serif_and_no_other_font(nobles_pdf):
    names = set(re.findall(rb"/BaseFont /([A-Z]{6}\+)?([A-Za-z-]+)", nobles_pdf))
    families = {name for _subset, name in names}
    assert families <= {b"NotoSerif-Regular", b"NotoSerif-Bold", b"NotoSerif-Italic"}
    assert {b"NotoSerif-Regular", b"NotoSerif-Bold"} <= families
    assert all(subset for subset, _name in names)  # subset on embedding: only the glyphs the cards use
    assert nobles_pdf.count(b"/FontFile2") == len(names)  # each one embedded, none left to the printer
