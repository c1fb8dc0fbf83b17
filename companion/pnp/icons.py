"""Vector icons drawn by our code: shapes for stones, gems, colours and suits. Never colour alone: each shape
is distinct and may carry a letter. A gem's icon is drawn as a cut stone inside the same outline."""
from __future__ import annotations

import hashlib
import math

from reportlab.lib.colors import Color, HexColor, black, white
from reportlab.pdfgen.canvas import FILL_NON_ZERO

from ..look import RAINBOW, Icon


def _polygon_points(cx, cy, r, points, start=90.0):
    return [(cx + r * math.cos(math.radians(start + 360.0 * i / points)),
             cy + r * math.sin(math.radians(start + 360.0 * i / points))) for i in range(points)]


def _star_points(cx, cy, r, points=5, inner=0.45):
    out = []
    for i in range(points * 2):
        a = math.radians(90 + 180.0 * i / points)
        rr = r if i % 2 == 0 else r * inner
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def _path(c, points):
    path = c.beginPath()
    for i, (x, y) in enumerate(points):
        path.moveTo(x, y) if i == 0 else path.lineTo(x, y)
    path.close()
    return path


def _polygon(c, cx, cy, r, points, start=90.0):
    return _path(c, _polygon_points(cx, cy, r, points, start))


def _star(c, cx, cy, r, points=5, inner=0.45):
    return _path(c, _star_points(cx, cy, r, points, inner))


def _heart(c, cx, cy, r):
    path = c.beginPath()
    path.moveTo(cx, cy - r)
    path.curveTo(cx - 1.3 * r, cy - 0.1 * r, cx - 0.9 * r, cy + 1.05 * r, cx, cy + 0.45 * r)
    path.curveTo(cx + 0.9 * r, cy + 1.05 * r, cx + 1.3 * r, cy - 0.1 * r, cx, cy - r)
    path.close()
    return path


def _spade(c, cx, cy, r):
    path = c.beginPath()
    path.moveTo(cx, cy + r)
    path.curveTo(cx + 1.3 * r, cy + 0.1 * r, cx + 0.9 * r, cy - 1.0 * r, cx + 0.08 * r, cy - 0.35 * r)
    path.lineTo(cx + 0.35 * r, cy - r)
    path.lineTo(cx - 0.35 * r, cy - r)
    path.lineTo(cx - 0.08 * r, cy - 0.35 * r)
    path.curveTo(cx - 0.9 * r, cy - 1.0 * r, cx - 1.3 * r, cy + 0.1 * r, cx, cy + r)
    path.close()
    return path


def _club(c, cx, cy, r):
    path = c.beginPath()
    lobe = 0.42 * r
    for dx, dy in ((0, 0.5 * r), (-0.5 * r, -0.1 * r), (0.5 * r, -0.1 * r)):
        path.circle(cx + dx, cy + dy, lobe)
    # the stem runs up into the lobes (no gap between them) and turns the same way as the circles, so the
    # non-zero fill draw_icon uses fills their overlaps instead of cutting slivers out of them
    path.moveTo(cx - 0.1 * r, cy + 0.2 * r)
    path.lineTo(cx - 0.35 * r, cy - r)
    path.lineTo(cx + 0.35 * r, cy - r)
    path.lineTo(cx + 0.1 * r, cy + 0.2 * r)
    path.close()
    return path


def _cross(c, cx, cy, r):
    t = 0.36 * r
    path = c.beginPath()
    pts = [(-t, r), (t, r), (t, t), (r, t), (r, -t), (t, -t), (t, -r), (-t, -r), (-t, -t), (-r, -t), (-r, t), (-t, t)]
    for i, (x, y) in enumerate(pts):
        path.moveTo(cx + x, cy + y) if i == 0 else path.lineTo(cx + x, cy + y)
    path.close()
    return path


def _ingot(c, cx, cy, r):
    path = c.beginPath()
    path.moveTo(cx - r, cy - 0.5 * r)
    path.lineTo(cx + r, cy - 0.5 * r)
    path.lineTo(cx + 0.65 * r, cy + 0.5 * r)
    path.lineTo(cx - 0.65 * r, cy + 0.5 * r)
    path.close()
    return path


def _circle(c, cx, cy, r):
    path = c.beginPath()
    path.circle(cx, cy, r)
    return path


