"""The PDFs measured, not the code: page sizes, card trim sizes from the crop marks, mirrored backs, one face
per physical component, every QR decoded back to its card's URL, byte-identical rebuilds, atomic writes."""
import hashlib
import re
from collections import Counter
from itertools import pairwise

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
import zxingcpp

from companion import cards, library
from companion.cli import main
from companion.core.resources import cards_dir
from companion.pnp import draw
from companion.pnp.build import build
from companion.pnp.document import BACK_BLEED, BuildSettings, card_url, qr_version
from companion.pnp.geometry import MM, SIZES
from helpers.games import GAME_IDS, GAMES_ONE_FAST

BASE = "http://127.0.0.1:5000"
PAGE_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("pdf")
    build(GAME_IDS, out, BuildSettings(base_url=BASE))
    return out


def is_booklet(page) -> bool:
    text = page.get_textpage().get_text_bounded()
    return "· Rules ·" in text or "· Reglas ·" in text


def pages(path):
    """The cover and the card pages (the rules booklet at the end is left out; see `booklet`)."""
    pdf = pdfium.PdfDocument(str(path))
    all_pages = [pdf[i] for i in range(len(pdf))]
    while all_pages and is_booklet(all_pages[-1]):
        all_pages.pop()
    return pdf, all_pages


def booklet(path):
    pdf = pdfium.PdfDocument(str(path))
    return pdf, [p for p in (pdf[i] for i in range(len(pdf))) if is_booklet(p)]


def ids_on(page, prefix):
    return re.findall(rf"\b{prefix}[A-Z0-9-]*\b", page.get_textpage().get_text_bounded())


def crop_mark_cuts(page):
    """Cut positions (points) read from the crop marks: the thin path objects of the page itself (faces and backs
    are form XObjects)."""
    xs, ys = set(), set()
    for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=1):
        left, bottom, right, top = obj.get_bounds()
        if right - left < 1.5 and top - bottom > 2:
            xs.add(round((left + right) / 2, 2))
        elif top - bottom < 1.5 and right - left > 2:
            ys.add(round((bottom + top) / 2, 2))
    return sorted(xs), sorted(ys)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0, 3])
def test_page_size_and_card_trim_size_measured_from_the_pdf(tmp_path, paper, bleed):
    build(["duplicon"], tmp_path, BuildSettings(paper=paper, bleed=bleed))
    pdf, ps = pages(tmp_path / "duplicon.pdf")
    width, height = SIZES["poker"]
    for page in ps[2::2]:  # card fronts (page 1 and 2 are the calibration sheet)
        assert page.get_size() == pytest.approx(PAGE_PT[paper], abs=0.01)
        xs, ys = crop_mark_cuts(page)
        # Cuts come in pairs (left/right edge of each column): widths alternate with the gaps between bleeds.
        spans_x = [b - a for a, b in pairwise(xs)]
        spans_y = [b - a for a, b in pairwise(ys)]
        card_w = [s / MM for s in spans_x if s / MM > 10]
        card_h = [s / MM for s in spans_y if s / MM > 10]
        assert card_w and all(abs(w - width) <= 0.1 for w in card_w), card_w
        assert card_h and all(abs(h - height) <= 0.1 for h in card_h), card_h
        if bleed:
            gaps = [s / MM for s in spans_x + spans_y if s / MM <= 10]
            assert gaps and all(abs(g - 2 * bleed) <= 0.1 for g in gaps)
        assert (xs[-1] - xs[0]) / MM == pytest.approx(len(card_w) * width + (len(card_w) - 1) * 2 * bleed, abs=0.1)


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.8)])
def test_backs_line_up_with_fronts_when_the_sheet_is_flipped(tmp_path, offset):
    build(["gemas"], tmp_path, BuildSettings(bleed=2, offset=offset))
    pdf, ps = pages(tmp_path / "gemas.pdf")
    checked = 0
    for front, back in zip(ps[2::2], ps[3::2], strict=True):
        if not ids_on(front, "GM") or ids_on(back, "GM"):  # a back page shows no ids
            continue
        if not list(back.get_objects(filter=[raw.FPDF_PAGEOBJ_FORM], max_depth=1)):  # the blank side of the tokens
            continue
        w = front.get_size()[0]
        card_w = SIZES["poker"][0] * MM
        fronts = sorted((round(x + 2 * MM, 1), round(y + 2 * MM, 1)) for x, y in forms_at(front))  # trim corners
        grow = max(2, BACK_BLEED) * MM
        # Long-edge flip: x → page width - x. Each back, mirrored and corrected by the offset, is on its front.
        backs = sorted((round(w - (x + grow) - card_w + offset[0] * MM, 1), round(y + grow - offset[1] * MM, 1))
                       for x, y in forms_at(back))
        assert [v for xy in backs for v in xy] == pytest.approx([v for xy in fronts for v in xy], abs=0.1)
        checked += 1
    assert checked >= 10


