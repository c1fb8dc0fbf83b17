"""What `validate` asks of a game's layouts that needs its fonts: every font file embeddable, every character the
cards print in their font, every text fitting its box at its smallest size for every component and language;
warnings for a code whose modules a phone reads less often, and for an element covering another. Each problem as
`file:line: <layout>: <element>: ...`. `validate_file` is the whole of what `companion validate` says of a file."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace

from reportlab.pdfbase import pdfmetrics

from .. import cards
from ..cards import CardSet, Component
from ..components import SIZES
from ..core.paths import leads_outside
from ..layouts import COLOUR_TEXT, DEFAULT_FONT, PROPERTIES, Colour, Missing, fill, fill_list, plain, sized
from ..look import ART_DPI, art_window_mm
from . import art as art_files
from . import faces, layout
from .geometry import MM

QR_MIN_MODULE_MM = 0.65  # below this the project's camera simulation reads fewer than 99 % of codes: a warning
SAMPLE_BASE = "http://192.168.1.20:5000"  # a LAN address as `make run` prints it: what a code must hold


def validate_file(path, card_size: str | None = None) -> tuple[CardSet | None, list[str]]:
    """What `companion validate` says of one data file: its data (`cards.check_file`), its art (`check_art`), then
    its fonts and layouts (`check_design`); with `card_size`, the codes as a build at that size prints them too.
    Errors stop it; warnings come with the card set."""
    card_set, errors = cards.check_file(path)
    if card_set is None:
        return None, errors
    errors, more = check_art(card_set)
    if errors:
        return None, errors
    card_set = replace(card_set, warnings=(*card_set.warnings, *more))
    errors, more = check_design(card_set)
    if errors:
        return None, errors
    if card_size and (card_set.design.layouts or card_set.design.defaults):  # (its own sizes: check_design's)
        more += [line for line in small_codes(card_set, SAMPLE_BASE, card_size) if ", printed as a" in line]
    more += safe_zone(card_set, card_size)
    return replace(card_set, warnings=(*card_set.warnings, *more)), []


ASPECT_TOLERANCE = 1.1  # an art file this much wider or taller than its square window is warned about


def check_art(card_set: CardSet) -> tuple[list[str], list[str]]:
    """Read every art file a card set names, once each: errors (no such file, a folder, a link leading outside the
    data file's folder, not a readable SVG, PNG or JPEG, no room for art) and warnings (not square like the art
    window; more than ART_DPI in it, so the build scales it down), each as `file:line: card id: art: ...`.
    The files are read here and by the PDF build only: loading card data never opens them."""
    errors: list[str] = []
    warnings: list[str] = []
    folder = os.path.dirname(card_set.path) or "."
    named = [(c.art, c.source or card_set.path, f"{c.id}: art", c.size, _art_box(card_set, c))
             for c in card_set.components if c.art is not None]
    named += [(term.art, card_set.path, f"-: look.terms.{name}.art", "poker", None)
              for name, term in card_set.look.terms.items()
              if term.art is not None]  # an icon's picture: checked against a poker card's window
    checked: dict = {}  # a file → (its problem or None, what was read of it): read once however many cards name it
    for art, source, label, size, box in named:
        where = f"{source}:{art.line}: {label}"
        trim = SIZES[size]
        window = art_window_mm(*trim)
        if box is not None:  # drawn by its layout's art element, in the box its designer gave it
            window = max(box)
        if window is None:
            errors.append(f"{where}: a {size} ({trim[0]:g} mm) prints no art; remove {art.given!r}")
            continue
        _check_art_file(art.path, repr(art.given), where, window, size, box is None, folder, checked, errors,
                        warnings)
    errors += _layout_art_errors(card_set, folder, checked)
    return errors, warnings


def _check_art_file(path: str, given: str, where: str, window: float, size: str, square: bool, folder: str,
                    checked: dict, errors: list[str], warnings: list[str]) -> None:
    """One art file where it is drawn (`window` mm at most): errors (outside the folder, unreadable) and warnings
    (its shape against a square window, text, more pixels than the print needs)."""
    problem, info = _art_problem(path, folder, checked)
    if problem is not None:
        errors.append(f"{where}: {given} {problem}")
        return
    ratio = info.width / info.height
    if square and not 1 / ASPECT_TOLERANCE <= ratio <= ASPECT_TOLERANCE:
        bands = "above and below it" if ratio > 1 else "beside it"
        warnings.append(f"{where}: warning: {given} is {info.size} ({ratio:.2f}:1) but the art window is square "
                        f"({window:.1f} × {window:.1f} mm on a {size}): it is fitted whole, with empty bands {bands}")
    if info.text:
        warnings.append(f"{where}: warning: {given} has <text>, which prints in a font the PDF does not embed; "
                        f"convert the text to paths in your drawing program")
    shrink = art_files.scaled_pixels(info, window / 25.4 * 72)
    if shrink:
        dpi = max(info.width, info.height) / (window / 25.4)
        warnings.append(f"{where}: warning: {given} is {info.size}, {dpi:.0f} DPI in the {window:.1f} mm art window "
                        f"of a {size}: the build scales it down once to {shrink[0]} × {shrink[1]} px ({ART_DPI} DPI)")


def _art_problem(path: str, folder: str, checked: dict) -> tuple[str | None, object]:
    """Why an art file cannot be drawn (outside the data file's folder, missing, unreadable), or None and what
    `art.inspect` read of it; each file read once (`checked`)."""
    if path not in checked:
        if leads_outside(path, folder):
            checked[path] = ("leads outside the data file's folder (through a link); an art file must be in that "
                             "folder or below it", None)
        else:
            try:
                checked[path] = (None, art_files.inspect(path))
            except art_files.ArtError as e:
                checked[path] = (str(e), None)
    return checked[path]


def _layout_art_errors(card_set: CardSet, folder: str, checked: dict) -> list[str]:
    """The art files a layout's art elements name (`art: art/leaf.svg`, `art: "art/{suit}.svg"`), filled in for
    every component drawn with them in every language, each file read once: an error for each file that would stop
    the build, at the element's line, naming the first components that need it."""
    needs: dict[tuple[str, str], list[str]] = {}  # (where, file) → the components drawn with it
    for c in card_set.components:
        for e in _elements(card_set, c) or ():
            if e.kind != "art" or not isinstance(e.props["art"], str):
                continue
            for lang in card_set.languages:
                shown = faces.shown(c, card_set, lang)
                try:
                    path = layout.art_file(e, shown) if layout.is_drawn(e, shown) else None
                except Missing:
                    continue
                ids = needs.setdefault((_where(card_set, c, e), path), []) if path else []
                if path and c.id not in ids:
                    ids.append(c.id)
    errors = []
    for (where, path), ids in needs.items():
        problem, _ = _art_problem(path, folder, checked)
        if problem is not None:
            named = ", ".join(ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
            errors.append(f"{where}: art: {os.path.relpath(path, folder)!r} {problem} (drawn on {named})")
    return errors


def _art_box(card_set: CardSet, c: Component) -> tuple[float, float] | None:
    """The width and height (mm) of the box a file's own layout draws a component's art in (`art: true`): its
    window, whatever its shape; None where the square art window of a face drawn by code or by the default
    layouts holds it."""
    elements = card_set.design.layout_for(c.layout, c.type) if card_set.design.layouts else ()
    elements = sized(elements, SIZES[c.size]) if elements else ()
    return next((tuple(e.box[2:]) for e in elements if e.kind == "art" and e.props["art"] is True), None)


def check_files(card_set: CardSet) -> list[str]:
    """The errors of a game's art and font files (`check_art`, `check_fonts`): what stops a build, and what keeps a
    game from being served (companion.library) or put on a static site."""
    return [*check_art(card_set)[0], *check_fonts(card_set)]


def check_fonts(card_set: CardSet) -> list[str]:
    """Each of a game's font files read and registered: errors for one that leads outside the data file's folder,
    is missing, too large, not a regular file, a character map bomb or not a font reportlab can embed (what would
    stop a build), as `layout.register_font` finds them."""
    path = card_set.path
    folder = os.path.dirname(os.path.abspath(path))
    errors: list[str] = []
    for family in card_set.design.fonts.values():
        for style in ("regular", "bold", "italic", "bold_italic"):
            file = getattr(family, style)
            if file is None:
                continue
            where = f"{path}:{family.line}: -: fonts.{family.name}.{style}"
            shown = os.path.relpath(file, folder)
            try:
                layout.register_font(file, f"{card_set.game}-{family.name}-{style}", folder)
            except layout.FontProblem as e:
                errors.append(f"{where}: {shown!r} {e}")
    return errors


def check_design(card_set: CardSet, base_url: str = SAMPLE_BASE) -> tuple[list[str], list[str]]:
    """(errors, warnings) for a card set's layouts and fonts (a data-only file without layouts: the default
    layouts its components print with); nothing for a game drawn by code."""
    design = card_set.design
    if not design.layouts and not design.fonts and not design.defaults:
        return [], []
    errors = check_fonts(card_set)
    if errors:
        return errors, []
    # every code of a game is printed at one version, the lowest that holds its longest address (document.qr_version)
    found = _Found(base_url, _version(card_set, base_url))
    for c in card_set.components:
        _check_component(card_set, c, found)
    warnings = [*found.warnings, *_overlap_warnings(card_set, found.covered), *_faked_warnings(card_set, found.faked)]
    return [*found.errors, *_lacking_errors(card_set, found.lacking)], warnings


@dataclass
class _Found:
    """What `check_design` finds, component by component: errors and warnings said at once, and what is said once
    for all the components at the end (a font's lacking characters and faces, elements covering others)."""

    base_url: str
    version: int  # the codes' QR version
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    lacking: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (family, character) → card ids
    small_codes: set[str] = field(default_factory=set)  # where a code was said to be small (said once)
    hidden_codes: set[str] = field(default_factory=set)
    covered: dict[tuple, list[str]] = field(default_factory=dict)  # (where the covering element is, its copy, the
    # covered one, its copy) → card ids
    faked: dict[tuple[str, str], str] = field(default_factory=dict)  # (family, style) → the first card printing a
    # style its family lacks


def _check_component(card_set: CardSet, c: Component, found: _Found) -> None:
    """One component's elements: their colours, what covers what, its codes' size and place, its texts."""
    elements = _elements(card_set, c)
    if not elements:
        return
    seen = {lang: faces.shown(c, card_set, lang) for lang in card_set.languages}  # its values, derived once a card
    found.errors += _colours(card_set, c, elements, seen)
    for pair in _overlaps(c, elements, seen, found.version):
        found.covered.setdefault((_where(card_set, c, pair[0]), *pair[1:]), []).append(c.id)
    for e in elements:
        where = _where(card_set, c, e)
        if e.kind == "qr":
            _check_code(c, e, where, found)
        elif e.kind == "text":
            for lang, shown in seen.items():
                _check_text(card_set, c, e, where, lang, shown, found)


def _check_code(c: Component, e, where: str, found: _Found) -> None:
    """Warnings (once an element) for a code too small to read well, or placed where a hand holding the card
    hides it: the designer's call, a small code reads less often, not never."""
    from .document import card_url

    if c.kind not in ("back", "token") and where not in found.small_codes:
        problem = _small_code(e, card_url(found.base_url, c.id), found.version, c.id)
        if problem:
            found.small_codes.add(where)
            found.warnings.append(f"{where}: warning: {problem}")
    if c.kind == "card" and where not in found.hidden_codes:
        problem = _hidden_code(e, SIZES[c.size][0], found.version)
        if problem:
            found.hidden_codes.add(where)
            found.warnings.append(f"{where}: warning: {problem}")


def _check_text(card_set: CardSet, c: Component, e, where: str, lang: str, shown, found: _Found) -> None:
    """One text element in one language: an error when it cannot fit its box; the bold or italic faces its font
    lacks and the characters it lacks noted for the end."""
    design = card_set.design
    try:
        laid, _ = layout.text_layout(e, shown)
        text = fill(e.props["text"], shown.values, lang, design)
    except Missing:
        return
    if not laid.fits:
        remedy = "make the box larger" if design.layouts else "give the file layouts: of its own"
        found.errors.append(f"{where}: the {lang} text of {c.id} cannot fit in {e.box[2]:g} × {e.box[3]:g} mm "
                            f"even at {laid.size:g} pt: shorten it or {remedy}")
    family = e.props.get("font", DEFAULT_FONT)
    if family in design.fonts:
        for p in (p for line in laid.lines for p in line if p.run.icon is None and (p.run.bold or p.run.italic)):
            style = "bold" if p.run.bold else "italic"
            if getattr(design.fonts[family], style) is None:
                found.faked.setdefault((family, style), c.id)
    for ch in sorted(set(plain(text)) - {"\n"}):
        for piece_font in {p.font for line in laid.lines for p in line if ch in p.run.text}:
            if not _has_glyph(piece_font, ch):
                found.lacking.setdefault((family, ch), []).append(c.id)


def _faked_warnings(card_set: CardSet, faked: dict[tuple[str, str], str]) -> list[str]:
    """A warning for each font family printing a style it has no face for."""
    fonts = card_set.design.fonts
    return [f"{card_set.path}:{fonts[family].line}: -: fonts.{family}: warning: has no {style} face, so the {style} "
            f"words of {card} (and any others) print in its regular one" for (family, style), card in faked.items()]


def _lacking_errors(card_set: CardSet, lacking: dict[tuple[str, str], list[str]]) -> list[str]:
    """An error for each character a font lacks, naming the first cards that print it."""
    errors = []
    for (family, ch), ids in lacking.items():
        font = card_set.design.fonts.get(family)
        line = font.line if font else 1
        errors.append(f"{card_set.path}:{line}: -: fonts.{family}: lacks {ch!r} (U+{ord(ch):04X}), which "
                      f"{', '.join(sorted(set(ids))[:5])}{' and others' if len(set(ids)) > 5 else ''} print")
    return errors


COVERED_KINDS = ("text", "qr", "icon", "icons", "pips", "track")  # what an element hides when drawn over it
OVERLAP_MM = 0.3  # boxes that share less than this each way only touch
SHOWN_IDS = 3  # card ids an overlap warning names before it says how many more


def _overlaps(c: Component, elements, seen, version: int) -> list[tuple]:
    """(covering element, its copy, (covered element's name, line), its copy) for each element this component
    draws that covers, with an opaque box (`_opaque_box`), the ink of a text, code or icon it drew before (in any
    language); a band or picture under a later text is a background, not said. A copy is "" or "turned" (the
    second of `corners: 2`)."""
    shown = next(iter(seen.values()))
    drawn = [e for e in elements if _drawn(e, shown, c)]
    found = []
    inked: dict[int, list] = {}  # each covered element's copies as inked in each language, found once
    for n, later in enumerate(drawn):
        cover = _opaque_box(later, shown, version)
        if cover is None:
            continue
        for m, earlier in enumerate(drawn[:n]):
            if earlier.kind not in COVERED_KINDS or not _shared(_reach(earlier, c), _reach(later, c, cover)):
                continue
            if m not in inked:
                inked[m] = [pair for one in seen.values() for pair in _copies(earlier, _ink(earlier, one), c)]
            pairs = {(later_copy, copy) for copy, box in inked[m] for later_copy, top in _copies(later, cover, c)
                     if _shared(box, top)}
            found += [(later, later_copy, (earlier.name, earlier.line), copy) for later_copy, copy in sorted(pairs)]
    return found


def _reach(e, c: Component, box=None) -> tuple:
    """The box around every copy of an element on the face (a first, quick test)."""
    boxes = [b for _, b in _copies(e, box or e.box, c)]
    x, y = min(b[0] for b in boxes), min(b[1] for b in boxes)
    return x, y, max(b[0] + b[2] for b in boxes) - x, max(b[1] + b[3] for b in boxes) - y


def _ink(e, shown) -> tuple:
    """The part of an element's box that it inks (mm): a text's lines as laid out for this component and
    language, an icon's centred square; its whole box for the others, and for a turned (`rotate`) one."""
    x, y, w, h = e.box
    if e.props.get("rotate"):
        return e.box
    if e.kind == "icon":
        side = min(w, h) * 0.92
        return x + (w - side) / 2, y + (h - side) / 2, side, side
    if e.kind != "text":
        return e.box
    try:
        laid, _ = layout.text_layout(e, shown)
    except Missing:
        return e.box
    width = min(max(laid.widths, default=0) / MM, w)
    block = min((laid.leading * (len(laid.lines) - 1) + laid.size) / MM, h)
    valign, align = e.props.get("valign", "top"), e.props.get("align", "left")
    top = 0 if valign == "top" else (h - block) / 2 if valign == "middle" else h - block
    left = 0 if align == "left" else (w - width) / 2 if align == "center" else w - width
    return x + left, y + top, width, block


def _drawn(e, shown, c: Component) -> bool:
    """Whether a layout's element draws anything on this component (its `when:`, `unless:` and values)."""
    try:
        if "when" in e.props and not layout._truthy(fill(e.props["when"], shown.values, shown.lang, shown.design)):
            return False
        if "unless" in e.props and layout._unless(e.props["unless"], shown):
            return False
        if e.kind == "text":
            return bool(plain(fill(e.props["text"], shown.values, shown.lang, shown.design)).strip())
        if e.kind == "qr":
            return e.props["qr"] is not False and c.kind not in ("back", "token")
        if e.kind == "art":
            return layout.art_file(e, shown) is not None
        if e.kind == "icon":
            return layout.icon_named(fill(e.props["icon"], shown.values, shown.lang, shown.design),
                                     shown.look) is not None
        if e.kind in ("icons", "track"):
            return bool(fill_list(e.props[e.kind], shown.values, shown.lang))
        if e.kind == "pips":
            count = fill(e.props["pips"], shown.values, shown.lang, shown.design).strip()
            return count.isdecimal() and int(count) > 0
        return True
    except Missing:
        return False


def _opaque_box(e, shown, version: int):
    """The box (mm) an element paints over whatever is under it, or None: a rect's or a text's fill, a picture, a
    code's white plate (its code and margin, centred in its box)."""
    if e.kind == "art" or (e.kind in ("rect", "text") and "fill" in e.props
                           and layout.colour_text(e.props["fill"], shown) is not None):
        return e.box
    if e.kind == "qr" and e.props.get("plate", True):
        from .draw import QR_QUIET

        modules = _modules(version)
        side = layout.qr_module(e, modules) / MM * (modules + 2 * QR_QUIET)
        x, y, w, h = e.box
        return (x + (w - side) / 2, y + (h - side) / 2, side, side)
    return None


def _copies(e, box, c: Component) -> list[tuple[str, tuple]]:
    """Where an element is drawn on the face: its box turned by its `rotate` (the box around it), and with
    `corners: 2` again turned 180° about the face's centre."""
    x, y, w, h = box
    angle = math.radians(e.props.get("rotate", 0))
    if angle:
        cos, sin = abs(math.cos(angle)), abs(math.sin(angle))
        rw, rh = w * cos + h * sin, w * sin + h * cos
        x, y, w, h = x + (w - rw) / 2, y + (h - rh) / 2, rw, rh
    copies = [("", (x, y, w, h))]
    if e.props.get("corners") == 2:
        fw, fh = SIZES[c.size]
        copies.append(("turned", (fw - x - w, fh - y - h, w, h)))
    return copies


def _shared(a, b) -> bool:
    """Whether two boxes (x, y, w, h) overlap by more than OVERLAP_MM each way."""
    return (min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) > OVERLAP_MM
            and min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) > OVERLAP_MM)


