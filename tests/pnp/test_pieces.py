"""Pieces that work on the table, measured: the Queen's Necklace price marker covers one step of the price track
and no more; fashion and rarity tiles differ at a glance (band colour and shape, not only a word); Gemas prints a
band-aid for every player of its largest table, and no two kinds of token share a shape; a sheet of tokens or
tiles marks only the cuts of the pieces on it."""
from itertools import pairwise

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from companion import library
from companion.games.gemas import BANDAIDS
from companion.pnp import faces
from companion.pnp.build import build
from companion.pnp.document import BuildSettings
from companion.pnp.geometry import MM, SIZES
from helpers.games import GAME_IDS
from helpers.pdf import card_pages, drawn, marks, origins


def test_the_price_marker_covers_one_step_of_the_price_track():
    card_set = library.load_game("queens-necklace")
    page, w, h = drawn("queens-necklace", "QN-D3")
    # the track's circles: round paths along the right edge
    circles = []
    for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH]):
        left, bottom, right, top = obj.get_bounds()
        if left > w * 0.7 and abs((right - left) - (top - bottom)) < 0.5 and 3 * MM < right - left < 12 * MM:
            circles.append(((left + right) / 2, (bottom + top) / 2, right - left))
    circles.sort(key=lambda c: -c[1])
    assert len(circles) == 5, circles
    diameter = max(c[2] for c in circles) / MM - 0.3  # the bounds take in the outline
    step = min(a[1] - b[1] for a, b in pairwise(circles)) / MM
    marker = SIZES[card_set.component("QN-MARKER").size]
    assert diameter < min(marker) and max(marker) < step, (diameter, marker, step)


def test_fashion_and_rarity_tiles_differ_in_band_colour_and_shape():
    card_set = library.load_game("queens-necklace")
    looks = {}
    for cid in ("QN-FAS30", "QN-RAR30"):
        page, w, h = drawn("queens-necklace", cid)
        image = page.render(scale=100 / 72).to_pil().convert("RGB")
        band = image.crop((round(image.size[0] * 0.1), round(5 * 100 / 25.4), round(image.size[0] * 0.9),
                           round(8 * 100 / 25.4)))
        colours = band.resize((1, 1)).getpixel((0, 0))
        face = faces.face(card_set.component(cid), card_set, "en")
        looks[cid] = (colours, {i.shape for i in face.icons})
    (c1, s1), (c2, s2) = looks.values()
    assert sum((a - b) ** 2 for a, b in zip(c1, c2, strict=True)) ** 0.5 > 80, looks
    assert s1 and s2 and not s1 & s2, looks


def test_gemas_prints_a_band_aid_for_every_player_of_its_largest_table():
    card_set = library.load_game("gemas")
    printed = sum(c.qty for c in card_set.components if c.type == "bandaid")
    assert printed >= BANDAIDS * card_set.players[1] == 30


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_two_kinds_of_token_share_a_shape(game):
    card_set = library.load_game(game)
    shapes = {}
    for c in card_set.components:
        if c.kind == "token":
            face = faces.face(c, card_set, "en")
            shapes.setdefault(c.type, set()).update(i.shape for i in face.icons)
    kinds = list(shapes.items())
    for i, (a, sa) in enumerate(kinds):
        for b, sb in kinds[i + 1:]:
            if a != b:
                assert not sa & sb, (game, a, b, sa & sb)


@pytest.mark.parametrize("game", ["queens-necklace", "gemas", "nobles"])
def test_a_sheet_marks_only_the_cuts_of_the_pieces_on_it(tmp_path, game):
    build([game], tmp_path, BuildSettings(lang="en"))
    pdf = pdfium.PdfDocument(str(tmp_path / f"{game}.pdf"))
    for page in card_pages(pdf):
        placed = origins(page)
        xs = sorted({round(x, 1) for x, _ in placed})
        ys = sorted({round(y, 1) for _, y in placed})
        size = next(s for s in SIZES.values() if len(xs) < 2 or abs(xs[1] - xs[0] - s[0] * MM) < 0.2)
        cuts_x = {round(v, 1) for x in xs for v in (x, x + size[0] * MM)}
        cuts_y = {round(v, 1) for y in ys for v in (y, y + size[1] * MM)}
        for left, bottom, right, top in marks(page):
            if right - left < 1:  # a vertical mark
                assert any(abs((left + right) / 2 - v) < 0.2 for v in cuts_x), (game, left / MM)
            else:
                assert any(abs((bottom + top) / 2 - v) < 0.2 for v in cuts_y), (game, bottom / MM)