def forms_at(page):
    return [(o.get_matrix().e, o.get_matrix().f) for o in page.get_objects(filter=[raw.FPDF_PAGEOBJ_FORM], max_depth=1)]


@pytest.mark.parametrize("game", GAMES_ONE_FAST)
def test_one_face_per_physical_component_and_every_qr_opens_its_card(built, game):
    card_set = library.load_game(game)
    expected = Counter({c.id: c.qty for c in card_set.components if c.kind != "back"})
    pdf, ps = pages(built / f"{game}.pdf")
    printed, decoded = Counter(), Counter()
    for page in ps[2:]:
        on_page = ids_on(page, card_set.prefix)
        printed.update(on_page)
        with_qr = [i for i in on_page if card_set.component(i).kind != "token"]
        if not with_qr:
            continue
        found = zxingcpp.read_barcodes(page.render(scale=200 / 72).to_pil())
        texts = sorted(r.text for r in found if r.format == zxingcpp.BarcodeFormat.QRCode)
        assert texts == sorted(card_url(BASE, i) for i in with_qr)
        decoded.update(t.rsplit("/", 1)[1] for t in texts)
    assert printed == expected
    assert decoded == Counter({i: n for i, n in expected.items() if card_set.component(i).kind != "token"})


def test_qr_urls_are_short_and_use_the_alphanumeric_mode():
    assert card_url("http://192.168.1.20:5000/", "QN-THIEF") == "HTTP://192.168.1.20:5000/C/QN-THIEF"
    # A base address with a lower-case path cannot be capitalised safely (static hosts tell case apart).
    assert card_url("https://example.org/games", "DQ07") == "HTTPS://EXAMPLE.ORG/games/C/DQ07"


@pytest.mark.parametrize("game", GAMES_ONE_FAST)
def test_qr_modules_are_at_least_half_a_millimetre_with_a_4_module_quiet_zone(built, game):
    pdf, ps = pages(built / f"{game}.pdf")
    dpi = 300
    page = next(p for p in ps[2:] if zxingcpp.read_barcodes(p.render(scale=dpi / 72).to_pil()))
    image = page.render(scale=dpi / 72).to_pil().convert("L")
    version = qr_version(library.load_game(game), BuildSettings(base_url=BASE))
    assert version == max(draw.qr_version([card_url(BASE, c.id)]) for c in library.load_game(game).components)
    assert version <= 3  # the lowest version the longest id allows with a LAN base
    for r in zxingcpp.read_barcodes(image):
        width_mm = (r.position.top_right.x - r.position.top_left.x) / dpi * 25.4
        modules = 17 + 4 * version
        assert width_mm / modules >= 0.5 * 0.97, (game, width_mm / modules)
        # the quiet zone: 4 modules of white on every side of the code
        q = round(4 * 0.5 / 25.4 * dpi)
        x0, y0 = r.position.top_left.x, r.position.top_left.y
        x1, y1 = r.position.bottom_right.x, r.position.bottom_right.y
        for box in ((x0 - q, y0, x0 - 2, y1), (x1 + 2, y0, x1 + q, y1), (x0, y0 - q, x1, y0 - 2),
                    (x0, y1 + 2, x1, y1 + q)):
            assert image.crop(box).getextrema()[0] > 200, (game, box)


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_the_same_build_twice_is_byte_identical(tmp_path):
    for name in ("a", "b"):
        build(["duquesa", "nobles"], tmp_path / name, BuildSettings(bleed=1.5, lang="en"))
    for game in ("duquesa", "nobles"):
        assert (tmp_path / "a" / f"{game}.pdf").read_bytes() == (tmp_path / "b" / f"{game}.pdf").read_bytes()


