"""Duplex that forgives, measured on the built PDFs: every page of fronts is followed by its own backs (each back
behind its own card) or by a blank, never by another section; backs run past the card block; no frame sits near
the cut; the PDF asks for long-edge duplex; the calibration sheet has a millimetre scale and says which way the
offsets move."""
import re
from itertools import pairwise

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from companion import library
from companion.pnp import faces
from companion.pnp.build import build
from companion.pnp.document import BuildSettings
from companion.pnp.geometry import MM, SIZES, layout
from companion.pnp.layout import draw as layout_draw
from helpers.games import GAMES_ONE_FAST
from helpers.pdf import is_booklet, origins, render_rgb

ID = re.compile(r"\b[A-Z]{2}[A-Z0-9]*(?:-[A-Z0-9]+)*\b")






@pytest.mark.parametrize("game", GAMES_ONE_FAST)
def test_every_page_of_fronts_is_followed_by_its_backs_or_a_blank(builds, game):
    pdf_of, bleed = builds
    card_set = library.load_game(game)
    pdf = pdfium.PdfDocument(str(pdf_of(game)))
    pages = [pdf[i] for i in range(len(pdf))]
    booklet = [i for i, p in enumerate(pages) if is_booklet(p)]
    assert booklet and booklet[0] % 2 == 0  # the rules start on the front of a sheet, behind no cards
    card_pages = pages[2:booklet[0]]
    assert len(card_pages) % 2 == 0
    checked = blanks = 0
    for front, back in zip(card_pages[::2], card_pages[1::2], strict=True):
        placed = origins(front)
        assert placed, "a page of fronts shows no components"
        width = front.get_size()[0]
        expected_backs = 0
        for ox, oy in placed:
            x, y = ox + bleed * MM, oy + bleed * MM  # the card's trim corner
            comp = card_set.component(printed_id(front, x, y, card_set))
            cid = comp.id
            w, h = (v * MM for v in SIZES[comp.size if comp.kind not in ("card", "reference") else card_set.card_size])
            mx = width - x - w  # where its back's trim corner lands
            behind = [(bx, by) for bx, by in origins(back)
                      if mx - 6 * MM <= bx <= mx + 0.1 and y - 6 * MM <= by <= y + 0.1]
            if comp.back:
                expected_backs += 1
                back_comp = card_set.component(comp.back)
                title = faces.back(back_comp, card_set, "en").title
                assert len(behind) == 1, (game, cid)
                if not (back_comp.art or back_comp.layout or card_set.design.back_art
                        or card_set.design.back_layout):  # the generic back: the game's title on its accent
                    seen = back.get_textpage().get_text_bounded(mx + MM, y + MM, mx + w - MM, y + h - MM)
                    assert title in re.sub(r"\s+", " ", seen), (game, cid)
                checked += 1
            else:
                assert not behind, (game, cid, "prints over another section's back")
        assert len(origins(back)) == expected_backs
        if not expected_backs:
            assert not ID.findall(back.get_textpage().get_text_bounded()), "a blank back page shows ids"
            blanks += 1
    assert checked or blanks


def printed_id(page, x, y, card_set) -> str:
    """The id printed on the component whose trim corner is at (x, y) points, wherever its face prints it: an id
    inside the trim of a component of that id's size, tried at each size the file prints."""
    size = {c.id: SIZES[c.size if c.kind not in ("card", "reference") else card_set.card_size]
            for c in card_set.components if c.kind != "back"}
    for w, h in sorted(set(size.values())):
        words = page.get_textpage().get_text_bounded(x + 0.3 * MM, y + 0.3 * MM, x + w * MM - 0.3 * MM,
                                                     y + h * MM - 0.3 * MM)
        found = [i for i in ID.findall(words) if size.get(i) == (w, h)]
        if found:
            return found[0]
    raise AssertionError(f"no {card_set.prefix} id printed on the component at {x / MM:.1f}, {y / MM:.1f} mm")


@pytest.mark.parametrize("game", GAMES_ONE_FAST)
def test_the_pdf_asks_for_long_edge_duplex(builds, game):
    data = builds[0](game).read_bytes()
    assert b"/Duplex /DuplexFlipLongEdge" in data


def test_a_gutterfold_file_asks_for_one_sided_printing(tmp_path):
    build(["duplicon"], tmp_path, BuildSettings(layout="gutterfold"))
    data = (tmp_path / "duplicon.pdf").read_bytes()
    assert b"/Duplex /Simplex" in data




