"""Drawing one component (a Face or a Back) into a rectangle of a reportlab canvas, and QR codes as vector paths."""
from __future__ import annotations

import io
import math
import re
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

import qrcode
from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import Frame, Paragraph

from ..components import SIZES
from ..look import Back, Face, art_window_mm
from . import art, lists
from .geometry import MM
from .icons import draw_icon

FONT, BOLD, ITALIC = "NotoSerif", "NotoSerif-Bold", "NotoSerif-Italic"
FONT_DIR = Path(__file__).resolve().parent / "fonts"  # Noto Serif, OFL 1.1 (fonts/OFL.txt), inside the wheel
FONT_FILES = {FONT: "NotoSerif-Regular.ttf", BOLD: "NotoSerif-Bold.ttf", ITALIC: "NotoSerif-Italic.ttf"}
QR_MODULE_MM = 0.7  # what a phone reads at arm's length off a home print: benchmarks/bench_qr.py (0.5 mm: 59 %)
QR_QUIET = 4  # modules of white around the code
QR_LEVEL = qrcode.constants.ERROR_CORRECT_M
SAFE_MM = 25.4 / 8  # the 1/8 inch inside the cut where uneven cutting shows: no frame or mark in it
FRAME_INSET_MM = 3.6  # a front's frame: its line's outer edge stays inside the safe zone
INK = HexColor("#1d1d1d")
PAPER = HexColor("#fbf7ee")
ID_INK = HexColor("#77706a")  # a quiet grey for printed ids


def mix(a, b, t: float) -> Color:
    """An opaque colour t of the way from b to a: it looks like a over b at opacity t, needs no transparency
    (which form XObjects would need resources for), and prints the same everywhere."""
    return Color(a.red * t + b.red * (1 - t), a.green * t + b.green * (1 - t), a.blue * t + b.blue * (1 - t))


def register_fonts() -> None:
    """Noto Serif, chosen for cards: a sturdy serif with a large x-height and lining figures that stays readable
    at 6-8 pt off a home printer, in regular, bold and italic. Its TTFs ship in the package (companion/pnp/fonts,
    OFL 1.1) and are embedded, subset, in every PDF: never a system font."""
    for name, file in FONT_FILES.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=ITALIC, boldItalic=BOLD)


def qr_version(texts) -> int:
    """The lowest QR version that holds every one of `texts` (so every card of a game has codes of one size)."""
    return max((_lowest_version(text) for text in texts), default=1)


@lru_cache(maxsize=4096)
def _lowest_version(text: str) -> int:
    code = qrcode.QRCode(error_correction=QR_LEVEL, border=0)
    code.add_data(text)
    return code.best_fit()  # the version alone, without laying out and masking the code


@lru_cache(maxsize=4096)
def qr_runs(text: str, version: int | None = None) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """The QR matrix of `text` (at `version`, or the lowest that fits) as (size, runs): each run is (row, first
    column, length) of dark modules. Upper-case URLs use QR's compact alphanumeric mode automatically."""
    code = qrcode.QRCode(version=version, error_correction=QR_LEVEL, border=0)
    code.add_data(text)
    code.make(fit=version is None)
    matrix = code.get_matrix()
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
    All dark modules go into one path, merged into horizontal runs. Returns the outer size with the quiet zone."""
    size, runs = qr_runs(text, version)
    module = width / size
    quiet = QR_QUIET * module
    c.saveState()
    if plate:
        c.setFillColor(white)
        c.roundRect(x - quiet, y - quiet, width + 2 * quiet, width + 2 * quiet, quiet / 2, stroke=0, fill=1)
    c.setFillColor(INK)
    path = c.beginPath()
    for row, col, length in runs:
        path.rect(x + col * module, y + width - (row + 1) * module, length * module, module)
    c.drawPath(path, stroke=0, fill=1)
    c.restoreState()
    return width + 2 * quiet


def _paragraph(text: str, size: float, align: int = 0) -> Paragraph:
    """Our body text at `size` points: the card face, 1.22 leading."""
    style = ParagraphStyle("t", fontName=FONT, fontSize=size, leading=size * 1.22, textColor=INK, alignment=align)
    return Paragraph(escape(text), style)


def fit_text(c, text: str, width: float, height: float, top: float, left: float, size: float,
             min_size: float = 5.0, align: int = 0) -> float:
    """Draw a wrapped paragraph in the box below `top`, shrinking the font until it fits; returns its height."""
    while True:
        para = _paragraph(text, size, align)
        _, h = para.wrap(width, height)
        if h <= height or size <= min_size:
            para.drawOn(c, left, top - h)
            return h
        size -= 0.25


def fit_line(c, text: str, font: str, size: float, max_width: float) -> float:
    """A font size at most `size` at which `text` fits in `max_width`."""
    width = pdfmetrics.stringWidth(text, font, size)
    return size if width <= max_width else max(4.0, size * max_width / width)


def _is_light_colour(hex_colour: str) -> bool:
    """Light enough for a QR code's dark modules to sit on it (a cream card, a pale tile)."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b >= 225


