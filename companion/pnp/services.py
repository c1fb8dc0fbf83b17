"""The files a print-on-demand service takes (`companion build FILE --service NAME --out DIR`), one set per deck (the
cards and reference cards that share a printed size and a back), each named `<game>-<deck>…`:

- drivethrucards: one PDF per deck, a card a page, each copy's front followed by its back, each page the card and
  1/8 inch of bleed (TrimBox the card, BleedBox the page), square corners, no marks; CMYK only (littleCMS through a
  real press profile and an ink limit: `cmyk.py`), an output intent with that profile, marked PDF/X-1a:2003 and
  untrapped; no transparency (a face that has any, or a font the PDF cannot embed, is flattened: drawn whole at
  RASTER_DPI, then converted), every font embedded.
- thegamecrafter: one PNG per face (its copies in its name) and one per back, 300 DPI with the bleed, sRGB (the
  profile embedded), square corners.

What a service cannot take (a card size it does not print, a picture whose colours cannot be made CMYK) is an error
naming it, before anything is written; the files appear together or not at all (`core.files.written_over`), and
those of an earlier export that this one no longer makes are removed. Pieces that are not cards (tiles, tokens,
markers) are not in the files: a line says which, to print them from the home PDF."""
from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from ..cards import CardSet, Component, DataError
from ..components import SIZES
from ..core.files import written_over
from ..core.schema import InputError, Problem
from . import cmyk, draw, faces
from .document import BuildSettings, metadata, printed_size, qr_text, qr_version
from .export import DPI, SERVICE_BLEED_MM, _card_pages, _rasterise
from .geometry import CARD_KINDS, MM

RASTER_DPI = 600  # a face flattened for DriveThruCards: twice what the press prints, so text stays crisp


@dataclass(frozen=True)
class Service:
    name: str
    title: str
    sizes: tuple[str, ...]  # the card sizes it prints, by our names
    files: str  # "pdf" or "png"


# The card sizes each service's product list has, as we read them; a size missing here is refused, naming it.
SERVICES = {
    "drivethrucards": Service("drivethrucards", "DriveThruCards", ("poker", "mini"), "pdf"),
    "thegamecrafter": Service("thegamecrafter", "The Game Crafter", ("poker", "bridge", "mini"), "png"),
}


@dataclass
class Deck:
    """The cards of one printed size with one back: what a service prints as one product."""

    name: str  # <deck> in the file names
    size: str
    back: Component | None
    faces: list[Component] = field(default_factory=list)


def service_named(name: str) -> Service:
    found = SERVICES.get(name)
    if found is None:
        raise InputError([Problem(("service",), f"unknown print service {name!r}; expected "
                                                f"{' or '.join(SERVICES)}")])
    return found


def decks(card_set: CardSet, settings: BuildSettings, service: Service) -> tuple[list[Deck], list[Component]]:
    """The game's decks for a service, and the pieces that are not cards (left out); InputError naming the size
    a service does not print and the components printed at it."""
    grouped: dict[tuple[str, str | None], Deck] = {}
    left = []
    for c in card_set.components:
        if c.kind == "back":
            continue
        if c.kind not in CARD_KINDS:
            left.append(c)
            continue
        size = printed_size(c, settings)
        back = card_set.component(c.back) if c.back and settings.backs else None
        grouped.setdefault((size, back.id if back else None), Deck("", size, back)).faces.append(c)
    problems = []
    for (size, _), deck in grouped.items():
        if size not in service.sizes:
            w, h = SIZES[size]
            where = "--card-size" if settings.card_size else f"{card_set.path}: card_size"
            ids = ", ".join(c.id for c in deck.faces[:3]) + (" and more" if len(deck.faces) > 3 else "")
            problems.append(Problem(("service",), f"{service.title} prints no {size} cards ({w:g} × {h:g} mm; "
                                                  f"{where} gives them to {ids}); it prints "
                                                  f"{', '.join(service.sizes)}"))
    if problems:
        raise InputError(problems)
    sizes = [size for size, _ in grouped]
    for (size, back_id), deck in grouped.items():
        deck.name = size if sizes.count(size) == 1 else f"{size}-{(back_id or 'no-back').lower()}"
    return list(grouped.values()), left