def test_viewer_is_told_not_to_scale_and_fonts_are_embedded(built):
    data = (built / "duquesa.pdf").read_bytes()
    assert b"/PrintScaling /None" in data
    assert b"/FontFile2" in data and b"NotoSerif" in data and b"Vera" not in data
    assert b"/BaseFont /Helvetica" not in data  # no font left to the printer or viewer


def test_calibration_page_has_the_ruler_and_print_at_100(built):
    pdf, ps = pages(built / "queens-necklace.pdf")
    text = ps[0].get_textpage().get_text_bounded()
    assert "100 %" in text and "100 mm" in text and "A4" in text


def test_gutterfold_puts_each_back_beside_its_front(tmp_path):
    build(["duplicon"], tmp_path, BuildSettings(layout="gutterfold"))
    pdf, ps = pages(tmp_path / "duplicon.pdf")
    w, h = ps[1].get_size()
    assert w > h  # landscape
    n = sum(len(ids_on(p, "DP")) for p in ps[1:])
    assert n == 99 and len(ps) == 1 + -(-96 // 4) + 1  # calibration + 24 pages of 4 pairs + the summaries


def test_text_follows_the_language(tmp_path):
    build(["duquesa"], tmp_path, BuildSettings(lang="en"))
    pdf, ps = pages(tmp_path / "duquesa.pdf")
    text = ps[2].get_textpage().get_text_bounded()
    assert "The Duchess wishes" in text and "florins" in text and "florines" not in text


def digest(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("argv,words", [
    (["--bleed", "-1"], "bleed: must be from 0 to 3 mm"),
    (["--bleed", "4"], "bleed: must be from 0 to 3 mm"),
    (["--paper", "a5"], "paper: unknown paper 'a5'"),
    (["--lang", "fr"], "lang: unknown language 'fr'"),
    (["--layout", "zigzag"], "layout: unknown layout"),
    (["--base-url", "ftp://x"], "base-url: must be an http(s) address"),
    (["--card-size", "jumbo"], "card-size: unknown card size"),
    (["--offset-x", "40"], "offset: a duplex offset must be within"),
    (["chess"], "unknown game 'chess'"),
])
def test_bad_settings_exit_2_and_leave_output_untouched(built, capsys, argv, words):
    before = digest(built)
    assert main(["build", "--out", str(built), *argv]) == 2
    err = capsys.readouterr().err
    assert f"companion build: {words}" in err and "Traceback" not in err
    assert digest(built) == before


def test_unreachable_out_exits_2(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["build", "duquesa", "--out", str(blocker)]) == 2
    assert main(["build", "duquesa", "--out", str(blocker / "sub")]) == 2
    err = capsys.readouterr().err
    assert "is a file, not a folder" in err and "cannot write to" in err and "Traceback" not in err
    assert blocker.read_text() == "not a folder"


def test_a_failure_while_drawing_leaves_earlier_pdfs_and_no_partial_files(built, tmp_path, monkeypatch):
    out = tmp_path / "out"
    build(["duquesa", "gemas"], out, BuildSettings())
    before = digest(out)
    from companion.pnp import faces

    real = faces.paint_front  # every front, from its layout or by code
    calls = {"n": 0}

    def flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 30:  # partway through the second game (each unique face is drawn once)
            raise RuntimeError("printer on fire")
        return real(*args, **kwargs)

    monkeypatch.setattr(faces, "paint_front", flaky)
    with pytest.raises(RuntimeError):
        build(["duquesa", "gemas"], out, BuildSettings(bleed=2))
    assert digest(out) == before  # nothing replaced, nothing half-written, no .part left over


def test_a_sixth_game_prints_from_its_data_file_alone(tmp_path, capsys):
    """docs/example-game: a game with no Python of its own builds with the generic layout and QR codes."""
    from pathlib import Path

    data = Path(__file__).resolve().parents[2] / "docs" / "example-game" / "especias.yaml"
    assert main(["build", str(data), "--out", str(tmp_path), "--base-url", "http://10.0.0.5:8000"]) == 0
    card_set = cards.load_file(data)
    assert card_set.game not in cards.load_shipped()
    pdf, ps = pages(tmp_path / "especias.pdf")
    printed = Counter(i for p in ps[2:] for i in ids_on(p, "SP"))
    assert printed == Counter({c.id: c.qty for c in card_set.components if c.kind != "back"})
    found = zxingcpp.read_barcodes(ps[2].render(scale=200 / 72).to_pil())
    assert found and all(r.text.startswith("HTTP://10.0.0.5:8000/C/SP-") for r in found)


def test_a_broken_data_file_is_reported_by_line_and_nothing_is_written(tmp_path, capsys):
    bad = tmp_path / "especias.yaml"
    bad.write_text("game: especias\ntitle: {es: X, en: X}\nprefix: SP\nplayers: [2, 4]\ncomponents:\n"
                   "  - {id: SP-A, type: card, icons: [moon], name: {es: A, en: A}}\n")
    out = tmp_path / "out"
    assert main(["build", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:6: SP-A: icons[0]: unknown icon 'moon'" in err and not out.exists()


@pytest.mark.slow  # exports and decodes PNGs (about 7–14 s)
def test_png_export_gives_print_service_sized_cards_that_scan(tmp_path):
    from PIL import Image

    build(["duquesa"], tmp_path, BuildSettings(), png=True)
    folder = tmp_path / "duquesa-png"
    card_set = library.load_game("duquesa")
    expected = {f"{c.id}.png" for c in card_set.components} | {"cards.pdf"}  # every face and the back
    assert {p.name for p in folder.iterdir()} == expected | {".companion-png"}  # and the record of what it wrote
    image = Image.open(folder / "DQ07.png")
    assert image.size == (825, 1125) and round(image.info["dpi"][0]) == 300
    (code,) = zxingcpp.read_barcodes(image)
    assert code.text == card_url(BASE, "DQ07")
    build(["duquesa"], tmp_path, BuildSettings(lang="en"), png=True)  # replaced, no leftovers
    assert {p.name for p in folder.iterdir()} == expected | {".companion-png"}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_no_graphics_state_the_forms_would_lack(built):
    """Transparency needs ExtGState resources, which reportlab does not give form XObjects; we mix opaque
    colours instead, so no content stream may set a graphics state (the `gs` operator)."""
    import base64
    import zlib

    for game in GAME_IDS:
        data = (built / f"{game}.pdf").read_bytes()
        streams = re.findall(rb"stream\r?\n(.*?)endstream", data, re.S)
        assert streams
        decoded = 0
        for raw_stream in streams:
            for decode in (zlib.decompress, lambda b: zlib.decompress(base64.a85decode(b.strip(), adobe=True))):
                try:
                    content = decode(raw_stream)
                except (zlib.error, ValueError):
                    continue
                decoded += 1
                assert not re.search(rb"/\w+ gs\b", content), game
                break
        assert decoded >= len(streams) // 2  # the page and form streams were read, not skipped


def test_each_back_lands_behind_its_own_card_when_some_cards_have_none(tmp_path):
    """A card with `back: none` leaves its slot on the back page empty; the others stay behind their fronts."""
    data = tmp_path / "mixed.yaml"
    data.write_text(
        "game: mixed\ntitle: {es: Mezcla, en: Mixed}\nprefix: MX\nplayers: [2, 2]\ncomponents:\n"
        "  - {id: MX-BARE, type: card, back: none, name: {es: Sin dorso, en: No back}}\n"
        "  - {id: MX-CARD, type: card, qty: 8, name: {es: Carta, en: Card}}\n"
        "  - {id: MX-BACK, type: back, for: [card], name: {es: Dorso, en: Back}}\n")
    build([str(data)], tmp_path, BuildSettings())
    pdf, ps = pages(tmp_path / "mixed.pdf")
    front, back = ps[2], ps[3]

    def origins(page):  # where each drawn face or back is placed (its form's translation), in drawing order
        return [(o.get_matrix().e, o.get_matrix().f)
                for o in page.get_objects(filter=[raw.FPDF_PAGEOBJ_FORM], max_depth=1)]

    card_w = SIZES["poker"][0] * MM
    fronts = [(round(x, 1), round(y, 1)) for x, y in origins(front)]  # in slot order: MX-BARE first
    w = front.get_size()[0]
    grow = BACK_BLEED * MM  # each back is drawn with its own bleed around it
    mirrored = {(round(w - (x + grow) - card_w, 1), round(y + grow, 1)) for x, y in origins(back)}
    assert len(fronts) == 9 and len(mirrored) == 8
    assert fronts[0] not in mirrored and set(fronts[1:]) == mirrored


def test_several_notes_on_the_calibration_page_do_not_overlap(tmp_path):
    data = tmp_path / "notes.yaml"
    notes = "".join(f"  - {{es: Nota numero {i} del juego, en: Game note number {i}}}\n" for i in (1, 2, 3))
    data.write_text("game: notes\ntitle: {es: Notas, en: Notes}\nprefix: NT\nplayers: [2, 2]\nnotes:\n" + notes +
                    "components:\n  - {id: NT-A, type: card, name: {es: A, en: A}}\n")
    build([str(data)], tmp_path, BuildSettings(lang="en"))
    pdf, ps = pages(tmp_path / "notes.pdf")
    text = ps[0].get_textpage()
    tops = []
    for i in (1, 2, 3):
        searcher = text.search(f"Game note number {i}")
        found = searcher.get_next()
        assert found, f"note {i} missing"
        start, count = found
        boxes = [text.get_charbox(start + j) for j in range(count)]
        tops.append((min(b[1] for b in boxes), max(b[3] for b in boxes)))
    tops.sort()
    assert all(upper[0] > lower[1] for lower, upper in pairwise(tops)), tops  # stacked, not overprinted


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_file_ends_with_the_whole_rules_booklet_in_9_pt_or_more(tmp_path, paper):
    build(["nobles"], tmp_path, BuildSettings(paper=paper, lang="en"))
    pdf, pages_ = booklet(tmp_path / "nobles.pdf")
    assert pages_ and all(p.get_size() == pytest.approx(PAGE_PT[paper], abs=0.01) for p in pages_)
    text = " ".join(p.get_textpage().get_text_bounded() for p in pages_)
    flat = re.sub(r"\s+", " ", text)
    for section in library.load_game("nobles").rules:
        assert section["title"].en in flat, section["id"]
    sizes = set()
    for p in pages_:
        tp = p.get_textpage()
        sizes |= {round(raw.FPDFText_GetFontSize(tp.raw, i), 1) for i in range(tp.count_chars())
                  if not tp.get_text_range(i, 1).isspace()}
    assert min(sizes) >= 9, sorted(sizes)


@pytest.mark.parametrize("base,words", [
    ("http://127.0.0.1:5000", "the phone itself"),
    ("http://192.168.1.20:5000", "stop working if that address changes"),
    ("https://games.example.org", None),
])
def test_the_cover_lists_the_box_and_says_where_the_codes_lead(tmp_path, capsys, base, words):
    assert main(["build", "gemas", "--out", str(tmp_path), "--lang", "en", "--base-url", base]) == 0
    err = capsys.readouterr().err
    pdf, ps = pages(tmp_path / "gemas.pdf")
    text = re.sub(r"\s+", " ", ps[0].get_textpage().get_text_bounded())
    card_set = library.load_game("gemas")
    gem_cards = sum(c.qty for c in card_set.components if c.type == "gem-card")
    assert f"{gem_cards} × Gem card" in text and base in text
    assert ("You also need" in text) == bool(card_set.needs)
    if words:
        assert words in text and words in err
    else:
        assert "phone itself" not in text and err == ""

@pytest.mark.slow  # PNG exports on one core and on several
def test_png_export_on_several_cores_writes_the_same_files_as_on_one(tmp_path, monkeypatch):
    from companion.pnp import export

    card_set = library.load_game("gemas")
    made = {}
    for workers in (1, 2):
        monkeypatch.setattr(export, "MAX_WORKERS", workers)
        monkeypatch.setattr(export.os, "cpu_count", lambda: 2)
        folder = tmp_path / f"w{workers}"
        files = export.card_pngs(card_set, BuildSettings(base_url=BASE), folder)
        made[workers] = digest(folder)
        assert len(files) == len({c.id for c in card_set.components})
    assert made[1] == made[2]


@pytest.mark.slow  # builds and measures every game at mini size (about 7–14 s)
def test_a_build_at_a_smaller_card_size_warns_of_the_codes_it_shrinks_and_they_are_that_small(tmp_path, capsys):
    """`build --card-size mini` printed codes of 0.46 mm modules without a word: now it says so, the warned module
    size is the printed one (measured on the page), and `validate --card-size mini` says the same first."""
    lan = "http://192.168.1.20:5000"
    nobles = str(cards_dir() / "nobles.yaml")
    assert main(["validate", nobles, "--card-size", "mini"]) == 0
    said = capsys.readouterr().err
    assert re.search(r"nobles\.yaml:\d+: number: code: warning: at http://192\.168\.1\.20:5000, printed as a mini "
                     r"card: a code in this box has modules of 0\.4\d mm \(NB-", said), said
    assert main(["validate", nobles]) == 0 and "warning" not in capsys.readouterr().err
    assert main(["build", "nobles", "--card-size", "mini", "--base-url", lan, "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    warned = float(re.search(r"number: code: warning: at [^ ]+, printed as a mini card: a code in this box has "
                             r"modules of (0\.\d\d) mm", err).group(1))
    _, ps = pages(tmp_path / "nobles.pdf")
    dpi = 600
    version = qr_version(library.load_game("nobles"), BuildSettings(base_url=lan))
    for page in ps[1:]:
        found = zxingcpp.read_barcodes(page.render(scale=dpi / 72).to_pil())
        if found:
            r = found[0]
            module = (r.position.top_right.x - r.position.top_left.x) / dpi * 25.4 / (17 + 4 * version)
            assert abs(module - warned) <= 0.02, (module, warned)
            return
    raise AssertionError("no code read on the mini pages")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_pdf_says_its_language(tmp_path, lang):
    """The catalog's /Lang: a screen reader reads the deck's cover and booklet in the language it was built in."""
    import pikepdf

    build(["nobles"], tmp_path, BuildSettings(lang=lang))
    with pikepdf.open(tmp_path / "nobles.pdf") as pdf:
        assert str(pdf.Root.Lang) == lang