def _icon_grid(c, icons, captions, x, y, w, h, k):
    n = len(icons)
    if not n or h <= 0:
        return
    cols = 1 if n == 1 else 2 if n <= 4 else 3
    rows = math.ceil(n / cols)
    caption_h = 3.6 * MM * k if captions else 0
    cell_w, cell_h = w / cols, h / rows
    r = max(2.0, min(cell_w * 0.34, (cell_h - caption_h) * 0.36, 13 * MM * k))
    for i, icon in enumerate(icons):
        row, col = divmod(i, cols)
        in_row = min(cols, n - row * cols)
        cx = x + (w - in_row * cell_w) / 2 + (col + 0.5) * cell_w
        cy = y + h - (row + 0.5) * cell_h + caption_h / 2
        draw_icon(c, icon, cx, cy, r)
        if captions and i < len(captions):
            size = fit_line(c, captions[i], FONT, max(6.2 * k, TEXT_MIN), cell_w - 2)
            c.setFont(FONT, size)
            c.setFillColor(INK)
            c.drawCentredString(cx, cy - r * 1.25 - size, captions[i])


def _scale(w: float, h: float) -> float:
    """How much a component is larger or smaller than a poker card (faces are designed at poker size)."""
    return min(w / (SIZES["poker"][0] * MM), h / (SIZES["poker"][1] * MM))


