"""What the drawing of every face shares: QR codes as vector paths, fitted text, a playing card's pips and a price
track (the `pips` and `track` layout elements), the colours of ink and paper, and the project's font (Noto Serif,
from font.py). Faces themselves are drawn from layouts (companion/pnp/layout.py)."""
from __future__ import annotations

from functools import lru_cache

import qrcode
from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.pathobject import PDFPathObject

from . import qrmask
from .font import BOLD, FONT, FONT_DIR, FONT_FILES, ITALIC, register_fonts  # noqa: F401 (the print's font, named here too)
from .geometry import MM
from .icons import draw_icon

QR_MODULE_MM = 0.7  # what a phone reads at arm's length off a home print: benchmarks/bench_qr.py (0.5 mm: 59 %)
QR_QUIET = 4  # modules of white around the code
QR_LEVEL = qrcode.constants.ERROR_CORRECT_M  # what sets a game's version: its longest address at level M
# A code is then printed at the highest level its version still holds (Q or H for a short address): the same
# size, and more of it may be lost. With a lamp's reflection on each code (a spot half its side across), the cards
# of the shipped game with the longest addresses read 34/40 so, 31/40 all at M, 2/40 at L; H for all needs version
# 4, whose smaller modules lose the blurred photos (benchmarks/bench_print_codes.py, issue 28).
QR_LEVELS = (qrcode.constants.ERROR_CORRECT_H, qrcode.constants.ERROR_CORRECT_Q)
SAFE_MM = 25.4 / 8  # the 1/8 inch inside the cut where uneven cutting shows: no frame or mark in it
FRAME_INSET_MM = 3.6  # a front's frame: its line's outer edge stays inside the safe zone
INK = HexColor("#1d1d1d")
PAPER = HexColor("#fbf7ee")
ID_INK = HexColor("#77706a")  # a quiet grey for printed ids


def mix(a, b, t: float) -> Color:
    """An opaque colour t of the way from b to a: it looks like a over b at opacity t, needs no transparency
    (which form XObjects would need resources for), and prints the same everywhere."""
    return Color(a.red * t + b.red * (1 - t), a.green * t + b.green * (1 - t), a.blue * t + b.blue * (1 - t))


def qr_version(texts) -> int:
    """The lowest QR version that holds every one of `texts` (so every card of a game has codes of one size)."""
    return max((_lowest_version(text) for text in texts), default=1)


@lru_cache(maxsize=4096)
def _lowest_version(text: str) -> int:
    code = qrcode.QRCode(error_correction=QR_LEVEL, border=0)
    code.add_data(text)
    return code.best_fit()  # the version alone, without laying out and masking the code


def _highest_level(text: str, version: int) -> int:
    """The highest error correction at which `text` fits in `version` (QR_LEVEL, which set the version, at least)."""
    for level in QR_LEVELS:
        code = qrcode.QRCode(error_correction=level, border=0)
        code.add_data(text)
        if code.best_fit() <= version:
            return level
    return QR_LEVEL


@lru_cache(maxsize=4096)
def qr_runs(text: str, version: int | None = None) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """The QR matrix of `text` (at `version`, or the lowest that fits at QR_LEVEL; at the highest error correction
    that version holds) as (size, runs): each run is (row, first column, length) of dark modules. Upper-case URLs
    use QR's compact alphanumeric mode automatically."""
    version = version or _lowest_version(text)
    matrix = qrmask.make(text, version, _highest_level(text, version))  # qrcode's code, its mask found faster
    runs = []
    for r, row in enumerate(matrix):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                runs.append((r, start, c - start))
            else:
                c += 1
    return len(matrix), tuple(runs)


def draw_qr(c, text: str, x: float, y: float, width: float, version: int | None = None, plate: bool = True) -> float:
    """Draw a QR code whose modules span `width` points, bottom-left at (x, y), its quiet zone on a white plate
    (or, with plate=False on a light face, on the face itself, which must leave the quiet zone empty).
    All dark modules go into one path, merged into horizontal runs, in modules (whole numbers, scaled to `width`).
    Returns the outer size with the quiet zone."""
    size, runs = qr_runs(text, version)
    module = width / size
    quiet = QR_QUIET * module
    c.saveState()
    if plate:
        c.setFillColor(white)
        c.roundRect(x - quiet, y - quiet, width + 2 * quiet, width + 2 * quiet, quiet / 2, stroke=0, fill=1)
    c.setFillColor(INK)
    c.translate(x, y)
    c.scale(module, module)
    c.drawPath(PDFPathObject([qr_path(size, runs)]), stroke=0, fill=1)
    c.restoreState()
    return width + 2 * quiet


@lru_cache(maxsize=4096)
def qr_path(size: int, runs: tuple[tuple[int, int, int], ...]) -> str:
    """A code's dark modules as PDF path operators, one module a unit, (0, 0) its bottom left."""
    return " ".join(f"{col} {size - 1 - row} {length} 1 re" for row, col, length in runs)


