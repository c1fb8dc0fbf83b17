"""Drawing a face from its layout: each element kind is one small function from (element, what it shows, its box)
onto a reportlab canvas; `corners: 2` draws an element again turned 180° about the face's centre.

Boxes are millimetres from the face's top-left corner (the designer's view); reportlab's y runs up, so each box
is turned into points from the trim rectangle's bottom-left here and nowhere else."""
from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from ..core.paths import leads_outside
from ..layouts import (
    COLOUR_TEXT,
    DEFAULT_FONT,
    MIN_TEXT_PT,
    QUIET_MIN_PT,
    QUIET_PT,
    Design,
    Element,
    FontFamily,
    Missing,
    fill,
    fill_list,
    markup,
)
from ..look import DRAWN_SHAPES, Icon, Look
from . import art, font_tables, textfit
from .geometry import MM
from .icons import draw_icon

INK = "#1d1d1d"
QUIET_INK = "#77706a"  # a quiet text's grey: the printed id, what a player reads out to the phone


@dataclass(frozen=True)
class Shown:
    """What one face shows: the component's values for placeholders, in a language, with its game's look."""

    values: Mapping[str, Any]
    lang: str
    design: Design
    look: Look
    folder: str  # the data file's folder: files an element names are inside it
    art: str | None = None  # the component's own art file, on disk
    qr_text: str | None = None
    qr_version: int | None = None
    game: str = ""
    low_ink: bool = False  # --ink low: dark fills become a tint with an outline, a back's icons are outlines
    back: bool = False


class FontProblem(Exception):
    """A `fonts:` file reportlab cannot embed; the message says why."""


def family_fonts(design: Design, family: str, game: str, folder: str) -> Callable[[bool, bool], str]:
    """(bold, italic) → a registered font name of `family`: the game's own files (registered once per process,
    embedded subset, each inside the data file's `folder`), or the project's Noto Serif. A missing bold or italic
    face falls back to the regular one."""
    from .font import BOLD, FONT, ITALIC, register_fonts

    found = design.fonts.get(family)
    if found is None:
        register_fonts()
        return lambda b, i: BOLD if b else ITALIC if i else FONT
    names = {style: register_font(path, f"{game}-{family}-{style}", folder)
             for style, path in (("regular", found.regular), ("bold", found.bold), ("italic", found.italic),
                                 ("bold_italic", found.bold_italic)) if path}

    def pick(b: bool, i: bool) -> str:
        if b and i:
            return names.get("bold_italic") or names.get("bold") or names["regular"]
        return names.get("bold" if b else "italic" if i else "regular") or names["regular"]

    return pick


_REGISTERED: dict[str, tuple] = {}  # a font name → the file version it was read from


def register_font(path: str, name: str, folder: str) -> str:
    """Register a TrueType/OpenType (TrueType outlines) file under `name`, again whenever the file changes (a
    designer editing fonts, a test swapping one); FontProblem when it leads outside the data file's `folder` (a
    link), is not a regular file, is too large, has tables that would make reportlab's reader run away
    (`font_tables.problem`) or is not one reportlab can embed. Every game font is opened here and nowhere else."""
    if leads_outside(path, folder):
        raise FontProblem("leads outside the data file's folder (through a link); a font file must be in that folder "
                          "or below it")
    try:
        st = os.stat(path)
    except OSError:
        raise FontProblem("no such file" if not os.path.lexists(path) else "cannot be read") from None
    if not stat.S_ISREG(st.st_mode):
        raise FontProblem("is not a regular file")
    if st.st_size > MAX_FONT_BYTES:
        raise FontProblem(f"is {st.st_size / 2**20:.1f} MB; a font file may be at most {MAX_FONT_BYTES // 2**20} MB")
    version = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)  # the file itself (a link followed), as it is now
    if _REGISTERED.get(name) == version and name in pdfmetrics.getRegisteredFontNames():
        return name
    unsafe = font_tables.problem(path)
    if unsafe:
        raise FontProblem(unsafe)
    try:
        pdfmetrics.registerFont(TTFont(name, path))
    except TTFError as e:
        raise FontProblem(f"is not a TrueType or OpenType font with TrueType outlines ({e})") from None
    except Exception as e:  # a damaged file fails anywhere in reportlab's parser
        raise FontProblem(f"is not a font reportlab can read ({type(e).__name__})") from None
    _REGISTERED[name] = version
    return name


MAX_FONT_BYTES = 30 * 2**20  # a large CJK font is ~20 MB; more is not a font a card needs


