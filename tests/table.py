"""A phone's photo of printed cards laid on a table, simulated: each card rendered from its PDF page as a home
printer prints it, laid in rows (each card turned a little, some upside down, the rows turned together; or each card
laid over the one before, a strip of it left showing, as players lay a hand or a sale), seen by a
camera tilted 20-35° from straight down (a pinhole of a phone's 26 mm-equivalent lens), then defocused (Gaussian
blur of a given sigma in the photo's pixels), lit unevenly with a shadow band across, sensor noise added and saved as
JPEG at quality 80. Used by tests/test_photo.py, tests/web/test_api_scan.py and benchmarks/bench_scan.py."""
from __future__ import annotations

import functools
import io
import math
import random
from dataclasses import dataclass

import zxingcpp
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from camera import printed_faces
from companion import library
from companion.pnp.document import BuildSettings, qr_version

BASE = "http://192.168.1.20:5000"  # a deck printed for a companion on the table's Wi-Fi
DPI = 400  # cards are rendered this sharp, then brought to about the photo's scale before the perspective
GAP_MM = (6, 14)  # between neighbouring cards in a row
TABLE = (128, 92, 60)  # a wooden table's brown


@dataclass(frozen=True)
class Laid:
    """A card in the photo: its id, where its code's centre lands and the side of its smallest module (photo px)."""

    id: str
    code_centre: tuple[float, float]
    module_px: float
    turned: bool = False  # laid upside down
    covered: bool = False  # another card lies over part of it


@functools.lru_cache(maxsize=8)
def printed(game: str, base: str = BASE, dpi: int = DPI, only: tuple[str, ...] | None = None
            ) -> dict[str, tuple[Image.Image, tuple[float, ...], int]]:
    """Every card face of `game` with a code (or those in `only`), as printed: `faces` of its card set."""
    return faces(library.load_game(game), base, dpi, only)


def faces(card_set, base: str = BASE, dpi: int = DPI, only: tuple[str, ...] | None = None
          ) -> dict[str, tuple[Image.Image, tuple[float, ...], int]]:
    """Every card face of `card_set` with a code (or those in `only`), as printed: id -> (RGB picture at `dpi`,
    the box of its first code found in it as fractions of the card (left, top, right, bottom), found by decoding the
    sharp picture; modules a side)."""
    settings = BuildSettings(base_url=base)
    version = qr_version(card_set, settings)
    out = {}
    for cid, _url, image in printed_faces(card_set, settings, dpi, ("back", "token"), only):
        found = [r for r in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
                 if r.format == zxingcpp.BarcodeFormat.QRCode]  # (not a Micro QR seen in a card's art)
        p = found[0].position
        xs = [q.x for q in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)]
        ys = [q.y for q in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)]
        out[cid] = (image, (min(xs) / image.width, min(ys) / image.height, max(xs) / image.width,
                            max(ys) / image.height), 17 + 4 * version)
    return out


class Camera:
    """A pinhole camera tilted `tilt` degrees from looking straight down at the table point (0, 0), `distance` mm
    away, its picture `size` pixels with a focal length of `focal` pixels."""

    def __init__(self, tilt: float, distance: float, size: tuple[int, int], focal: float):
        t = math.radians(tilt)
        self.centre = (0.0, -distance * math.sin(t), distance * math.cos(t))
        self.forward = (0.0, math.sin(t), -math.cos(t))
        self.up = (0.0, math.cos(t), math.sin(t))
        self.size, self.focal = size, focal

    def project(self, x: float, y: float) -> tuple[float, float]:
        """A table point (mm, y towards the camera, as a picture's y grows downwards) in the picture's pixels."""
        v = (x - self.centre[0], -y - self.centre[1], -self.centre[2])
        zc = sum(a * b for a, b in zip(v, self.forward, strict=True))
        xc = v[0]
        yc = -sum(a * b for a, b in zip(v, self.up, strict=True))
        return self.size[0] / 2 + self.focal * xc / zc, self.size[1] / 2 + self.focal * yc / zc


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (8 unknowns: no numpy needed)."""
    n = len(b)
    m = [row[:] + [v] for row, v in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def perspective(dst: list[tuple[float, float]], src: list[tuple[float, float]]) -> list[float]:
    """PIL's PERSPECTIVE coefficients taking each output point `dst[i]` to the input point `src[i]`."""
    a, b = [], []
    for (x, y), (u, v) in zip(dst, src, strict=True):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b.append(v)
    return _solve(a, b)