def draw_face(c, face: Face, x: float, y: float, w: float, h: float, bleed: float, card_id: str,
              qr_text: str | None, qr_version: int | None = None, low_ink: bool = False) -> None:
    """One card, tile or token front inside its trim rectangle (points); the background runs into the bleed.
    With low_ink the header band is an outline with the title in the accent (art and values keep their colours)."""
    k = _scale(w, h)
    compact = h < 60 * MM
    accent = HexColor(face.accent)
    c.saveState()
    c.setFillColor(HexColor(face.background))
    c.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    if h < 15 * MM:  # a marker: its colour to the cut and its id, tiny
        _quiet_id(c, card_id, x + w / 2, y + h / 2 - 1.1, w - 1 * MM, 3.2)
        c.restoreState()
        return
    if h < 30 * MM:  # a token: a round piece with its art and id, nothing else fits
        _token(c, face, x, y, w, h, accent, card_id)
        c.restoreState()
        return
    inset = FRAME_INSET_MM * MM
    fx, fy, fw, fh = x + inset, y + inset, w - 2 * inset, h - 2 * inset
    header_h = (6.0 if compact else 8.5) * MM * max(k, 0.7)
    if low_ink:  # the band as a line under the title
        c.setStrokeColor(accent)
        c.setLineWidth(1.1)
        c.line(fx, fy + fh - header_h, fx + fw, fy + fh - header_h)
    else:
        c.setFillColor(accent)
        c.roundRect(fx, fy + fh - header_h, fw, header_h, 1.6 * MM, stroke=0, fill=1)
        c.rect(fx, fy + fh - header_h, fw, header_h / 2, stroke=0, fill=1)
    tag_room = header_h if face.tag else 0
    size = fit_line(c, face.title, BOLD, (9.5 if not compact else 7.5) * max(k, 0.8), fw - 4 * MM - tag_room)
    c.setFillColor(accent if low_ink else white)
    c.setFont(BOLD, size)
    c.drawCentredString(fx + (fw - tag_room) / 2, fy + fh - header_h / 2 - size * 0.35, face.title)
    if face.tag:
        tx, ty = fx + fw - header_h / 2, fy + fh - header_h / 2
        c.setFillColor(white)
        c.setStrokeColor(accent)
        c.setLineWidth(0.8)
        c.circle(tx, ty, header_h * 0.32, stroke=1 if low_ink else 0, fill=1)
        c.setFillColor(accent)
        c.setFont(BOLD, header_h * 0.42)
        c.drawCentredString(tx, ty - header_h * 0.15, face.tag)
    c.setStrokeColor(accent)
    c.setLineWidth(1.1)
    c.roundRect(fx, fy, fw, fh, 1.6 * MM, stroke=1, fill=0)

    # Footer: the id small and grey on the left; the QR code on the right, or between the two indices of a card
    # held in a fan. On a light face the code sits on the face itself: no white square.
    footer_h = 4.5 * MM * max(k, 0.7)
    id_room = fw - 3 * MM
    qr_left = None
    if qr_text:
        module = QR_MODULE_MM * MM
        qr_w = qr_runs(qr_text, qr_version)[0] * module
        quiet = QR_QUIET * module
        outer = qr_w + 2 * quiet
        # Centred between two indices, 1 mm higher (through tests/camera.py: 416/417 codes decode over three
        # seeds; 414/417 at the height of a corner code, noise-level either way).
        ox = fx + (fw - outer) / 2 if face.corner_twice else fx + fw - outer - 0.8 * MM
        oy = fy + (1.8 if face.corner_twice else 0.8) * MM
        draw_qr(c, qr_text, ox + quiet, oy + quiet, qr_w, qr_version, plate=not _is_light_colour(face.background))
        footer_h = oy - fy + outer + 0.4 * MM
        id_room = ox - fx - 1.6 * MM + quiet - 1 * MM  # the id may run into the quiet zone's light, not the code
        qr_left = ox
    _quiet_id(c, card_id, fx + 1.6 * MM, fy + 1.6 * MM, id_room, 5.0, centred=False)

    # Body between the header and the footer; a price track takes the right edge.
    bx, by, bw, bh = fx + 1.5 * MM, fy + footer_h, fw - 3 * MM, fh - header_h - footer_h - 1 * MM
    if face.track:
        _price_track(c, face.track, fx + fw - 1.1 * MM - TRACK_R_MM * MM, by, bh + 1 * MM, accent)
        bw -= 2 * TRACK_R_MM * MM + 1.6 * MM
    top = by + bh
    if face.corner:
        _index(c, face, bx + 0.5 * MM, top, k)
        if face.corner_twice:  # the same index upside down in the opposite corner
            c.saveState()
            c.translate(x + w / 2, y + h / 2)
            c.rotate(180)
            c.translate(-(x + w / 2), -(y + h / 2))
            _index(c, face, bx + 0.5 * MM, top, k)
            c.restoreState()
        # the art keeps clear of the index column (of both, on a card with two)
        bx, bw = bx + 6 * MM * k, bw - (12 if face.corner_twice else 6) * MM * k
    if face.lower_label:
        panel_h = min(26 * MM * k, bh * 0.42)
        _panel(c, face, bx, by, bw, panel_h, k, accent)
        by += panel_h + 1.5 * MM
        bh -= panel_h + 1.5 * MM
    if face.listed and face.text:  # a reference card: its sentences as a list, beside the code where it runs long
        window = art_window_mm(w / MM, h / MM) * MM if face.art else 0.0
        lists.reference(c, face, bx, by, bw, bh, fy, qr_left, window, k)
        c.restoreState()
        return
    size = 7.6 * max(k, 0.8)
    needed = _paragraph(face.text, size).wrap(bw - 2 * MM, bh)[1] if face.text else 0.0
    picture = bool(face.art or face.icons or face.big)
    if face.text:  # the paragraph takes the bottom of the body: what it needs, or all of it on long texts
        box = min(needed + 2 * MM, max(bh * 0.5, bh - 12 * MM * k)) if picture else bh
        if picture and box < needed + 2 * MM:  # the picture yields before the text goes under 6 pt
            box = max(box, min(bh, _paragraph(face.text, TEXT_MIN).wrap(bw - 2 * MM, bh)[1] + 2 * MM))
        fit_text(c, face.text, bw - 2 * MM, box, by + box, bx + 1 * MM, size, align=1 if picture else 0,
                 min_size=TEXT_MIN if picture else 5.0)
        by, bh = by + box + 1 * MM, bh - box - 1 * MM
    if face.big:  # a large value above the picture, or alone in the middle
        big_h = min(bh * 0.3, 12 * MM * k) if face.art else bh * 0.45 if face.icons else bh
        size = fit_line(c, face.big, BOLD, min(big_h * 0.8, (26 if compact else 40) * k), bw)
        c.setFillColor(HexColor(face.big_colour) if face.big_colour else accent)
        c.setFont(BOLD, size)
        c.drawCentredString(bx + bw / 2, by + bh - big_h / 2 - size * 0.35, face.big)
        bh -= big_h
    if face.art:  # the designer's picture in the art window, for the icons (or a frame around them)
        window = art_window_mm(w / MM, h / MM) * MM
        side = max(0.0, min(bw, bh) if face.framed else min(bw, bh, window))
        ax, ay = bx + (bw - side) / 2, by + (bh - side) / 2
        if side >= 4 * MM:  # a card too small for its text and its picture keeps the text
            art.place(c, face.art, ax, ay, side, side, window_pt=window)
        if face.framed:
            _icon_grid(c, face.icons, face.captions, ax + side * 0.22, ay + side * 0.22, side * 0.56, side * 0.56, k)
    elif face.pips:
        _pips(c, face.icons, bx, by, bw, bh)
    else:
        _icon_grid(c, face.icons, face.captions, bx, by, bw, bh, k)
    c.restoreState()


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
    for icon, (col, row) in zip(icons, PIPS[n]):
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


