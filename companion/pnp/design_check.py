"""What `validate` asks of a game's layouts that needs its fonts: every font file embeddable, every character the
cards print in their font, every text fitting its box at its smallest size for every component and language,
every code's modules large enough for a phone. Each problem as `file:line: <layout>: <element>: ...`.
`validate_file` is the whole of what `companion validate` says of a file."""
from __future__ import annotations

import math
import os
from dataclasses import replace

from reportlab.pdfbase import pdfmetrics

from .. import cards
from ..cards import CardSet, Component
from ..components import SIZES
from ..layouts import COLOUR_TEXT, DEFAULT_FONT, PROPERTIES, Colour, Missing, fill, plain
from ..look import ART_DPI, art_window_mm
from ..paths import leads_outside
from . import art as art_files
from . import faces, layout
from .geometry import MM

QR_MIN_MODULE_MM = 0.65  # below this the project's camera simulation reads fewer than 99 % of codes
SAMPLE_BASE = "http://192.168.1.20:5000"  # a LAN address as `make run` prints it: what a code must hold


def validate_file(path) -> tuple[CardSet | None, list[str]]:
    """What `companion validate` says of one data file: its data (`cards.check_file`), its art (`check_art`), then
    its fonts and layouts (`check_design`). Errors stop it; warnings come with the card set."""
    card_set, errors = cards.check_file(path)
    if card_set is None:
        return None, errors
    errors, more = check_art(card_set)
    if errors:
        return None, errors
    card_set = replace(card_set, warnings=(*card_set.warnings, *more))
    errors, more = check_design(card_set)
    return (None, errors) if errors else (replace(card_set, warnings=(*card_set.warnings, *more)), [])


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
    for art, source, label, size, box in named:
        where = f"{source}:{art.line}: {label}"
        given = repr(art.given)
        trim = SIZES[size]
        window = art_window_mm(*trim)
        if box is not None:  # drawn by its layout's art element, in the box its designer gave it
            window = max(box)
        if window is None:
            errors.append(f"{where}: a {size} ({trim[0]:g} mm) prints no art; remove {given}")
            continue
        if leads_outside(art.path, folder):
            errors.append(f"{where}: {given} leads outside the data file's folder (through a link); an art file "
                          f"must be in that folder or below it")
            continue
        try:
            info = art_files.inspect(art.path)
        except art_files.ArtError as e:
            errors.append(f"{where}: {given} {e}")
            continue
        ratio = info.width / info.height
        if box is None and not 1 / ASPECT_TOLERANCE <= ratio <= ASPECT_TOLERANCE:
            bands = "above and below it" if ratio > 1 else "beside it"
            warnings.append(f"{where}: warning: {given} is {info.size} ({ratio:.2f}:1) but the "
                            f"art window is square ({window:.1f} × {window:.1f} mm on a {size}): it is fitted "
                            f"whole, with empty bands {bands}")
        if info.text:
            warnings.append(f"{where}: warning: {given} has <text>, which prints in a font the PDF does not embed; "
                            f"convert the text to paths in your drawing program")
        shrink = art_files.scaled_pixels(info, window / 25.4 * 72)
        if shrink:
            dpi = max(info.width, info.height) / (window / 25.4)
            warnings.append(f"{where}: warning: {given} is {info.size}, {dpi:.0f} DPI in the "
                            f"{window:.1f} mm art window of a {size}: the build scales it down once to "
                            f"{shrink[0]} × {shrink[1]} px ({ART_DPI} DPI)")
    return errors, warnings


