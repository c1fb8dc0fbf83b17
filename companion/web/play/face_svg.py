"""A card's face on its phone page, drawn by the very code that prints it: `SvgCanvas` takes the reportlab canvas
calls the layout, icon, QR and art functions make and writes them as SVG, so the phone shows what the paper shows
(its layout, colours, fonts, pictures). Only what those functions call is implemented."""
from __future__ import annotations

import os
from html import escape

from markupsafe import Markup

from ...components import SIZES
from ...core.paths import leads_outside
from ...pnp.geometry import MM, cut_radius

PT = 1.0  # the SVG's user unit is the PDF's point; the viewBox scales it to the page


def _hex(colour) -> str:
    r, g, b = (max(0, min(255, round(v * 255))) for v in (colour.red, colour.green, colour.blue))
    return f"#{r:02x}{g:02x}{b:02x}"


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


class SvgPath:
    """reportlab's path object: moveTo, lineTo, curveTo, close, rect, circle, as SVG path data."""

    def __init__(self):
        self.d: list[str] = []

    def moveTo(self, x, y):  # noqa: N802 (reportlab's names)
        self.d.append(f"M{_n(x)} {_n(y)}")

    def lineTo(self, x, y):  # noqa: N802
        self.d.append(f"L{_n(x)} {_n(y)}")

    def curveTo(self, x1, y1, x2, y2, x3, y3):  # noqa: N802
        self.d.append(f"C{_n(x1)} {_n(y1)} {_n(x2)} {_n(y2)} {_n(x3)} {_n(y3)}")

    def close(self):
        self.d.append("Z")

    def rect(self, x, y, w, h):
        self.d.append(f"M{_n(x)} {_n(y)}h{_n(w)}v{_n(h)}h{_n(-w)}Z")

    def circle(self, x, y, r):
        self.d.append(f"M{_n(x - r)} {_n(y)}a{_n(r)} {_n(r)} 0 1 0 {_n(2 * r)} 0a{_n(r)} {_n(r)} 0 1 0 {_n(-2 * r)} 0Z")

    def roundRect(self, x, y, w, h, r):  # noqa: N802
        self.d.append(_round_rect_d(x, y, w, h, r))


def _round_rect_d(x, y, w, h, r) -> str:
    r = min(r, w / 2, h / 2)
    return (f"M{_n(x + r)} {_n(y)}H{_n(x + w - r)}A{_n(r)} {_n(r)} 0 0 1 {_n(x + w)} {_n(y + r)}V{_n(y + h - r)}"
            f"A{_n(r)} {_n(r)} 0 0 1 {_n(x + w - r)} {_n(y + h)}H{_n(x + r)}A{_n(r)} {_n(r)} 0 0 1 {_n(x)} "
            f"{_n(y + h - r)}V{_n(y + r)}A{_n(r)} {_n(r)} 0 0 1 {_n(x + r)} {_n(y)}Z")