def layout(sizes_mm: list[tuple[float, float]], rng: random.Random, per_row: int = 5,
           overlap: tuple[float, float] | None = None, turned: float = 0.3):
    """Where each card lies on the table: (centre x, centre y in mm, angle in degrees, upside down), in rows of
    `per_row`, the whole layout centred on (0, 0) and turned by up to 20° (and half the time upside down); a share
    `turned` of the cards upside down in their row. With `overlap` (least, most mm), each card of a row lies over
    the one before, that many mm of it left showing on its left (turned by up to 4°, as cards laid over each other
    are kept neat)."""
    rows = [list(range(i, min(i + per_row, len(sizes_mm)))) for i in range(0, len(sizes_mm), per_row)]
    placed = []
    y = 0.0
    for row in rows:
        height = max(sizes_mm[i][1] for i in row)
        x = 0.0
        for i in row:
            w, h = sizes_mm[i]
            angle = rng.uniform(-4, 4) if overlap else rng.uniform(-12, 12)
            upside_down = rng.random() < turned
            placed.append((x + w / 2 + rng.uniform(-2, 2), y + height / 2 + rng.uniform(-3, 3),
                           angle + (180 if upside_down else 0), upside_down))
            x += rng.uniform(*overlap) if overlap else w + rng.uniform(*GAP_MM)
        y += height + rng.uniform(*GAP_MM) + 10
    xs = [p[0] for p in placed]
    ys = [p[1] for p in placed]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    turn = math.radians(rng.uniform(-20, 20) + (180 if rng.random() < 0.5 else 0))
    cos, sin = math.cos(turn), math.sin(turn)
    return [((x - cx) * cos - (y - cy) * sin, (x - cx) * sin + (y - cy) * cos, a + math.degrees(turn), down)
            for x, y, a, down in placed]


def _corners_mm(x: float, y: float, angle: float, w: float, h: float, box=(0, 0, 1, 1)):
    """A card's corners (or those of a box within it, as fractions) on the table: top left, top right, bottom right,
    bottom left of the card as printed."""
    t = math.radians(angle)
    cos, sin = math.cos(t), math.sin(t)
    out = []
    for fx, fy in ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])):
        dx, dy = (fx - 0.5) * w, (fy - 0.5) * h
        out.append((x + dx * cos - dy * sin, y + dx * sin + dy * cos))
    return out