def icon_named(name: str, look: Look, colour: str | None = None) -> Icon | None:
    """A term's icon (its shape, colour, letter or picture), or a bare shape in `colour`; None for neither."""
    term = look.terms.get(name)
    if term is not None and term.shape:
        icon = term.icon()
        return Icon(icon.shape, colour or icon.fill, icon.letter, gem=icon.gem, art=icon.art) if colour else icon
    if name in DRAWN_SHAPES:
        return Icon(name, colour or INK)
    return None


def colour_text(value: str, shown: Shown) -> str | None:
    """A colour property filled in for one component: `#rrggbb`, or None where a field gives it something else
    (`validate` names it: design_check.check_colours); Missing where the component lacks the field."""
    text = fill(value, shown.values, shown.lang, shown.design).strip()
    return text if COLOUR_TEXT.fullmatch(text) else None


def _colour(value: str | None, shown: Shown, default: str | None = None):
    """A filled-in colour property as a reportlab colour; the default (None: not drawn) where there is none, or
    where the component's field gives no colour."""
    text = colour_text(value, shown) if value is not None else None
    if text is None:
        return HexColor(default) if default else None
    return HexColor(text)


def points(box, x: float, y: float, h: float) -> tuple[float, float, float, float]:
    """A box in mm from the top-left of a face at (x, y, _, h) points → (left, bottom, width, height) in points."""
    bx, by, bw, bh = box
    return x + bx * MM, y + h - (by + bh) * MM, bw * MM, bh * MM


def draw(c, elements: tuple[Element, ...], shown: Shown, x: float, y: float, w: float, h: float,
         bleed: float) -> None:
    """Every element of a layout in order; an element whose fields the component lacks is not drawn."""
    for element in elements:
        try:
            if not is_drawn(element, shown):
                continue
            KINDS[element.kind](c, element, shown, points(element.box, x, y, h), (x, y, w, h), bleed)
            if element.props.get("corners") == 2:
                c.saveState()
                c.translate(x + w / 2, y + h / 2)
                c.rotate(180)
                c.translate(-(x + w / 2), -(y + h / 2))
                KINDS[element.kind](c, element, shown, points(element.box, x, y, h), (x, y, w, h), bleed)
                c.restoreState()
        except Missing:
            continue


def is_drawn(element: Element, shown: Shown) -> bool:
    """Whether an element is drawn for this component: its `when:` holds and its `unless:` does not (Missing where
    a field they name is not there and the element needs it)."""
    if "when" in element.props and not _truthy(fill(element.props["when"], shown.values, shown.lang, shown.design)):
        return False
    return not ("unless" in element.props and _unless(element.props["unless"], shown))


def _truthy(text: str) -> bool:
    return text.strip().lower() not in ("", "0", "false", "no", "none")


def _unless(template: str, shown: Shown) -> bool:
    """Whether an `unless:` holds, leaving its element out: its fields are there and say yes (a field the component
    lacks says no)."""
    try:
        return _truthy(fill(template, shown.values, shown.lang, shown.design))
    except Missing:
        return False


def _rotated(c, element: Element, box):
    """Turn the canvas about the box's centre by the element's `rotate` (degrees, counter-clockwise)."""
    angle = element.props.get("rotate")
    if angle:
        bx, by, bw, bh = box
        c.translate(bx + bw / 2, by + bh / 2)
        c.rotate(angle)
        c.translate(-(bx + bw / 2), -(by + bh / 2))


def _to_bleed(box, trim, bleed):
    """A box grown by the bleed on each side where it reaches the trim's edge (a band or picture to the cut)."""
    bx, by, bw, bh = box
    x, y, w, h = trim
    left = bleed if bx <= x + 0.01 else 0
    bottom = bleed if by <= y + 0.01 else 0
    right = bleed if bx + bw >= x + w - 0.01 else 0
    top = bleed if by + bh >= y + h - 0.01 else 0
    return bx - left, by - bottom, bw + left + right, bh + bottom + top


def text_layout(element: Element, shown: Shown):
    """(the laid-out text, the font picker) of a text element for one component; Missing when it has no value."""
    props = element.props
    text = fill(props["text"], shown.values, shown.lang, shown.design)
    font_of = family_fonts(shown.design, props.get("font", DEFAULT_FONT), shown.game, shown.folder)
    lines = markup(text, props.get("bold", False), props.get("italic", False))
    _, _, bw, bh = element.box
    quiet = props.get("quiet", False)
    size = props.get("size", QUIET_PT if quiet else 8.0)
    floor = QUIET_MIN_PT if quiet else MIN_TEXT_PT
    laid = textfit.fit(lines, font_of, size, min(props.get("min_size", floor), size), bw * MM, bh * MM,
                       props.get("leading", 1.2))
    return laid, font_of


