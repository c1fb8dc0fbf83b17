"""A game written only to the layouts contract (docs/example-game/cosecha.yaml, not one of ours) prints what its
layouts say, measured on the PDF: its fonts embedded, its band colours by suit, the rank in two opposite corners,
a code on each card whose layout has one and none on the card whose layout has none, its back picture to the
bleed, the same bytes from run to run; and each broken layout is refused by name."""
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import zxingcpp

from companion import cards
from companion.cli import main
from companion.pnp.build import build
from companion.pnp.document import BuildSettings, card_url

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example-game"
BASE = "http://192.168.1.20:5000"
MM = 72 / 25.4
SUITS = {"HV-APPLE-1": (0xB0, 0x3A, 0x2E), "HV-PEAR-5": (0x6D, 0x8C, 0x12), "HV-GRAPE-7": (0x6D, 0x3A, 0x82),
         "HV-PLUM-10": (0x2F, 0x5D, 0x9E)}


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """The example game's folder copied (so the test never writes beside the docs), built once."""
    folder = tmp_path_factory.mktemp("cosecha")
    shutil.copytree(EXAMPLE, folder / "game")
    data = folder / "game" / "cosecha.yaml"
    card_set = cards.load_file(data)
    [(pdf_path, _pages)] = list(build_one(data, folder / "out"))
    return card_set, data, pdf_path


def build_one(data, out):
    return build([str(data)], out, BuildSettings(base_url=BASE))


def page_texts(pdf, index):
    """Every character of a page with its box (points, y up)."""
    tp = pdf[index].get_textpage()
    return [(tp.get_text_range(i, 1), tp.get_charbox(i)) for i in range(tp.count_chars())]


def test_validates_clean(capsys):
    assert main(["validate", str(EXAMPLE / "cosecha.yaml")]) == 0
    out = capsys.readouterr().out
    assert "ok" in out and "warning" not in out


def test_its_fonts_are_embedded_subset(example):
    _, _, path = example
    data = path.read_bytes()
    fonts = set(re.findall(rb"/BaseFont /[A-Z]{6}\+([A-Za-z0-9-]+)", data))
    assert {b"BitstreamVeraSans-Roman", b"BitstreamVeraSans-Bold", b"BitstreamVeraSans-Oblique"} <= fonts
    assert data.count(b"/FontFile2") == len(fonts)  # each one embedded (TrueType), subset by its prefix


def fronts_page(pdf):
    """The first page of fronts: the first page after the calibration sheet whose text holds a card id."""
    for i in range(2, len(pdf)):
        if "HV-APPLE-1" in pdf[i].get_textpage().get_text_range():
            return i
    raise AssertionError("no page of fronts")


def card_origins(pdf, index):
    """Each card id's printed position → the card's trim rectangle (points), from where its id is printed: the
    layout puts the id at x 24 mm, 83 mm from the top (its box's top; the baseline lies lower)."""
    chars = page_texts(pdf, index)
    text = "".join(ch for ch, _ in chars)
    found = {}
    for card_id in SUITS:
        i = text.find(card_id)
        if i >= 0:
            left, bottom, _, _ = chars[i][1]
            found[card_id] = (left - 24 * MM, bottom)
    return found


def test_bands_take_their_suits_colour_and_the_rank_sits_in_two_corners(example):
    _, _, path = example
    pdf = pdfium.PdfDocument(str(path))
    index = fronts_page(pdf)
    scale = 100 / 72
    image = pdf[index].render(scale=scale).to_pil().convert("RGB")
    height = pdf[index].get_size()[1]
    chars = page_texts(pdf, index)
    origins = card_origins(pdf, index)
    assert set(origins) == set(SUITS)
    for card_id, (left, id_bottom) in origins.items():
        trim_bottom = id_bottom - (88.9 - 86) * MM  # the id's baseline is about 3 mm above the cut
        top = trim_bottom + 88.9 * MM
        # the band: 6 mm below the top, 30 mm in, on a 13 mm band
        pixel = image.getpixel((round((left + 30 * MM) * scale), round((height - (top - 6 * MM)) * scale)))
        assert all(abs(a - b) <= 6 for a, b in zip(pixel, SUITS[card_id], strict=True)), (card_id, pixel)
        rank = card_id.rsplit("-", 1)[1][0]  # "1", "5", "7"
        near = [box for ch, box in chars if ch == rank
                and left - 1 <= box[0] <= left + 63.5 * MM + 1 and trim_bottom - 1 <= box[1] <= top + 1]
        upper = [b for b in near if b[0] < left + 12 * MM and b[1] > top - 25 * MM]
        lower = [b for b in near if b[2] > left + 51 * MM and b[3] < trim_bottom + 25 * MM]
        assert upper and lower, (card_id, near)  # the index at the top left, and turned, at the bottom right