def band_colours(image, band_px, inner_px=0):
    """The colours of the pixels in a band along the edges, from `inner_px` to `band_px` from the edge."""
    w, h = image.size
    seen = set()
    px = image.load()
    for d in range(inner_px, band_px):
        for x in range(0, w, 2):
            seen.add(px[x, d]), seen.add(px[x, h - 1 - d])
        for y in range(0, h, 2):
            seen.add(px[d, y]), seen.add(px[w - 1 - d, y])
    return seen


def edge_lines(image, band_px):
    """The mean colour of every line of pixels parallel to an edge within `band_px` of it, for each edge."""
    w, h = image.size
    px = image.load()
    out = []
    for d in range(band_px):
        for line in ([px[x, d] for x in range(w)], [px[x, h - 1 - d] for x in range(w)],
                     [px[d, y] for y in range(h)], [px[w - 1 - d, y] for y in range(h)]):
            out.append(tuple(sum(c[i] for c in line) / len(line) for i in range(3)))
    return out


def hexrgb(value):
    return tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))


def between(colour, a, b, tolerance=18):
    """Whether `colour` lies on the line from colour a to colour b (an anti-aliased mix of the two)."""
    ab = [q - p for p, q in zip(a, b, strict=True)]
    ac = [q - p for p, q in zip(a, colour, strict=True)]
    t = max(0.0, min(1.0, sum(x * y for x, y in zip(ab, ac, strict=True)) / max(1, sum(x * x for x in ab))))
    return max(abs(c - (p + t * d)) for c, p, d in zip(colour, a, ab, strict=True)) <= tolerance


def starting_in_band(image, band_px):
    """Pixels in a band along the edges whose colour differs from the edge's own pixel in their row or column:
    what starts inside the band instead of running out to the cut (a band or picture to the bleed is one colour
    from the edge inwards)."""
    w, h = image.size
    px = image.load()
    out = []
    for x in range(0, w, 2):
        for edge, inward in ((0, 1), (h - 1, -1)):
            out += [px[x, edge + inward * d] for d in range(band_px)
                    if max(abs(p - q) for p, q in zip(px[x, edge + inward * d], px[x, edge], strict=True)) > 12]
    for y in range(0, h, 2):
        for edge, inward in ((0, 1), (w - 1, -1)):
            out += [px[edge + inward * d, y] for d in range(band_px)
                    if max(abs(p - q) for p, q in zip(px[edge + inward * d, y], px[edge, y], strict=True)) > 12]
    return out


@pytest.mark.parametrize("game", GAMES_ONE_FAST)
def test_nothing_but_the_background_in_the_eighth_inch_safe_zone_of_a_front(game):
    """Uneven cutting must not show: frames keep inside the 1/8 inch safe zone (3.175 mm), or bleed. A face drawn
    by code shows only its background there; one drawn from a layout only what runs to the cut (its paper, a band
    to the bleed), nothing that starts within it."""
    card_set = library.load_game(game)
    safe = round(25.4 / 8 / 25.4 * 300)
    for comp in card_set.components:
        if comp.kind == "back":
            continue
        w, h = SIZES[comp.size]
        face = faces.face(comp, card_set, "en")
        image = render_rgb(lambda c, x, y, cw, ch, b, comp=comp: faces.paint_front(c, comp, card_set, "en", x, y,
                                                                                  cw, ch, b, None, None), w, h, 0)
        laid_out = faces.front_layout(comp, card_set) is not None
        bg = image.getpixel((1, 1)) if laid_out else hexrgb(face.background)
        if min(w, h) < 15:  # a piece smaller than two safe zones bleeds its own colour to the cut instead
            assert bg != hexrgb("#fbf7ee"), comp.id  # its colour, not the cream of a card
            assert image.getpixel((1, 1)) == image.getpixel((image.size[0] - 2, image.size[1] - 2)), comp.id
            continue
        if laid_out:
            off = starting_in_band(image, safe - 1)
        else:
            off = [c for c in band_colours(image, safe - 1) if max(abs(p - q) for p, q in zip(c, bg, strict=True)) > 12]
        assert not off, (comp.id, off[:5])