def _text(c, element: Element, shown: Shown, box, trim, bleed) -> None:
    props = element.props
    laid, _ = text_layout(element, shown)
    bx, by, bw, bh = box
    c.saveState()
    _rotated(c, element, box)
    if "fill" in props:
        c.setFillColor(_colour(props["fill"], shown))
        c.rect(bx, by, bw, bh, stroke=0, fill=1)
    ink = _colour(props.get("colour"), shown, QUIET_INK if props.get("quiet") else INK)
    if shown.low_ink and _light(ink):  # light words sat on a dark fill, which low ink turns into a tint
        ink = HexColor(INK)
    valign = props.get("valign", "top")
    ascent = laid.size * 0.78  # the first baseline below the box's top: Noto-like fonts' cap height and a bit
    block = laid.leading * (len(laid.lines) - 1) + laid.size
    top = by + bh if valign == "top" else by + (bh + block) / 2 if valign == "middle" else by + block
    align = props.get("align", "left")
    for n, (line, width) in enumerate(zip(laid.lines, laid.widths, strict=True)):
        baseline = top - ascent - n * laid.leading
        start = bx if align == "left" else bx + (bw - width) / 2 if align == "center" else bx + bw - width
        for piece in line:
            if piece.run.icon is not None:
                icon = icon_named(piece.run.icon, shown.look)
                if icon is not None:
                    r = laid.size * textfit.ICON_EM * 0.45
                    draw_icon(c, icon, start + piece.x + piece.width / 2, baseline + laid.size * 0.32, r)
                continue
            c.setFillColor(ink)
            c.setFont(piece.font, laid.size)
            c.drawString(start + piece.x, baseline, piece.run.text)
    c.restoreState()


def _light(colour) -> bool:
    return 0.299 * colour.red + 0.587 * colour.green + 0.114 * colour.blue > 0.8


def _rect(c, element: Element, shown: Shown, box, trim, bleed) -> None:
    props = element.props
    if props.get("bleed"):
        box = _to_bleed(box, trim, bleed)
    bx, by, bw, bh = box
    fill_c = _colour(props.get("fill"), shown)
    stroke = _colour(props.get("stroke"), shown)
    if shown.low_ink and fill_c is not None and not _light(fill_c):  # a tint, its colour kept in the outline
        from .draw import LOW_INK_TINT, mix

        # a pattern (a back) needs no outline, nor a fill to the bleed: its outline would be a line on the cut
        stroke = stroke or (None if props.get("pattern") or props.get("bleed") else fill_c)
        fill_c = mix(fill_c, HexColor("#ffffff"), LOW_INK_TINT)
    c.saveState()
    _rotated(c, element, box)
    if fill_c is not None:
        c.setFillColor(fill_c)
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(props.get("stroke_width", 0.8))
    radius = min(props.get("radius", 0) * MM, bw / 2, bh / 2)
    if props.get("pattern") and fill_c is not None:
        c.rect(bx, by, bw, bh, stroke=0, fill=1) if not radius else c.roundRect(bx, by, bw, bh, radius, stroke=0,
                                                                                 fill=1)
        _lattice(c, _colour(props.get("fill"), shown), box, radius, shown.low_ink)
        fill_c = None
    if radius:
        c.roundRect(bx, by, bw, bh, radius, stroke=stroke is not None, fill=fill_c is not None)
    elif stroke is not None or fill_c is not None:
        c.rect(bx, by, bw, bh, stroke=stroke is not None, fill=fill_c is not None)
    c.restoreState()


LATTICE_STEP_MM = 6.0


def _lattice(c, colour, box, radius: float, low_ink: bool) -> None:
    """Diagonal lines both ways across the box, 6 mm apart, in a lighter shade of `colour` (its tint's darker one
    with low ink): a back's pattern, clipped to the box."""
    from reportlab.lib.colors import white

    from .draw import mix

    bx, by, bw, bh = box
    c.saveState()
    clip = c.beginPath()
    clip.roundRect(bx, by, bw, bh, radius) if radius else clip.rect(bx, by, bw, bh)
    c.clipPath(clip, stroke=0, fill=0)
    c.setStrokeColor(mix(colour, white, 0.28) if low_ink else mix(white, colour, 0.16))
    c.setLineWidth(0.6)
    step = LATTICE_STEP_MM * MM
    p = c.beginPath()
    n = int((bw + bh) / step) + 2
    for i in range(-n, n):
        p.moveTo(bx + i * step, by)
        p.lineTo(bx + i * step + bh, by + bh)
        p.moveTo(bx + i * step, by + bh)
        p.lineTo(bx + i * step + bh, by)
    c.drawPath(p, stroke=1, fill=0)
    c.restoreState()