def _overlap_warnings(card_set: CardSet, covered: dict[tuple, list[str]]) -> list[str]:
    """One warning for each element covering another, at the covering element's line, naming the cards."""
    out = []
    for (where, copy, (earlier, line), earlier_copy), ids in covered.items():
        ids = list(dict.fromkeys(ids))
        shown = ", ".join(ids[:SHOWN_IDS]) + (f" and {len(ids) - SHOWN_IDS} more" if len(ids) > SHOWN_IDS else "")
        mine = "its turned copy (corners: 2) " if copy else ""
        theirs = "the turned copy (corners: 2) of " if earlier_copy else ""
        out.append(f"{where}: warning: {mine}covers {theirs}{earlier} (line {line}), drawn before it, "
                   f"on {len(ids)} card{'s' if len(ids) > 1 else ''} ({shown}): move one of them, or put {earlier} "
                   f"after it in the layout")
    return out


def _elements(card_set: CardSet, c: Component):
    """The elements a component is drawn with: its front's layout, or its back's (None: drawn by code)."""
    design = card_set.design
    if c.kind != "back":
        return faces.front_layout(c, card_set)
    if design.layouts:
        own = design.layouts.get(c.layout or design.back_layout or "")
        return sized(own, SIZES[c.size]) if own else own
    return design.layout_for(None, "", "back", c.size)


