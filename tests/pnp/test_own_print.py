"""Our own print (issue 39, item 9): each game's back its own composition, Nobles' suits apart for colour-blind
players, each court its own picture, and reference cards whose words fill the face."""
import io
import itertools
import math

import pypdfium2 as pdfium
import pytest
from PIL import ImageChops, ImageOps, ImageStat
from reportlab.pdfgen import canvas as rl_canvas

from companion import library
from companion.pnp import art, faces
from companion.pnp.geometry import SIZES
from helpers.pdf import chars, components, drawn, render_rgb

GAMES = ("duplicon", "duquesa", "gemas", "nobles", "queens-necklace")
# Machado et al. (2009) at full severity, on linear RGB
CVD = {"protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
       "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))}


def back_signature(game: str) -> list[float]:
    """A game's back in grey at 16 × 22 cells, centred and scaled to unit length: its composition."""
    card_set = library.load_game(game)
    comp = next(c for c in card_set.components if c.kind == "back")
    w, h = SIZES[card_set.card_size]
    image = render_rgb(lambda c, x, y, cw, ch, b: faces.paint_back(c, comp, card_set, "en", x, y, cw, ch, b),
                       w, h, 0, dpi=60)
    cells = list(ImageOps.grayscale(image).resize((16, 22)).tobytes())
    mean = sum(cells) / len(cells)
    norm = math.sqrt(sum((v - mean) ** 2 for v in cells))
    return [(v - mean) / norm for v in cells]


def test_no_two_games_backs_share_a_composition():
    signature = {game: back_signature(game) for game in GAMES}
    alike = {(a, b): round(sum(x * y for x, y in zip(signature[a], signature[b], strict=True)), 2)
             for a, b in itertools.combinations(GAMES, 2)}
    assert alike[("duquesa", "queens-necklace")] < 0.3, alike  # they were twins: 0.89
    assert alike[("gemas", "nobles")] < 0.5, alike  # both a centred medallion on a lattice: 0.69
    assert max(alike.values()) < 0.75, alike


def lab(hex_colour: str, matrix=None) -> tuple[float, float, float]:
    """CIELAB of a colour, as a colour-blind eye sees it when `matrix` is given."""
    rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    rgb = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
    if matrix:
        rgb = [min(max(sum(m * v for m, v in zip(row, rgb, strict=True)), 0), 1) for row in matrix]
    xyz = [sum(m * v for m, v in zip(row, rgb, strict=True)) for row in
           ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))]
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (xyz[0] / 0.9505, xyz[1], xyz[2] / 1.089)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


@pytest.mark.parametrize("eye", [None, "protan", "deutan"])
def test_nobles_four_suits_are_four_colours_apart_for_colour_blind_players(eye):
    terms = library.load_game("nobles").look.terms
    suits = ("hearts", "diamonds", "clubs", "spades")
    assert len({terms[s].shape for s in suits}) == 4  # and each its own shape
    seen = {s: lab(terms[s].colour, CVD.get(eye)) for s in suits}
    gaps = {(a, b): round(math.dist(seen[a], seen[b]), 1) for a, b in itertools.combinations(suits, 2)}
    assert min(gaps.values()) >= 30, gaps


def test_each_nobles_court_has_its_own_picture():
    courts = [c for c in library.load_game("nobles").components if c.type == "noble"]
    pictures = {c.id: open(c.art.path, "rb").read() for c in courts}
    assert len(courts) == 12 and len(set(pictures.values())) == 12


def turned_difference(path: str) -> float:
    """How far a picture is from itself turned 180°: the mean absolute difference of its grey pixels (0-255)."""
    info = art.inspect(path)
    scale = 100 / max(info.width, info.height)
    w, h = info.width * scale, info.height * scale
    buf = io.BytesIO()
    c = rl_canvas.Canvas(buf, pagesize=(w, h), invariant=1)
    art.place(c, path, 0, 0, w, h)
    c.showPage()
    c.save()
    grey = ImageOps.grayscale(pdfium.PdfDocument(buf.getvalue())[0].render(scale=2).to_pil().convert("RGB"))
    return ImageStat.Stat(ImageChops.difference(grey, grey.rotate(180))).mean[0]


def test_nobles_courts_are_double_ended_and_fill_their_window():
    """Each court is a published deck's: its figure drawn again turned 180° below a rule, so the card reads the same
    either way up, in a picture of the window's proportion (the layout's `fit: cover` crops nothing). Measured: the
    double-ended figures differ from themselves turned by 0.11-0.16; the single head-and-shoulders busts they replaced
    (square, transparent) by 72-94."""
    card_set = library.load_game("nobles")
    portrait = next(e for e in card_set.design.layouts["noble"] if e.name == "portrait").props["at"]
    for comp in (c for c in card_set.components if c.type == "noble"):
        info = art.inspect(comp.art.path)
        assert info.width / info.height == pytest.approx(portrait[2] / portrait[3], rel=0.01), (comp.id, info.size)
        assert turned_difference(comp.art.path) < 8, comp.id


def test_nobles_reference_words_fill_the_face_down_to_the_code():
    """The words fill the face down towards the code: their last line ends 60 % of the way down (bigger type; the
    v1 nobles' card ended at half its height, its lower third empty)."""
    for comp in components("nobles", ("reference",)):
        page, w, h = drawn("nobles", comp.id)
        body = [(size, bottom) for ch, size, left, bottom, right, top in chars(page) if size >= 8 and left < w - 1]
        lowest = min(bottom for size, bottom in body)
        assert h - lowest > 0.6 * h, (comp.id, round((h - lowest) / h, 2))
