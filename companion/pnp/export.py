"""Per-card PNGs for print services, rasterised from our own PDF (one renderer, not a second drawing path), and
that PDF itself, a card a page with its TrimBox and BleedBox."""
from __future__ import annotations

import io
import multiprocessing
import os
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image
from reportlab import rl_config
from reportlab.pdfgen import canvas as rl_canvas

from ..cards import CardSet, Component
from ..core.files import Update, all_written_over
from . import draw, faces
from .document import BuildSettings, cut_radius, metadata, printed_size, qr_text, qr_version
from .geometry import MM, SIZES

RECORD = ".companion-png"  # in each <game>-png/ folder: the files the last export wrote there
SERVICE_BLEED_MM = 25.4 / 8  # what print services ask for: 1/8 inch, so a poker card is 825 × 1125 px at 300 DPI
DPI = 300
MAX_WORKERS = 4


def _pixels(mm: float) -> int:
    return round(mm / 25.4 * DPI)


def card_pngs(card_set: CardSet, settings: BuildSettings, folder: Path) -> list[Path]:
    """Write `<id>.png` for every unique face and back into `folder` (see `many_card_pngs`)."""
    return many_card_pngs([(card_set, Path(folder))], settings)[0]


def many_card_pngs(games: list[tuple[CardSet, Path]], settings: BuildSettings) -> list[list[Path]]:
    """Every game's PNGs and cards.pdf; all the pages of all the games are rasterised by one set of worker
    processes. Each game's folder is written over as companion.core.files does it: the files made are swapped in only
    when every game's are made, the PNGs of cards no longer in the game (listed in RECORD by the last export) are
    removed, and anything else the folder holds (an order form, notes) is kept. A folder with no record (an older
    companion's export) has its files replaced and nothing else removed."""
    drawn = [_card_pages(card_set, settings) for card_set, _ in games]
    bleed = SERVICE_BLEED_MM
    updates = [Update(folder, RECORD, {"game": card_set.game}, unrecorded="replace") for card_set, folder in games]
    with all_written_over(updates) as stagings:
        jobs = []
        for g, (staging, (data, plan)) in enumerate(zip(stagings, drawn, strict=True)):
            (staging / "cards.pdf").write_bytes(data)  # the same cards as one PDF, a card a page
            card_set = games[g][0]
            jobs += [(g, i, str(staging / name), (_pixels(w + 2 * bleed), _pixels(h + 2 * bleed)),
                      _rounding(card_set, name, w, h, bleed, DPI)) for i, (name, w, h) in enumerate(plan)]
        _rasterise([data for data, _ in drawn], jobs)
    return [[Path(folder) / name for name, _, _ in plan] for (_, folder), (_, plan) in zip(games, drawn, strict=True)]


def _card_pages(card_set: CardSet, settings: BuildSettings, components: Iterable[Component] | None = None,
                bleed: float = SERVICE_BLEED_MM, backs: Iterable[Component] = ()) -> tuple[bytes, list]:
    """One PDF of a game's unique faces and backs, a card a page with `bleed` mm around it: (its bytes, (file name,
    trim width mm, trim height mm) of each page). `components`: the faces to draw (default: all but the backs), in
    their order, then the backs they use, then `backs` (more backs, at their own size)."""
    settings = settings.for_game(card_set)
    draw.register_fonts()
    rl_config.useA85 = 0  # binary streams, as the print document writes them: ASCII85 costs time for nothing
    buf = io.BytesIO()
    c = rl_canvas.Canvas(buf, invariant=1, initialFontName=draw.FONT)
    metadata(c, card_set, settings.lang, "cards")
    plan = []
    version = qr_version(card_set, settings)
    used_backs: dict[str, tuple[float, float]] = {}  # back id → size of the first card it backs
    for comp in card_set.components if components is None else components:
        if comp.kind == "back":
            continue
        w, h = SIZES[printed_size(comp, settings)]
        c.setPageSize(((w + 2 * bleed) * MM, (h + 2 * bleed) * MM))
        faces.paint_front(c, comp, card_set, settings.lang, bleed * MM, bleed * MM, w * MM, h * MM, bleed * MM,
                          qr_text(card_set, comp, settings), version, low_ink=settings.ink == "low")
        _boxes(c, w, h, bleed)
        c.showPage()
        plan.append((f"{comp.id}.png", w, h))
        if comp.back and settings.backs:
            used_backs.setdefault(comp.back, (w, h))
    for back in backs:
        used_backs.setdefault(back.id, SIZES[back.size])
    for back_id, (w, h) in used_backs.items():
        c.setPageSize(((w + 2 * bleed) * MM, (h + 2 * bleed) * MM))
        faces.paint_back(c, card_set.component(back_id), card_set, settings.lang, bleed * MM, bleed * MM,
                         w * MM, h * MM, bleed * MM, low_ink=settings.ink == "low")
        _boxes(c, w, h, bleed)
        c.showPage()
        plan.append((f"{back_id}.png", w, h))
    c.save()
    return buf.getvalue(), plan