def _where(card_set: CardSet, c: Component, e) -> str:
    """`file:line: <layout>: <element>` of a problem; a default layout's is the component's (the file has no
    layout to change)."""
    if card_set.design.layouts:
        return f"{card_set.path}:{e.line}: {_layout_name(card_set, e)}: {e.name}"
    return f"{card_set.path}:{c.line}: {c.id}: {e.name} (in the default {_default_name(card_set, e)} layout)"


COLOUR_KEYS = {kind: {key for key, f in props.items() if isinstance(f, Colour)} for kind, props in PROPERTIES.items()}


def _colours(card_set: CardSet, c: Component, elements, seen) -> list[str]:
    """An error for each colour property a field of this component fills with something that is not a colour
    (`fill: "{tint}"` with `tint: banana`), in each language where the languages differ."""
    errors = []
    for e in elements:
        for key in sorted(COLOUR_KEYS[e.kind] & e.props.keys()):
            filled = {}
            for lang, shown in seen.items():
                try:
                    filled[lang] = fill(e.props[key], shown.values, lang, card_set.design).strip()
                except Missing:
                    continue
            one = len(set(filled.values())) == 1
            for lang, text in filled.items():
                if not COLOUR_TEXT.fullmatch(text):
                    errors.append(f"{_where(card_set, c, e)}: {key}: \"{e.props[key]}\" gives {c.id} {text!r}"
                                  f"{'' if one else f' ({lang})'}, which is not a colour like #5b2a6e")
                    if one:
                        break
    return errors