SHAPES = {
    "circle": _circle,
    "square": lambda c, cx, cy, r: _polygon(c, cx, cy, r * 1.2, 4, 45),
    "triangle": lambda c, cx, cy, r: _polygon(c, cx, cy - 0.15 * r, r * 1.2, 3, 90),
    "diamond": lambda c, cx, cy, r: _polygon(c, cx, cy, r * 1.15, 4, 90),
    "star": lambda c, cx, cy, r: _star(c, cx, cy, r * 1.15),
    "heart": _heart,
    "hexagon": lambda c, cx, cy, r: _polygon(c, cx, cy, r * 1.05, 6, 90),
    "octagon": lambda c, cx, cy, r: _polygon(c, cx, cy, r * 1.05, 8, 22.5),
    "cross": _cross,
    "spade": _spade,
    "club": _club,
    "ingot": _ingot,
    "burst": lambda c, cx, cy, r: _star(c, cx, cy, r * 1.2, 9, 0.6),
}
RAINBOW_RINGS = ("#e6194b", "#f58231", "#ffe119", "#3cb44b", "#4363d8", "#911eb4")

# The corners of each straight-sided shape as SHAPES draws it: a cut stone's facets run from them to its table.
CORNERS = {
    "square": lambda cx, cy, r: _polygon_points(cx, cy, r * 1.2, 4, 45),
    "triangle": lambda cx, cy, r: _polygon_points(cx, cy - 0.15 * r, r * 1.2, 3, 90),
    "diamond": lambda cx, cy, r: _polygon_points(cx, cy, r * 1.15, 4, 90),
    "star": lambda cx, cy, r: _star_points(cx, cy, r * 1.15),
    "hexagon": lambda cx, cy, r: _polygon_points(cx, cy, r * 1.05, 6, 90),
    "octagon": lambda cx, cy, r: _polygon_points(cx, cy, r * 1.05, 8, 22.5),
}
TABLE = 0.5  # a table facet's size against its stone


def _mix(a, b, t: float) -> Color:
    return Color(a.red * t + b.red * (1 - t), a.green * t + b.green * (1 - t), a.blue * t + b.blue * (1 - t))


def _luma(colour) -> float:
    return 255 * (0.299 * colour.red + 0.587 * colour.green + 0.114 * colour.blue)


def _cut(c, icon: Icon, cx: float, cy: float, r: float):
    """Facets inside a gem's outline (the outline itself unchanged, so shapes stay apart): a lighter table in the
    upper middle, lighter upper and darker lower crown facets from its corners to the stone's, and for a curved
    stone (heart, circle) a darker lower crescent and a glint. Returns the colour its letter sits on."""
    base = HexColor(icon.fill)
    light, lighter, dark = _mix(white, base, 0.22), _mix(white, base, 0.45), _mix(black, base, 0.28)
    line = _mix(black, base, 0.45)
    corners = CORNERS[icon.shape](cx, cy, r) if icon.shape in CORNERS else None
    tx, ty = cx, cy + 0.1 * r  # the table sits a little high: the stone is seen from above and in front
    c.saveState()
    c.setLineWidth(max(0.25, r * 0.035))
    c.setStrokeColor(line)
    if corners:
        table = [(tx + TABLE * (x - cx), ty + TABLE * (y - cy)) for x, y in corners]
        n = len(corners)
        for i in range(n):
            quad = [corners[i], corners[(i + 1) % n], table[(i + 1) % n], table[i]]
            mid_y = sum(y for _x, y in quad) / 4
            c.setFillColor(light if mid_y > ty + 0.05 * r else dark if mid_y < ty - 0.05 * r else base)
            c.drawPath(_path(c, quad), stroke=1, fill=1)
        c.setFillColor(lighter)
        c.drawPath(_path(c, table), stroke=1, fill=1)
    else:  # a curved stone: shade its lower part, then a table of its own shape and a glint
        c.clipPath(SHAPES[icon.shape](c, cx, cy, r), stroke=0, fill=0)
        c.setFillColor(dark)
        c.circle(cx + 0.15 * r, cy - 1.35 * r, 1.05 * r, stroke=0, fill=1)
        c.setFillColor(lighter)
        c.drawPath(SHAPES[icon.shape](c, tx, ty + 0.05 * r, r * TABLE), stroke=0, fill=1)
        c.setFillColor(_mix(white, base, 0.8))
        c.circle(cx - 0.38 * r, cy + 0.38 * r, 0.13 * r, stroke=0, fill=1)
    c.restoreState()
    return lighter