def _render(pdfs: list[bytes], jobs: list[tuple[int, int, str, tuple[int, int]]], icc: bytes | None = None) -> None:
    """Rasterise pages into PNG files: (which PDF, page index, path, exact size in pixels); `icc`: the colour
    profile to embed (sRGB's, for a service that asks which)."""
    opened: dict[int, pdfium.PdfDocument] = {}
    extra = {"icc_profile": icc} if icc else {}
    for g, i, path, exact, radius in jobs:
        pdf = opened.get(g) or opened.setdefault(g, pdfium.PdfDocument(pdfs[g]))
        # zlib level 6: a third of the time of optimize=True, for files 7 % larger
        rounded(page_image(pdf, i, DPI, exact), radius).save(path, dpi=(DPI, DPI), compress_level=6, **extra)
    for pdf in opened.values():
        pdf.close()


def page_image(pdf: pdfium.PdfDocument, index: int, dpi: float, exact: tuple[int, int]) -> Image.Image:
    """One page of `_card_pages`'s PDF as an RGB picture of exactly `exact` pixels at `dpi`."""
    image = pdf[index].render(scale=dpi / 72).to_pil()
    if image.width < exact[0] or image.height < exact[1]:  # a page a rounding short of the size: never a black edge
        return image.resize(exact, Image.Resampling.LANCZOS)
    return image.crop((0, 0, *exact))


def _rounding(card_set: CardSet, name: str, w: float, h: float, bleed: float, dpi: float) -> float:
    """The radius in pixels of a page's rounded cut grown by its bleed (the file's `corner_radius` plus the bleed:
    a print service still gets its bleed, cut round at the corners); 0 for square corners."""
    size = next((n for n, (sw, sh) in SIZES.items() if abs(sw - w) < 0.01 and abs(sh - h) < 0.01), None)
    radius = cut_radius(card_set, card_set.component(name.removesuffix(".png")), size) if size else 0.0
    return (radius + bleed) / 25.4 * dpi if radius > 0 else 0.0


def rounded(picture: Image.Image, radius: float) -> Image.Image:
    """The picture with its corners rounded to `radius` pixels, transparent outside (edges antialiased); as it
    is for 0."""
    if radius <= 0:
        return picture
    picture = picture.convert("RGBA")
    picture.putalpha(corner_mask(picture.size, radius))
    return picture


def corner_mask(size: tuple[int, int], radius: float) -> Image.Image:
    """An 8-bit mask of `size`: opaque inside a rectangle of the whole size with corners rounded to `radius` pixels,
    drawn 4 times larger and scaled down for smooth edges."""
    from PIL import ImageDraw

    k = 4
    big = Image.new("L", (size[0] * k, size[1] * k), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, size[0] * k - 1, size[1] * k - 1), radius=radius * k, fill=255)
    return big.resize(size, Image.Resampling.BOX)


def _rasterise(pdfs: list[bytes], jobs: list, icc: bytes | None = None) -> None:
    """Render and encode on every core: one worker process each (started once for the whole export, not per
    card), every worker taking every n-th page so that they finish together; one core or a handful of pages stays
    in this process."""
    workers = min(os.cpu_count() or 1, MAX_WORKERS, max(1, len(jobs) // 8))
    if workers == 1:
        _render(pdfs, jobs, icc)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        for done in [pool.submit(_render, pdfs, jobs[k::workers], icc) for k in range(workers)]:
            done.result()


def _boxes(c, w: float, h: float, bleed: float) -> None:
    """A card alone on its page: the TrimBox is the card, the BleedBox the card and its bleed (the page)."""
    c.setTrimBox((bleed * MM, bleed * MM, (w + bleed) * MM, (h + bleed) * MM))
    c.setBleedBox((0, 0, (w + 2 * bleed) * MM, (h + 2 * bleed) * MM))
