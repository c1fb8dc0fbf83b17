"""The printed cards' icons for the web, drawn by the same shape code as the PDFs: one stylesheet per game with
a class per icon (`<i class="i i-ruby">`), each an SVG data URI, so a page of 70 cards stays small."""
from __future__ import annotations

from functools import cache
from html import escape
from urllib.parse import quote

from ..pnp import faces
from ..pnp.icons import RAINBOW, SHAPES, SUIT_COLOURS, SUIT_SHAPES, Icon, _is_light

R = 10.0  # icons are drawn in a 24 × 24 box centred on the origin


class _SvgPath:
    """Records the path calls the PDF shape functions make, as SVG path data (y flipped: SVG's y runs down)."""

    def __init__(self):
        self.parts: list[str] = []

    def beginPath(self):  # noqa: N802 (the reportlab canvas API the shape functions call)
        return self

    def _xy(self, *xy: float) -> str:
        return " ".join(f"{v if i % 2 == 0 else -v:.2f}" for i, v in enumerate(xy))

    def moveTo(self, x, y):  # noqa: N802
        self.parts.append("M" + self._xy(x, y))

    def lineTo(self, x, y):  # noqa: N802
        self.parts.append("L" + self._xy(x, y))

    def curveTo(self, *xy):  # noqa: N802
        self.parts.append("C" + self._xy(*xy))

    def close(self):
        self.parts.append("Z")

    def circle(self, x, y, r):
        self.parts.append(f"M{self._xy(x - r, y)}a{r:.2f} {r:.2f} 0 1 0 {2 * r:.2f} 0a{r:.2f} {r:.2f} 0 1 0 "
                          f"{-2 * r:.2f} 0Z")


def icon_svg(icon: Icon) -> str:
    """The SVG body of one icon (no <svg> wrapper)."""
    stroke = f'stroke="{icon.outline}" stroke-width="{R * 0.09:.2f}"'
    if icon.fill == "rainbow":
        rings = "".join(f'<circle r="{R * (1 - i / len(RAINBOW)):.2f}" fill="{c}"/>' for i, c in enumerate(RAINBOW))
        body = rings + f'<circle r="{R}" fill="none" {stroke}/>'
    else:
        rec = _SvgPath()
        SHAPES[icon.shape](rec, 0.0, 0.0, R)
        body = f'<path d="{"".join(rec.parts)}" fill="{icon.fill}" {stroke}/>'
    if icon.letter:
        ink = "#1d1d1d" if _is_light(icon.fill) else "#fff"
        body += (f'<text y="{R * 0.34:.2f}" text-anchor="middle" font-size="{R * 0.95:.1f}" font-weight="700" '
                 f'fill="{ink}">{escape(icon.letter)}</text>')
    return body


ICON_SETS = {
    "duquesa": {name: faces.stone(name) for name in faces.STONES},
    "queens-necklace": {name: Icon(*spec) for name, spec in faces.QN_GEMS.items()},
    "gemas": {name: Icon(*spec) for name, spec in faces.GEMAS.items()},
    "nobles": {suit: Icon(SUIT_SHAPES[suit], SUIT_COLOURS[suit]) for suit in SUIT_SHAPES},
}


def svg(icon: Icon) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-12 -12 24 24">{icon_svg(icon)}</svg>'


@cache
def stylesheet(game: str) -> str:
    """CSS with one `.i-NAME` rule per icon of `game` (empty for games without icons)."""
    return "".join(f'.i-{name}{{background-image:url("data:image/svg+xml,{quote(svg(icon), safe=" =:/-")}")}}\n'
                   for name, icon in ICON_SETS.get(game, {}).items())