def test_codes_where_layouts_have_them_and_none_where_not(example):
    card_set, _, path = example
    pdf = pdfium.PdfDocument(str(path))
    read = {}
    for i in range(2, len(pdf)):
        text = pdf[i].get_textpage().get_text_range()
        if "HV-" not in text and "Cómo se juega" not in text:
            continue
        image = pdf[i].render(scale=200 / 72).to_pil()
        read[i] = (text, sorted(r.text for r in zxingcpp.read_barcodes(image)
                                if r.format == zxingcpp.BarcodeFormat.QRCode))
    decoded = [code for _, codes in read.values() for code in codes]
    for c in card_set.components:
        if c.id in ("HV-RULES", "HV-COIN") or c.kind == "back":
            continue
        assert decoded.count(card_url(BASE, c.id)) == c.qty, c.id
    assert card_url(BASE, "HV-RULES") not in decoded  # its layout has no code: none printed
    rules_page = next(codes for text, codes in read.values() if "Cómo se juega" in text)
    assert rules_page == [card_url(BASE, "HV-MARKET")]  # the second market card beside it, nothing for the rules


def test_the_back_picture_runs_into_the_bleed(example):
    _, _, path = example
    pdf = pdfium.PdfDocument(str(path))
    index = fronts_page(pdf) + 1  # its backs follow each page of fronts
    page = pdf[index]
    assert "HV-" not in page.get_textpage().get_text_range()
    image = page.render(scale=100 / 72).to_pil().convert("RGB")
    w, h = image.size
    green = (0x3D, 0x5A, 0x2A)
    # the back's own green at the middle of the sheet's top edge of cards, just outside the cards' block
    block_top = round(h / 2 - 3 * 88.9 * MM / 2 * 100 / 72)
    pixel = image.getpixel((w // 2 + 40, block_top - 2))
    assert all(abs(a - b) <= 8 for a, b in zip(pixel, green, strict=True)), pixel


def test_the_same_bytes_every_time(example, tmp_path):
    _, data, path = example
    [(again, _)] = list(build_one(data, tmp_path))
    assert again.read_bytes() == path.read_bytes()


BROKEN = [
    ([("    title:  {text: \"{name}\", at: [12, 3, 39.5, 7.5]",
       "    title:  {text: \"{name}\", at: [40, 3, 39.5, 7.5]")],
     r"fruit: title: is off the face: \[40, 3, 39\.5, 7\.5\] mm on a face of 63\.5 × 88\.9 mm"),
    ([("font: body, size: 8.5", "font: nope, size: 8.5")],
     r"fruit: body\.font: names the font 'nope', which fonts: does not declare"),
    ([("    id:     {text: \"{id}\"", "    id:     {text: \"{idd}\"")],
     r"fruit: id\.text: names the field 'idd', which no component has"),
    ([("    leaf:   {icon: apple,", "    leaf:   {icon: banana,")],
     r"rules: leaf\.icon: names the icon 'banana', which is neither a term in look.terms nor a shape"),
    ([("  fruit-art:  # a fruit whose picture says it all: no pips over the art\n    extends: fruit",
       "  fruit-art:  # a fruit whose picture says it all: no pips over the art\n    extends: market"),
      ("    extends: fruit\n    pips: null\n    index: null",
       "    extends: fruit-art\n    pips: null\n    index: null")],
     r"(market|fruit-art): extends: is a loop: (market → fruit-art → market|fruit-art → market → fruit-art)"),
    ([("text: {es: Vale lo que dos cartas., en: Worth two cards.}",
       "text: {es: Vale lo que dos cartas y además todas las demás cartas del mercado si las tienes en la mano al "
       "final de una partida larga con muchos jugadores alrededor de una mesa grande, en: Worth two cards.}")],
     r"fruit: body: the es text of HV-PLUM-10 cannot fit in 36\.5 × 7 mm even at 6 pt"),
    # a code too small for 0.65 mm modules is a warning (tests/test_designer_mistakes.py): the designer's call
    ([("en: Worth two cards.}", "en: Worth two cards ↯.}")],
     r"-: fonts\.body: lacks '↯' \(U\+21AF\), which HV-PLUM-10 print"),
]


@pytest.mark.parametrize("changes, expected", BROKEN, ids=[b[1][:30] for b in BROKEN])
def test_each_broken_layout_is_refused_by_name(tmp_path, capsys, changes, expected):
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    data = folder / "cosecha.yaml"
    text = data.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    data.write_text(text, encoding="utf-8")
    assert main(["validate", str(data)]) == 2
    err = capsys.readouterr().err
    assert re.search(rf"cosecha\.yaml:\d+: {expected}", err), err
    assert "Traceback" not in err


def test_a_font_file_that_is_not_a_font_is_named(tmp_path, capsys):
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    (folder / "fonts" / "VeraIt.ttf").write_bytes(b"not a font at all" * 100)
    assert main(["validate", str(folder / "cosecha.yaml")]) == 2
    err = capsys.readouterr().err
    assert re.search(r"cosecha\.yaml:\d+: -: fonts\.body\.italic: 'fonts/VeraIt\.ttf' is not a", err), err


def test_build_refuses_a_broken_font_before_writing_and_warns_of_codes_a_long_address_shrinks(tmp_path, capsys):
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    out = tmp_path / "out"
    assert main(["build", str(folder / "cosecha.yaml"), "--out", str(out), "--base-url",
                 "https://someone.github.io/print-and-play-decks"]) == 0
    err = capsys.readouterr().err
    assert re.search(r"cosecha\.yaml:\d+: fruit: code: warning: at https://someone\.github\.io/print-and-play-decks a "
                     r"code in this box has modules of 0\.\d\d mm", err), err
    (folder / "fonts" / "VeraBd.ttf").write_bytes(b"\0" * 2000)
    before = (out / "cosecha.pdf").read_bytes()
    assert main(["build", str(folder / "cosecha.yaml"), "--out", str(out), "--base-url", BASE]) == 2
    err = capsys.readouterr().err
    assert re.search(r"cosecha\.yaml:\d+: -: fonts\.title\.regular: 'fonts/VeraBd\.ttf' is not a", err), err
    assert "Traceback" not in err and (out / "cosecha.pdf").read_bytes() == before  # nothing written


@pytest.mark.parametrize("code, expected", [
    ("{qr: true, at: [40, 66.4, 21.5, 21.5]}", r"fruit: code: warning: the code reaches 5\d\.\d mm from the card's "
                                                r"left edge, past its middle: in a row of cards laid each over the one "
                                                r"before, the next one covers it"),
    ("{qr: true, at: [2, 66.4, 21.5, 21.5], corners: 2}", r"fruit: code: warning: prints the code twice \(corners: "
                                                           r"2\), so a photo of the table finds such a card twice"),
])
def test_a_code_a_photo_of_the_table_would_miss_or_count_twice_is_warned_of(tmp_path, capsys, code, expected):
    """A card's code in its right half is covered in a row laid over (issue 28); printed twice, a photo counts two
    cards. Each is a warning: the file still prints (exit 0)."""
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    data = folder / "cosecha.yaml"
    text = data.read_text(encoding="utf-8")
    old = "code:   {qr: true, at: [2, 66.4, 21.5, 21.5]}"
    assert old in text
    data.write_text(text.replace(old, f"code:   {code}"), encoding="utf-8")
    assert main(["validate", str(data)]) == 0
    err = capsys.readouterr().err
    assert len(re.findall(r"warning: (the code reaches|prints the code twice)", err)) == 1, err
    assert re.search(rf"cosecha\.yaml:\d+: {expected}", err), err


def test_pips_that_are_no_number_print_none_and_the_build_goes_on(tmp_path, capsys):
    """`pips: "²"` (a digit to str.isdigit(), not a number to int()) drew a traceback; now no pips, as for a word."""
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    data = folder / "cosecha.yaml"
    text = data.read_text(encoding="utf-8")
    assert 'pips:   {pips: "{rank}"' in text
    data.write_text(text.replace('pips:   {pips: "{rank}"', 'pips:   {pips: "²"'), encoding="utf-8")
    assert main(["build", str(data), "--out", str(tmp_path / "out"), "--base-url", BASE]) == 0
    assert "Traceback" not in capsys.readouterr().err and (tmp_path / "out" / "cosecha.pdf").is_file()
