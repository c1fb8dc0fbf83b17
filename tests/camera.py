"""A phone camera, simulated: each printed card rendered at 150 DPI as a home printer prints it, then seen the way a
phone at arm's length sees it in a dim room (tilted, out of focus, noisy, darker, JPEG-compressed), and its QR code
decoded. Used by the tests (at least 99 % must decode) and by benchmarks/bench_qr.py (the figures)."""
from __future__ import annotations

import io
import random

import pypdfium2 as pdfium
import zxingcpp
from PIL import Image, ImageChops, ImageEnhance, ImageFilter
from reportlab.pdfgen import canvas as rl_canvas

from companion.cards import CardSet
from companion.pnp import draw, faces
from companion.pnp.document import BuildSettings, printed_size, qr_text, qr_version
from companion.pnp.geometry import MM, SIZES

DPI = 150


def printed_cards(card_set: CardSet, settings: BuildSettings) -> list[tuple[str, str, Image.Image]]:
    """(id, the URL its code should say, the card as printed at 150 DPI, grey) for every unique face with a code."""
    return [(cid, url, image.convert("L")) for cid, url, image in printed_faces(card_set, settings, DPI)]


def printed_faces(card_set: CardSet, settings: BuildSettings, dpi: int, left_out: tuple[str, ...] = ("back",),
                  only: tuple[str, ...] | None = None) -> list[tuple[str, str, Image.Image]]:
    """(id, the URL its code says, the face as printed at `dpi`, RGB) for every unique face with a code, but those of
    the kinds `left_out` (or all but `only`): each drawn by the print's own renderer and rendered by pdfium."""
    draw.register_fonts()
    version = qr_version(card_set, settings)
    buf = io.BytesIO()
    c = rl_canvas.Canvas(buf, invariant=1)
    plan = []
    for comp in card_set.components:
        url = qr_text(card_set, comp, settings) if comp.kind not in left_out else None
        if not url or (only is not None and comp.id not in only):
            continue
        w, h = SIZES[printed_size(comp, settings)]
        c.setPageSize((w * MM, h * MM))
        faces.paint_front(c, comp, card_set, settings.lang, 0, 0, w * MM, h * MM, 0, url, version)
        c.showPage()
        plan.append((comp.id, url))
    c.save()
    pdf = pdfium.PdfDocument(buf.getvalue())
    return [(cid, url, pdf[i].render(scale=dpi / 72).to_pil().convert("RGB")) for i, (cid, url) in enumerate(plan)]


def as_a_phone_sees_it(image: Image.Image, rng: random.Random) -> Image.Image:
    """Tilt (up to 8 % at the corners), defocus, a dim room, sensor noise and JPEG at quality 60."""
    w, h = image.size
    margin = round(0.1 * max(w, h))  # the table around the card: the phone frames the whole card, tilted or not
    pad = Image.new("L", (w + 2 * margin, h + 2 * margin), 235)
    pad.paste(image, (margin, margin))
    W, H = pad.size
    d = [rng.uniform(-0.08, 0.08) * s for s in (W, H, W, H, W, H, W, H)]
    corners = (d[0], d[1], W + d[2], d[3], W + d[4], H + d[5], d[6], H + d[7])
    seen = pad.transform((W, H), Image.Transform.QUAD, corners, Image.Resampling.BILINEAR, fillcolor=235)
    seen = seen.filter(ImageFilter.GaussianBlur(rng.uniform(0.6, 1.1)))
    seen = ImageEnhance.Brightness(ImageEnhance.Contrast(seen).enhance(0.75)).enhance(0.8)
    seen = _add_noise(seen, rng)
    out = io.BytesIO()
    seen.save(out, "JPEG", quality=60)
    return Image.open(io.BytesIO(out.getvalue()))


def _add_noise(image: Image.Image, rng: random.Random, sigma: float = 8.0) -> Image.Image:
    """Sensor noise of standard deviation `sigma` (uniform, from the seeded generator, so every run is the same)."""
    spread = sigma * 3 ** 0.5 / 128  # a uniform spread of ±sigma·√3 has standard deviation sigma
    noise = Image.frombytes("L", image.size, rng.randbytes(image.size[0] * image.size[1]))
    return ImageChops.add(image, noise.point(lambda v: round(128 + (v - 128) * spread)), 1.0, -128)


def decodes(image: Image.Image, url: str) -> bool:
    return any(r.text == url for r in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode))


def decode_rate(card_set: CardSet, settings: BuildSettings, seed: str = "phone") -> tuple[int, int, list[str]]:
    """(decoded, tried, ids that failed) over every unique card with a code."""
    rng = random.Random(f"{seed}-{card_set.game}")
    ok, failed = 0, []
    cards = printed_cards(card_set, settings)
    for cid, url, image in cards:
        if decodes(as_a_phone_sees_it(image, rng), url):
            ok += 1
        else:
            failed.append(cid)
    return ok, len(cards), failed
