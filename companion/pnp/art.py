"""Designers' art files on a face: SVG drawn as vectors (through svglib, never rasterised), PNG and JPEG placed as
images (JPEG bytes passed through as DCT; PNG pixels kept as they are, lossless), at most 300 DPI. Each file is read
once per process (an SVG once per machine: art_cache.py) and embedded once per PDF, as one form XObject that every
face using it places.

Art files come from anyone who shares a game, so what is read is bounded before it is read: only regular files
(never a pipe, a device or a folder), at most MAX_FILE_BYTES; an image's size is read from its header and refused
past MAX_PIXELS before a pixel is decoded; an SVG may use only its own parts (`#id`) and embedded PNG or JPEG
pictures (never another file), and at most MAX_SVG_ELEMENTS elements once its <use>s are expanded. What is checked
is drawn once on a scratch canvas too, so that an SVG `validate` accepts is one the build can draw."""
from __future__ import annotations

import base64
import binascii
import hashlib
import io
import json
import math
import os
import re
import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from ..core.files import NotReadable, read_regular
from ..look import ART_DPI
from .font import FONT, register_fonts

FORMATS = {".svg": "SVG", ".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
POINTS_PER_INCH = 72.0

# The largest art window (36 mm on a poker card) prints 425 × 425 px at ART_DPI, a layout's box as large as a poker
# card about 750 × 1050 px: anything larger is scaled down once per build. The caps leave room for what a designer
# has at hand (a 12 Mpx phone photo, an A4 page scanned at 400 DPI) while keeping a decoded picture at 64 MB at most
# (4 bytes a pixel), so a check or a build stays well under 300 MB.
MAX_PIXELS = 4096 * 4096
MAX_FILE_BYTES = 20 * 2**20  # a photo JPEG of MAX_PIXELS is 3-10 MB, a PNG of it 5-20 MB
MAX_SVG_MARKUP = 2**20  # an SVG's bytes besides its embedded pictures (the shipped ones are under 14 KB): svglib
#                         holds ~50-80 bytes of memory per byte of markup and reads ~100 KB a second
MAX_SVG_ELEMENTS = 10_000  # counting each <use>, <image href="#..."> and url(#...) as the elements it repeats
#                            (the shipped ones have at most 171; svglib draws about 1,000 a second)
CACHE_BUDGET = 128 * 2**20  # what the loaded art of a process may hold (an estimate of its memory)


class ArtError(Exception):
    """An art file that cannot be used; the message says why, for a `file:line: id: art: ...` line."""


@dataclass(frozen=True)
class ArtInfo:
    kind: str  # SVG, PNG or JPEG
    width: float  # pixels, or an SVG's own units
    height: float
    digest: str  # of the file's bytes: names its form, so the same picture is embedded once whatever its path
    size: str = ""  # its size as its author gave it: an SVG's viewBox ("200 × 200"), an image's pixels
    text: bool = False  # an SVG with <text>: set in a font the PDF does not embed (convert text to paths)


class _Cache:
    """The least recently used values up to a total weight (an estimate of the memory each holds): a process that
    reads many large pictures keeps the latest, not all of them."""

    def __init__(self, budget: int):
        self.budget, self.total = budget, 0
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        """The value kept under `key` (now the most recently used), or None."""
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return None if found is None else found[0]

    def put(self, key, value, weight: int) -> None:
        """Keep `value` under `key`; drop the least recently used until the total weight fits (the newest stays)."""
        with self.lock:
            old = self.items.pop(key, None)
            self.total += weight - (old[1] if old else 0)
            self.items[key] = (value, weight)
            while self.total > self.budget and len(self.items) > 1:
                _key, (_value, dropped) = self.items.popitem(last=False)
                self.total -= dropped


_LOADED = _Cache(CACHE_BUDGET)  # (path, its version) → (ArtInfo, payload)


def inspect(path: str | Path) -> ArtInfo:
    """What an art file is and its size; ArtError if it is not a readable SVG, PNG or JPEG."""
    return _loaded(path)[1]


def _loaded(path: str | Path):
    """(kind, ArtInfo, payload: the SVG's drawing or the image's bytes), read once per file version in a process
    (while CACHE_BUDGET holds it)."""
    kind = FORMATS.get(Path(path).suffix.lower())
    if kind is None:
        raise ArtError("is not an SVG, PNG or JPEG file (by its name: .svg, .png, .jpg or .jpeg)")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ArtError("no such file") from None
    except OSError as e:
        raise ArtError(f"cannot be read ({e.strerror})") from None
    key = (str(path), st.st_mtime_ns, st.st_size, st.st_ino)
    found = _LOADED.get(key)
    if found is None:
        data = _read(str(path))
        info, payload, weight = (_svg_kept if kind == "SVG" else _image)(str(path), data)
        found = (info, payload)
        _LOADED.put(key, found, weight)
    return (kind, *found)


def _svg_kept(path: str, data: bytes):
    """_svg, or what a process read of the same bytes before (art_cache): its ArtInfo and operators, and no drawing
    (None: parsed again only if those operators are let go and needed)."""
    from . import art_cache

    kept = art_cache.get(data)
    if kept is not None:
        fields, ops = kept
        info = ArtInfo(*fields)
        _SVG_CODE.put(info.digest, ops, sum(map(len, ops)) + 64 * len(ops))
        return info, None, len(data)
    info, drawing, weight = _svg(path, data)
    ops = _SVG_CODE.get(info.digest)
    if ops is not None:  # operators that name no document resource: the same in every PDF
        art_cache.put(data, [info.kind, info.width, info.height, info.digest, info.size, info.text], ops)
    return info, drawing, weight


def _read(path: str) -> bytes:
    try:
        return read_regular(path, MAX_FILE_BYTES, "file")
    except NotReadable as e:
        raise ArtError(str(e)) from None


# --- PNG and JPEG ------------------------------------------------------------------------------------------------

TOO_MANY_PIXELS = (f"more pixels than art may have ({MAX_PIXELS / 1e6:.1f} Mpx, e.g. 4096 × 4096): scale it down "
                   f"(a poker card's art window prints 425 × 425 px at {ART_DPI} DPI)")


class _NotAPicture(Exception):
    """Why bytes are not a usable PNG or JPEG: `found` (another format), `pixels` (w, h past MAX_PIXELS), or
    `reason` (Pillow's words on why it cannot read them)."""

    def __init__(self, found: str | None = None, pixels: tuple[int, int] | None = None, reason: str = ""):
        self.found, self.pixels, self.reason = found, pixels, reason

    def size(self) -> str:
        """The refused size in words ("5000 × 5000 px"), or "over 179 Mpx" (Pillow's own limit) when it is unknown."""
        return f"{self.pixels[0]} × {self.pixels[1]} px" if self.pixels else "over 179 Mpx"


def _picture(data: bytes, expected: str) -> tuple[int, int]:
    """The pixel size of a PNG or JPEG (`expected`), read from its header and refused past MAX_PIXELS before its
    pixels are decoded whole (a truncated file fails here, not in the middle of a build); _NotAPicture otherwise.
    Only Pillow's PNG and JPEG readers are tried."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow's DecompressionBombWarning and the like: refused below
            with Image.open(io.BytesIO(data), formats=("PNG", "JPEG")) as im:
                found, (w, h) = im.format, im.size
                if found != expected:
                    raise _NotAPicture(found=found or "something else")
                if w * h > MAX_PIXELS:
                    raise _NotAPicture(pixels=(w, h))
                im.load()
    except _NotAPicture:
        raise
    except Image.DecompressionBombError:  # a header past Pillow's own limit (about 179 Mpx)
        raise _NotAPicture(pixels=_declared_size(data, expected)) from None
    except UnidentifiedImageError:  # its message names a BytesIO object
        raise _NotAPicture(reason="Pillow does not recognise it") from None
    except Exception as e:  # Pillow raises what its decoders raise (OSError, SyntaxError, ValueError, zlib.error...)
        raise _NotAPicture(reason=str(e) or type(e).__name__) from None
    return w, h


def _declared_size(data: bytes, kind: str) -> tuple[int, int] | None:
    """The pixel size a PNG or JPEG's header declares, read by Pillow's own reader for it (without the check of
    Image.open, which refuses to say it past its own limit)."""
    from PIL import JpegImagePlugin, PngImagePlugin

    try:
        with (PngImagePlugin.PngImageFile if kind == "PNG" else JpegImagePlugin.jpeg_factory)(io.BytesIO(data)) as im:
            return im.size
    except Exception:  # noqa: BLE001 (a stranger's picture fails anywhere in Pillow's header readers: no size then)
        return None


def _image(path: str, data: bytes):
    """(ArtInfo, the file's bytes, their weight) for a PNG or JPEG, checked whole by Pillow."""
    expected = FORMATS[Path(path).suffix.lower()]
    try:
        w, h = _picture(data, expected)
    except _NotAPicture as e:
        if e.found:
            raise ArtError(f"is named as a {expected} file but is {e.found}") from None
        if e.reason:
            raise ArtError(f"cannot be read as a {expected} image: {e.reason}") from None
        raise ArtError(f"is {e.size()}, {TOO_MANY_PIXELS}") from None
    return ArtInfo(expected, float(w), float(h), hashlib.sha1(data).hexdigest()[:16], f"{w} × {h} px"), data, len(data)


# --- SVG ---------------------------------------------------------------------------------------------------------

SVG_NS = "{http://www.w3.org/2000/svg}"
_DATA_PICTURE = re.compile(r"data:image/(png|jpeg|jpg);base64,")  # what svglib decodes itself (its own pattern,
#                                                                   with the comma it skips)
_FRAGMENT_URL = re.compile(r"url\(\s*['\"]?#([^'\")\s]+)")  # svglib follows only these
_EXPANDED = ("use", "image")  # the elements whose href svglib draws again where they are


def _svg(path: str, data: bytes):
    """(ArtInfo, reportlab Drawing, its weight): parsed strictly first (svglib alone would recover from broken XML),
    with no entities expanded and nothing fetched; every reference checked (`_check_svg`) before svglib renders it,
    then drawn once on a scratch canvas (`_trial`): what fails there fails here, not in a build."""
    from lxml import etree
    from svglib.svglib import SvgRenderer

    if data.count(b"<") > 2 * MAX_SVG_ELEMENTS + 1000:  # each element has at most two: refused before parsing
        raise ArtError(f"is an SVG of more than {MAX_SVG_ELEMENTS} elements, more than art may have: simplify it or "
                       f"export it as PNG")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=False, huge_tree=False,
                             load_dtd=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as e:
        raise ArtError(f"is not valid SVG: {e.msg} (line {e.lineno} of the SVG)") from None
    if root.tag != f"{SVG_NS}svg":
        raise ArtError(f"is not valid SVG: its root element is <{etree.QName(root).localname}>, not <svg> in the "
                       f"SVG namespace")
    pixels, embedded = _check_svg(root, len(data))
    text = next(root.iter(f"{SVG_NS}text"), None) is not None
    try:
        drawing = _renderer(SvgRenderer)(path, font_map=_standard_fonts()).render(root)
    except Exception as e:  # svglib raises whatever its parts raise on what it cannot draw
        raise ArtError(f"is not an SVG svglib can draw: {e}") from None
    for side in (drawing.width, drawing.height):
        if not isinstance(side, (int, float)) or not math.isfinite(side) or side <= 0:
            raise ArtError("is an SVG with no size: give it a viewBox (e.g. viewBox=\"0 0 200 200\")")
        if not 1e-3 <= side <= 1e6:
            raise ArtError(f"is an SVG of {drawing.width:g} × {drawing.height:g} pt: give it a size from 0.001 to "
                           f"1000000 (e.g. viewBox=\"0 0 200 200\")")
    drawing.initialFontName = FONT  # renderPDF starts each drawing with a font: ours, embedded, not Helvetica
    digest = hashlib.sha1(data).hexdigest()[:16]
    _trial(drawing, digest)
    box = (root.get("viewBox") or "").replace(",", " ").split()
    shown = f"{float(box[2]):g} × {float(box[3]):g}" if len(box) == 4 else f"{drawing.width:g} × {drawing.height:g} pt"
    weight = 80 * (len(data) - embedded) + 4 * pixels + len(data)
    return ArtInfo("SVG", float(drawing.width), float(drawing.height), digest, shown, text), drawing, weight


def _check_svg(root, size: int) -> tuple[int, int]:
    """ArtError unless every reference in the SVG is to one of its own parts (`#id`, `url(#id)`) or a picture
    embedded as PNG or JPEG (checked as an image file is, their pixels together at most MAX_PIXELS); its viewBox four
    numbers with a width and height above 0; its markup at most MAX_SVG_MARKUP bytes and MAX_SVG_ELEMENTS elements
    once what repeats other elements (<use>, <image href="#id">, clip-path) is counted as them. Returns (the
    embedded pictures' pixels, the length of their data: addresses)."""
    from lxml import etree

    _check_viewbox(root.get("viewBox"))
    elements = list(root.iter(etree.Element))
    by_id: dict[str, int] = {}
    for i, el in enumerate(elements):
        by_id.setdefault(el.get("id"), i)
    pixels = embedded = 0
    repeats: list[list[int]] = [[] for _ in elements]  # the elements each one draws again, by index
    for i, el in enumerate(elements):
        name = etree.QName(el).localname
        for attr, value in el.items():
            local = etree.QName(attr).localname
            if local == "clip-path" or local == "style" and "clip-path" in value:  # converted again for each user
                repeats[i] += [by_id[target] for target in _FRAGMENT_URL.findall(value) if target in by_id]
            if local != "href" or name == "a" or not value:  # a link is no picture: svglib never follows it
                continue
            if value.startswith("#"):
                if name in _EXPANDED and value[1:] in by_id:
                    repeats[i].append(by_id[value[1:]])
                continue
            where = f"line {el.sourceline} of the SVG"
            pixels += _embedded_pixels(value, where)
            embedded += len(value)
            if pixels > MAX_PIXELS:
                raise ArtError(f"embeds pictures of {pixels / 1e6:.1f} Mpx together ({where}), {TOO_MANY_PIXELS}")
    if size - embedded > MAX_SVG_MARKUP:
        raise ArtError(f"is an SVG of {(size - embedded) / 2**20:.1f} MB besides its pictures, more than art may have "
                       f"({MAX_SVG_MARKUP // 2**20} MB): simplify it or export it as PNG")
    if _drawn(elements, repeats) > MAX_SVG_ELEMENTS:
        raise ArtError(f"is an SVG of more than {MAX_SVG_ELEMENTS} elements once what it repeats (<use>, "
                       f"<image href=\"#...\">, clip-path) is counted, more than art may have: simplify it or export "
                       f"it as PNG")
    return pixels, embedded


def _check_viewbox(box: str | None) -> None:
    """ArtError unless an SVG's viewBox (when it has one) is four numbers with a width and height above 0."""
    if box is None:
        return
    try:
        numbers = [float(v) for v in box.replace(",", " ").split()]
    except ValueError:
        numbers = []
    if len(numbers) != 4 or not all(map(math.isfinite, numbers)) or numbers[2] <= 0 or numbers[3] <= 0:
        raise ArtError(f"has a viewBox that is not four numbers with a width and height above 0: {box!r}")


def _embedded_pixels(value: str, where: str) -> int:
    """The pixels of a picture an SVG embeds (`data:image/png;base64,...`), checked as an image file is; ArtError
    for a reference to anything else (another file), data that is not base64 or no readable PNG or JPEG."""
    picture = _DATA_PICTURE.match(value)
    if picture is None:
        shown = value if len(value) <= 60 else value[:57] + "..."
        raise ArtError(f"refers to {shown!r} ({where}): an SVG may use only its own parts (#id) and "
                       f"pictures embedded in it as PNG or JPEG (data:image/png;base64,...), not other files")
    try:
        raw = base64.decodebytes(value[picture.end():].encode("ascii"))
    except (binascii.Error, UnicodeEncodeError) as e:
        raise ArtError(f"embeds a picture that is not base64 ({where}): {e}") from None
    declared = "PNG" if picture[1] == "png" else "JPEG"
    try:
        w, h = _picture(raw, declared)
    except _NotAPicture as e:
        if e.found:
            raise ArtError(f"embeds a picture said to be {declared} that is {e.found} ({where})") from None
        if e.reason:
            raise ArtError(f"embeds a {declared} picture that cannot be read ({where}): {e.reason}") from None
        raise ArtError(f"embeds a picture of {e.size()} ({where}), {TOO_MANY_PIXELS}") from None
    return w * h


def _drawn(elements: list, repeats: list[list[int]]) -> int:
    """How many elements svglib draws: each element with its children and what it repeats, counted without
    recursion (a chain of 10,000 <use>s is a loop here) and capped past MAX_SVG_ELEMENTS; a part that repeats
    itself counts as much as the cap (svglib stops such loops, but they have no place in art)."""
    index = {el: i for i, el in enumerate(elements)}
    children = [[index[c] for c in el.iterchildren() if c in index] for el in elements]
    cap = MAX_SVG_ELEMENTS + 1
    size: list[int | None] = [None] * len(elements)
    visiting = [False] * len(elements)
    stack = [(0, False)]
    while stack:
        i, done = stack.pop()
        if done:
            visiting[i] = False
            size[i] = min(cap, 1 + sum(size[j] or 0 for j in children[i]) + sum(size[j] or 0 for j in repeats[i]))
            continue
        if size[i] is not None:
            continue
        visiting[i] = True
        stack.append((i, True))
        for j in children[i] + repeats[i]:
            if visiting[j]:
                return cap  # a part repeating itself
            if size[j] is None:
                stack.append((j, False))
    return size[0] or 0


def _renderer(base):
    """svglib's renderer, with an element's `opacity` (which svglib ignores) multiplied into the fill and stroke
    opacity of every shape it draws: a half-transparent group is each of its shapes half transparent (where they
    overlap inside it, they show through each other, as they would not in a browser)."""

    class Renderer(base):
        def renderNode(self, node, parent=None):  # noqa: N802 (svglib's name)
            before = len(parent.contents) if parent is not None else 0
            super().renderNode(node, parent)
            opacity = _opacity(self.attrConverter, node)
            if opacity < 1 and parent is not None:
                for item in parent.contents[before:]:
                    _fade(item, opacity)

    return Renderer


def _opacity(converter, node) -> float:
    """An element's own `opacity` (attribute, style or stylesheet), from 0 to 1; 1 when it has none."""
    converter.findAttr(node, "opacity")  # (applies its style and the stylesheet's rules to its attributes)
    given = (node.etree_element.attrib.get("opacity") or "").strip()
    try:
        value = float(given[:-1]) / 100 if given.endswith("%") else float(given)
    except ValueError:
        return 1.0
    return min(1.0, max(0.0, value)) if math.isfinite(value) else 1.0


def _fade(shape, opacity: float) -> None:
    """Multiply a drawn shape's (a group's: each of its shapes') fill and stroke opacity by `opacity`."""
    from copy import copy

    for child in getattr(shape, "contents", None) or ():
        _fade(child, opacity)
    for colour_key, opacity_key in (("fillColor", "fillOpacity"), ("strokeColor", "strokeOpacity")):
        colour = getattr(shape, colour_key, None)
        if colour is None or not hasattr(colour, "alpha"):
            continue
        own = getattr(shape, opacity_key, None)
        faded = (colour.alpha if own is None else own) * opacity
        colour = copy(colour)  # a colour may be shared with other shapes (a <use>'s original)
        colour.alpha = faded
        setattr(shape, colour_key, colour)
        setattr(shape, opacity_key, faded)


def _standard_fonts():
    """svglib's font map, limited to the PDF's standard fonts: the font-family of an SVG's <text> never names a
    file to embed (svglib would try `<family>.ttf` relative to the working folder, or ask fontconfig)."""
    from svglib.fonts import FontMap

    class StandardFonts(FontMap):
        def register_font(self, font_family, font_path=None, weight="normal", style="normal", rlgFontName=None):
            if rlgFontName is None:  # a file to register: none
                return None, False
            return super().register_font(font_family, font_path, weight, style, rlgFontName)

        def use_fontconfig(self, font_name, weight="normal", style="normal"):
            return None, False

    return StandardFonts()


def scaled_pixels(info: ArtInfo, window_pt: float) -> tuple[int, int] | None:
    """The pixel size an image is scaled down to so that, fitted in a square window `window_pt` points wide, it
    prints at ART_DPI; None when it already prints at ART_DPI or less (or is an SVG)."""
    if info.kind == "SVG":
        return None
    inches = window_pt / POINTS_PER_INCH / max(info.width, info.height)  # inches per pixel, fitted
    dpi = 1 / inches
    if dpi <= ART_DPI + 0.5:
        return None
    f = ART_DPI / dpi
    return max(1, round(info.width * f)), max(1, round(info.height * f))


def place(c, path: str, x: float, y: float, w: float, h: float, window_pt: float | None = None) -> None:
    """Draw the art file fitted in the box (points), keeping its aspect, centred. The first use in a document
    defines its form XObject (the SVG's vectors, or the image at most ART_DPI in a `window_pt` wide window);
    every use places that one form. A canvas that places pictures itself (the phone's SVG) is handed the file."""
    if hasattr(c, "place_art"):
        return c.place_art(path, x, y, w, h)
    kind, info, payload = _loaded(path)
    shrink = scaled_pixels(info, window_pt or max(w, h))
    name = f"ART{info.digest}" + (f"_{shrink[0]}x{shrink[1]}" if shrink else "")
    if not c.hasForm(name):
        c.beginForm(name, lowerx=0, lowery=0, upperx=info.width, uppery=info.height)
        if kind == "SVG":
            _draw_svg(c, info, payload, path)
        else:
            c.drawImage(_reader(payload, kind, shrink), 0, 0, info.width, info.height, mask="auto")
        end_form(c, name)
    s = min(w / info.width, h / info.height)
    c.saveState()
    c.translate(x + (w - info.width * s) / 2, y + (h - info.height * s) / 2)
    c.scale(s, s)
    c.doForm(name)
    c.restoreState()


def end_form(c, name: str) -> None:
    """End the form being defined, its resources naming the graphics states (transparency) it uses: reportlab
    writes a form's fonts, pictures and procedure sets but leaves out its ExtGState, so a form drawn with an
    alpha would name a `/gRLs0 gs` its resources lack (poppler: "ExtGState 'gRLs0' is unknown"; drawn opaque)."""
    from reportlab.pdfbase import pdfdoc

    c.endForm()
    form = c._doc.idToObject.get(pdfdoc.xObjectName(name)) if hasattr(c, "_doc") else None
    if form is None or not getattr(form, "ExtGState", None) or form.Resources:
        return
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.ExtGState = form.ExtGState
    form.Resources = resources


_SVG_CODE = _Cache(CACHE_BUDGET // 4)  # an SVG's PDF operators by digest, kept when they name no document resource
_RESOURCE_OPS = re.compile(r"\b(?:Tf|Do|sh|cs|CS|scn|SCN)\b")  # (its transparency is kept: `_portable`)
_STATE_NAME = re.compile(r"/(gRLs\d+) gs\b")
_STATE_KEPT = re.compile(r"/~(\w+)~(\S+) gs\b")


def _draw_svg(c, info: ArtInfo, drawing, path: str) -> None:
    """An SVG's vectors into the form being defined: rendered by reportlab's renderPDF the first time in a process,
    then (when they use no font, image or graphics state, whose names belong to one document) the same operators
    again in the next game's PDF: a build renders each picture once, not once per game."""
    own_colours = getattr(c, "own_colours", False)  # a canvas converting every colour (a print service's CMYK):
    code = None if own_colours else _SVG_CODE.get(info.digest)  # the SVG drawn through it, never operators kept
    if code is not None:
        c._code.extend(_placed(code, c))  # reportlab's canvas keeps a form's operators in _code until endForm
        return
    if drawing is None:  # its operators were read from art_cache and have since been let go: read it again
        drawing = _svg(path, _read(path))[1]
    drawn = _render(drawing, c)
    if not own_colours:
        _keep(info.digest, drawn, c)


def _keep(digest: str, drawn: list, c) -> None:
    """Keep an SVG's operators for the next document when they name no resource of this one but its graphics
    states (an opacity), which are written as what they set (`_portable`)."""
    if not any(_RESOURCE_OPS.search(op) for op in drawn):
        kept = _portable(drawn, c)
        _SVG_CODE.put(digest, kept, sum(map(len, kept)) + 64 * len(kept))


def _portable(drawn: list, c) -> list:
    """Operators with each graphics state they use (`/gRLs0 gs`, a name of this form's) written as what it sets
    (`/~ca~0.35 gs`): reportlab names the states of a page or form in the order they are first set."""
    names = {name: (key, value) for (key, value), name in c._extgstate._c.items()}
    return [_STATE_NAME.sub(lambda m: f"/~{names[m[1]][0]}~{json.dumps(names[m[1]][1])} gs", op) for op in drawn]


def _placed(kept: list, c) -> list:
    """Kept operators for the page or form being drawn: each graphics state they set named in its own resources
    (the name reportlab gives it there, made if it is new)."""
    states = c._extgstate._c

    def name(m) -> str:
        key = (m[1], json.loads(m[2]))
        if key not in states:
            states[key] = "gRLs" + str(len(states))
        return f"/{states[key]} gs"

    return [_STATE_KEPT.sub(name, op) for op in kept]


def _render(drawing, c) -> list:
    """Draw an SVG's drawing on the canvas `c` (in a form being defined); its operators. Pictures embedded in the
    SVG become image XObjects (reportlab's renderPDF would write them inline, which a form cannot hold)."""
    from reportlab.graphics import renderPDF
    from reportlab.lib.utils import ImageReader

    class Renderer(renderPDF._PDFRenderer):
        def drawImage(self, image):
            if hasattr(image.path, "mode"):  # a picture svglib decoded from the SVG (files are refused)
                self._canvas.drawImage(ImageReader(image.path), image.x, image.y, image.width, image.height,
                                       mask="auto")

    start = len(c._code)
    Renderer().draw(renderPDF.renderScaledDrawing(drawing), c, 0, 0)
    return c._code[start:]


def _trial(drawing, digest: str) -> None:
    """Draw the SVG once on a scratch canvas, as a build will: ArtError for what cannot be drawn (a number that is
    not finite, something reportlab refuses); its operators are kept for the build when they name no resource."""
    from reportlab.pdfgen.canvas import Canvas

    register_fonts()  # the drawing starts in our font, as it does in a build
    scratch = Canvas(io.BytesIO())
    try:
        scratch.beginForm("trial", lowerx=0, lowery=0, upperx=drawing.width, uppery=drawing.height)
        drawn = _render(drawing, scratch)
        _keep(digest, drawn, scratch)  # (before the form ends: its graphics states' names are its own)
        scratch.endForm()
    except Exception as e:  # reportlab raises what its parts raise (ValueError for nan, TypeError, ...)
        raise ArtError(f"is an SVG that cannot be drawn: {e or type(e).__name__}") from None


def _reader(data: bytes, kind: str, shrink: tuple[int, int] | None):
    """What reportlab embeds: the file itself (a JPEG's bytes go in untouched as DCT; a PNG is decoded and its
    pixels written losslessly with Flate, its alpha as a soft mask), or the picture scaled down once to `shrink`
    (a JPEG re-encoded at quality 92, a PNG kept lossless)."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    if shrink is None:
        return ImageReader(io.BytesIO(data))
    with Image.open(io.BytesIO(data), formats=(kind,)) as im:
        small = im.resize(shrink, Image.LANCZOS)
    if kind == "JPEG":
        out = io.BytesIO()
        small.convert("RGB").save(out, "JPEG", quality=92)
        out.seek(0)
        return ImageReader(out)
    return ImageReader(small)
