"""Designers' art files on a face: SVG drawn as vectors (through svglib, never rasterised), PNG and JPEG placed as
images (JPEG bytes passed through as DCT; PNG pixels kept as they are, lossless), at most 300 DPI. Each file is read
once per process and embedded once per PDF, as one form XObject that every face using it places."""
from __future__ import annotations

import hashlib
import io
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..look import ART_DPI

FORMATS = {".svg": "SVG", ".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
POINTS_PER_INCH = 72.0


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


def inspect(path: str | Path) -> ArtInfo:
    """What an art file is and its size; ArtError if it is not a readable SVG, PNG or JPEG."""
    return _loaded(path)[1]


def _loaded(path: str | Path):
    """(kind, ArtInfo, payload: the SVG's drawing or the image's bytes), read once per file version in a process."""
    kind = FORMATS.get(Path(path).suffix.lower())
    if kind is None:
        raise ArtError("is not an SVG, PNG or JPEG file (by its name: .svg, .png, .jpg or .jpeg)")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ArtError("no such file") from None
    except OSError as e:
        raise ArtError(f"cannot be read ({e.strerror})") from None
    return (kind, *(_svg if kind == "SVG" else _image)(str(path), st.st_mtime_ns, st.st_size))


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except IsADirectoryError:
        raise ArtError("is a folder, not a file") from None
    except OSError as e:
        raise ArtError(f"cannot be read ({e.strerror})") from None


@lru_cache(maxsize=256)
def _svg(path: str, _mtime: int, _size: int):
    """(ArtInfo, reportlab Drawing): parsed strictly first (svglib alone would recover from broken XML), with no
    entities expanded and nothing fetched from the network."""
    from lxml import etree
    from svglib.svglib import SvgRenderer

    data = _read(path)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=False, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as e:
        raise ArtError(f"is not valid SVG: {e.msg} (line {e.lineno} of the SVG)") from None
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        raise ArtError(f"is not valid SVG: its root element is <{etree.QName(root).localname}>, not <svg> in the "
                       f"SVG namespace")
    text = next(root.iter("{http://www.w3.org/2000/svg}text"), None) is not None
    try:
        drawing = SvgRenderer(path).render(root)
    except Exception as e:  # svglib raises whatever its parts raise on what it cannot draw
        raise ArtError(f"is not an SVG svglib can draw: {e}") from None
    if not drawing.width or not drawing.height or drawing.width <= 0 or drawing.height <= 0:
        raise ArtError("is an SVG with no size: give it a viewBox (e.g. viewBox=\"0 0 200 200\")")
    digest = hashlib.sha1(data).hexdigest()[:16]
    box = (root.get("viewBox") or "").replace(",", " ").split()
    shown = f"{float(box[2]):g} × {float(box[3]):g}" if len(box) == 4 else f"{drawing.width:g} × {drawing.height:g} pt"
    from .draw import FONT

    drawing.initialFontName = FONT  # renderPDF starts each drawing with a font: ours, embedded, not Helvetica
    return ArtInfo("SVG", float(drawing.width), float(drawing.height), digest, shown, text), drawing


@lru_cache(maxsize=256)
def _image(path: str, _mtime: int, _size: int):
    """(ArtInfo, the file's bytes) for a PNG or JPEG, checked whole by Pillow."""
    from PIL import Image, UnidentifiedImageError

    data = _read(path)
    expected = FORMATS[Path(path).suffix.lower()]
    try:
        with Image.open(io.BytesIO(data)) as im:
            found, size = im.format, im.size
            im.load()  # decodes every pixel: a truncated file fails here, not in the middle of a build
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as e:
        raise ArtError(f"cannot be read as a {expected} image: {e}") from None
    if found != expected:
        raise ArtError(f"is named as a {expected} file but is {found or 'something else'}")
    return ArtInfo(expected, float(size[0]), float(size[1]), hashlib.sha1(data).hexdigest()[:16],
                   f"{size[0]} × {size[1]} px"), data


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
            _draw_svg(c, info, payload)
        else:
            c.drawImage(_reader(payload, kind, shrink), 0, 0, info.width, info.height, mask="auto")
        c.endForm()
    s = min(w / info.width, h / info.height)
    c.saveState()
    c.translate(x + (w - info.width * s) / 2, y + (h - info.height * s) / 2)
    c.scale(s, s)
    c.doForm(name)
    c.restoreState()


_SVG_CODE: dict[str, list[str]] = {}  # an SVG's PDF operators by digest, kept when they name no document resource
_RESOURCE_OPS = re.compile(r"\b(?:Tf|gs|Do|sh|cs|CS|scn|SCN)\b")


def _draw_svg(c, info: ArtInfo, drawing) -> None:
    """An SVG's vectors into the form being defined: rendered by reportlab's renderPDF the first time in a process,
    then (when they use no font, image or graphics state, whose names belong to one document) the same operators
    again in the next game's PDF: a build renders each picture once, not once per game."""
    code = _SVG_CODE.get(info.digest)
    if code is not None:
        c._code.extend(code)  # reportlab's canvas keeps a form's operators in _code until endForm
        return
    from reportlab.graphics import renderPDF

    start = len(c._code)
    renderPDF.draw(drawing, c, 0, 0)
    drawn = c._code[start:]
    if not any(_RESOURCE_OPS.search(op) for op in drawn):
        _SVG_CODE[info.digest] = list(drawn)


def _reader(data: bytes, kind: str, shrink: tuple[int, int] | None):
    """What reportlab embeds: the file itself (a JPEG's bytes go in untouched as DCT; a PNG is decoded and its
    pixels written losslessly with Flate, its alpha as a soft mask), or the picture scaled down once to `shrink`
    (a JPEG re-encoded at quality 92, a PNG kept lossless)."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    if shrink is None:
        return ImageReader(io.BytesIO(data))
    with Image.open(io.BytesIO(data)) as im:
        small = im.resize(shrink, Image.LANCZOS)
    if kind == "JPEG":
        out = io.BytesIO()
        small.convert("RGB").save(out, "JPEG", quality=92)
        out.seek(0)
        return ImageReader(out)
    return ImageReader(small)