@pytest.mark.parametrize("game", GAMES_ONE_FAST)
def test_no_frame_near_the_edge_of_a_back(game):
    """A back is its pattern out to the cut and beyond: 6 mm in from the trim show only the accent and its
    pattern (a back drawn as a picture: no line along an edge), so a back landing 2 mm off shows no lopsided
    frame."""
    card_set = library.load_game(game)
    band = round(6 / 25.4 * 300)
    for comp in card_set.components:
        if comp.kind != "back":
            continue
        back = faces.back(comp, card_set, "en")
        w, h = SIZES[card_set.card_size]
        image = render_rgb(lambda c, x, y, cw, ch, b, comp=comp: faces.paint_back(c, comp, card_set, "en", x, y,
                                                                                 cw, ch, b),
                           w, h, 0)
        picture = comp.art or (not comp.layout and card_set.design.back_art)
        if picture:
            # a back drawn as a picture: an all-over pattern, no line along an edge (a frame). Each line of pixels
            # parallel to an edge within 6 mm of it has about the same mean colour as every other (a 1.5 pt frame
            # 4 mm in makes them differ by 130; the shipped patterns by under 20)
            lines = edge_lines(image, band)
            spread = max(max(abs(a[i] - b[i]) for i in range(3)) for a in lines for b in lines)
            assert spread <= 40, (comp.id, spread)
            continue
        name = comp.layout or card_set.design.back_layout
        if name and not comp.art and not card_set.design.back_art:
            # a back drawn from a layout: within 6 mm of the trim, only what its elements to the bleed paint
            elements = tuple(e for e in card_set.design.layouts[name] if e.props.get("bleed"))
            assert elements, (comp.id, "nothing to the bleed")
            ground = render_rgb(lambda c, x, y, cw, ch, b, comp=comp, elements=elements: layout_draw(
                c, elements, faces.shown(comp, card_set, "en"), x, y, cw, ch, b), w, h, 0)
            near = [(x, y) for x in range(0, image.size[0], 2) for y in range(0, image.size[1], 2)
                    if min(x, y, image.size[0] - 1 - x, image.size[1] - 1 - y) < band]
            off = [image.getpixel(p) for p in near
                   if max(abs(a - b) for a, b in zip(image.getpixel(p), ground.getpixel(p), strict=True)) > 12]
            assert not off, (comp.id, off[:5])
            continue
        accent = hexrgb(back.accent)
        pattern = tuple(round(255 * 0.16 + a * 0.84) for a in accent)
        off = [c for c in band_colours(image, round(6 / 25.4 * 300)) if not between(c, accent, pattern)]
        assert not off, (comp.id, off[:5])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_run_past_the_card_block_without_bleed(tmp_path, paper):
    """With no bleed asked for, a page of backs still runs 3 mm past the card block on every side, so 2 mm of
    misregistration shows no white strip on the outer cards."""
    build(["duquesa"], tmp_path, BuildSettings(paper=paper, bleed=0))
    pdf = pdfium.PdfDocument(str(tmp_path / "duquesa.pdf"))
    back = pdf[3]
    dpi = 150
    image = back.render(scale=dpi / 72).to_pil().convert("RGB")
    s = layout(paper, "poker", 0)
    block = s.bounds(s.backs)
    accent = hexrgb(library.load_game("duquesa").look.accent)
    px = image.load()
    H = image.size[1]

    def at(x_mm, y_mm):  # page millimetres from the bottom-left
        return px[round(x_mm / 25.4 * dpi), H - 1 - round(y_mm / 25.4 * dpi)]

    mid_x, mid_y = block.x + block.w / 2 + 5, block.y + block.h / 2 + 5
    for x, y in ((block.x - 2.5, mid_y), (block.x + block.w + 2.5, mid_y), (mid_x, block.y - 2.5),
                 (mid_x, block.y + block.h + 2.5)):
        colour = at(x, y)
        assert (between(colour, accent, (255, 255, 255), 30)
                and max(abs(a - b) for a, b in zip(colour, accent, strict=True)) < 60), \
            (x, y, colour)
    # and not between two neighbouring backs: each stays its own card's back up to the cut
    assert max(abs(a - b) for a, b in zip(at(block.x - 6, mid_y), (255, 255, 255), strict=True)) < 8


def test_calibration_sheet_has_a_millimetre_scale_and_says_which_way_offsets_move(tmp_path):
    build(["gemas"], tmp_path, BuildSettings(lang="en"))
    pdf = pdfium.PdfDocument(str(tmp_path / "gemas.pdf"))
    cover = pdf[0]
    text = re.sub(r"\s+", " ", cover.get_textpage().get_text_bounded())
    assert "--offset-x" in text and "left" in text and "--offset-y" in text and "up" in text
    # Millimetre ticks beside each cross: short lines 1 mm apart.
    ticks = []
    for obj in cover.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH]):
        left, bottom, right, top = obj.get_bounds()
        if right - left < 1.2 and 0.8 * MM < top - bottom < 3.5 * MM and bottom < 70 * MM:
            ticks.append(round((left + right) / 2 / MM, 1))
    ticks.sort()
    steps = [round(b - a, 1) for a, b in pairwise(ticks)]
    assert steps.count(1.0) >= 3 * 8, ticks  # at least 8 millimetre steps beside each of the three crosses
