"""The QR codes in a photo of the table: a phone's picture (JPEG, PNG or WebP) read safely, turned as it was taken,
and searched with zxing-cpp in a few passes within a time budget; each code with its text and its corners."""
from __future__ import annotations

import io
import math
import re
import struct
import time
import warnings
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import zxingcpp
from PIL import Image, ImageFilter, UnidentifiedImageError

from .core.schema import InputError, problem

MiB = 1024 * 1024
MAX_BYTES = 20 * MiB  # a 12 MP phone JPEG is 2-6 MB, a 50 MP one 10-16 MB
MAX_REQUEST = MAX_BYTES + MiB  # the photo and its form's own lines (companion serve takes as much)
MAX_PIXELS = 50_000_000  # a 48/50 MP phone's full resolution; more is refused before it is decoded
SEARCHED_PIXELS = 12_600_000  # a larger photo is searched brought down to this (a 12 MP one as it is; a 50 MP
# JPEG decoded at half its size at once, a 20 MP one decoded whole and resized); up to a quarter more is kept
FORMATS = ("JPEG", "PNG", "WEBP")  # the JPEG reader also opens MPO: a JPEG with a second picture inside
BUDGET = 1.5  # seconds: no pass (or retry of a code) starts that would end past this, by the time the last took
QR = zxingcpp.BarcodeFormat.QRCode
# A JPEG's decoding walks every block of the picture once per scan: a camera's progressive JPEG has 10 scans (6 in grey,
# mozjpeg's up to about 20), a baseline one 1 to 4. A scan repeated thousands of times (26 bytes each) took a CPU
# for minutes; the scans and the segments (each walked by Pillow in Python) are counted before decoding.
MAX_SCANS = 40
MAX_SEGMENTS = 1000  # a camera's JPEG has a few dozen (APPn, tables, a DHT before each scan)
# A PNG's chunks are walked by Pillow in Python (3 µs each: a 20 MiB file of empty chunks, 1.7 million, took 5 s of a
# CPU); an encoder's IDAT chunks are 8-64 KiB, so a 20 MiB PNG has a few thousand. They are counted first.
MAX_CHUNKS = 20_000
PNG = b"\x89PNG\r\n\x1a\n"
MARKER = re.compile(rb"\xff([^\x00\x01\xd0-\xd7\xff])")  # a marker, as libjpeg finds one: FF (after any fill FFs)
# and a byte that is neither a stuffed 00 in a scan's data, TEM nor a restart marker
FIELD = ("photo",)
# What Pillow raises on a damaged or hostile file (found by mutating photos: struct.error from EXIF, among others)
DAMAGED = (OSError, ValueError, SyntaxError, EOFError, struct.error, TypeError, KeyError, IndexError,
           ZeroDivisionError, Image.DecompressionBombError)
# Pillow's words about a damaged file's EXIF (and its own 89 MP warning: MAX_PIXELS is checked first) are not kept
warnings.filterwarnings("ignore", category=UserWarning, module=r"PIL\.")
warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning, module=r"PIL\.")


@dataclass(frozen=True)
class Code:
    """One QR code found: what it says and its four corners (the code's own top left, top right, bottom right,
    bottom left) in the photo's pixels as the photo is seen (turned by its EXIF orientation)."""

    text: str
    corners: tuple[tuple[int, int], ...]

    @property
    def centre(self) -> tuple[float, float]:
        return _centre(self.corners)


@dataclass(frozen=True)
class Found:
    """What a photo holds: its codes, its size as seen, the size it was searched at, and the passes that ran (with
    their seconds)."""

    codes: list[Code]
    size: tuple[int, int]
    passes: list[tuple[str, float]]
    searched: tuple[int, int]