def table_photo(game: str | tuple[str, ...], ids: list[str], rng: random.Random, *, size=(4000, 3000),
                sigma: float = 1.0, fill: float = 0.8, tilt: float | None = None, quality: int = 80,
                per_row: int = 5, dpi: int = DPI, overlap: tuple[float, float] | None = None, turned: float = 0.3,
                drawn: dict | None = None, glare: float = 0.0) -> tuple[bytes, list[Laid]]:
    """A JPEG photo of the cards `ids` of `game` (or of several games) laid on a table (an id twice: two copies),
    and where each card's code landed. `fill`: the share of the photo's width the layout spans (less when its
    height would not fit); `dpi`: how sharp the cards are rendered (a small photo needs less); `overlap` and
    `turned`: as `layout` lays them; `drawn`: the faces to lay (`faces`), else the game's own; `glare`: a lamp's
    white reflection on each code, a soft spot `glare` of the code's side across, somewhere on it."""
    cards = dict(drawn or {})
    for one in () if drawn else (game,) if isinstance(game, str) else game:
        cards.update(printed(one, dpi=dpi, only=None if dpi == DPI else tuple(sorted(set(ids)))))
    sizes = [(c[0].width / dpi * 25.4, c[0].height / dpi * 25.4) for c in (cards[i] for i in ids)]
    placed = layout(sizes, rng, per_row, overlap, turned)
    tilt = rng.uniform(20, 35) if tilt is None else tilt
    focal = size[0] / 2 / math.tan(math.radians(69.4 / 2))
    corners_mm = [pt for (x, y, a, _), (w, h) in zip(placed, sizes, strict=True) for pt in _corners_mm(x, y, a, w, h)]

    def span(distance):
        cam = Camera(tilt, distance, size, focal)
        pts = [cam.project(*p) for p in corners_mm]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return max((max(xs) - min(xs)) / size[0], (max(ys) - min(ys)) / size[1] / 0.92 * fill), pts

    lo, hi = 50.0, 20000.0
    for _ in range(40):  # the distance at which the layout spans `fill` of the width (or fits the height)
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if span(mid)[0] > fill else (lo, mid)
    cam = Camera(tilt, hi, size, focal)
    pts = span(hi)[1]
    shift = (size[0] / 2 - (min(p[0] for p in pts) + max(p[0] for p in pts)) / 2 + rng.uniform(-0.03, 0.03) * size[0],
             size[1] / 2 - (min(p[1] for p in pts) + max(p[1] for p in pts)) / 2)

    def seen(x, y):
        px, py = cam.project(x, y)
        return px + shift[0], py + shift[1]

    photo = _table(size, rng)
    laid = []
    for n, (cid, (x, y, a, down), (w, h)) in enumerate(zip(ids, placed, sizes, strict=True)):
        image, box, modules = cards[cid]
        dst = [seen(*p) for p in _corners_mm(x, y, a, w, h)]
        code = [seen(*p) for p in _corners_mm(x, y, a, w, h, box)]
        shortest = min(math.dist(code[i], code[(i + 1) % 4]) for i in range(4))
        on_top = not overlap or (n + 1) % per_row == 0 or n + 1 == len(ids)  # the last of its row
        laid.append(Laid(cid, (sum(p[0] for p in code) / 4, sum(p[1] for p in code) / 4), shortest / modules,
                         turned=down, covered=not on_top))
        _paste(photo, image, dst)
        if glare:
            _glare(photo, code, glare * shortest, rng)
    photo = _noise(_light(photo.filter(ImageFilter.GaussianBlur(sigma)), rng), rng, 5.0)
    out = io.BytesIO()
    photo.save(out, "JPEG", quality=quality)
    return out.getvalue(), laid


@functools.cache
def small_photo(game, ids: tuple[str, ...], seed: str = "test") -> tuple[bytes, list[Laid]]:
    """A small photo (2000 x 1500, sigma 0.8) for the tests: quick to make and to read, made once a process."""
    return table_photo(game, list(ids), random.Random(seed), size=(2000, 1500), sigma=0.8, fill=0.85, tilt=25,
                       dpi=200)


def _paste(photo: Image.Image, card: Image.Image, dst: list[tuple[float, float]]) -> None:
    """The card drawn onto the photo with its corners at `dst` (brought near the size it lands at first: no
    aliasing from a sharper source)."""
    left, top = math.floor(min(p[0] for p in dst)), math.floor(min(p[1] for p in dst))
    right, bottom = math.ceil(max(p[0] for p in dst)), math.ceil(max(p[1] for p in dst))
    longest = max(math.dist(dst[0], dst[1]), math.dist(dst[1], dst[2]), math.dist(dst[2], dst[3]),
                  math.dist(dst[3], dst[0]))
    factor = min(1.0, 1.5 * longest / max(card.size))
    if factor < 1:
        card = card.resize((round(card.width * factor), round(card.height * factor)), Image.Resampling.LANCZOS)
    w, h = card.size
    local = [(x - left, y - top) for x, y in dst]
    coeffs = perspective(local, [(0, 0), (w, 0), (w, h), (0, h)])
    box = (right - left, bottom - top)
    drawn = card.transform(box, Image.Transform.PERSPECTIVE, coeffs, Image.Resampling.BICUBIC)
    mask = Image.new("L", box, 0)
    ImageDraw.Draw(mask).polygon(local, fill=255)
    photo.paste(drawn, (left, top), mask)


