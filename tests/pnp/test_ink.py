"""--ink low, measured on rendered pages: the share of dark pixels on the pages of backs (and of fronts) with and
without it, every game, and the backs still mirrored behind their cards."""
import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from companion.cli import main
from helpers.games import GAMES_ONE_FAST
from helpers.pdf import is_booklet

DPI = 30


def coverage(page) -> tuple[float, float]:
    """(share of dark pixels, mean ink) of a page rendered in grey: dark is below half, ink is 1 - lightness."""
    image = page.render(scale=DPI / 72, grayscale=True).to_pil().convert("L")
    data = image.tobytes()
    return sum(1 for v in data if v < 128) / len(data), sum(255 - v for v in data) / 255 / len(data)


def sides(path):
    """(fronts, backs): the pages of fronts and the pages of backs of a built file."""
    pdf = pdfium.PdfDocument(str(path))
    pages = [pdf[i] for i in range(len(pdf))]
    end = next(i for i, p in enumerate(pages) if is_booklet(p))
    fronts, backs = [], []
    for page in pages[2:end]:
        placed = list(page.get_objects(filter=[raw.FPDF_PAGEOBJ_FORM], max_depth=1))
        if not placed:
            continue
        has_marks = any(True for _ in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=1))
        (fronts if has_marks else backs).append(page)
    return pdf, fronts, backs


@pytest.fixture(scope="module")
def both(shipped_pdfs):
    """{ink: the PDF of a game printed with it}, each built once, when first asked for."""
    return {ink: (lambda game, ink=ink: shipped_pdfs(game, ink=ink)) for ink in ("normal", "low")}


@pytest.mark.parametrize("game", GAMES_ONE_FAST)
def test_low_ink_backs_are_light(both, game):
    measured = {}
    for ink, pdf_of in both.items():
        pdf, fronts, backs = sides(pdf_of(game))
        assert backs
        values = [coverage(p) for p in backs]
        measured[ink] = (sum(v[0] for v in values) / len(values), sum(v[1] for v in values) / len(values))
    (dark, ink_normal), (dark_low, ink_low) = measured["normal"], measured["low"]
    assert dark >= 0.4, measured  # the normal backs: most of the sheet dark
    assert dark_low <= 0.05, measured  # --ink low: almost nothing dark (titles and emblem lines)
    assert ink_low <= ink_normal * 0.3, measured  # and under a third of the ink


@pytest.mark.parametrize("game", GAMES_ONE_FAST)
def test_low_ink_fronts_use_less_ink(both, game):
    spent = {}
    for ink, pdf_of in both.items():
        pdf, fronts, backs = sides(pdf_of(game))
        spent[ink] = sum(coverage(p)[1] for p in fronts)
    assert spent["low"] < spent["normal"], spent


def test_ink_setting_is_checked(tmp_path, capsys):
    assert main(["build", "duquesa", "--out", str(tmp_path), "--ink", "none"]) == 2
    assert "ink: unknown ink choice 'none'" in capsys.readouterr().err

