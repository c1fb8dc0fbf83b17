"""The printed cards' icons for the web, drawn by the same shape code as the PDFs: one stylesheet per game with
a class per icon (`<i class="i i-star">`), each an SVG data URI, so a page of 70 cards stays small; and the
game's accent colour."""
from __future__ import annotations

from functools import lru_cache
from html import escape
from urllib.parse import quote

from markupsafe import Markup

from ...look import RAINBOW, Icon, Look
from ...pnp.icons import RAINBOW_RINGS, SHAPES, _is_light

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
    if icon.fill == RAINBOW:
        rings = "".join(f'<circle r="{R * (1 - i / len(RAINBOW_RINGS)):.2f}" fill="{c}"/>'
                        for i, c in enumerate(RAINBOW_RINGS))
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


def svg(icon: Icon) -> str:
    """One icon as a standalone SVG document (24 × 24, centred on the origin)."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-12 -12 24 24">{icon_svg(icon)}</svg>'


def inline_svg(icon: Icon) -> Markup:
    """An icon drawn in the page itself (a card's face on its rules page), as the print draws it."""
    return Markup(f'<svg class="icon" viewBox="-12 -12 24 24" role="img" aria-hidden="true">{icon_svg(icon)}</svg>')


def face_rules(drawn: dict[str, tuple[Icon, ...]]) -> str:
    """One `.i-face-<card id>` rule per card drawn by its face's own icons (`views.face_icons`): those icons side by
    side, as the print draws them, for a list of cards (the setup's) to show the card as it is printed."""
    rules = []
    for card_id, row in sorted(drawn.items()):
        body = "".join(f'<g transform="translate({24 * k} 0)">{icon_svg(i)}</g>' for k, i in enumerate(row))
        doc = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-12 -12 {24 * len(row)} 24">{body}</svg>'
        rules.append(f'.i-face-{card_id}{{background-image:url("data:image/svg+xml,{quote(doc, safe=" =:/-")}")'
                     + (f";width:{1.2 * len(row):g}em" if len(row) > 1 else "") + "}\n")
    return "".join(rules)


def stylesheet(look: Look) -> str:
    """A game's look as CSS: its accent colour for the page, and one `.i-NAME` rule per term drawn as an icon.
    (Cached by what it is made of: a designer's file read again with another look gets its own.)"""
    return _stylesheet(look.accent, tuple(look.icons().items()))


@lru_cache(maxsize=64)
def _stylesheet(accent: str, icons: tuple[tuple[str, Icon], ...]) -> str:
    rules = [f":root{{--accent:{accent}}}\n"]
    rules += [f'.i-{name}{{background-image:url("data:image/svg+xml,{quote(svg(icon), safe=" =:/-")}")}}\n'
              for name, icon in icons]
    return "".join(rules)
