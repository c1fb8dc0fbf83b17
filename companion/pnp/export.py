"""Per-card PNGs for print services, rasterised from our own PDF (one renderer, not a second drawing path), and
that PDF itself, a card a page with its TrimBox and BleedBox."""
from __future__ import annotations

import io
import os
from pathlib import Path

import pypdfium2 as pdfium
from reportlab.pdfgen import canvas as rl_canvas

from ..cards import CardSet
from ..files import written_whole
from . import draw, faces
from .document import BuildSettings, printed_size, qr_text, qr_version
from .geometry import MM, SIZES

SERVICE_BLEED_MM = 25.4 / 8  # what print services ask for: 1/8 inch, so a poker card is 825 × 1125 px at 300 DPI
DPI = 300


def _pixels(mm: float) -> int:
    return round(mm / 25.4 * DPI)


def card_pngs(card_set: CardSet, settings: BuildSettings, folder: Path) -> list[Path]:
    """Write `<id>.png` for every unique face and back into `folder` (replaced as a whole, atomically)."""
    draw.register_fonts()
    bleed = SERVICE_BLEED_MM
    buf = io.BytesIO()
    c = rl_canvas.Canvas(buf, invariant=1, initialFontName=draw.FONT)
    plan = []  # (file name, trim width mm, trim height mm)
    version = qr_version(card_set, settings)
    used_backs: dict[str, tuple[float, float]] = {}  # back id → size of the first card it backs
    for comp in card_set.components:
        if comp.kind == "back":
            continue
        w, h = SIZES[printed_size(comp, settings)]
        c.setPageSize(((w + 2 * bleed) * MM, (h + 2 * bleed) * MM))
        draw.draw_face(c, faces.face(comp, card_set, settings.lang), bleed * MM, bleed * MM, w * MM, h * MM,
                       bleed * MM, comp.id, qr_text(card_set, comp, settings), version, low_ink=settings.ink == "low")
        _boxes(c, w, h, bleed)
        c.showPage()
        plan.append((f"{comp.id}.png", w, h))
        if comp.back and settings.backs:
            used_backs.setdefault(comp.back, (w, h))
    for back_id, (w, h) in used_backs.items():
        c.setPageSize(((w + 2 * bleed) * MM, (h + 2 * bleed) * MM))
        draw.draw_back(c, faces.back(card_set.component(back_id), card_set, settings.lang), bleed * MM, bleed * MM,
                       w * MM, h * MM, bleed * MM, low_ink=settings.ink == "low")
        _boxes(c, w, h, bleed)
        c.showPage()
        plan.append((f"{back_id}.png", w, h))
    c.save()
    pdf = pdfium.PdfDocument(buf.getvalue())
    folder = Path(folder)
    with written_whole(folder) as staging:
        (staging / "cards.pdf").write_bytes(buf.getvalue())  # the same cards as one PDF, a card a page
        for i, (name, w, h) in enumerate(plan):
            image = pdf[i].render(scale=DPI / 72).to_pil()
            exact = (_pixels(w + 2 * bleed), _pixels(h + 2 * bleed))
            image.crop((0, 0, *exact)).save(staging / name, dpi=(DPI, DPI), optimize=True)
        os.chmod(staging, 0o755)
    return [folder / name for name, _, _ in plan]


def _boxes(c, w: float, h: float, bleed: float) -> None:
    """A card alone on its page: the TrimBox is the card, the BleedBox the card and its bleed (the page)."""
    c.setTrimBox((bleed * MM, bleed * MM, (w + bleed) * MM, (h + bleed) * MM))
    c.setBleedBox((0, 0, (w + 2 * bleed) * MM, (h + 2 * bleed) * MM))
