"""Faces fit for play, measured on each face drawn alone: ids small and quiet (inside a token's ring), the QR code
on the face with no white square (and none at all with --qr none), Nobles indices in two opposite corners and
ranks in their suit's colour, the joker's stats, reference cards as lists at 8 pt or more, and every value a rule
needs printed on its component."""
import math
import re

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
import zxingcpp

from companion import library
from companion.cli import main
from companion.games.gemas import GEM_POINTS
from companion.layouts import plain
from companion.pnp import draw, faces
from companion.pnp.document import BuildSettings, qr_text
from companion.pnp.geometry import MM
from helpers.games import GAME_IDS, GAMES_ONE_FAST
from helpers.pdf import LAN, chars, components, drawn


def id_chars(page, comp_id):
    text = page.get_textpage()
    found = text.search(comp_id, match_case=True, match_whole_word=True).get_next()
    assert found, comp_id
    start, count = found
    return [(raw.FPDFText_GetFontSize(text.raw, start + j), *text.get_charbox(start + j)) for j in range(count)]


@pytest.mark.parametrize("game", GAMES_ONE_FAST)
def test_printed_ids_are_small_and_a_tokens_stays_inside_its_ring(game):
    for comp in components(game):
        page, w, h = drawn(game, comp.id)
        boxes = id_chars(page, comp.id)
        assert max(size for size, *_ in boxes) <= 5.0 + 0.01, comp.id
        if comp.kind == "token" and min(w, h) < 15 * MM:  # a marker: no ring, the id inside the piece
            assert all(0 <= left and right <= w and 0 <= bottom and top <= h for _, left, bottom, right, top in boxes)
        elif comp.kind == "token":
            ring = min(w, h) / 2 - draw.FRAME_INSET_MM * MM - 0.4  # inside the ring's line
            for _, left, bottom, right, top in boxes:
                for x, y in ((left, bottom), (right, bottom), (left, top), (right, top)):
                    assert math.hypot(x - w / 2, y - h / 2) <= ring, (comp.id, "runs into the ring")


def test_no_filler_line_on_duplicon_cards():
    for lang in ("es", "en"):
        page, *_ = drawn("duplicon", "DP-CIRCLE", BuildSettings(lang=lang))
        text = page.get_textpage().get_text_bounded()
        assert "Forma pareja" not in text and "Pairs with another" not in text


def quiet_ground(comp, card_set) -> tuple[int, int, int]:
    """What a code's quiet zone should be: a Face's own background; a layout's white plate, or with `plate: false`
    the card's cream the layout lies on (draw.PAPER)."""
    elements = faces.front_layout(comp, card_set)
    if elements is None:
        ground = faces.face(comp, card_set, "en").background
    else:
        code = next(e for e in elements if e.kind == "qr")
        ground = "#ffffff" if code.props.get("plate", True) else "#fbf7ee"
    return tuple(int(ground[i:i + 2], 16) for i in (1, 3, 5))


