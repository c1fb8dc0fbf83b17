"""Every mark printable, measured on the built PDFs: crop marks at least 5 mm from every page edge on A4 and
Letter (home printers lose ~4.2 mm), at least 1 mm long, one in line with every cut; page boxes that crop no
mark; and the print-service file with one card a page, its TrimBox the card and its BleedBox 1/8 inch around it."""
import pypdfium2 as pdfium
import pytest

from companion import library
from companion.pnp.build import build
from companion.pnp.document import BuildSettings
from companion.pnp.export import SERVICE_BLEED_MM
from companion.pnp.geometry import MM, SIZES
from helpers.games import GAMES_ONE_FAST
from helpers.pdf import card_pages, marks, origins


@pytest.mark.parametrize("game", GAMES_ONE_FAST)
def test_crop_marks_are_5_mm_from_every_page_edge_and_in_line_with_every_cut(builds, game):
    pdf_of, bleed = builds
    pdf = pdfium.PdfDocument(str(pdf_of(game)))
    pages = card_pages(pdf)
    assert pages
    nearest = float("inf")
    for page in pages:
        w, h = page.get_size()
        drawn = marks(page)
        for left, bottom, right, top in drawn:
            nearest = min(nearest, left, bottom, w - right, h - top)
            assert max(right - left, top - bottom) >= 0.99 * MM  # a mark long enough to see
        # one mark in line with every cut of every placed component (its trim edges)
        vertical = {round((m[0] + m[2]) / 2, 1) for m in drawn if m[2] - m[0] < 1}
        horizontal = {round((m[1] + m[3]) / 2, 1) for m in drawn if m[3] - m[1] < 1}
        tw = th = None
        for size in SIZES.values():  # the size of this page's components, from the gaps between them
            xs = sorted({round(x, 1) for x, _ in origins(page)})
            if len(xs) < 2 or abs((xs[1] - xs[0]) - (size[0] + 2 * bleed) * MM) < 0.2:
                tw, th = size
                break
        assert tw, "no component size matches the page"
        for ox, oy in origins(page):
            x, y = ox + bleed * MM, oy + bleed * MM
            for cut in (x, x + tw * MM):
                assert any(abs(cut - v) < 0.2 for v in vertical), (game, cut / MM)
            for cut in (y, y + th * MM):
                assert any(abs(cut - v) < 0.2 for v in horizontal), (game, cut / MM)
        # No page box crops a mark: a sheet is the finished piece, its boxes the whole page.
        assert page.get_trimbox() == pytest.approx((0, 0, w, h), abs=0.01)
        assert page.get_bleedbox() == pytest.approx((0, 0, w, h), abs=0.01)
    assert nearest >= 5 * MM - 0.01, f"{game}: a crop mark {nearest / MM:.2f} mm from the page edge"


@pytest.mark.slow  # exports every Nobles card, PNGs and the print service's PDF
def test_the_print_service_file_has_one_card_a_page_with_honest_boxes(tmp_path):
    build(["nobles"], tmp_path, BuildSettings(), png=True)
    card_set = library.load_game("nobles")
    pdf = pdfium.PdfDocument(str(tmp_path / "nobles-png" / "cards.pdf"))
    unique = [c for c in card_set.components]
    assert len(pdf) == len(unique)
    b = SERVICE_BLEED_MM * MM
    for i in range(len(pdf)):
        page = pdf[i]
        w, h = page.get_size()
        trim = (round(w / MM - 2 * SERVICE_BLEED_MM, 1), round(h / MM - 2 * SERVICE_BLEED_MM, 1))
        assert trim in {(round(a, 1), round(b_, 1)) for a, b_ in SIZES.values()}
        assert page.get_trimbox() == pytest.approx((b, b, w - b, h - b), abs=0.01)
        assert page.get_bleedbox() == pytest.approx((0, 0, w, h), abs=0.01)
