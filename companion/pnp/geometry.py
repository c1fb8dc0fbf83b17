"""Page layouts in millimetres: card slots, bleed, crop marks, mirrored backs. Pure arithmetic, no drawing."""
from __future__ import annotations

from dataclasses import dataclass
from math import floor

from ..components import CARD_SIZES, SIZES

MM = 72 / 25.4  # points per millimetre
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MAX_BLEED = 3.0
PRINTER_MARGIN = 5.0  # home printers lose up to ~4.2 mm of the edge: no mark, card or bleed comes closer
MARK_START = PRINTER_MARGIN + 0.15  # where a mark's line ends, so its ink (0.3 pt wide) starts past 5 mm
MARK_GAP = 0.5  # crop marks stop this far outside the bleed area, or less where the margin is tight
MIN_MARK = 1.0  # and are at least this long: the layout keeps room for them on every side
MAX_MARK = 6.0  # and at most this long (a sheet half empty gets short marks, not lines across it)
FOLD_GAP = 8.0  # gutterfold: space between the front and back halves (for the fold), plus the bleeds


@dataclass(frozen=True)
class Rect:
    x: float  # left, from the page's left edge
    y: float  # bottom, from the page's bottom edge
    w: float
    h: float

    def grow(self, d: float) -> Rect:
        """The rectangle with `d` mm added on every side (a negative `d` takes it away)."""
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def overlaps(self, other: Rect) -> bool:
        return (self.x < other.x + other.w and other.x < self.x + self.w and
                self.y < other.y + other.h and other.y < self.y + self.h)


@dataclass(frozen=True)
class Layout:
    """Where the components of one size go on one page: fronts, their backs, and the crop marks."""

    page_w: float
    page_h: float
    trim: tuple[float, float]
    bleed: float
    fronts: tuple[Rect, ...]  # trim rectangles, top-left first, row by row
    backs: tuple[Rect, ...]  # the matching back of each front (same index)
    marks: tuple[tuple[float, float, float, float], ...]  # crop mark segments x1, y1, x2, y2
    gutterfold: bool = False
    fold_x: float | None = None

    @property
    def per_page(self) -> int:
        return len(self.fronts)

    def bounds(self, rects, grow: float = 0.0) -> Rect:
        """The smallest rectangle holding all of `rects`, each grown by `grow` mm first."""
        rs = [r.grow(grow) for r in rects]
        x0, y0 = min(r.x for r in rs), min(r.y for r in rs)
        return Rect(x0, y0, max(r.x + r.w for r in rs) - x0, max(r.y + r.h for r in rs) - y0)


class GeometryError(ValueError):
    pass


def _fit(space: float, size: float, gap: float) -> int:
    return max(0, floor((space + gap + 1e-9) / (size + gap)))


def crop_marks(rects: list[Rect], bleed: float, page_w: float, page_h: float) -> list[tuple]:
    """Short lines in the margins, in line with every cut, never over a card and clear of the page edge."""
    block = Rect(min(r.x for r in rects), min(r.y for r in rects), 0, 0)
    right = max(r.x + r.w for r in rects)
    top = max(r.y + r.h for r in rects)
    xs = sorted({round(v, 4) for r in rects for v in (r.x, r.x + r.w)})
    ys = sorted({round(v, 4) for r in rects for v in (r.y, r.y + r.h)})
    marks = []

    def gap(room: float) -> float:  # the mark keeps MIN_MARK; the gap gives way first
        return max(0.0, min(MARK_GAP, room - MARK_START - MIN_MARK))

    lo_y = block.y - bleed - gap(block.y - bleed)
    hi_y = top + bleed + gap(page_h - top - bleed)
    lo_x = block.x - bleed - gap(block.x - bleed)
    hi_x = right + bleed + gap(page_w - right - bleed)
    for x in xs:
        marks += [(x, max(MARK_START, lo_y - MAX_MARK), x, lo_y),
                  (x, hi_y, x, min(page_h - MARK_START, hi_y + MAX_MARK))]
    for y in ys:
        marks += [(max(MARK_START, lo_x - MAX_MARK), y, lo_x, y),
                  (hi_x, y, min(page_w - MARK_START, hi_x + MAX_MARK), y)]
    return marks