def check_colours(card_set: CardSet) -> list[str]:
    """What `check_design` says of colours a card's fields fill in, for a build to refuse before it writes."""
    errors: list[str] = []
    for c in card_set.components:
        elements = _elements(card_set, c)
        if elements:
            errors += _colours(card_set, c, elements,
                              {lang: faces.shown(c, card_set, lang) for lang in card_set.languages})
    return errors


def _version(card_set: CardSet, base_url: str) -> int:
    """Every code of a game is printed at one version, the lowest that holds its longest address (as
    document.qr_version does)."""
    from . import draw
    from .document import card_url

    return draw.qr_version(card_url(base_url, c.id) for c in card_set.components if c.kind not in ("back", "token"))


# what the camera simulation (benchmarks/bench_qr.py, docs/benchmarks.md) decoded of the five games' codes by module
# size: (modules from this size up, the read rate band); 0.7 mm, the project's: 99.5 %
QR_READ_BANDS = ((0.6, "94–99 %", "0.6–0.65 mm"), (0.5, "59–94 %", "0.5–0.6 mm"), (0.0, "under 59 %", "under 0.5 mm"))


def _small_code(e, url: str, version: int, card_id: str, scale: float = 1.0) -> str | None:
    """What a code element's box costs for this address (its modules, the share of codes the camera simulation
    reads at that size, the box that reads 99 %), or None when its modules are large enough. `scale`: the face
    printed at another card size, scaled whole (a layout of the file's own at `--card-size`)."""
    from . import draw

    modules = _modules(version)
    module = layout.qr_module(e, modules) / MM * scale
    if module >= QR_MIN_MODULE_MM - 1e-6:
        return None
    need = math.ceil((modules + 2 * draw.QR_QUIET) * QR_MIN_MODULE_MM * 10 / scale) / 10
    rate, sizes = next((rate, sizes) for lo, rate, sizes in QR_READ_BANDS if module >= lo - 1e-6)
    return (f"a code in this box has modules of {module:.2f} mm ({card_id}): the camera simulation "
            f"(benchmarks/bench_qr.py) reads {rate} of codes with modules of {sizes}, against 99.5 % at "
            f"{draw.QR_MODULE_MM} mm; a box of {need:.1f} mm square (the code and its white margin) reads 99 %")