def _glare(photo: Image.Image, code: list[tuple[float, float]], across: float, rng: random.Random) -> None:
    """A soft white spot `across` px wide (a lamp's reflection) somewhere on the code whose corners are `code`."""
    u, v = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)  # where on the code, as fractions of its sides
    top = [a + (b - a) * u for a, b in zip(code[0], code[1], strict=True)]
    bottom = [a + (b - a) * u for a, b in zip(code[3], code[2], strict=True)]
    x, y = (top[0] + (bottom[0] - top[0]) * v, top[1] + (bottom[1] - top[1]) * v)
    r = across / 2
    box = (math.floor(x - 2 * r), math.floor(y - 2 * r), math.ceil(x + 2 * r), math.ceil(y + 2 * r))
    mask = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0)
    ImageDraw.Draw(mask).ellipse((x - r - box[0], y - r * 0.75 - box[1], x + r - box[0], y + r * 0.75 - box[1]),
                                 fill=255)
    mask = mask.filter(ImageFilter.GaussianBlur(r / 8))
    photo.paste((250, 250, 247), box, mask)


def _table(size: tuple[int, int], rng: random.Random) -> Image.Image:
    """A wooden table: brown, with soft streaks of grain."""
    small = Image.new("RGB", (size[0] // 16, size[1] // 16), TABLE)
    d = ImageDraw.Draw(small)
    for _ in range(60):
        y = rng.uniform(0, small.height)
        shade = rng.randint(-18, 18)
        d.line([(0, y), (small.width, y + rng.uniform(-8, 8))], fill=tuple(max(0, v + shade) for v in TABLE),
               width=rng.randint(1, 4))
    return small.filter(ImageFilter.GaussianBlur(1.5)).resize(size, Image.Resampling.BILINEAR)


def _light(photo: Image.Image, rng: random.Random) -> Image.Image:
    """Uneven light (a lamp to one side: from full to about half brightness across the photo) and a soft shadow
    band (a phone's or an arm's) at about two thirds of the light."""
    w, h = photo.width // 20, photo.height // 20
    shade = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(shade)
    angle = rng.uniform(0, 2 * math.pi)
    darkest = rng.uniform(0.5, 0.7)
    for x in range(w):
        for y in range(h):
            along = ((x / w - 0.5) * math.cos(angle) + (y / h - 0.5) * math.sin(angle)) + 0.5
            shade.putpixel((x, y), round(255 * (1 - (1 - darkest) * min(1, max(0, along)))))
    band = Image.new("L", (w, h), 255)
    bd = ImageDraw.Draw(band)
    a = rng.uniform(0, math.pi)
    cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
    half = rng.uniform(0.06, 0.12) * max(w, h)
    dx, dy = math.cos(a) * 2 * max(w, h), math.sin(a) * 2 * max(w, h)
    nx, ny = -math.sin(a) * half, math.cos(a) * half
    bd.polygon([(cx - dx + nx, cy - dy + ny), (cx + dx + nx, cy + dy + ny), (cx + dx - nx, cy + dy - ny),
                (cx - dx - nx, cy - dy - ny)], fill=round(255 * rng.uniform(0.6, 0.75)))
    band = band.filter(ImageFilter.GaussianBlur(2))
    del d
    light = ImageChops.multiply(shade, band).resize(photo.size, Image.Resampling.BILINEAR)
    return ImageChops.multiply(photo, Image.merge("RGB", (light, light, light)))


def _noise(photo: Image.Image, rng: random.Random, sigma: float) -> Image.Image:
    """Sensor noise of standard deviation `sigma` (uniform, the same on each channel, from the seeded generator)."""
    spread = sigma * 3 ** 0.5 / 128
    noise = Image.frombytes("L", photo.size, rng.randbytes(photo.width * photo.height))
    noise = noise.point(lambda v: round(128 + (v - 128) * spread))
    return ImageChops.add(photo, Image.merge("RGB", (noise, noise, noise)), 1.0, -128)


def codes_seen(found_ids: list[str], laid: list[Laid]) -> tuple[int, int]:
    """(cards found, ids named that were not laid, counting copies): a card counts once per copy laid."""
    left = [c.id for c in laid]
    hits = wrong = 0
    for cid in found_ids:
        if cid in left:
            left.remove(cid)
            hits += 1
        else:
            wrong += 1
    return hits, wrong


def png_claiming(width: int, height: int) -> bytes:
    """A small PNG file whose header says `width` x `height` (what a decompression bomb says), made in no time."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b""))
