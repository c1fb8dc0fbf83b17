"""Vector icons drawn by our code: shapes for stones, gems, colours and suits. Never colour alone: each shape
is distinct and may carry a letter."""
from __future__ import annotations

import math

from reportlab.lib.colors import HexColor, white

from ..look import RAINBOW, Icon


def _polygon(c, cx, cy, r, points, start=90.0):
    path = c.beginPath()
    for i in range(points):
        a = math.radians(start + 360.0 * i / points)
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        path.moveTo(x, y) if i == 0 else path.lineTo(x, y)
    path.close()
    return path


def _star(c, cx, cy, r, points=5, inner=0.45):
    path = c.beginPath()
    for i in range(points * 2):
        a = math.radians(90 + 180.0 * i / points)
        rr = r if i % 2 == 0 else r * inner
        x, y = cx + rr * math.cos(a), cy + rr * math.sin(a)
        path.moveTo(x, y) if i == 0 else path.lineTo(x, y)
    path.close()
    return path


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
    path.moveTo(cx - 0.1 * r, cy)
    path.lineTo(cx + 0.1 * r, cy)
    path.lineTo(cx + 0.35 * r, cy - r)
    path.lineTo(cx - 0.35 * r, cy - r)
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


def draw_icon(c, icon: Icon, cx: float, cy: float, r: float, font: str = "NotoSerif-Bold", outline_only: bool = False) -> None:
    """Draw one icon centred at (cx, cy), about 2r wide, in points; outline_only draws its shape in a line of its
    colour (or dark, for a light colour) with no fill, to save ink."""
    c.saveState()
    c.setLineWidth(max(0.4, r * 0.07))
    c.setStrokeColor(HexColor(icon.outline))
    if outline_only:
        colour = icon.fill if icon.fill.startswith("#") and not _is_light(icon.fill) else icon.outline
        c.setStrokeColor(HexColor(colour))
        c.setLineWidth(max(0.6, r * 0.1))
        c.drawPath(SHAPES[icon.shape](c, cx, cy, r), stroke=1, fill=0)
        c.restoreState()
        return
    if icon.fill == RAINBOW:  # the Duquesa's rainbow stone: rings of colour
        for i, colour in enumerate(RAINBOW_RINGS):
            c.setFillColor(HexColor(colour))
            c.circle(cx, cy, r * (1 - i / len(RAINBOW_RINGS)), stroke=0, fill=1)
        c.circle(cx, cy, r, stroke=1, fill=0)
    else:
        c.setFillColor(HexColor(icon.fill))
        c.drawPath(SHAPES[icon.shape](c, cx, cy, r), stroke=1, fill=1)
    if icon.letter:
        size = r * (0.95 if len(icon.letter) == 1 else 0.7)
        c.setFont(font, size)
        dark = _is_light(icon.fill)
        c.setFillColor(HexColor("#1d1d1d") if dark else white)
        c.drawCentredString(cx, cy - size * 0.36, icon.letter)
    c.restoreState()


def _is_light(hex_colour: str) -> bool:
    if not hex_colour.startswith("#"):
        return True
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b > 150