class SvgCanvas:
    """The reportlab canvas calls our drawing code makes, written as SVG in PDF space (y up: the caller flips it).
    Forms (an icon drawn once, placed many times) become <symbol>s placed with <use>; art files are placed as
    <image>s whose address `art_url` gives. The ids it makes start with `prefix`, so that several faces drawn in one
    page (the preview) never use each other's clips or forms."""

    def __init__(self, art_url, font_family, prefix: str = ""):
        self.out: list[str] = []
        self.defs: list[str] = []
        self.forms: set[str] = set()
        self.state = {"fill": "#000000", "stroke": "#000000", "width": 1.0, "font": "", "size": 10.0}
        self.stack: list[tuple[dict, int]] = []
        self.opened = 0  # groups opened since the last saveState
        self.recording: list[list[str]] = []
        self.art_url = art_url
        self.font_family = font_family
        self.prefix = prefix
        self.ids = 0

    # state
    def saveState(self):  # noqa: N802
        self.stack.append((dict(self.state), self.opened))
        self.opened = 0

    def restoreState(self):  # noqa: N802
        self._emit("</g>" * self.opened)
        self.state, self.opened = self.stack.pop()

    def _open(self, attrs: str):
        self._emit(f"<g {attrs}>")
        self.opened += 1

    def translate(self, dx, dy):
        self._open(f'transform="translate({_n(dx)} {_n(dy)})"')

    def rotate(self, angle):
        self._open(f'transform="rotate({_n(angle)})"')

    def scale(self, sx, sy):
        self._open(f'transform="scale({_n(sx)} {_n(sy)})"')

    def setFillColor(self, colour):  # noqa: N802
        self.state["fill"] = _hex(colour)

    def setStrokeColor(self, colour):  # noqa: N802
        self.state["stroke"] = _hex(colour)

    def setLineWidth(self, width):  # noqa: N802
        self.state["width"] = width

    def setFont(self, name, size):  # noqa: N802
        self.state["font"], self.state["size"] = name, size

    def setFillAlpha(self, alpha):  # noqa: N802
        """What is filled from now on is `alpha` opaque (the print's graphics state, as the SVG's fill-opacity)."""
        self.state["fill_alpha"] = alpha

    def setStrokeAlpha(self, alpha):  # noqa: N802
        self.state["stroke_alpha"] = alpha

    # shapes
    def _paint(self, stroke, fill) -> str:
        s = self.state
        fade = (f' fill-opacity="{_n(s["fill_alpha"])}"' if fill and s.get("fill_alpha", 1) < 1 else "") + \
            (f' stroke-opacity="{_n(s["stroke_alpha"])}"' if stroke and s.get("stroke_alpha", 1) < 1 else "")
        return (f'fill="{s["fill"]}"' if fill else 'fill="none"') + \
            (f' stroke="{s["stroke"]}" stroke-width="{_n(s["width"])}"' if stroke else "") + fade

    def _emit(self, text: str):
        (self.recording[-1] if self.recording else self.out).append(text)

    def beginPath(self):  # noqa: N802
        return SvgPath()

    def drawPath(self, path, stroke=1, fill=0, fillMode=None):  # noqa: N802, N803
        rule = ' fill-rule="evenodd"' if fill and fillMode not in (None, 1) else ""
        self._emit(f'<path d="{"".join(path.d)}" {self._paint(stroke, fill)}{rule}/>')

    def clipPath(self, path, stroke=0, fill=0, fillMode=None):  # noqa: N802, N803
        self.ids += 1
        self.defs.append(f'<clipPath id="{self.prefix}k{self.ids}"><path d="{"".join(path.d)}"/></clipPath>')
        self._open(f'clip-path="url(#{self.prefix}k{self.ids})"')

    def rect(self, x, y, w, h, stroke=1, fill=0):
        self._emit(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" {self._paint(stroke, fill)}/>')

    def roundRect(self, x, y, w, h, radius, stroke=1, fill=0):  # noqa: N802
        self._emit(f'<path d="{_round_rect_d(x, y, w, h, radius)}" {self._paint(stroke, fill)}/>')

    def circle(self, x, y, r, stroke=1, fill=0):
        self._emit(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" {self._paint(stroke, fill)}/>')

    def line(self, x1, y1, x2, y2):
        self._emit(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" {self._paint(1, 0)}/>')

    # text: drawn upright in a flipped space
    def _text(self, x, y, text, anchor=""):
        """A run of text, as wide as the print sets it (`textLength`): a phone without the print's font sets it in
        another, whose wider words would otherwise run into the next run's."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        family, weight, style = self.font_family(self.state["font"])
        width = stringWidth(text, self.state["font"], self.state["size"]) if self.state["font"] else 0
        extra = (f' font-weight="{weight}"' if weight != "normal" else "") + \
            (f' font-style="{style}"' if style != "normal" else "") + (f' text-anchor="{anchor}"' if anchor else "") + \
            (f' textLength="{_n(width)}" lengthAdjust="spacingAndGlyphs"' if width > 0 and text.strip() else "")
        self._emit(f'<text transform="translate({_n(x)} {_n(y)}) scale(1 -1)" font-family="{escape(family)}" '
                   f'font-size="{_n(self.state["size"])}" fill="{self.state["fill"]}"{extra}>{escape(text)}</text>')

    def drawString(self, x, y, text, *args, **kwargs):  # noqa: N802
        self._text(x, y, text)

    def drawCentredString(self, x, y, text, *args, **kwargs):  # noqa: N802
        self._text(x, y, text, "middle")

    # forms: drawn once, placed as often as needed
    def hasForm(self, name):  # noqa: N802
        return name in self.forms

    def beginForm(self, name, **box):  # noqa: N802
        self.forms.add(name)
        self.recording.append([f'<g id="{self.prefix}{name}">'])

    def endForm(self):  # noqa: N802
        body = self.recording.pop()
        self.defs.append("".join(body) + "</g>")

    def doForm(self, name):  # noqa: N802
        self._emit(f'<use href="#{self.prefix}{name}"/>')

    # art files: pictures the page loads from the companion
    def place_art(self, path: str, x: float, y: float, w: float, h: float) -> None:
        """An art file's picture fitted in proportion in the box (points, y up); nothing if `art_url` has no address."""
        url = self.art_url(path)
        if url is None:
            return
        self._emit(f'<image href="{escape(url)}" transform="translate({_n(x)} {_n(y + h)}) scale(1 -1)" '
                   f'width="{_n(w)}" height="{_n(h)}" preserveAspectRatio="xMidYMid meet"/>')

    def svg(self, width: float, height: float, label: str, cut: bool = False) -> str:
        """The drawing as an <svg> of width × height points (flipped to SVG's y down), `label` for screen readers;
        `cut`: the drawing is cut to the card's own rounded corners (the page's stylesheet then rounds it no more)."""
        body = "".join(self.out)
        defs = f"<defs>{''.join(self.defs)}</defs>" if self.defs else ""
        return (f'<svg class="face-svg{" cut" if cut else ""}" viewBox="0 0 {_n(width)} {_n(height)}" '
                f'role="img" aria-label="{escape(label)}">{defs}<g transform="matrix(1 0 0 -1 0 {_n(height)})">'
                f"{body}</g></svg>")


def default_family(font: str) -> tuple[str, str, str]:
    """A registered font's CSS family, weight and style: the project's Noto Serif as the phone has it (or its
    serif), a game's own font under the name its stylesheet gives it (`/icons/<game>.css`)."""
    from ...pnp.font import BOLD, FONT, ITALIC

    if font in (FONT, BOLD, ITALIC):
        return ("'Noto Serif', Georgia, serif", "bold" if font == BOLD else "normal",
                "italic" if font == ITALIC else "normal")
    return (f"'{font}', 'Noto Serif', Georgia, serif", "normal", "normal")


def face(card_set, c, lang: str, art_url, prefix: str = "") -> Markup | None:
    """The component's front as inline SVG, drawn from its layout; None for a game without layouts. `art_url`
    maps an art file's disk path to the address the page loads it from (None: not shown); `prefix` starts the
    SVG's ids (one of its own for each face of a page that shows several)."""
    from ...pnp import faces, layout

    elements = faces.front_layout(c, card_set)
    if elements is None:
        return None
    from ...pnp.draw import PAPER, register_fonts

    register_fonts()  # the widths of its words, as the print sets them (an icon's letter too)
    w, h = (v * MM for v in SIZES[c.size])
    canvas = SvgCanvas(art_url, default_family, prefix)
    r = cut_radius(card_set, c, c.size) * MM
    if r:  # (square corners: the picture's own edge is the cut)
        _clip_to_cut(canvas, w, h, r)
    canvas.setFillColor(PAPER)
    canvas.roundRect(0, 0, w, h, r, stroke=0, fill=1) if r else canvas.rect(0, 0, w, h, stroke=0, fill=1)
    layout.draw(canvas, elements, faces.shown(c, card_set, lang), 0, 0, w, h, 0)
    if r:
        canvas.restoreState()
    label = c.name_in(lang) or c.id
    return Markup(canvas.svg(w, h, label, cut=bool(r)))


def _clip_to_cut(canvas, w: float, h: float, r: float) -> None:
    """Everything drawn next stays inside the card as it is cut (its rounded corners, the file's `corner_radius`),
    until the caller's restoreState."""
    canvas.saveState()
    clip = canvas.beginPath()
    clip.roundRect(0, 0, w, h, r) if r else clip.rect(0, 0, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)


def back(card_set, b, lang: str, art_url, prefix: str = "") -> Markup:
    """A back component drawn as the print draws it (its picture, its layout, the file's `back:` or the default
    back), as inline SVG of its trim; `art_url` and `prefix` as for `face`."""
    from ...pnp import faces
    from ...pnp.font import register_fonts

    register_fonts()
    w, h = (v * MM for v in SIZES[b.size])
    canvas = SvgCanvas(art_url, default_family, prefix)
    r = cut_radius(card_set, b, b.size) * MM
    _clip_to_cut(canvas, w, h, r)  # a back runs into its bleed: the phone shows the cut card
    faces.paint_back(canvas, b, card_set, lang, 0, 0, w, h, 0)
    canvas.restoreState()
    return Markup(canvas.svg(w, h, b.name_in(lang) or b.id, cut=bool(r)))


def art_files(card_set) -> dict[str, str]:
    """Every art file the card set's layouts may show on a phone, by its path relative to the data file's folder:
    components' own art, term pictures, and files a layout names."""
    folder = os.path.dirname(os.path.abspath(card_set.path))
    found = {}
    for c in card_set.components:
        if c.art is not None:
            found[c.art.path] = c.art.path
    for term in card_set.look.terms.values():
        if term.art is not None:
            found[term.art.path] = term.art.path
    if card_set.design.back_art:  # the file's `back: {art: ...}`
        found[card_set.design.back_art] = card_set.design.back_art
    for elements in card_set.design.layouts.values():
        for e in elements:
            given = e.props.get("art")
            if isinstance(given, str) and "{" not in given:
                path = os.path.join(folder, os.path.normpath(given))
                found[path] = path
    return {os.path.relpath(p, folder).replace(os.sep, "/"): p for p in found  # never a link leading outside
            if not leads_outside(p, folder)}


ART_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}


def font_files(card_set) -> dict[str, str]:
    """Every font file of the game's `fonts:`, by the name the page loads it as (`<family>-<style>.ttf`); never one
    that leads outside the data file's folder (a link to /etc/passwd is not served, nor put on a static site)."""
    folder = os.path.dirname(os.path.abspath(card_set.path))
    out = {}
    for family in card_set.design.fonts.values():
        for style in ("regular", "bold", "italic", "bold_italic"):
            path = getattr(family, style)
            if path and not leads_outside(path, folder):
                out[f"{family.name}-{style}{os.path.splitext(path)[1].lower()}"] = path
    return out


def font_faces(card_set, url) -> str:
    """@font-face rules naming each of the game's fonts as the faces' SVG names it (its registered name)."""
    rules = []
    for name in font_files(card_set):
        family, _, style = name.rpartition(".")[0].rpartition("-")
        rules.append(f"@font-face{{font-family:'{card_set.game}-{family}-{style}';src:url({url(name)});"
                     f"font-display:swap}}\n")
    return "".join(rules)
