"""Reference cards: their text as a bulleted list at 8 pt or more, flowing beside the QR code, under their art."""
from __future__ import annotations

import io
import re
from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import Frame, Paragraph

from ..look import Face
from . import art
from .geometry import MM

LIST_SIZE, LIST_MIN = 8.6, 8.0  # points: reference cards stay readable across the table


def list_items(text: str) -> list[tuple[int, str]]:
    """A reference text as list items (level, text): one a sentence; a sentence of four or more clauses split at
    its semicolons into sub-items under its first."""
    out = []
    for sentence in re.split(r"(?<=\.)\s+(?=\S)", text.strip()):
        clauses = sentence.split("; ")
        if len(clauses) >= 4:
            out.append((0, clauses[0]))
            out += [(1, clause) for clause in clauses[1:]]
        else:
            out.append((0, sentence))
    return out


def _story(items: list[tuple[int, str]], s: float) -> list:
    from .draw import FONT, INK

    out = []
    for level, text in items:
        style = ParagraphStyle("li", fontName=FONT, fontSize=s, leading=s * 1.18, textColor=INK,
                               leftIndent=(6 + 7 * level) * s / 8, bulletIndent=7 * level * s / 8,
                               spaceAfter=s * 0.15, bulletFontName=FONT, bulletFontSize=s)
        out.append(Paragraph(escape(text), style, bulletText="•" if level == 0 else "–"))
    return out


def _flow(canvas, items, frames, s: float) -> bool:
    """Set the items at `s` points through the frames; whether all of them went in."""
    flow = _story(items, s)
    for fx, fy, fw, fh in frames:
        if fw <= 0 or fh <= 0:
            continue
        frame = Frame(fx, fy, fw, fh, 0, 0, 0, 0)
        while flow:  # an item that does not fit whole goes on in the next frame
            if frame.add(flow[0], canvas, trySplit=1):
                flow.pop(0)
                continue
            parts = frame.split(flow[0], canvas)
            if len(parts) < 2 or not frame.add(parts[0], canvas):
                break
            flow[0:1] = parts[1:]
    return not flow


def fits(items, frames, size: float) -> bool:
    return _flow(rl_canvas.Canvas(io.BytesIO()), items, frames, size)


def draw_list(c, items: list[tuple[int, str]], frames, size: float = LIST_SIZE) -> float:
    """Draw bulleted items through `frames` (x, y, w, h), largest size from `size` down to LIST_MIN that fits
    (at LIST_MIN the rest is cut rather than shrunk below it); returns the size used."""
    while size > LIST_MIN and not fits(items, frames, size):
        size = max(LIST_MIN, size - 0.2)
    _flow(c, items, frames, size)
    return size


ART_MAX, ART_MIN = 0.6, 11.0  # a reference card's art: at most 0.6 of its window, at least 11 mm, or none


def _largest(sizes: list[float], ok) -> float:
    """The largest of `sizes` (largest first) for which ok() holds, ok() holding for every size below one that
    passes: a binary search, each try a trial setting of the list. 0.0 if none."""
    lo, hi = 0, len(sizes) - 1  # sizes[hi] is the smallest
    if not sizes or not ok(sizes[hi]):
        return 0.0
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(sizes[mid]):
            hi = mid
        else:
            lo = mid + 1
    return sizes[lo]


def reference(c, face: Face, bx, by, bw, bh, fy, qr_left, window: float, k: float) -> None:
    """A reference card's body: its art (if any) above the list, or in the top right corner with the list running
    beside it, then the list on beside the QR code. The first that lets the list keep its size wins, the art as
    large as it can be: centred above, then in the corner, then the same at the list's smallest size (the art at
    least 11 mm), else the art is left off."""
    items = list_items(face.text)
    left = bx + 1 * MM

    def frames(side: float, corner: bool) -> list:
        below = bh - (side + 1.5 * MM if side else 0)
        out = [(left, by + below, bw - 2 * MM - side - 1.5 * MM, side + 1.5 * MM)] if side and corner else []
        if qr_left is None:
            return out + [(left, fy + 4 * MM, bw - 2 * MM, by + below - fy - 4 * MM)]
        beside = qr_left - bx - 2.5 * MM  # the column beside the code: none where only a word a line would fit
        return out + [(left, by, bw - 2 * MM, below)] + ([(left, fy + 4 * MM, beside, by - fy - 4 * MM)]
                                                         if beside >= 15 * MM else [])

    side, corner = 0.0, False
    if face.art:
        largest, smallest = min(window * ART_MAX, bh * 0.45), ART_MIN * MM * k
        sizes = [largest - i * 1.5 * MM for i in range(int((largest - smallest) / (1.5 * MM)) + 1)]
        for size in (LIST_SIZE, LIST_MIN):
            for at in (False, True):
                side = _largest(sizes, lambda s: fits(items, frames(s, at), size))
                if side:
                    corner = at
                    break
            if side:
                break
    if side:
        x = bx + bw - side if corner else bx + (bw - side) / 2
        art.place(c, face.art, x, by + bh - side, side, side, window_pt=window)
    draw_list(c, items, frames(side, corner))
