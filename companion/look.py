"""A game's look as plain data: its accent colour, back emblem and the shape and colour of each term (stone, gem,
suit...), read from the `look:` section of its card data; and the Face and Back every printed component shows.

Pure data, no drawing: `companion/pnp` draws these on paper and `companion/web/play/icons.py` as SVG."""
from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .core.schema import Bool, Enum, Field, ListOf, MapOf, Path, Problems, Record, Str, describe

# The shapes the drawing code knows (companion/pnp/icons.py draws each; a test keeps the two lists equal).
DRAWN_SHAPES = ("circle", "square", "triangle", "diamond", "star", "heart", "hexagon", "octagon", "cross", "spade",
                "club", "ingot", "burst")
RAINBOW = "rainbow"  # a fill of rings of colour (a wild stone's)
DEFAULT_ACCENT = "#3b4a3f"
DEFAULT_EMBLEM_ICON = ("star", "#d4af37")


@dataclass(frozen=True)
class Art:
    """A component's art file: its path as written in the data, that path on disk, and the line that names it."""

    given: str
    path: str
    line: int


@dataclass(frozen=True)
class Icon:
    shape: str  # one of DRAWN_SHAPES
    fill: str  # hex colour, or "rainbow"
    letter: str = ""  # drawn in the middle, for colour-blind players
    outline: str = "#2b2b2b"
    gem: bool = False  # drawn as a cut stone: a lighter table facet and darker lower facets inside the same outline
    art: str | None = None  # a picture (an art file's path) drawn instead of the shape, fitted in its square


@dataclass(frozen=True)
class Term:
    """How one word of a game's vocabulary looks: a colour, and a shape when it is drawn as an icon."""

    colour: str
    shape: str | None = None
    letter: str = ""
    gem: bool = False
    art: Art | None = None  # a picture drawn for its icon (its shape still names it where pictures are not drawn)

    def icon(self) -> Icon:
        """The icon it is drawn as (its art instead of the shape, if it has some); KeyError if it has no shape."""
        if self.shape is None:
            raise KeyError("this term has a colour but no shape")
        return Icon(self.shape, self.colour, self.letter, gem=self.gem, art=self.art.path if self.art else None)


@dataclass(frozen=True)
class Look:
    accent: str = DEFAULT_ACCENT  # hex colour of the header bands, frames and backs
    emblem: tuple[Icon, ...] = (Icon(*DEFAULT_EMBLEM_ICON),)  # the icons on the back
    terms: Mapping[str, Term] = field(default_factory=lambda: MappingProxyType({}))

    def icon(self, term: str) -> Icon:
        """The icon of a term (KeyError if the look gives it no shape)."""
        return self.terms[term].icon()

    def colour(self, term: str, default: str | None = None) -> str | None:
        """The colour of a term, or `default` for a word the look does not name."""
        found = self.terms.get(term)
        return found.colour if found else default

    def icons(self) -> dict[str, Icon]:
        """Every term drawn as an icon, by name (the web's icon classes)."""
        return {name: t.icon() for name, t in self.terms.items() if t.shape}


@dataclass(frozen=True)
class Face:
    """What a printed front shows, as plain data; one renderer draws every face."""

    title: str
    accent: str  # hex colour of the header band and frame
    icons: tuple[Icon, ...] = ()  # the main art, laid out in a grid
    captions: tuple[str, ...] = ()  # one under each icon
    big: str | None = None  # a large value or letter in the middle (+30, J, 7)
    tag: str | None = None  # a letter in the header's corner that says what the band colour says
    lower_label: str | None = None  # a panel at the bottom: a label, icons, then a value and its unit
    lower_icons: tuple[Icon, ...] = ()
    lower_value: str | None = None
    lower_unit: str | None = None
    text: str | None = None
    track: tuple[str, ...] = ()  # price steps down the right edge
    corner: str | None = None  # playing-card index
    corner_icon: Icon | None = None
    corner_twice: bool = False  # the index in two opposite corners (cards held in a fan), the QR code between
    big_colour: str | None = None  # the large value's colour (default: the accent)
    listed: bool = False  # the text laid out as a list, each sentence an item (reference cards)
    background: str = "#fbf7ee"
    named: str | None = None  # what its page is headed, where more than its title (the ace of hearts, not "Hearts")
    art: str | None = None  # a designer's picture (an SVG, PNG or JPEG file's path) in the art window, for the icons
    pips: bool = False  # the icons laid out as a playing card's pips (as many as the rank; the lower ones reversed)
    framed: bool = False  # the art is a frame filling the body, the icons drawn in its empty middle (60 %)


