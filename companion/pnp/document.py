"""One game's print-and-play PDF: a calibration page, then fronts and their backs, page boxes, atomic writing."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

from reportlab import rl_config
from reportlab.lib.colors import HexColor, white
from reportlab.pdfgen import canvas as rl_canvas

from .. import __version__
from ..cards import CardSet, Component
from ..components import CARD_SIZES
from ..core.i18n import LANGS, N_, _
from ..core.schema import INVALID, LANG_CODE, Problem, Problems
from . import cover, draw, faces, geometry
from .geometry import CARD_KINDS, MM, Layout, Rect, cut_radius, layout

QR_CHOICES = ("rules", "none")
INK_CHOICES = ("normal", "low")
BACK_BLEED = 3.0  # mm: backs always run this far past the cut on the outside of the block, whatever the bleed
BLANK_SIDE = N_("This side stays blank: the pieces on the other side have no backs.")


@dataclass(frozen=True)
class BuildSettings:
    paper: str = "a4"
    bleed: float = 0.0
    base_url: str = "http://127.0.0.1:5000"
    lang: str | None = None  # default: each game's first language (its file's `languages:`, else Spanish)
    card_size: str | None = None  # poker, bridge or mini for cards and reference cards; default: the data's
    crop_marks: bool = True
    offset: tuple[float, float] = (0.0, 0.0)  # mm, moves the backs to correct a duplex printer
    layout: str = "duplex"  # or gutterfold
    backs: bool = True
    qr: str = "rules"  # "rules": every card's code opens its rules page; "none": no codes printed
    ink: str = "normal"  # or "low": light backs and outlined bands, for home printers

    def problems(self) -> list[Problem]:
        """What is wrong with these settings, each named by its option (`paper`, `lang`, `base-url`...); [] if none."""
        out = [Problem((setting,), message) for setting, message in geometry.problems(self.paper, bleed=self.bleed)]
        if self.lang is not None and LANG_CODE.check(self.lang, ("lang",), Problems()) is INVALID:
            out.append(Problem(("lang",), f"unknown language {self.lang!r}; expected a language code such as "
                                          f"{', '.join(LANGS)} or fr"))
        if self.card_size not in (None, *CARD_SIZES):
            out.append(Problem(("card-size",), f"unknown card size {self.card_size!r}; expected "
                                               f"{', '.join(CARD_SIZES[:-1])} or {CARD_SIZES[-1]}"))
        if self.layout not in ("duplex", "gutterfold"):
            out.append(Problem(("layout",), f"unknown layout {self.layout!r}; expected duplex or gutterfold"))
        if self.ink not in INK_CHOICES:
            out.append(Problem(("ink",), f"unknown ink choice {self.ink!r}; expected {' or '.join(INK_CHOICES)}"))
        if self.qr not in QR_CHOICES:
            out.append(Problem(("qr",), f"unknown QR choice {self.qr!r}; expected {' or '.join(QR_CHOICES)}"))
        if any(abs(v) > 10 for v in self.offset):
            out.append(Problem(("offset",), "a duplex offset must be within ±10 mm"))
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            out.append(Problem(("base-url",), f"must be an http(s) address like http://192.168.1.20:5000, got "
                                              f"{self.base_url!r}"))
        return out

    def for_game(self, card_set: CardSet) -> BuildSettings:
        """These settings for one game: without --lang, in the first language its file writes."""
        return self if self.lang else replace(self, lang=card_set.languages[0])

    def game_problems(self, card_set: CardSet) -> list[Problem]:
        """A --lang the game's file does not write (its `languages:`, else Spanish and English)."""
        if self.lang is None or self.lang in card_set.languages:
            return []
        return [Problem(("lang",), f"unknown language {self.lang!r} for {card_set.game}: its file writes "
                                   f"{', '.join(card_set.languages)}")]


def card_url(base_url: str, card_id: str) -> str:
    """What a card's QR code says: `BASE/C/<printed id>`, its rules page (ids are unique across games). Scheme and
    host are written in capitals (case-insensitive), so that with a base path in capitals or none the whole code
    uses QR's compact alphanumeric mode; a lower-case base path stays as typed (static hosts tell case apart)."""
    parts = urlsplit(base_url.rstrip("/"))
    return f"{parts.scheme}://{parts.netloc}".upper() + parts.path + f"/C/{card_id}"


def printed_size(c: Component, settings: BuildSettings) -> str:
    """The size a component prints at: --card-size overrides the data for cards and reference cards."""
    return settings.card_size if (settings.card_size and c.kind in CARD_KINDS) else c.size