def _modules(version: int) -> int:
    """A QR version's side in modules (ISO/IEC 18004): no need to make the code."""
    return 17 + 4 * version


def _hidden_code(e, width: float, version: int) -> str | None:
    """What keeps a card's code from a photo of the table, or None: printed twice (a photo would find the card
    twice), or reaching past the card's middle (the next card laid over it in a row covers it)."""
    if e.props.get("corners") == 2:
        return ("prints the code twice (corners: 2), so a photo of the table finds such a card twice: print it "
                "once, at the card's left edge")
    modules = _modules(version)
    x, _, w, _ = e.box
    reach = x + w / 2 + modules * layout.qr_module(e, modules) / MM / 2  # the code's centre in its box, and half
    if reach <= width / 2:
        return None
    return (f"the code reaches {reach:.1f} mm from the card's left edge, past its middle: in a row of cards laid "
            f"each over the one before, the next one covers it and a photo of the table misses the card; put it at "
            f"the left edge")


def small_codes(card_set: CardSet, base_url: str, card_size: str | None = None) -> list[str]:
    """Warnings for a build at `base_url` (and `card_size`, for cards and reference cards) whose codes come out
    smaller than a phone reads well: a long site address (a larger QR version in the same box), a smaller card (a
    file's own layout scaled down whole, or the default layout of that size). One per element and size."""
    from .document import card_url
    from .geometry import CARD_KINDS

    version = _version(card_set, base_url)
    found: dict[str, str] = {}
    for c in card_set.components:
        if c.kind in ("back", "token"):
            continue
        size = card_size if card_size and c.kind in CARD_KINDS else c.size
        scale = 1.0
        if card_set.design.layouts and size != c.size:  # scaled whole to fit (faces._designed)
            scale = min(SIZES[size][0] / SIZES[c.size][0], SIZES[size][1] / SIZES[c.size][1])
        for e in faces.front_layout(c, card_set, size) or ():
            where = _where(card_set, c, e) if card_set.design.layouts else \
                f"{card_set.path}:{e.line or c.line}: {c.id}: {e.name} (in the default {size} layout)"
            if e.kind == "qr" and where not in found:
                problem = _small_code(e, card_url(base_url, c.id), version, c.id, scale)
                if problem:
                    at = f"at {base_url}" + (f", printed as a {size} card:" if size != c.size else "")
                    found[where] = f"{where}: warning: {at} {problem}"
    return list(found.values())