def fit_text(c, text: str, width: float, height: float, top: float, left: float, size: float,
             min_size: float = 5.0, align: int = 0) -> float:
    """Draw a wrapped text in our body font in the box below `top` (lines 1.22 apart), shrinking it until it fits
    (never below `min_size`); `align` 0 left, 1 centred, 2 right. Returns its height. (Fitted as a face's texts
    are, by textfit: the cover needs no platypus, which costs a cold build a tenth of its time to import.)"""
    from ..layouts import Run
    from . import textfit

    laid = textfit.fit([[Run(" ".join(text.split()))]], lambda b, i: FONT, size, min(min_size, size), width, height,
                       1.22)
    c.saveState()
    c.setFillColor(INK)
    c.setFont(FONT, laid.size)
    for n, (line, line_width) in enumerate(zip(laid.lines, laid.widths, strict=True)):
        x = left + (0, (width - line_width) / 2, width - line_width)[align]
        baseline = top - laid.size - n * laid.leading
        for piece in line:
            c.drawString(x + piece.x, baseline, piece.run.text)
    c.restoreState()
    return laid.leading * len(laid.lines)


def fit_line(c, text: str, font: str, size: float, max_width: float) -> float:
    """A font size at most `size` at which `text` fits in `max_width`."""
    width = pdfmetrics.stringWidth(text, font, size)
    return size if width <= max_width else max(4.0, size * max_width / width)


# A playing card's pips, as (column, row): column 0 left, 1 middle, 2 right; row 0 top to 1 bottom. Pips below the
# middle are printed upside down, as on a French deck, so the card reads the same either way up.
PIPS = {
    2: ((1, 0), (1, 1)),
    3: ((1, 0), (1, 0.5), (1, 1)),
    4: ((0, 0), (2, 0), (0, 1), (2, 1)),
    5: ((0, 0), (2, 0), (1, 0.5), (0, 1), (2, 1)),
    6: ((0, 0), (2, 0), (0, 0.5), (2, 0.5), (0, 1), (2, 1)),
    7: ((0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (0, 1), (2, 1)),
    8: ((0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (1, 0.75), (0, 1), (2, 1)),
    9: ((0, 0), (2, 0), (0, 1 / 3), (2, 1 / 3), (1, 0.5), (0, 2 / 3), (2, 2 / 3), (0, 1), (2, 1)),
    10: ((0, 0), (2, 0), (1, 1 / 6), (0, 1 / 3), (2, 1 / 3), (0, 2 / 3), (2, 2 / 3), (1, 5 / 6), (0, 1), (2, 1)),
}


def _pips(c, icons, x, y, w, h) -> None:
    """A number card's pips in the traditional layout for their count (an ace: one large pip)."""
    n = len(icons)
    if not n or h <= 0:
        return
    if n not in PIPS:  # an ace, or a count no deck lays out: one pip
        draw_icon(c, icons[0], x + w / 2, y + h / 2, min(w, h) * 0.3)
        return
    r = min(w / 7.5, h / (9.5 if n >= 9 else 8.0))
    left, right = x + w / 2 - min(w / 2 - r * 1.3, r * 3.2), x + w / 2 + min(w / 2 - r * 1.3, r * 3.2)
    top, bottom = y + h - r * 1.15, y + r * 1.15
    for icon, (col, row) in zip(icons, PIPS[n], strict=True):
        px = (left, x + w / 2, right)[col]
        py = top - row * (top - bottom)
        if row > 0.5:  # the lower half reversed
            c.saveState()
            c.translate(px, py)
            c.rotate(180)
            draw_icon(c, icon, 0, 0, r)
            c.restoreState()
        else:
            draw_icon(c, icon, px, py, r)


TRACK_STEP_MM, TRACK_R_MM = 9.0, 3.3  # a price track's steps: an 8 mm marker covers one circle and no other


def _price_track(c, track, cx, y, h, accent, fill=None, ink=None):
    """Price steps down the right edge, centred on `cx`: circles 6.6 mm wide, 9 mm apart (or closer if the card
    is short), each as big as the marker that sits on it; in `fill` (white) with prices in `ink`."""
    step = min(TRACK_STEP_MM * MM, h / max(len(track), 1))
    r = min(TRACK_R_MM * MM, step * 0.42)
    for i, price in enumerate(track):
        cy = y + h - (i + 0.5) * step
        c.setFillColor((fill or white) if price != "×" else HexColor("#f3d6d6"))
        c.setStrokeColor(accent)
        c.circle(cx, cy, r, stroke=1, fill=1)
        c.setFillColor((ink or INK) if price != "×" else HexColor("#a12a2a"))
        c.setFont(BOLD, 8.5)
        c.drawCentredString(cx, cy - 3.0, price)


LOW_INK_TINT = 0.10  # --ink low: a back is its accent at a tenth, its pattern and emblem drawn in lines