# The art window: a square in the body of a face where its picture goes (an `art:` file, fitted keeping its aspect).
# Its side in mm on a poker card; other sizes scale it like the rest of the face (bridge 32.4, mini 25.2, a 50 mm
# tile 20.2); a 25 mm token's window is the 10.5 mm inside its ring, and a marker has none.
ART_WINDOW_MM = 36.0
TOKEN_ART_MM = 10.5
ART_DPI = 300  # the most pixels per inch a PNG or JPEG is printed at: a larger file is scaled down once per build


def art_window_mm(width_mm: float, height_mm: float) -> float | None:
    """The side of the art window of a component of that trim size, in mm (None: no room for art)."""
    if height_mm < 15:
        return None
    if height_mm < 30:
        return TOKEN_ART_MM
    return ART_WINDOW_MM * min(width_mm / 63.5, height_mm / 88.9)


@dataclass(frozen=True)
class Back:
    title: str
    accent: str
    emblem: tuple[Icon, ...] = field(default_factory=tuple)


# --- The `look:` section of a card data file --------------------------------------------------------------------

ART_SUFFIXES = (".svg", ".png", ".jpg", ".jpeg")


class ArtPath(Field):
    """An art file's path, relative to the data file's folder and inside it, naming an SVG, PNG or JPEG file.
    Only the path is checked here (no file is read): `pnp.design_check.check_art` reads the files."""

    def check(self, value, path, problems):
        """The path, normalised (`art/./king.svg` → `art/king.svg`)."""
        if not isinstance(value, str) or not value.strip():
            return problems.add(path, f"must be a file's path like art/king.svg, got {describe(value)}")
        if "\\" in value or "\0" in value or len(value) > 200:
            return problems.add(path, f"{value!r} is not a path like art/king.svg (forward slashes, at most 200 "
                                      f"characters)")
        normal = posixpath.normpath(value)
        if posixpath.isabs(value) or normal == ".." or normal.startswith("../") or ":" in value.split("/")[0]:
            return problems.add(path, f"{value!r} leads outside the data file's folder; an art file must be in "
                                      f"that folder or below it, given relative to it")
        if not normal.lower().endswith(ART_SUFFIXES):
            return problems.add(path, f"{value!r} is not an SVG, PNG or JPEG file (by its name: .svg, .png, .jpg "
                                      f"or .jpeg)")
        return normal


COLOUR = Str(r"#[0-9A-Fa-f]{6}|rainbow", max_len=7, hint="a colour like #5b2a6e (or rainbow)")
TERM = Record({"colour": COLOUR, "shape": Enum(DRAWN_SHAPES, "shape"), "letter": Str(max_len=2), "gem": Bool(),
               "art": ArtPath()}, required=("colour",))
SLUG_KEY = Str(r"[a-z][a-z0-9-]*", max_len=40, hint="lower-case letters, digits and '-'")


class EmblemIcon(Field):
    """One icon of the back's emblem: a term's name (a term with a shape) or an inline `{shape, colour}`."""

    inline = Record({"shape": Enum(DRAWN_SHAPES, "shape"), "colour": COLOUR, "letter": Str(max_len=2),
                     "gem": Bool()}, required=("shape", "colour"))

    def check(self, value: Any, path: Path, problems: Problems) -> Any:
        if isinstance(value, str):
            return SLUG_KEY.check(value, path, problems)
        if isinstance(value, Mapping):
            return self.inline.check(value, path, problems)
        return problems.add(path, f"must be a term's name or {{shape, colour}}, got {describe(value)}")


ACCENT = Str(r"#[0-9A-Fa-f]{6}", max_len=7, hint="a colour like #5b2a6e (a band's colour: not rainbow)")
LOOK = Record({"accent": ACCENT, "emblem": ListOf(EmblemIcon(), 1, 6), "terms": MapOf(SLUG_KEY, TERM)})


def build_look(raw: Mapping | None, path: Path, problems: Problems, required_terms: tuple[str, ...] = ()) -> Look:
    """A Look from an already-checked `look:` section; names every emblem term that is missing or has no shape,
    and every term the game's faces draw that the section does not declare."""
    raw = raw or {}
    terms = {name: Term(t["colour"], t.get("shape"), t.get("letter", ""), t.get("gem", False))
             for name, t in raw.get("terms", {}).items()}
    emblem = []
    for i, item in enumerate(raw.get("emblem", ())):
        if isinstance(item, str):
            term = terms.get(item)
            if term is None or term.shape is None:
                problems.add((*path, "emblem", i), f"{item!r} is not a term with a shape in look.terms")
                continue
            emblem.append(term.icon())
        else:
            emblem.append(Icon(item["shape"], item["colour"], item.get("letter", ""), gem=item.get("gem", False)))
    for name in required_terms:
        if name not in terms:
            problems.add((*path, "terms"), f"is missing {name!r}: this game's faces draw it")
    defaults = Look()
    return Look(accent=raw.get("accent", defaults.accent), emblem=tuple(emblem) or defaults.emblem,
                terms=MappingProxyType(terms))