def _layout_name(card_set: CardSet, element) -> str:
    for name, elements in card_set.design.layouts.items():  # by name and line: a layout in percent is sized
        if any(e.name == element.name and e.line == element.line for e in elements):
            return name
    return "-"


def _default_name(card_set: CardSet, element) -> str:
    return next((name for name, elements in card_set.design.defaults.items() if element in elements), "-")


def _has_glyph(font_name: str, ch: str) -> bool:
    if ch.isspace():
        return True
    font = pdfmetrics.getFont(font_name)
    face = getattr(font, "face", None)
    mapping = getattr(face, "charToGlyph", None)
    if mapping is None:  # a standard font
        return True
    return ord(ch) in mapping


def pictures_drawn(card_set: CardSet, components) -> dict[str, list[str]]:
    """The art files (paths) the faces and backs of `components` draw, each with the components drawing it: their
    own art, a layout's art elements, the icons' pictures, the file's back picture."""
    found: dict[str, list[str]] = {}

    def add(path, card_id):
        if path:
            ids = found.setdefault(os.path.abspath(path), [])
            if card_id not in ids:
                ids.append(card_id)

    terms = [t.art.path for t in card_set.look.terms.values() if t.art is not None]
    for c in components:
        add(c.art.path if c.art else None, c.id)
        if c.kind == "back" and not c.layout and not c.art:
            add(card_set.design.back_art, c.id)
        for path in terms:
            add(path, c.id)
        for e in _elements(card_set, c) or ():
            if e.kind != "art" or not isinstance(e.props["art"], str):
                continue
            for lang in card_set.languages:
                try:
                    add(layout.art_file(e, faces.shown(c, card_set, lang)), c.id)
                except Missing:
                    continue
    return found


