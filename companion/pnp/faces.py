"""What each printed component shows: every front and back is drawn from a layout, the card data's own or, for a
file without `layouts:`, the defaults (layouts/default_layouts.yaml), through companion/pnp/layout.py. `face` and
`back` say in words what a component is (its title), for the phone's pages."""
from __future__ import annotations

import os
from dataclasses import replace

from .. import games
from ..cards import CardSet, Component
from ..components import SIZES
from ..layouts import sized
from ..look import Back, Face
from ..placeholders import values


def face(c: Component, s: CardSet, lang: str) -> Face:
    """The game's face, with the component's art file (if its data names one) in its art window; a reference
    card's text is printed as a list."""
    made = games.for_data(s.game).face(c, s, lang)
    if c.art is not None and made.art is None:
        made = replace(made, art=c.art.path)
    return replace(made, listed=True) if c.kind == "reference" and made.text else made


def back(c: Component, s: CardSet, lang: str) -> Back:
    """What a back shows: its name in `lang` (else the game's title), the game's accent colour and back emblem."""
    return Back(c.name_in(lang) or s.title.get(lang), s.look.accent, s.look.emblem)


def shown(c: Component, s: CardSet, lang: str, qr_text: str | None = None, qr_version: int | None = None,
          low_ink: bool = False):
    """What a layout draws this component from in `lang` (a `layout.Shown`): its values, the game's design and look."""
    from .layout import Shown

    return Shown(values(c, s, lang), lang, s.design, s.look, os.path.dirname(os.path.abspath(s.path)),
                 c.art.path if c.art else None, qr_text, qr_version, s.game, low_ink, c.kind == "back")


def front_layout(c: Component, s: CardSet, size: str | None = None):
    """The layout elements that draw this component's front printed at `size` (default: its own): its file's
    layout, or for a data-only file without layouts the default one for its kind and size, in its `-long` variant
    where its text does not fit the default's text box; None when its game draws faces by code."""
    size = size or c.size
    elements = s.design.layout_for(c.layout, c.type, c.kind, size)
    if elements is not None and s.design.layouts:  # made at its component's size: boxes in percent of that
        return sized(elements, SIZES[c.size])
    if elements is not None and _crowded(elements, c, s):
        return s.design.layout_for(c.layout, c.type, c.kind, size, long=True)
    return elements


def _crowded(elements, c: Component, s: CardSet) -> bool:
    """Whether the component's text, in either language, cannot fit a default layout's `text` element."""
    from ..layouts import Missing
    from . import layout

    for e in elements:
        if e.name != "text" or e.kind != "text":
            continue
        for lang in s.languages:
            try:
                if not layout.text_layout(e, shown(c, s, lang))[0].fits:
                    return True
            except Missing:
                pass
    return False


def size_of(c: Component, w: float, h: float) -> str:
    """The size name of a trim rectangle of w × h points (the component's own when it is printed at it)."""
    if _same(SIZES[c.size], w, h):
        return c.size
    return next((name for name, (sw, sh) in SIZES.items() if _same((sw, sh), w, h)), c.size)


def _same(size_mm, w: float, h: float) -> bool:
    from .geometry import MM

    return abs(size_mm[0] * MM - w) < 0.2 and abs(size_mm[1] * MM - h) < 0.2


def paint_front(canvas, c: Component, s: CardSet, lang: str, x: float, y: float, w: float, h: float, bleed: float,
                qr_text: str | None, qr_version: int | None, low_ink: bool = False) -> None:
    """One front in its trim rectangle (points): from its layout where the game has layouts (or the default ones,
    for a data-only game)."""
    from . import draw, layout

    elements = front_layout(c, s, size_of(c, w, h))
    if elements is None:  # every file has layouts, its own or the defaults; a default for each size and kind
        raise ValueError(f"{c.id}: no layout draws a {c.kind} of size {size_of(c, w, h)}")
    canvas.saveState()
    canvas.setFillColor(draw.PAPER)
    canvas.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    if s.design.layouts:  # a default layout is the printed size's own
        x, y, w, h, bleed = _designed(canvas, c, x, y, w, h, bleed)
    layout.draw(canvas, elements, shown(c, s, lang, qr_text, qr_version, low_ink), x, y, w, h, bleed)
    canvas.restoreState()


def _designed(canvas, c: Component, x: float, y: float, w: float, h: float, bleed: float, cover: bool = False):
    """A layout is placed in mm on the size its component is made at: printed at another (`--card-size`), the
    face is scaled whole to fit, centred, keeping its proportions (a back, `cover`, to cover it and its bleed,
    what overflows cut off). Returns the rectangle to draw it in."""
    from .geometry import MM

    dw, dh = (v * MM for v in SIZES[c.size])
    if abs(dw - w) < 0.01 and abs(dh - h) < 0.01:
        return x, y, w, h, bleed
    k = (max if cover else min)(w / dw, h / dh)
    if cover:
        clip = canvas.beginPath()
        clip.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed)
        canvas.clipPath(clip, stroke=0, fill=0)
        bleed += max(dw * k - w, dh * k - h) / 2  # the overflow too: a ground to the bleed covers it
    canvas.translate(x + (w - dw * k) / 2, y + (h - dh * k) / 2)
    canvas.scale(k, k)
    return 0.0, 0.0, dw, dh, bleed / k


def paint_back(canvas, b: Component, s: CardSet, lang: str, x: float, y: float, w: float, h: float, bleed: float,
               low_ink: bool = False) -> None:
    """One back in its trim rectangle, its picture or layout running into the bleed: the back component's own
    `layout:` or `art:`, else the file's `back:` (art covering it to the bleed, keeping its aspect, or a layout),
    else the default back (companion/layouts/default_layouts.yaml: the accent and its lattice, the name on a plate, the
    emblem), which is also the light back `--ink low` prints instead of a picture."""
    from . import draw, layout

    name = b.layout or s.design.back_layout
    picture = b.art.path if b.art else None if b.layout else s.design.back_art
    if picture and not low_ink:  # a picture's ink cannot be lightened: with low ink, the light back below
        layout.draw_back_art(canvas, picture, x, y, w, h, bleed)
        return
    own = s.design.layouts.get(name) if name and not picture else None
    own = sized(own, SIZES[b.size]) if own is not None else None
    canvas.saveState()
    canvas.setFillColor(draw.PAPER)
    canvas.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    if own is not None:  # the file's back layout, made at its size, scaled to another (--card-size)
        x, y, w, h, bleed = _designed(canvas, b, x, y, w, h, bleed, cover=True)
    layout.draw(canvas, own or default_back(size_of(b, w, h)), shown(b, s, lang, low_ink=low_ink), x, y, w, h,
                bleed)
    canvas.restoreState()


def default_back(size: str):
    """The default back's elements for a back printed at `size` (back-poker, back-tile...)."""
    from ..layouts import Design, default_layouts

    ours = default_layouts()
    return ours[Design(defaults=ours).default_name("back", size)]