def qr_text(card_set: CardSet, c: Component, settings: BuildSettings) -> str | None:
    """What the component's QR code says; tokens are too small to carry one, and `--qr none` prints none."""
    return card_url(settings.base_url, c.id) if c.kind != "token" and settings.qr != "none" else None


def qr_version(card_set: CardSet, settings: BuildSettings) -> int:
    """One QR version for the whole game: the lowest that holds its longest card address."""
    return draw.qr_version(filter(None, (qr_text(card_set, c, settings)
                                         for c in card_set.components if c.kind != "back")))


@dataclass
class _Section:
    size: str
    components: list[Component] = field(default_factory=list)


def _sections(card_set: CardSet, settings: BuildSettings) -> list[_Section]:
    """Physical copies grouped by printed size, in data order: cards and reference cards first."""
    order: dict[str, _Section] = {}
    for c in card_set.components:
        if c.kind == "back":
            continue
        size = printed_size(c, settings)
        order.setdefault(size, _Section(size)).components.extend([c] * c.qty)
    # Sections with backs first: the ones without (tiles, tokens) then need no blank back pages in duplex.
    return sorted(order.values(), key=lambda sec: not any(comp.back for comp in sec.components))


def _points(r: Rect) -> tuple[float, float, float, float]:
    return r.x * MM, r.y * MM, r.w * MM, r.h * MM


def _marks(c, marks) -> None:
    c.saveState()
    c.setStrokeColor(HexColor("#000000"))
    c.setLineWidth(0.3)
    for x1, y1, x2, y2 in marks:
        c.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
    c.restoreState()


def _cuts(c, pieces: list[tuple[Rect, float]], marks: bool, outline: bool) -> None:
    """Each piece's rounded cut shown on the sheet: its whole outline with `cut_outline`, else (with crop marks) the
    arcs of its rounded corners, where a corner punch or scissors go; nothing for square corners without outline."""
    pieces = [(rect, radius) for rect, radius in pieces if outline or (marks and radius > 0)]
    if not pieces:
        return
    c.saveState()
    c.setStrokeColor(HexColor("#7f7f7f"))
    c.setLineWidth(0.25)
    for rect, radius in pieces:
        x, y, w, h = _points(rect)
        if outline:
            c.roundRect(x, y, w, h, radius * MM, stroke=1, fill=0)
            continue
        r = radius * MM
        path = c.beginPath()
        for cx, cy, start in ((x + r, y + r, 180), (x + w - r, y + r, 270), (x + w - r, y + h - r, 0),
                              (x + r, y + h - r, 90)):
            path.arc(cx - r, cy - r, cx + r, cy + r, startAng=start, extent=90)
        c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def render(card_set: CardSet, settings: BuildSettings, target) -> int:
    """Draw the whole document into `target` (a path or file object); returns the number of pages: the cover and
    its calibration back, each sheet of fronts with the page of its backs, then the rules booklet."""
    settings = settings.for_game(card_set)
    draw.register_fonts()
    rl_config.useA85 = 0  # binary Flate streams: ASCII85 would add a quarter to every page
    sections = _sections(card_set, settings)
    doc = _Document(card_set, settings, target)
    doc.calibration(sum(len(s.components) for s in sections))
    for section in sections:
        doc.section(section)
    doc.booklet()
    doc.c.save()
    return doc.pages