def art_file(element: Element, shown: Shown) -> str | None:
    """The file an art element draws: the component's own (`art: true`), or one the layout names (a `{field}`
    may pick it), inside the data file's folder."""
    given = element.props["art"]
    if given is True:
        return shown.art
    name = fill(given, shown.values, shown.lang, shown.design)
    return os.path.join(shown.folder, os.path.normpath(name))


def _art(c, element: Element, shown: Shown, box, trim, bleed) -> None:
    path = art_file(element, shown)
    if path is None or (shown.low_ink and shown.back and element.props.get("bleed")):
        return  # with low ink a back's picture to the bleed is left off, as a back's own art is
    if element.props.get("bleed"):
        box = _to_bleed(box, trim, bleed)
    bx, by, bw, bh = box
    c.saveState()
    _rotated(c, element, box)
    if element.props.get("fit") == "cover":
        info = art.inspect(path)
        s = max(bw / info.width, bh / info.height)
        clip = c.beginPath()
        clip.rect(bx, by, bw, bh)
        c.clipPath(clip, stroke=0, fill=0)
        cw, ch = info.width * s, info.height * s
        art.place(c, path, bx + (bw - cw) / 2, by + (bh - ch) / 2, cw, ch, window_pt=max(bw, bh))
    else:
        art.place(c, path, bx, by, bw, bh, window_pt=max(bw, bh))
    c.restoreState()


def _icon(c, element: Element, shown: Shown, box, trim, bleed) -> None:
    name = fill(element.props["icon"], shown.values, shown.lang, shown.design)
    colour = colour_text(element.props["colour"], shown) if "colour" in element.props else None
    icon = icon_named(name, shown.look, colour)
    if icon is None:
        return
    if "letter" in element.props:
        icon = replace(icon, letter=fill(element.props["letter"], shown.values, shown.lang, shown.design)[:3])
    icon = _outlined(icon, element, shown)
    bx, by, bw, bh = box
    c.saveState()
    _rotated(c, element, box)
    draw_icon(c, icon, bx + bw / 2, by + bh / 2, min(bw, bh) / 2 * 0.92, outline_only=shown.low_ink and shown.back)
    c.restoreState()