def build_for_service(game_ids: list[str], out_dir: str | Path, settings: BuildSettings, name: str,
                      warn: Callable[[str], None] | None = None, only: list[str] | None = None) -> list[Path]:
    """Write each game's files for the service `name` into `out_dir`; the paths written."""
    from .build import _checked_games, proof_components
    from .design_check import safe_zone

    service = service_named(name)
    settings = replace(settings, bleed=0.0, crop_marks=False)
    if service.files == "pdf":  # the CMYK profile and littleCMS, found before anything is read or written
        try:
            cmyk.profile_bytes()
            cmyk.srgb()
        except cmyk.CmykError as e:
            raise InputError([Problem(("service",), f"{service.title}'s CMYK files cannot be made here: {e}")]) \
                from None
    card_sets = _checked_games(game_ids, settings, warn)
    wanted = proof_components(card_sets, only) if only is not None else None
    plans = []
    for card_set in card_sets:
        game_decks, left = decks(card_set, settings, service)
        if wanted is not None:
            ids = {c.id for c in wanted[card_set.game]}
            game_decks = [replace(d, faces=[c for c in d.faces if c.id in ids or (d.back and d.back.id in ids)])
                          for d in game_decks]
            game_decks = [d for d in game_decks if d.faces]
            left = [c for c in left if c.id in ids]
        if service.files == "pdf":
            _check_pictures(card_set, game_decks)
        plans.append((card_set, game_decks))
        if warn is not None:
            for line in safe_zone(card_set, settings.card_size):
                warn(line)
            if left:
                shown = ", ".join(f"{c.id} ({c.kind})" for c in left[:6]) + (" and more" if len(left) > 6 else "")
                warn(f"companion build: {card_set.game}: {service.title} prints cards only; not in its files: "
                     f"{shown} (print them from the home PDF)")
    written: list[Path] = []
    for card_set, game_decks in plans:
        folder = Path(os.path.abspath(out_dir))
        with written_over(folder, f".companion-{service.name}-{card_set.game}", {"game": card_set.game},
                          unrecorded="refuse") as staging:
            made = (_pdf_files if service.files == "pdf" else _png_files)(card_set, settings, game_decks, staging)
        written += [folder / p.name for p in made]
    return written


def _check_pictures(card_set: CardSet, game_decks: list[Deck]) -> None:
    """Every PNG or JPEG the decks' faces draw, read for what keeps its colours from being made CMYK: DataError
    naming the file and the first card, before anything is written."""
    from .design_check import pictures_drawn

    errors = []
    for path, ids in pictures_drawn(card_set, [c for d in game_decks for c in (*d.faces, *([d.back] if d.back
                                                                                             else []))]).items():
        if not path.lower().endswith((".png", ".jpg", ".jpeg")):
            continue
        try:
            with open(path, "rb") as f:
                problem = cmyk.picture_problem(f.read())
        except OSError as e:
            problem = f"cannot be read ({e.strerror})"
        if problem:
            errors.append(f"{card_set.path}: {ids[0]}: art: {os.path.relpath(path, os.path.dirname(card_set.path))!r}"
                          f" cannot be made CMYK for the print service: {problem}; save it as sRGB")
    if errors:
        raise DataError(errors)


# --- DriveThruCards: one CMYK PDF/X-1a per deck ------------------------------------------------------------------


def _to_cmyk(colour):
    """reportlab's colour hook on the CMYK canvas: any RGB colour as the service's CMYK (littleCMS), a CMYK one as
    it is. Opacity is left out: a face with transparency never reaches this canvas (it is flattened)."""
    if isinstance(colour, CMYKColor):
        return colour
    if not isinstance(colour, Color):
        colour = toColor(colour)
    c, m, y, k = cmyk.cmyk_of(*(max(0, min(255, round(v * 255))) for v in (colour.red, colour.green, colour.blue)))
    return CMYKColor(c, m, y, k, alpha=None)


class _CmykCanvas(Canvas):
    """A canvas that writes CMYK only: colours through `_to_cmyk`, greys too, every picture converted."""

    own_colours = True  # (art.py: an SVG is drawn through this canvas's colours, never from operators kept)

    def __init__(self, target, **kwargs):
        super().__init__(target, enforceColorSpace=_to_cmyk, **kwargs)

    def setFillGray(self, gray, alpha=None):  # noqa: N802 (reportlab's name)
        self.setFillColor(Color(gray, gray, gray))

    def setStrokeGray(self, gray, alpha=None):  # noqa: N802 (reportlab's name)
        self.setStrokeColor(Color(gray, gray, gray))

    def drawImage(self, image, x, y, width=None, height=None, mask=None, **kwargs):  # noqa: N802
        picture = _picture(image)
        if picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info:
            from PIL import Image

            flat = Image.new("RGB", picture.size, (255, 255, 255))  # (faces with such pictures are flattened
            flat.paste(picture.convert("RGBA"), mask=picture.convert("RGBA").split()[3])  # whole: never here)
            flat.info["icc_profile"] = picture.info.get("icc_profile")
            picture = flat
        return super().drawImage(ImageReader(cmyk.image_cmyk(picture)), x, y, width, height, mask=None, **kwargs)