def _index(c, face: Face, left: float, top: float, k: float) -> None:
    """A playing-card index: the rank, and the suit under it, in the suit's colour."""
    fill = face.corner_icon.fill if face.corner_icon else None
    c.setFillColor(HexColor(fill) if fill and fill.startswith("#") and not _is_light_colour(fill) else INK)
    c.setFont(BOLD, 11 * k)
    c.drawString(left, top - 11 * k, face.corner)
    if face.corner_icon:
        draw_icon(c, face.corner_icon, left + 2.1 * MM, top - 11 * k - 3.6 * MM, 2.2 * MM * k)


def _token(c, face: Face, x, y, w, h, accent, card_id: str) -> None:
    """A round piece: a ring inside the safe zone, its art, and its id small inside the ring's foot."""
    r = min(w, h) / 2
    ring = r - FRAME_INSET_MM * MM
    cx, cy = x + w / 2, y + h / 2
    c.setStrokeColor(accent)
    c.setLineWidth(0.8)
    c.circle(cx, cy, ring, stroke=1, fill=0)
    if face.art:
        side = art_window_mm(w / MM, h / MM) * MM
        art.place(c, face.art, cx - side / 2, cy + 1.3 * MM - side / 2, side, side, window_pt=side)
    elif face.icons:
        draw_icon(c, face.icons[0], cx, cy + 1.3 * MM, ring * 0.5)
    elif face.big:
        c.setFillColor(accent)
        c.setFont(BOLD, ring * 0.9)
        c.drawCentredString(cx, cy - ring * 0.15, face.big)
    _quiet_id(c, card_id, cx, cy - ring + 1.9 * MM, 2 * (ring ** 2 - (ring - 2.6 * MM) ** 2) ** 0.5 - 1 * MM, 3.6)


def _quiet_id(c, card_id: str, cx: float, baseline: float, max_width: float, size: float, centred: bool = True) -> None:
    """A component's printed id: small, grey, regular; what a player reads out to the phone, not a heading."""
    c.setFillColor(ID_INK)
    c.setFont(FONT, min(size, fit_line(c, card_id, FONT, size, max_width)))
    if centred:
        c.drawCentredString(cx, baseline, card_id)
    else:
        c.drawString(cx, baseline, card_id)


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