def problems(paper: str, size: str | None = None, bleed: float = 0.0, gutter: float = 0.0) -> list[tuple[str, str]]:
    """What is wrong with these settings, as (setting, message) pairs; the one check for layouts and builds."""
    out = []
    if paper not in PAPERS:
        out.append(("paper", f"unknown paper {paper!r}; expected one of: {', '.join(PAPERS)}"))
    if size is not None and size not in SIZES:
        out.append(("size", f"unknown card size {size!r}; expected one of: {', '.join(SIZES)}"))
    if not 0 <= bleed <= MAX_BLEED:
        out.append(("bleed", f"must be from 0 to {MAX_BLEED:g} mm, got {bleed:g}"))
    if not 0 <= gutter <= 20:
        out.append(("gutter", f"must be from 0 to 20 mm, got {gutter:g}"))
    return out


def layout(paper: str, size: str, bleed: float = 0.0, gutter: float = 0.0, offset: tuple[float, float] = (0.0, 0.0),
           gutterfold: bool = False) -> Layout:
    """Lay out as many cards of `size` as fit on `paper`, centred; backs mirrored for a long-edge flip
    (duplex) and moved by `offset` to correct a printer's misregistration, or beside the fronts (gutterfold)."""
    wrong = problems(paper, size, bleed, gutter)
    if wrong:
        setting, message = wrong[0]
        raise GeometryError(message if setting in ("paper", "size") else f"{setting} {message}")
    pw, ph = PAPERS[paper]
    if gutterfold:
        pw, ph = ph, pw  # landscape: fronts on the left half, backs on the right, fold down the middle
    tw, th = SIZES[size]
    gap = 2 * bleed + gutter  # each card keeps its own bleed
    edge = MARK_START + bleed + MIN_MARK  # kept free around the block on every side
    usable_w, usable_h = pw - 2 * edge, ph - 2 * edge
    rows = _fit(usable_h, th, gap)
    if gutterfold:
        cols = _fit((usable_w - FOLD_GAP) / 2 - bleed, tw, gap)  # each half: fold side keeps its bleed
    else:
        cols = _fit(usable_w, tw, gap)
    if not rows or not cols:
        raise GeometryError(f"a {size} card with {bleed:g} mm bleed does not fit on {paper}")
    block_h = rows * th + (rows - 1) * gap
    y_top = (ph + block_h) / 2
    if gutterfold:
        fold = pw / 2
        x0 = fold - FOLD_GAP / 2 - bleed - cols * tw - (cols - 1) * gap
    else:
        fold = None
        x0 = (pw - (cols * tw + (cols - 1) * gap)) / 2
    fronts = [Rect(x0 + c * (tw + gap), y_top - (r + 1) * th - r * gap, tw, th)
              for r in range(rows) for c in range(cols)]
    dx, dy = offset
    # Mirror about the page's vertical centre (long-edge flip) or the fold line: the same formula.
    backs = [Rect(pw - f.x - tw + (0 if gutterfold else dx), f.y + (0 if gutterfold else dy), tw, th) for f in fronts]
    marks = crop_marks(fronts + (backs if gutterfold else []), bleed, pw, ph)
    return Layout(pw, ph, (tw, th), bleed, tuple(fronts), tuple(backs), tuple(marks), gutterfold, fold)


CARD_KINDS = ("card", "reference")  # the components a --card-size prints at its size, and whose cut may be round


def cut_radius(card_set, c, size: str) -> float:
    """The radius (mm) of the cut's corners of a component printed at `size`: the file's `corner_radius` for cards,
    reference cards and their backs (at most a third of the short side of a size --card-size prints them at);
    0 for tiles, tokens and markers. (The print's cut, and the phone's face of the card.)"""
    if c.kind not in (*CARD_KINDS, "back") or size not in CARD_SIZES:
        return 0.0
    return min(card_set.design.corner_radius, min(SIZES[size]) / 3)