SAFE_KINDS = ("card", "reference", "back")  # what a print service cuts from a sheet with its uneven cut
INKED_KINDS = ("text", "qr", "icon", "icons", "pips", "track")  # text, code and icon ink


def safe_zone(card_set: CardSet, card_size: str | None = None) -> list[str]:
    """Warnings for text, code or icon ink nearer the cut than the file's `safe_margin:` (1/8 inch unless it says
    otherwise), where a print service's cut may take it: one per element, at its line, naming how near and the
    first cards. At `card_size` (--card-size), as a file's own layout is scaled to it."""
    from .geometry import CARD_KINDS

    margin = card_set.safe_margin
    near: dict[str, tuple[float, list[str]]] = {}
    version = _version(card_set, SAMPLE_BASE)
    for c in card_set.components:
        if c.kind not in SAFE_KINDS:
            continue
        elements = _elements(card_set, c)
        if not elements:
            continue
        fw, fh = SIZES[c.size]
        size = card_size if card_size and c.kind in CARD_KINDS else c.size
        k = min(SIZES[size][0] / fw, SIZES[size][1] / fh) if card_set.design.layouts else 1.0
        width, height = (SIZES[size] if card_set.design.layouts else (fw, fh))
        for lang in card_set.languages:
            shown = faces.shown(c, card_set, lang)
            for e in elements:
                if e.kind not in INKED_KINDS or not _drawn(e, shown, c):
                    continue
                if e.kind == "qr":
                    modules = _modules(version)
                    side = layout.qr_module(e, modules) / MM * modules
                    x, y, w, h = e.box
                    ink = (x + (w - side) / 2, y + (h - side) / 2, side, side)
                else:
                    ink = _ink(e, shown) if e.kind in ("text", "icon") else e.box
                    if e.kind == "icon" and _pictured(e, shown):  # a picture is drawn 2.3 r wide, not 2 r
                        x, y, w, h = ink
                        ink = (x - 0.075 * w, y - 0.075 * h, 1.15 * w, 1.15 * h)
                for _, (x, y, w, h) in _copies(e, ink, c):
                    x, y = x * k + (width - fw * k) / 2, y * k + (height - fh * k) / 2
                    gap = min(x, y, width - x - w * k, height - y - h * k)
                    if gap < margin - 1e-6:
                        where = _where(card_set, c, e)
                        least, ids = near.get(where, (gap, []))
                        if c.id not in ids:
                            ids.append(c.id)
                        near[where] = (min(least, gap), ids)
    out = []
    for where, (gap, ids) in near.items():
        shown_ids = ", ".join(ids[:SHOWN_IDS]) + (f" and {len(ids) - SHOWN_IDS} more" if len(ids) > SHOWN_IDS else "")
        out.append(f"{where}: warning: its ink comes {max(gap, 0):.1f} mm from the cut, inside the {margin:g} mm "
                   f"safe margin that a print service's cut may take, on {shown_ids}: move it in (or set "
                   f"safe_margin: in the file)")
    return out


def _pictured(e, shown) -> bool:
    """Whether an icon element draws its term's picture (drawn larger than a shape, icons.paint_icon)."""
    try:
        icon = layout.icon_named(fill(e.props["icon"], shown.values, shown.lang, shown.design), shown.look)
    except Missing:
        return False
    return bool(icon and icon.art)