def _art_box(card_set: CardSet, c: Component) -> tuple[float, float] | None:
    """The width and height (mm) of the box a file's own layout draws a component's art in (`art: true`): its
    window, whatever its shape; None where the square art window of a face drawn by code or by the default
    layouts holds it."""
    elements = card_set.design.layout_for(c.layout, c.type) if card_set.design.layouts else ()
    elements = elements or ()
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
    errors: list[str] = []
    warnings: list[str] = []
    path = card_set.path
    if not design.layouts and not design.fonts and not design.defaults:
        return errors, warnings
    errors += check_fonts(card_set)
    if errors:
        return errors, warnings
    from .document import card_url

    lacking: dict[tuple[str, str], list[str]] = {}
    small_codes: set[str] = set()
    hidden_codes: set[str] = set()
    faked: dict[tuple[str, str], str] = {}  # (family, style) → the first card printing a style its family lacks
    # every code of a game is printed at one version, the lowest that holds its longest address (document.qr_version)
    version = _version(card_set, base_url)
    for c in card_set.components:
        elements = _elements(card_set, c)
        if not elements:
            continue
        seen = {lang: faces.shown(c, card_set, lang) for lang in card_set.languages}  # its values, derived once a card
        errors += _colours(card_set, c, elements, seen)
        for e in elements:
            where = _where(card_set, c, e)
            if e.kind == "qr" and c.kind not in ("back", "token") and where not in small_codes:
                problem = _small_code(e, card_url(base_url, c.id), version, c.id)
                if problem:
                    small_codes.add(where)
                    errors.append(f"{where}: {problem}")
            if e.kind == "qr" and c.kind == "card" and where not in hidden_codes:
                problem = _hidden_code(e, SIZES[c.size][0], version)
                if problem:
                    hidden_codes.add(where)
                    warnings.append(f"{where}: warning: {problem}")
            if e.kind != "text":
                continue
            for lang, shown in seen.items():
                try:
                    laid, font_of = layout.text_layout(e, shown)
                    text = fill(e.props["text"], shown.values, lang, card_set.design)
                except Missing:
                    continue
                if not laid.fits:
                    remedy = "make the box larger" if design.layouts else "give the file layouts: of its own"
                    errors.append(f"{where}: the {lang} text of {c.id} cannot fit in {e.box[2]:g} × {e.box[3]:g} mm "
                                  f"even at {laid.size:g} pt: shorten it or {remedy}")
                family = e.props.get("font", DEFAULT_FONT)
                for line in laid.lines:
                    for p in line:
                        if p.run.icon is None and (p.run.bold or p.run.italic) and family in design.fonts:
                            style = "bold" if p.run.bold else "italic"
                            if getattr(design.fonts[family], style) is None:
                                faked.setdefault((family, style), c.id)
                for ch in sorted(set(plain(text)) - {"\n"}):
                    for piece_font in {p.font for line in laid.lines for p in line if ch in p.run.text}:
                        if not _has_glyph(piece_font, ch):
                            lacking.setdefault((family, ch), []).append(c.id)
    for (family, style), card in faked.items():
        warnings.append(f"{path}:{design.fonts[family].line}: -: fonts.{family}: warning: has no {style} face, so "
                        f"the {style} words of {card} (and any others) print in its regular one")
    for (family, ch), ids in lacking.items():
        font = card_set.design.fonts.get(family)
        line = font.line if font else 1
        errors.append(f"{path}:{line}: -: fonts.{family}: lacks {ch!r} (U+{ord(ch):04X}), which "
                      f"{', '.join(sorted(set(ids))[:5])}{' and others' if len(set(ids)) > 5 else ''} print")
    return errors, warnings


def _elements(card_set: CardSet, c: Component):
    """The elements a component is drawn with: its front's layout, or its back's (None: drawn by code)."""
    design = card_set.design
    if c.kind != "back":
        return faces.front_layout(c, card_set)
    if design.layouts:
        return design.layouts.get(c.layout or design.back_layout or "")
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


def _small_code(e, url: str, version: int, card_id: str) -> str | None:
    """What is wrong with a code element's box for this address, or None when its modules are large enough."""
    from . import draw

    modules = _modules(version)
    module = layout.qr_module(e, modules) / MM
    if module >= QR_MIN_MODULE_MM - 1e-6:
        return None
    need = math.ceil((modules + 2 * draw.QR_QUIET) * QR_MIN_MODULE_MM * 10) / 10
    return (f"a code in this box has modules of {module:.2f} mm ({card_id}); phones need {QR_MIN_MODULE_MM} mm: "
            f"make the box at least {need:.1f} mm square (the code and its white margin)")


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


def small_codes(card_set: CardSet, base_url: str) -> list[str]:
    """Warnings for a build at `base_url` whose longer addresses make a layout's codes smaller than validate
    checked them at (a long site address: a larger QR version in the same box), one per element."""
    from .document import card_url

    version = _version(card_set, base_url)
    found: dict[str, str] = {}
    for c in card_set.components:
        if c.kind in ("back", "token"):
            continue
        for e in faces.front_layout(c, card_set) or ():
            where = f"{card_set.path}:{e.line}: {_layout_name(card_set, e)}: {e.name}"
            if e.kind == "qr" and where not in found:
                problem = _small_code(e, card_url(base_url, c.id), version, c.id)
                if problem:
                    found[where] = f"{where}: warning: at {base_url} {problem}"
    return list(found.values())


def _layout_name(card_set: CardSet, element) -> str:
    for name, elements in card_set.design.layouts.items():
        if element in elements:
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