class _Document:
    """One PDF being drawn: its canvas, the pages finished, and the faces and backs drawn so far (each is drawn once
    per document as a form XObject, then placed at every copy)."""

    def __init__(self, card_set: CardSet, settings: BuildSettings, target):
        self.card_set, self.settings = card_set, settings
        self.gutterfold = settings.layout == "gutterfold"
        self.low_ink = settings.ink == "low"
        self.bleed = settings.bleed * MM
        self.version = qr_version(card_set, settings)
        self.first = layout(settings.paper, "poker", 0)  # the cover's and the booklet's paper
        self.full = (0, 0, self.first.page_w * MM, self.first.page_h * MM)
        self.c = _canvas(card_set, settings, target, self.full[2:], self.gutterfold)
        self.forms: set[str] = set()
        self.pages = 0

    def finish(self, trim, bleed_box) -> None:
        """End the page: its trim and bleed boxes (in points) set, the page shown and counted."""
        self.c.setTrimBox(trim)
        self.c.setBleedBox(bleed_box)
        self.c.showPage()
        self.pages += 1

    def calibration(self, count: int) -> None:
        """The cover (what the game holds, the ruler and the crosses), and in duplex the crosses of its back."""
        c, settings, (w, h) = self.c, self.settings, self.full[2:]
        first_code = card_url(settings.base_url, next(x.id for x in self.card_set.components if x.kind != "back"))
        cover.cover(c, self.card_set, settings, (w, h), count, first_code)
        self.finish(self.full, self.full)
        if not self.gutterfold:
            c.setFillColor(draw.INK)
            c.setFont(draw.FONT, 9)
            c.drawCentredString(w / 2, h / 2, _("Back of the calibration sheet", settings.lang))
            cover.crosses(c, w, h, mirrored=True, offset=settings.offset)
            self.finish(self.full, self.full)

    def section(self, section: _Section) -> None:
        """The sheets of one printed size, each as many pieces as a page holds."""
        settings = self.settings
        s = layout(settings.paper, section.size, settings.bleed, offset=settings.offset, gutterfold=self.gutterfold)
        self.c.setPageSize((s.page_w * MM, s.page_h * MM))
        for start in range(0, len(section.components), s.per_page):
            self.sheet(section.components[start:start + s.per_page], section.size, s)

    def sheet(self, batch: list[Component], size: str, s: Layout) -> None:
        """One sheet of fronts (in gutterfold, with their backs beside them) and, in duplex, the page behind it."""
        c, settings, card_set = self.c, self.settings, self.card_set
        for comp, rect in zip(batch, s.fronts, strict=False):
            self.place(_form_name("F", comp.id, size), *_points(rect),
                       lambda x, y, w, h, comp=comp: faces.paint_front(
                           c, comp, card_set, settings.lang, x, y, w, h, self.bleed,
                           qr_text(card_set, comp, settings), self.version, low_ink=self.low_ink))
        # Each back goes in the slot mirroring its own card; a card without a back leaves its slot empty.
        back_slots = [(s.backs[slot], card_set.component(comp.back)) for slot, comp in enumerate(batch)
                      if comp.back and settings.backs]
        if self.gutterfold:
            self.place_backs(back_slots, size, s)
            _fold_line(c, s)
        if settings.crop_marks:  # the cuts of the pieces on this sheet, none for its empty slots
            used = list(s.fronts[:len(batch)]) + ([rect for rect, _ in back_slots] if self.gutterfold else [])
            _marks(c, geometry.crop_marks(used, s.bleed, s.page_w, s.page_h))
        cuts = list(zip(s.fronts, batch, strict=False)) + ([(rect, back) for rect, back in back_slots]
                                                           if self.gutterfold else [])
        _cuts(c, [(rect, cut_radius(card_set, comp, size)) for rect, comp in cuts], settings.crop_marks,
              card_set.design.cut_outline)
        # A sheet is the finished piece (the player cuts it): its boxes are the whole page, so no printer or
        # viewer that honours them crops the crop marks. Per-card boxes are in the print-service file.
        self.finish(full_page(s), full_page(s))
        if not self.gutterfold and back_slots:  # each back page follows its front page
            self.place_backs(back_slots, size, s)
            self.finish(full_page(s), full_page(s))
        elif not self.gutterfold and settings.backs:  # pieces without backs: the other side of their sheet stays
            _blank_side(c, s, settings.lang)  # blank, so the next sheet's fronts never print behind them
            self.finish(full_page(s), full_page(s))

    def place(self, name: str, x: float, y: float, w: float, h: float, paint) -> None:
        """Draw a face or back once per document as a form XObject, then place it at every copy."""
        c, bleed = self.c, self.bleed
        if name not in self.forms:
            c.beginForm(name, lowerx=0, lowery=0, upperx=w + 2 * bleed, uppery=h + 2 * bleed)
            paint(bleed, bleed, w, h)
            c.endForm()
            self.forms.add(name)
        c.saveState()
        c.translate(x - bleed, y - bleed)
        c.doForm(name)
        c.restoreState()

    def place_backs(self, slots: list[tuple[Rect, Component]], size: str, s: Layout) -> None:
        """Each back in its slot, its art running BACK_BLEED past the cut wherever no neighbouring back meets it,
        so a duplex print a little off shows no white strip on the outer cards."""
        c, settings = self.c, self.settings
        grow = max(settings.bleed, BACK_BLEED) * MM
        taken = [rect for rect, _ in slots]
        for rect, back in slots:
            x, y, w, h = _points(rect)
            sides = [self.bleed if _neighbour(rect, taken, dx, dy, s) else grow
                     for dx, dy in ((-1, 0), (0, -1), (1, 0), (0, 1))]  # left, bottom, right, top
            name = _form_name("B", back.id, size)
            if name not in self.forms:
                c.beginForm(name, lowerx=0, lowery=0, upperx=w + 2 * grow, uppery=h + 2 * grow)
                faces.paint_back(c, back, self.card_set, settings.lang, grow, grow, w, h, grow, low_ink=self.low_ink)
                c.endForm()
                self.forms.add(name)
            c.saveState()
            clip = c.beginPath()
            clip.rect(x - sides[0], y - sides[1], w + sides[0] + sides[2], h + sides[1] + sides[3])
            c.clipPath(clip, stroke=0, fill=0)
            c.translate(x - grow, y - grow)
            c.doForm(name)
            c.restoreState()

    def booklet(self) -> None:
        """The rules booklet ends the file, on the paper of the cover."""
        if self.card_set.rules:
            self.c.setPageSize(self.full[2:])
            cover.booklet_pages(self.c, self.card_set, self.settings.lang, self.full[2:],
                                lambda: self.finish(self.full, self.full))