def _picture(image):
    """A PIL picture from what reportlab's drawImage takes (a reader, a picture, a file name or file)."""
    from PIL import Image

    if isinstance(image, Image.Image):
        return image
    if isinstance(image, ImageReader):
        image.getSize()
        found = getattr(image, "_image", None)
        if found is not None:
            return found
        image = image.fp
    return Image.open(image)


def _paint(card_set: CardSet, settings: BuildSettings, comp: Component, size: str, version: int):
    """What draws a face (or a back) at `size` with the service's bleed, its bottom-left at (0, 0)."""
    w, h = SIZES[size]
    b = SERVICE_BLEED_MM * MM
    low = settings.ink == "low"
    if comp.kind == "back":
        return lambda c: faces.paint_back(c, comp, card_set, settings.lang, b, b, w * MM, h * MM, b, low_ink=low)
    return lambda c: faces.paint_front(c, comp, card_set, settings.lang, b, b, w * MM, h * MM, b,
                                       qr_text(card_set, comp, settings), version, low_ink=low)


def _page_size(size: str) -> tuple[float, float]:
    w, h = SIZES[size]
    return (w + 2 * SERVICE_BLEED_MM) * MM, (h + 2 * SERVICE_BLEED_MM) * MM


def _scratch(paint, page: tuple[float, float]) -> bytes:
    """One face drawn alone as the home print draws it (RGB, a page of its own)."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=page, invariant=1, initialFontName=draw.FONT)
    paint(c)
    c.showPage()
    c.save()
    return buf.getvalue()


def needs_flattening(pdf_bytes: bytes) -> bool:
    """Whether a page draws anything with transparency (a soft mask, an opacity below 1, a blend mode) or with a
    font the PDF does not embed (an SVG's <text>): what a PDF/X-1a file cannot hold."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        return any(_unfit(page.obj.get("/Resources"), set()) for page in pdf.pages)


def _unfit(resources, seen: set) -> bool:
    import pikepdf

    if not isinstance(resources, pikepdf.Dictionary):
        return False
    for state in (resources.get("/ExtGState") or {}).values():
        if float(state.get("/CA", 1)) < 1 or float(state.get("/ca", 1)) < 1:
            return True
        if str(state.get("/SMask", "/None")) != "/None" or str(state.get("/BM", "/Normal")) not in ("/Normal",
                                                                                                    "/Compatible"):
            return True
    for font in (resources.get("/Font") or {}).values():
        if not _embedded(font):
            return True
    for xobject in (resources.get("/XObject") or {}).values():
        key = xobject.objgen
        if key in seen:
            continue
        seen.add(key)
        if xobject.get("/Subtype") == "/Image" and ("/SMask" in xobject or "/Mask" in xobject):
            return True
        if xobject.get("/Subtype") == "/Form" and _unfit(xobject.get("/Resources"), seen):
            return True
    return False


def _embedded(font) -> bool:
    fonts = [font] + list(font.get("/DescendantFonts") or [])
    return any(any(k in (f.get("/FontDescriptor") or {}) for k in ("/FontFile", "/FontFile2", "/FontFile3"))
               for f in fonts)


def _flattened(pdf_bytes: bytes, size: str):
    """A page drawn whole at RASTER_DPI and converted to CMYK: a face whose transparency is thus flattened."""
    import pypdfium2 as pdfium

    from .export import page_image

    w, h = SIZES[size]
    exact = tuple(round((v + 2 * SERVICE_BLEED_MM) / 25.4 * RASTER_DPI) for v in (w, h))
    pdf = pdfium.PdfDocument(pdf_bytes)
    try:
        picture = page_image(pdf, 0, RASTER_DPI, exact)
    finally:
        pdf.close()
    return cmyk.image_cmyk(picture.convert("RGB"))


def _pdf_files(card_set: CardSet, settings: BuildSettings, game_decks: list[Deck], staging: Path) -> list[Path]:
    settings = settings.for_game(card_set)
    draw.register_fonts()
    version = qr_version(card_set, settings)
    made = []
    for deck in game_decks:
        path = staging / f"{card_set.game}-{deck.name}.pdf"
        path.write_bytes(_pdf(card_set, settings, deck, version))
        made.append(path)
    return made


def _pdf(card_set: CardSet, settings: BuildSettings, deck: Deck, version: int) -> bytes:
    """One deck's PDF/X-1a: a page per face of every copy, each followed by its back."""
    from reportlab import rl_config

    rl_config.useA85 = 0
    page = _page_size(deck.size)
    buf = io.BytesIO()
    c = _CmykCanvas(buf, pagesize=page, invariant=1, pageCompression=1, initialFontName=draw.FONT)
    metadata(c, card_set, settings.lang, f"{deck.name} cards for DriveThruCards")
    drawn: set[str] = set()

    def form(comp: Component | None) -> str:
        name = f"S{comp.id if comp else 'BLANK'}".replace("-", "_")
        if name in drawn:
            return name
        c.beginForm(name, lowerx=0, lowery=0, upperx=page[0], uppery=page[1])
        if comp is None:  # a card without a back: a plain paper back
            c.setFillColor(draw.PAPER)
            c.rect(0, 0, *page, stroke=0, fill=1)
        else:
            paint = _paint(card_set, settings, comp, deck.size, version)
            alone = _scratch(paint, page)
            if needs_flattening(alone):
                c.drawImage(ImageReader(_flattened(alone, deck.size)), 0, 0, *page)
            else:
                paint(c)
        c.endForm()
        drawn.add(name)
        return name

    trim = (SERVICE_BLEED_MM * MM, SERVICE_BLEED_MM * MM, page[0] - SERVICE_BLEED_MM * MM,
            page[1] - SERVICE_BLEED_MM * MM)
    for comp in deck.faces:
        for _ in range(comp.qty):
            for side in (comp, deck.back):
                c.setPageSize(page)
                c.doForm(form(side))
                c.setTrimBox(trim)
                c.setBleedBox((0, 0, *page))
                c.showPage()
    c.save()
    return pdfx(buf.getvalue(), card_set.title.get(settings.lang))


def pdfx(data: bytes, title: str) -> bytes:
    """A CMYK PDF marked as PDF/X-1a:2003: its output intent (GTS_PDFX, the CMYK profile embedded), the version
    and trapping keys in its document information; PDF 1.4."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        profile = pdf.make_stream(cmyk.profile_bytes())
        profile["/N"] = 4
        pdf.Root["/OutputIntents"] = pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(cmyk.OUTPUT_CONDITION),
            OutputCondition=pikepdf.String("SWOP (US web coated), ink limited to 240 %"),
            RegistryName=pikepdf.String("http://www.color.org"),
            Info=pikepdf.String(os.path.basename(cmyk.profile_path())), DestOutputProfile=profile)])
        info = pdf.docinfo
        info["/GTS_PDFXVersion"] = pikepdf.String("PDF/X-1a:2003")
        info["/GTS_PDFXConformance"] = pikepdf.String("PDF/X-1a:2003")
        info["/Trapped"] = pikepdf.Name("/False")
        info["/Title"] = pikepdf.String(title)
        out = io.BytesIO()
        pdf.save(out, force_version="1.4", deterministic_id=True)
    return out.getvalue()


# --- The Game Crafter: a PNG per face and per back ---------------------------------------------------------------


def _png_files(card_set: CardSet, settings: BuildSettings, game_decks: list[Deck], staging: Path) -> list[Path]:
    from PIL import ImageCms

    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    pdfs, jobs, made = [], [], []
    for deck in game_decks:
        data, plan = _card_pages(card_set, settings, deck.faces, SERVICE_BLEED_MM,
                                 backs=[deck.back] if deck.back else ())
        pdfs.append(data)
        qty = {c.id: c.qty for c in deck.faces}
        for i, (name, w, h) in enumerate(plan):
            card_id = name.removesuffix(".png")
            file = (f"{card_set.game}-{deck.name}-{card_id}-x{qty[card_id]}.png" if card_id in qty
                    else f"{card_set.game}-{deck.name}-back.png")
            exact = tuple(round((v + 2 * SERVICE_BLEED_MM) / 25.4 * DPI) for v in (w, h))
            jobs.append((len(pdfs) - 1, i, str(staging / file), exact, 0.0))
            made.append(staging / file)
    _rasterise(pdfs, jobs, icc=icc)
    return made