def _panel(c, face: Face, x, y, w, h, k, accent):
    c.setFillColor(mix(accent, HexColor(face.background), 0.10))
    c.setStrokeColor(accent)
    c.setLineWidth(0.8)
    c.roundRect(x, y, w, h, 2 * MM, stroke=1, fill=1)
    c.setFillColor(accent)
    label_size = fit_line(c, face.lower_label, ITALIC, max(7 * k, TEXT_MIN), w - 4 * MM)
    c.setFont(ITALIC, label_size)
    c.drawCentredString(x + w / 2, y + h - label_size - 1.2 * MM, face.lower_label)
    inner_h = h - label_size - 2.4 * MM
    if face.lower_value:
        value_w = 16 * MM * k
        n = len(face.lower_icons)
        r = min(3.6 * MM * k, (w - value_w - 4 * MM) / max(n, 1) / 2.3, inner_h * 0.35)
        start = x + 2 * MM + r
        for i, icon in enumerate(face.lower_icons):
            draw_icon(c, icon, start + i * 2.3 * r, y + inner_h / 2 + 0.5 * MM, r)
        c.setFillColor(accent)
        size = min(17 * k, inner_h * 0.7)
        c.setFont(BOLD, size)
        vx = x + w - value_w / 2 - 1.5 * MM
        c.drawCentredString(vx, y + inner_h / 2 - size * 0.1, face.lower_value)
        c.setFont(FONT, max(6 * k, TEXT_MIN))
        c.drawCentredString(vx, y + inner_h / 2 - size * 0.1 - max(6.5 * k, TEXT_MIN + 0.5), face.lower_unit or "")


TEXT_MIN = 6.0  # points: a face's text never goes smaller to make room for its picture
LOW_INK_TINT = 0.10  # --ink low: a back is its accent at a tenth, its pattern and emblem drawn in lines


def draw_back(c, back: Back, x: float, y: float, w: float, h: float, bleed: float, low_ink: bool = False) -> None:
    """A card back: the same for every card of a kind, so it gives nothing away."""
    k = _scale(w, h)
    accent = HexColor(back.accent)
    c.saveState()
    c.setFillColor(mix(accent, white, LOW_INK_TINT) if low_ink else accent)
    c.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    c.setStrokeColor(mix(accent, white, 0.28) if low_ink else mix(white, accent, 0.16))
    c.setLineWidth(0.6)
    step = 6 * MM * max(k, 0.5)
    p = c.beginPath()
    n = int((w + h + 2 * bleed) / step) + 2
    for i in range(-n, n):
        p.moveTo(x - bleed + i * step, y - bleed)
        p.lineTo(x - bleed + i * step + h + 2 * bleed, y + h + bleed)
        p.moveTo(x - bleed + i * step, y + h + bleed)
        p.lineTo(x - bleed + i * step + h + 2 * bleed, y - bleed)
    c.clipPath(_clip(c, x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed), stroke=0, fill=0)
    c.drawPath(p, stroke=1, fill=0)
    # No frame: a back is its pattern out to the cut and past it, so a duplex print a little off stays even.
    plate_h = 13 * MM * k
    c.setFillColor(HexColor("#fbf7ee"))
    c.setStrokeColor(accent)
    c.setLineWidth(0.8)
    c.roundRect(x + w * 0.12, y + h / 2 - plate_h / 2, w * 0.76, plate_h, 2 * MM, stroke=1 if low_ink else 0, fill=1)
    size = fit_line(c, back.title, BOLD, 10 * k, w * 0.7)
    c.setFillColor(accent)
    c.setFont(BOLD, size)
    c.drawCentredString(x + w / 2, y + h / 2 - size * 0.35, back.title)
    r = 4.2 * MM * k
    for row_y in (y + h / 2 + plate_h / 2 + 3 * r, y + h / 2 - plate_h / 2 - 3 * r):
        n = len(back.emblem)
        for i, icon in enumerate(back.emblem):
            draw_icon(c, icon, x + w / 2 + (i - (n - 1) / 2) * 2.6 * r, row_y, r, outline_only=low_ink)
    c.restoreState()


def _clip(c, x, y, w, h):
    p = c.beginPath()
    p.rect(x, y, w, h)
    return p