def _icons(c, element: Element, shown: Shown, box, trim, bleed) -> None:
    """One icon per item of a list field, in rows of `columns` (default: one row), each cell square; with
    `captions`, each item's label (`labels:`) under its icon, in `colour` (light words turn dark with low ink)."""
    from .font import FONT, register_fonts

    register_fonts()  # the captions' font, also where nothing else registered it (the phone's card page)

    shape_fill = colour_text(element.props["fill"], shown) if "fill" in element.props else None
    items = [(None, n) if isinstance(n, Icon) else (str(n), _listed_icon(str(n), shown.look, shape_fill))
             for n in fill_list(element.props["icons"], shown.values, shown.lang)]  # a value may hold icons
    items = [(n, i) for n, i in items if i is not None]
    if not items:
        return
    bx, by, bw, bh = box
    columns = min(element.props.get("columns", len(items)), len(items))
    rows = -(-len(items) // columns)
    gap = element.props.get("gap", 1.0) * MM
    caption = element.props.get("size", 6.5) * 1.15 if element.props.get("captions") else 0.0
    cell = min((bw - gap * (columns - 1)) / columns, (bh - gap * (rows - 1)) / rows - caption)
    if cell <= 0:
        return
    align = element.props.get("align", "center")
    block_h = rows * (cell + caption) + (rows - 1) * gap
    top = by + (bh + block_h) / 2
    for n, (name, icon) in enumerate(items):
        row, col = divmod(n, columns)
        in_row = min(columns, len(items) - row * columns)
        row_w = in_row * cell + (in_row - 1) * gap
        left = bx if align == "left" else bx + (bw - row_w) / 2 if align == "center" else bx + bw - row_w
        cx, cy = left + col * (cell + gap) + cell / 2, top - row * (cell + caption + gap) - cell / 2
        draw_icon(c, icon, cx, cy, cell / 2 * 0.9, outline_only=shown.low_ink and shown.back)
        if caption and name is not None:
            texts = shown.design.labels.get(name)
            word = texts.get(shown.lang) if texts else name
            size = min(element.props.get("size", 6.5), _fitting(word, FONT, cell + gap))
            ink = _colour(element.props.get("colour"), shown, INK)
            c.setFillColor(HexColor(INK) if shown.low_ink and _light(ink) else ink)
            c.setFont(FONT, size)
            c.drawCentredString(cx, cy - cell / 2 - size * 1.0, word)


def _listed_icon(name: str, look: Look, shape_fill: str | None) -> Icon | None:
    """An `icons:` item: a term's icon in its own colours, a bare shape in the element's `fill` (else ink)."""
    term = look.terms.get(name)
    if term is not None and term.shape:
        return term.icon()
    return icon_named(name, look, shape_fill)


def _fitting(word: str, font: str, width: float) -> float:
    """The size at which `word` is `width` points wide (no smaller than 5 pt: a caption under a small icon)."""
    w = pdfmetrics.stringWidth(word, font, 10)
    return max(5.0, 10 * width / w) if w else 10.0


def qr_module(element: Element, modules: int) -> float:
    """The side of a code's module (points) in an element's box: the project's 0.7 mm where the box holds it, else
    what the box allows (validate warns of less than QR_MIN_MODULE_MM)."""
    from .draw import QR_MODULE_MM, QR_QUIET

    _, _, bw, bh = element.box
    return min(QR_MODULE_MM * MM, min(bw, bh) * MM / (modules + 2 * QR_QUIET))


def _qr(c, element: Element, shown: Shown, box, trim, bleed) -> None:
    from .draw import draw_qr, qr_runs

    if not shown.qr_text or element.props.get("qr") is False:
        return
    modules = qr_runs(shown.qr_text, shown.qr_version)[0]
    module = qr_module(element, modules)
    side = modules * module
    bx, by, bw, bh = box
    # centred in its box, the quiet zone on a white plate
    draw_qr(c, shown.qr_text, bx + (bw - side) / 2, by + (bh - side) / 2, side, shown.qr_version,
            plate=element.props.get("plate", True))  # `plate: false`: the quiet zone is the face's own light ground


def _pips(c, element: Element, shown: Shown, box, trim, bleed) -> None:
    from .draw import _pips as pips

    count = fill(element.props["pips"], shown.values, shown.lang, shown.design)
    icon = icon_named(fill(element.props.get("icon", "circle"), shown.values, shown.lang, shown.design), shown.look)
    if icon is None or not count.strip().isdecimal():  # (what int() reads: "²" is a digit, not a decimal)
        return
    pips(c, (_outlined(icon, element, shown),) * min(int(count), 12), *box)


def _outlined(icon: Icon, element: Element, shown: Shown) -> Icon:
    """The icon with the element's `outline` colour instead of the icons' dark line (the fill's own colour: a pip
    as a playing card prints it, with no line round it)."""
    outline = colour_text(element.props["outline"], shown) if "outline" in element.props else None
    return replace(icon, outline=outline) if outline else icon


def _track(c, element: Element, shown: Shown, box, trim, bleed) -> None:
    """Price steps down the box's middle, one circle a step, from the first item at the top: circles in `fill`
    (white) outlined in `stroke`, their prices in `colour`."""
    from .draw import _price_track

    steps = [str(s) for s in fill_list(element.props["track"], shown.values, shown.lang)]
    if not steps:
        return
    bx, by, bw, bh = box
    stroke = _colour(element.props.get("stroke"), shown, "#3b4a3f")
    _price_track(c, steps, bx + bw / 2, by, bh, stroke, _colour(element.props.get("fill"), shown),
                 _colour(element.props.get("colour"), shown))


KINDS: dict[str, Callable] = {"text": _text, "rect": _rect, "art": _art, "icon": _icon, "icons": _icons, "qr": _qr,
                              "pips": _pips, "track": _track}


def draw_back_art(c, path: str, x: float, y: float, w: float, h: float, bleed: float) -> None:
    """A back's picture covering the card and its bleed, keeping its aspect (what overflows is cut), never framed."""
    info = art.inspect(path)
    bw, bh = w + 2 * bleed, h + 2 * bleed
    s = max(bw / info.width, bh / info.height)
    c.saveState()
    clip = c.beginPath()
    clip.rect(x - bleed, y - bleed, bw, bh)
    c.clipPath(clip, stroke=0, fill=0)
    cw, ch = info.width * s, info.height * s
    art.place(c, path, x + w / 2 - cw / 2, y + h / 2 - ch / 2, cw, ch, window_pt=max(bw, bh))
    c.restoreState()


__all__ = ["Shown", "draw", "draw_back_art", "family_fonts", "register_font", "text_layout", "FontProblem",
           "FontFamily", "icon_named"]