def open_photo(data: bytes) -> Image.Image:
    """The photo in `data` decoded in grey (all a code needs) and turned upright by its EXIF orientation; InputError
    naming what is wrong: too many bytes or pixels (checked before decoding, so a decompression bomb is refused
    unread), a JPEG of too many scans, not a JPEG, PNG or WebP, or cut short or damaged."""
    if not data:
        raise InputError([problem(FIELD, "is empty: choose a photo (JPEG, PNG or WebP)")])
    if len(data) > MAX_BYTES:
        raise InputError([problem(FIELD, "is larger than %(most)s MiB", most=MAX_BYTES // MiB)])
    if data.startswith(b"\xff\xd8"):
        _ordinary_jpeg(data)
    if data.startswith(PNG):
        _ordinary_png(data)
    try:
        image = Image.open(io.BytesIO(data), formats=FORMATS)
    except Image.DecompressionBombError:  # Pillow's refusal from the header, past 179 MP
        raise InputError([problem(FIELD, "has more than %(most)s megapixels", most=MAX_PIXELS // 1_000_000)]) from None
    except UnidentifiedImageError:
        if _heif(data):
            raise InputError([problem(FIELD, "is a HEIC or AVIF photo, which the companion does not read: send it "
                                             "as a JPEG (an iPhone's camera: Settings, Camera, Formats, Most "
                                             "Compatible)")]) from None
        raise InputError([problem(FIELD, "is not a photo the companion can read: send a JPEG, PNG or WebP "
                                         "picture")]) from None
    except DAMAGED:
        raise InputError([problem(FIELD, "could not be read: the picture is cut short or damaged")]) from None
    w, h = image.size
    if w * h > MAX_PIXELS:
        raise InputError([problem(FIELD, "has %(got)s megapixels (%(w)s × %(h)s); the most is %(most)s",
                                  got=round(w * h / 1e6), w=w, h=h, most=MAX_PIXELS // 1_000_000)])
    try:
        grey, turn = _grey(image)
    except DAMAGED:
        raise InputError([problem(FIELD, "could not be read: the picture is cut short or damaged")]) from None
    del image  # (the picture in colour, 4 bytes a pixel, is let go before the grey one is turned)
    upright = grey.transpose(turn) if turn is not None else grey
    upright.info["full_size"] = (w, h) if upright.size == grey.size else (h, w)
    return upright


def _grey(image: Image.Image) -> tuple[Image.Image, Image.Transpose | None]:
    """The opened photo decoded in grey, and the turn its EXIF orientation asks. A JPEG is decoded in grey at once
    (its Y plane alone), at 1/2, 1/4 or 1/8 of its size when it is searched smaller; any other picture is decoded
    whole (a 50 MP one takes 200 MB, RGB or RGBA alike) and made grey (50 MB) before it is turned."""
    w, h = image.size
    if w < 1 or h < 1:
        raise ValueError("no pixels")
    scale = _scale(w * h)
    if image.format in ("JPEG", "MPO"):
        image.draft("L", (math.ceil(w * scale * 0.9), math.ceil(h * scale * 0.9)) if scale < 1 else None)
    image.load()
    turn = _turn(image)
    return (image if image.mode == "L" else image.convert("L")), turn
def _ordinary_jpeg(data: bytes) -> None:
    """InputError when the JPEG (its first picture: up to its EOI) has more than MAX_SCANS scans or MAX_SEGMENTS
    segments, counted as libjpeg reads them: each segment skipped by its length, a scan's data up to the next
    marker."""
    scans = segments = 0
    at = 2
    while (found := MARKER.search(data, at)) is not None and found[1] != b"\xd9":
        segments += 1
        scans += found[1] == b"\xda"
        if scans > MAX_SCANS:
            raise InputError([problem(FIELD, "is a JPEG of more than %(most)s scans (a camera's has at most 20): "
                                             "save it again as an ordinary JPEG", most=MAX_SCANS)])
        if segments > MAX_SEGMENTS:
            raise InputError([problem(FIELD, "is a JPEG of more than %(most)s segments (a camera's has a few "
                                             "dozen): save it again as an ordinary JPEG", most=MAX_SEGMENTS)])
        at = found.end() + (int.from_bytes(data[found.end():found.end() + 2]) if found[1] != b"\xd8" else 0)


def _ordinary_png(data: bytes) -> None:
    """InputError when the PNG has more than MAX_CHUNKS chunks before its IEND, each skipped by its length as
    Pillow reads them."""
    at, chunks = len(PNG), 0
    while at + 8 <= len(data) and data[at + 4:at + 8] != b"IEND":
        chunks += 1
        if chunks > MAX_CHUNKS:
            raise InputError([problem(FIELD, "is a PNG of more than %(most)s chunks (an ordinary one has a few "
                                             "thousand at most): save it again as an ordinary PNG or a JPEG",
                                      most=MAX_CHUNKS)])
        at += 12 + int.from_bytes(data[at:at + 4])


def _heif(data: bytes) -> bool:
    """Whether `data` is a HEIF file (an iPhone's HEIC photo, or AVIF): an ISO media `ftyp` box naming a HEIF brand.
    (A phone's browser sends a JPEG from its camera; a HEIC arrives from a file sent on, or from a script.)"""
    return data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1",
                                                   b"msf1", b"avif", b"avis")


# EXIF orientation -> the turn that shows the photo as it was taken (as PIL.ImageOps.exif_transpose turns it)
TURNS = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
         5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
         8: Image.Transpose.ROTATE_90}


def _turn(image: Image.Image) -> Image.Transpose | None:
    """The turn that shows the photo as it was taken, by its EXIF orientation tag (None: as it is, or when the EXIF
    cannot be read)."""
    try:
        return TURNS.get(image.getexif().get(0x0112, 1))
    except DAMAGED:
        return None


def _scale(pixels: int) -> float:
    """The scale a photo of so many pixels is searched at (1: as it is)."""
    return min(1.0, math.sqrt(SEARCHED_PIXELS / pixels))


def find_codes(data: bytes, budget: float = BUDGET) -> Found:
    """Every QR code in the photo (InputError when it is not a photo that can be read; see `open_photo`).

    Three passes, each paying for itself on blurred photos (benchmarks/bench_scan.py): the photo as it is; then
    each code the first pass saw but could not read, cut out, sharpened, and again at twice its size; then the whole
    photo sharpened, when the time left allows (it costs about four plain passes)."""
    start = time.perf_counter()
    grey = open_photo(data)
    full = grey.info["full_size"]
    if grey.width * grey.height > 1.25 * SEARCHED_PIXELS:  # not drafted small enough on decoding
        scale = _scale(grey.width * grey.height)
        grey = grey.resize((round(grey.width * scale), round(grey.height * scale)), Image.Resampling.BOX)
    scale = (full[0] / grey.width, full[1] / grey.height)
    codes: list[Code] = []
    passes = [("open", time.perf_counter() - start)]
    began = time.perf_counter()
    doubtful = []
    for result in zxingcpp.read_barcodes(grey, formats=QR, return_errors=True):
        if result.valid:
            _keep(codes, result, (0, 0), 1, scale)
        else:
            doubtful.append(_quad(result, (0, 0), 1, (1, 1)))
    plain = time.perf_counter() - began
    passes.append(("plain", plain))
    began, slowest = time.perf_counter(), 0.0
    for quad in doubtful:
        now = time.perf_counter()
        if now - start + slowest > budget:
            break
        if not any(_inside(_centre(quad), _unscaled(kept.corners, scale)) for kept in codes):
            _again(grey, quad, codes, scale)
        slowest = max(slowest, time.perf_counter() - now)
    passes.append(("doubtful", time.perf_counter() - began))
    if time.perf_counter() - start + SHARPEN_COST * plain <= budget:
        began = time.perf_counter()
        sharp = grey.filter(ImageFilter.UnsharpMask(radius=2, percent=200, threshold=0))
        for result in zxingcpp.read_barcodes(sharp, formats=QR):
            _keep(codes, result, (0, 0), 1, scale)
        passes.append(("sharpened", time.perf_counter() - began))
    return Found(codes, full, passes, grey.size)


SHARPEN_COST = 4  # the whole photo sharpened and read, in plain passes (measured: 3 to 5)


def _again(grey: Image.Image, quad, codes: list[Code], scale: tuple[float, float]) -> None:
    """A code seen but not read, cut out with a margin and read sharpened, then sharpened at twice its size."""
    xs, ys = [x for x, _ in quad], [y for _, y in quad]
    margin = 0.6 * max(max(xs) - min(xs), max(ys) - min(ys))
    box = (max(0, int(min(xs) - margin)), max(0, int(min(ys) - margin)),
           min(grey.width, int(max(xs) + margin) + 1), min(grey.height, int(max(ys) + margin) + 1))
    if box[2] - box[0] < 8 or box[3] - box[1] < 8:
        return
    crop = grey.crop(box)
    tries = ((1, lambda c: c.filter(ImageFilter.UnsharpMask(radius=2, percent=200, threshold=0))),
             (2, lambda c: c.resize((c.width * 2, c.height * 2), Image.Resampling.BICUBIC)
              .filter(ImageFilter.UnsharpMask(radius=4, percent=200, threshold=0))))
    for times, make in tries:
        results = zxingcpp.read_barcodes(make(crop), formats=QR)
        for result in results:
            _keep(codes, result, box[:2], times, scale)
        if results:
            return


def _quad(result, offset: tuple[float, float], times: float, scale: tuple[float, float]):
    """A result's corners (its top left, top right, bottom right, bottom left) in the photo's pixels, from a reading
    of a piece of it cut at `offset` and enlarged `times`."""
    p = result.position
    return tuple((round((pt.x / times + offset[0]) * scale[0]), round((pt.y / times + offset[1]) * scale[1]))
                 for pt in (p.top_left, p.top_right, p.bottom_right, p.bottom_left))


def _unscaled(quad, scale: tuple[float, float]):
    return tuple((x / scale[0], y / scale[1]) for x, y in quad)


def _centre(quad) -> tuple[float, float]:
    return (sum(x for x, _ in quad) / 4, sum(y for _, y in quad) / 4)


def _keep(codes: list[Code], result, offset: tuple[float, float], times: float, scale: tuple[float, float]) -> None:
    """Add a decoded code unless a code already kept covers its centre (the same printed code read by another
    pass). Two copies of a card are two codes: they lie apart, so each is kept."""
    code = Code(result.text, _quad(result, offset, times, scale))
    if not any(_inside(code.centre, kept.corners) for kept in codes):
        codes.append(code)


def _inside(point: tuple[float, float], quad) -> bool:
    """Whether the point lies inside the (convex) quadrilateral, either way round."""
    x, y = point
    signs = set()
    for (x1, y1), (x2, y2) in zip(quad, quad[1:] + quad[:1], strict=True):
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        if cross:
            signs.add(cross > 0)
    return len(signs) == 1


def card_id(text: str, game: str) -> str | None:
    """The card a printed code names, if it is one of `game`'s: `BASE/C/<ID>` (any base: the deck may have been
    printed for another address) or the older `BASE/C/<GAME>/<ID>` and `BASE/c/<game>/<id>`, read as the card
    pages read them (the id in capitals). Whether the id is one of the game's cards is the caller's to check."""
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https"):
        return None
    segments = [unquote(s) for s in parts.path.split("/")]
    if len(segments) >= 3 and segments[-2] == "C":
        return segments[-1].upper() or None
    if len(segments) >= 4 and segments[-3] in ("C", "c") and segments[-2].lower() == game:
        return segments[-1].upper() or None
    return None