@pytest.mark.parametrize("game", GAMES_ONE_FAST)
def test_the_qr_code_sits_on_the_face_with_no_white_square(game):
    """Its quiet zone is the face's own cream, not a white plate, and it still decodes; a face drawn from a layout
    puts its code on the layout's white plate (companion/pnp/layout.py), which must be even white all round."""
    card_set = library.load_game(game)
    dpi = 150
    for comp in components(game, ("card", "reference", "tile"))[:12]:
        page, w, h = drawn(game, comp.id)
        image = page.render(scale=dpi / 72).to_pil().convert("RGB")
        (found,) = zxingcpp.read_barcodes(image)
        assert found.text == qr_text(card_set, comp, LAN)
        x0, y0 = found.position.top_left.x, found.position.top_left.y
        x1, y1 = found.position.bottom_right.x, found.position.bottom_right.y
        q = round(3 * draw.QR_MODULE_MM / 25.4 * dpi)  # inside the 4-module quiet zone, left and above
        raw_band = image.crop((x0 - q, y0 - q, x1, y0 - 2)).tobytes() + image.crop((x0 - q, y0, x0 - 2, y1)).tobytes()
        band = [tuple(raw_band[i:i + 3]) for i in range(0, len(raw_band), 3)]
        background = quiet_ground(comp, card_set)
        assert all(max(abs(a - b) for a, b in zip(px, background, strict=True)) <= 6
                   for px in band), (comp.id, "a plate")


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_qr_none_leaves_the_codes_off(tmp_path, capsys):
    assert main(["build", "gemas", "--out", str(tmp_path), "--qr", "none", "--lang", "en"]) == 0
    assert "open nothing" not in capsys.readouterr().err  # no warning about codes that are not printed
    pdf = pdfium.PdfDocument(str(tmp_path / "gemas.pdf"))
    assert not any(zxingcpp.read_barcodes(pdf[i].render(scale=150 / 72).to_pil()) for i in range(2, 8))
    assert "--qr none" in pdf[0].get_textpage().get_text_bounded()
    assert main(["build", "gemas", "--out", str(tmp_path), "--qr", "maybe"]) == 2
    assert "qr: unknown QR choice 'maybe'" in capsys.readouterr().err


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_nobles_indices_in_two_opposite_corners_and_ranks_in_their_suit_colour():
    card_set = library.load_game("nobles")
    checked = 0
    for comp in components("nobles", ("card",)):
        if comp.type not in ("number", "noble"):
            continue
        page, w, h = drawn("nobles", comp.id)
        index = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(comp.data["rank"], str(comp.data["rank"]))
        corners = [(left, b, r, t) for ch, size, left, b, r, t in chars(page)
                   if ch == index[0] and size >= 11 - 0.01]  # an index of 11 pt or more
        assert any(r < 15 * MM and b > h - 30 * MM for _, b, r, _ in corners), comp.id  # top left
        assert any(left > w - 15 * MM and t < 30 * MM for left, _, _, t in corners), comp.id  # bottom right
        # the rank (in both indices, and big on a court drawn without its picture) is in its suit's colour: black
        # on clubs and spades, red on hearts and diamonds
        suit = card_set.look.terms[comp.data["suit"]].colour
        for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_TEXT]):
            r, g, b, a = (raw.c_uint(), raw.c_uint(), raw.c_uint(), raw.c_uint())
            raw.FPDFPageObj_GetFillColor(obj.raw, r, g, b, a)
            fs = raw.c_float()
            raw.FPDFTextObj_GetFontSize(obj.raw, fs)
            if fs.value > 10.5:
                assert f"#{r.value:02x}{g.value:02x}{b.value:02x}" == suit.lower(), comp.id
                checked += 1
    assert checked >= 2 * 52


@pytest.mark.parametrize("lang,words", [("en", ["Strength 0", "1 wound", "1–3"]),
                                        ("es", ["Fuerza 0", "1 herida", "1 a 3"])])
def test_the_joker_shows_its_stats(lang, words):
    page, *_ = drawn("nobles", "NB-JOKER", BuildSettings(lang=lang))
    text = re.sub(r"\s+", " ", page.get_textpage().get_text_bounded())
    assert all(word in text for word in words), text


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_reference_cards_are_lists_in_8_pt_or_more_with_all_their_words(game, lang):
    card_set = library.load_game(game)
    settings = BuildSettings(base_url=LAN.base_url, lang=lang)
    for comp in components(game, ("reference",)):
        page, *_ = drawn(game, comp.id, settings)
        id_boxes = {tuple(round(v, 1) for v in box[1:]) for box in id_chars(page, comp.id)}
        body = [(ch, size) for ch, size, *box in chars(page) if tuple(round(v, 1) for v in box) not in id_boxes]
        title = faces.face(comp, card_set, lang).title
        text = "".join(ch for ch, _ in body)
        sizes = [size for ch, size in body]
        assert min(sizes) >= 8.0 - 0.01, (comp.id, min(sizes))
        assert text.count("•") >= 2, comp.id
        # (the words as printed: an inline {icon:hearts} is drawn as its icon, **bold** as bold)
        words = re.findall(r"\w+", plain(faces.face(comp, card_set, lang).text))
        flat = re.sub(r"\s+", "", page.get_textpage().get_text_bounded())
        missing = [wd for wd in words if wd not in flat]
        assert not missing and title, (comp.id, missing)


def test_gemas_values_are_on_every_gem_and_the_reserve_on_the_help_card():
    for comp in components("gemas"):
        if "colour" not in comp.data:
            continue
        page, *_ = drawn("gemas", comp.id)
        digits = [ch for ch, size, *_ in chars(page) if ch.isdigit() and size >= 6]
        assert str(GEM_POINTS[comp.data["colour"]]) in digits, comp.id
    page, *_ = drawn("gemas", "GM-HELP")
    text = re.sub(r"\s+", " ", page.get_textpage().get_text_bounded())
    assert "2 players: 2/3/3/4" in text and "3–4 players: 3/4/4/5" in text and "5–10 players: 4/5/5/6" in text, text


def test_queens_necklace_gem_counts_in_the_top_corner():
    for comp in components("queens-necklace", ("card",)):
        if comp.type != "gem":
            continue
        page, w, h = drawn("queens-necklace", comp.id)
        n = str(comp.data["gems"])
        # under the header, in the top-left corner: what shows of a card overlapped in a sale's column
        assert any(ch == n and size >= 10 and r < 15 * MM and b > h - 25 * MM
                   for ch, size, _, b, r, _ in chars(page)), \
            comp.id