def draw_icon(c, icon: Icon, cx: float, cy: float, r: float, font: str = "NotoSerif-Bold",
              outline_only: bool = False) -> None:
    """Draw one icon centred at (cx, cy), about 2r wide, in points; outline_only draws its shape in a line of its
    colour (or dark, for a light colour) with no fill, to save ink. Each different icon (and size) is drawn once
    per document as a form XObject and placed wherever it recurs: a deck's pips and gems are a few dozen forms."""
    r = round(r, 2)
    key = repr((icon.shape, icon.fill, icon.letter, icon.outline, icon.gem, icon.art, r, font, outline_only))
    name = "I" + hashlib.sha1(key.encode()).hexdigest()[:14]
    if not c.hasForm(name):
        pad = 1.4 * r + 2
        c.beginForm(name, lowerx=-pad, lowery=-pad, upperx=pad, uppery=pad)
        paint_icon(c, icon, 0, 0, r, font, outline_only)
        c.endForm()
    c.saveState()
    c.translate(cx, cy)
    c.doForm(name)
    c.restoreState()


def paint_icon(c, icon: Icon, cx: float, cy: float, r: float, font: str = "NotoSerif-Bold",
               outline_only: bool = False) -> None:
    """Draw one icon's paths and letter centred at (cx, cy) (draw_icon places it as a form instead); an icon with
    a picture draws it fitted in a square 2.3 r wide (in outline, to save ink, its shape)."""
    if icon.art and not outline_only:
        from ..look import ART_WINDOW_MM
        from . import art
        from .geometry import MM

        side = 2.3 * r
        art.place(c, icon.art, cx - side / 2, cy - side / 2, side, side, window_pt=ART_WINDOW_MM * MM)
        return
    c.saveState()
    c.setLineWidth(max(0.4, r * 0.07))
    c.setStrokeColor(HexColor(icon.outline))
    if outline_only:
        colour = icon.fill if icon.fill.startswith("#") and not _is_light(icon.fill) else icon.outline
        c.setStrokeColor(HexColor(colour))
        c.setLineWidth(max(0.6, r * 0.1))
        c.drawPath(SHAPES[icon.shape](c, cx, cy, r), stroke=1, fill=0)
        if icon.gem and icon.shape in CORNERS:  # the table's outline: still a cut stone, in a line
            corners = CORNERS[icon.shape](cx, cy, r)
            c.setLineWidth(max(0.4, r * 0.05))
            c.drawPath(_path(c, [(cx + TABLE * (x - cx), cy + 0.1 * r + TABLE * (y - cy)) for x, y in corners]),
                       stroke=1, fill=0)
        c.restoreState()
        return
    under = None  # the colour the letter sits on, when not the fill
    if icon.fill == RAINBOW:  # a stone of every colour (a look's `rainbow` fill): rings of colour
        for i, colour in enumerate(RAINBOW_RINGS):
            c.setFillColor(HexColor(colour))
            c.circle(cx, cy, r * (1 - i / len(RAINBOW_RINGS)), stroke=0, fill=1)
        c.circle(cx, cy, r, stroke=1, fill=0)
    elif icon.gem:
        c.setFillColor(HexColor(icon.fill))
        c.drawPath(SHAPES[icon.shape](c, cx, cy, r), stroke=0, fill=1)
        under = _cut(c, icon, cx, cy, r)
        c.drawPath(SHAPES[icon.shape](c, cx, cy, r), stroke=1, fill=0)  # the outline over the facets' edges
    elif icon.shape == "club":  # overlapping lobes: the line drawn first at twice its width, the fill over its
        c.setFillColor(HexColor(icon.fill))  # inner half, so no line shows where the lobes meet
        c.setLineWidth(2 * max(0.4, r * 0.07))
        c.drawPath(SHAPES[icon.shape](c, cx, cy, r), stroke=1, fill=0)
        c.drawPath(SHAPES[icon.shape](c, cx, cy, r), stroke=0, fill=1, fillMode=FILL_NON_ZERO)
    else:
        c.setFillColor(HexColor(icon.fill))
        c.drawPath(SHAPES[icon.shape](c, cx, cy, r), stroke=1, fill=1, fillMode=FILL_NON_ZERO)
    if icon.letter:
        size = r * (0.95 if len(icon.letter) == 1 else 0.7)
        c.setFont(font, size)
        dark = _luma(under) > 150 if under is not None else _is_light(icon.fill)
        c.setFillColor(HexColor("#1d1d1d") if dark else white)
        c.drawCentredString(cx, cy - size * 0.36, icon.letter)
    c.restoreState()


def _is_light(hex_colour: str) -> bool:
    if not hex_colour.startswith("#"):
        return True
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b > 150