def _canvas(card_set: CardSet, settings: BuildSettings, target, page: tuple[float, float], gutterfold: bool):
    """The document's canvas, byte for byte the same for the same input (reportlab's invariant mode), with its
    metadata and how it asks to be printed."""
    c = rl_canvas.Canvas(target, pagesize=page, invariant=1, pageCompression=1, initialFontName=draw.FONT)
    metadata(c, card_set, settings.lang, "print-and-play")
    c.setSubject(f"{card_set.game}; paper {settings.paper}; bleed {settings.bleed:g} mm; layout {settings.layout}")
    c.setViewerPreference("PrintScaling", "None")
    # Duplex pages are made for a long-edge flip; a gutterfold file is printed on one side.
    c.setViewerPreference("Duplex", "Simplex" if gutterfold else "DuplexFlipLongEdge")
    return c


def metadata(c, card_set: CardSet, lang: str, what: str) -> None:
    """A PDF's title (the game's, in `lang`, and what the file is), author (the data file's `author:`, else
    companion) and language (the catalog's /Lang: a screen reader reads the file in it)."""
    from reportlab.pdfbase.pdfdoc import PDFString

    c._doc.Catalog.Lang = PDFString(lang)  # (reportlab sets it only from its constructor or its config)
    c.setTitle(f"{card_set.title.get(lang)} — {what}")
    c.setAuthor(card_set.author or "companion")
    c.setCreator(f"companion {__version__}")


def full_page(s: Layout) -> tuple[float, float, float, float]:
    """The whole page of a layout as a box in points: (0, 0, width, height)."""
    return 0, 0, s.page_w * MM, s.page_h * MM


def _neighbour(rect: Rect, taken: list[Rect], dx: int, dy: int, s: Layout) -> bool:
    """Whether another back sits right beside `rect` on that side (then the two backs meet between them)."""
    gap = 2 * s.bleed + 1.0
    for other in taken:
        if other is rect:
            continue
        if dx and abs(other.y - rect.y) < 0.01:
            d = (other.x - rect.x - rect.w) if dx > 0 else (rect.x - other.x - other.w)
            if -0.01 <= d <= gap:
                return True
        if dy and abs(other.x - rect.x) < 0.01:
            d = (other.y - rect.y - rect.h) if dy > 0 else (rect.y - other.y - other.h)
            if -0.01 <= d <= gap:
                return True
    return False


def _blank_side(c, s: Layout, lang: str) -> None:
    """The back of a sheet of pieces without backs: empty but for a line in the bottom margin saying so."""
    c.setFillColor(draw.mix(draw.INK, white, 0.45))
    c.setFont(draw.FONT, 7)
    c.drawCentredString(s.page_w * MM / 2, 8 * MM, _(BLANK_SIDE, lang))


def _form_name(kind: str, component_id: str, size: str) -> str:
    return f"{kind}{size}{component_id}".replace("-", "_")


def _fold_line(c, s: Layout) -> None:
    c.saveState()
    c.setDash(3, 3)
    c.setLineWidth(0.4)
    margin = geometry.PRINTER_MARGIN * MM
    c.line(s.fold_x * MM, margin, s.fold_x * MM, s.page_h * MM - margin)
    c.restoreState()
