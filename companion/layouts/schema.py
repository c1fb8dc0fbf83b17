"""The schema of a layout, and of the other sections a data file draws its faces with (`fields:`, `colours:`,
`fonts:`, `back:`): each element kind's properties and their checks, a box in mm or in percent, and the records a
resolved design is made of (`Element`, `FontFamily`, `Design`). `companion.layouts` is the entry point."""
from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..components import SIZES
from ..core.schema import INVALID, Bool, Enum, Field, Int, ListOf, MapOf, Record, Str, Texts, TextsField, Value

# Each element is one of these kinds, named by the key it carries (`text: "{name}"`, `qr: true`...).
KINDS = ("text", "rect", "art", "icon", "icons", "qr", "pips", "track")
DEFAULT_FONT = "serif"  # the project's own family (Noto Serif), used where a layout names no font
MIN_TEXT_PT = 6.0  # no text is printed smaller: a text that cannot fit at this size is a validate error
QUIET_PT, QUIET_MIN_PT = 5.0, 3.0  # a `quiet: true` text (the printed id): small and grey, down to 3 pt on a marker
LAYOUT_NAME = Str(r"[a-z][a-z0-9_-]*", max_len=40, hint="lower-case letters, digits, '-' and '_'")
ELEMENT_NAME = LAYOUT_NAME
COLOUR_TEXT = re.compile(r"#[0-9A-Fa-f]{6}")
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_.-]*(?::[a-z0-9_.-]+)?)\}")
PREFIXES = ("colour", "label", "icon")  # {colour:suit}, {label:suit}, {icon:heart}


class Num(Field):
    """A finite number (whole or with decimals) from lo to hi."""

    def __init__(self, lo: float, hi: float):
        self.lo, self.hi = lo, hi

    def check(self, value, path, problems):
        """The number as a float (true and false, NaN and infinities are refused)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return problems.add(path, "must be a number, got %(got)s", got=Value(value))
        if not self.lo <= value <= self.hi:
            return problems.add(path, "must be from %(lo)s to %(hi)s, got %(got)s", lo=self.lo, hi=self.hi, got=value)
        return float(value)


class Colour(Field):
    """A colour: `#rrggbb`, or a placeholder filled per component (`{colour:suit}`, `{hue}`)."""

    def check(self, value, path, problems):
        if isinstance(value, str) and (COLOUR_TEXT.fullmatch(value) or PLACEHOLDER.fullmatch(value)):
            return value
        return problems.add(path, "must be a colour like #5b2a6e or {colour:field}, got %(got)s", got=Value(value))


class FixedColour(Field):
    """A colour itself, `#rrggbb`: what `colours:` gives a field's value (no placeholder: nothing fills it)."""

    def check(self, value, path, problems):
        if isinstance(value, str) and COLOUR_TEXT.fullmatch(value):
            return value
        return problems.add(path, "must be a colour like #5b2a6e, got %(got)s", got=Value(value))


class Template(Str):
    """A text with `{field}` placeholders (checked against the game's fields when the layout is checked)."""

    def __init__(self, max_len: int = 400):
        super().__init__(max_len=max_len)


class FlagOrTemplate(Field):
    """`true` (the component's own: its art, its code) or a text (a file's path, a `{field}`)."""

    def check(self, value, path, problems):
        if value is True:
            return True
        if isinstance(value, str) and value.strip():
            return Template().check(value, path, problems)
        return problems.add(path, "must be true or a text, got %(got)s", got=Value(value))



PATTERNS = ("lattice",)  # a rect's `pattern`: lines drawn in a lighter shade of its fill (a back's)


class Percent(float):
    """A length given in percent of the card's width (x, width) or height (y, height): `sized` makes it mm."""

    def __repr__(self):
        return f"{float(self):g}%"


class Length(Field):
    """A length in mm (a number), or in percent of the card (`12.5%`): a Percent."""

    def __init__(self, lo: float, hi: float):
        self.mm, self.percent = Num(lo, hi), Num(-100, 200)

    def check(self, value, path, problems):
        if isinstance(value, str) and value.strip().endswith("%"):
            try:
                number = float(value.strip()[:-1])
            except ValueError:
                return problems.add(path, "must be a number (mm) or a percentage like 12.5%%, got %(got)s",
                                    got=Value(value))
            checked = self.percent.check(number, path, problems)
            return INVALID if checked is INVALID else Percent(checked)
        if isinstance(value, str):
            return problems.add(path, "must be a number (mm) or a percentage like 12.5%%, got %(got)s",
                                got=Value(value))
        return self.mm.check(value, path, problems)


# x, y, width, height from the face's top-left corner: each in mm, or in percent of the card's width (x, width) or
# height (y, height)
BOX = ListOf(Length(-50, 500), 4, 4)
COMMON = {"at": BOX, "corners": Int(1, 2), "rotate": Num(-360, 360), "when": Template(80), "unless": Template(80),
          "scale": Enum(SIZES, "size")}  # sizes in points (and mm) written for a card of this size: scaled by height
PROPERTIES: dict[str, dict[str, Field]] = {
    "text": {"text": Template(600), "font": LAYOUT_NAME, "size": Num(QUIET_MIN_PT, 120),
             "min_size": Num(QUIET_MIN_PT, 120), "bold": Bool(), "italic": Bool(), "colour": Colour(),
             "align": Enum(("left", "center", "right"), "alignment"),
             "valign": Enum(("top", "middle", "bottom"), "alignment"), "leading": Num(0.8, 3), "fill": Colour(),
             "quiet": Bool()},
    "rect": {"rect": BOX, "fill": Colour(), "stroke": Colour(), "stroke_width": Num(0, 20), "radius": Num(0, 100),
             "bleed": Bool(), "pattern": Enum(PATTERNS, "pattern")},
    "art": {"art": FlagOrTemplate(), "fit": Enum(("contain", "cover"), "fit"), "bleed": Bool()},
    "icon": {"icon": Template(80), "colour": Colour(), "letter": Template(20), "outline": Colour()},
    "icons": {"icons": Template(80), "columns": Int(1, 20), "gap": Num(0, 50), "captions": Bool(),
              "size": Num(MIN_TEXT_PT, 40), "align": Enum(("left", "center", "right"), "alignment"),
              "colour": Colour(), "fill": Colour()},
    "qr": {"qr": Bool(), "plate": Bool()},
    "pips": {"pips": Template(80), "icon": Template(80), "outline": Colour()},
    "track": {"track": Template(80), "fill": Colour(), "stroke": Colour(), "colour": Colour()},
}
BOXLESS = {"rect"}  # kinds whose own key is their box


@dataclass(frozen=True)
class Element:
    """One element of a resolved layout: its name, kind and every property (the kind's own key included)."""

    name: str
    kind: str
    props: Mapping[str, Any]
    line: int = 0

    @property
    def box(self) -> tuple[float, float, float, float] | None:
        """x, y, width and height in mm from the face's top-left corner (a rect's `rect`, else `at`), or None. An
        element given in percent is `sized` to its card first (ValueError if it was not)."""
        box = self.props.get("rect" if self.kind == "rect" else "at")
        if box and any(isinstance(v, Percent) for v in box):
            raise ValueError(f"{self.name}: a box in percent of the card: size the layout to a card first (sized)")
        return tuple(box) if box else None

    @property
    def relative(self) -> bool:
        """Whether it depends on the card's size: a box in percent, or sizes to `scale`."""
        box = self.props.get("rect" if self.kind == "rect" else "at") or ()
        return "scale" in self.props or any(isinstance(v, Percent) for v in box)


@dataclass(frozen=True)
class FontFamily:
    """A `fonts:` family: its files (already resolved to disk paths) by style."""

    name: str
    regular: str
    bold: str | None = None
    italic: str | None = None
    bold_italic: str | None = None
    line: int = 0


@dataclass(frozen=True)
class Design:
    """A game's faces as data: resolved layouts by name, the colours of field values, font families, the back."""

    layouts: Mapping[str, tuple[Element, ...]] = field(default_factory=dict)
    colours: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    fonts: Mapping[str, FontFamily] = field(default_factory=dict)
    labels: Mapping[str, Texts] = field(default_factory=dict)  # the file's `labels:`: `{label:suit}` says a value
    back_art: str | None = None  # the back's picture, on disk
    back_layout: str | None = None
    first: str | None = None  # the layout a component without `layout:` uses
    defaults: Mapping[str, tuple[Element, ...]] = field(default_factory=dict)  # a file without layouts: ours
    corner_radius: float = 0.0  # mm: the cards' rounded cut (`corner_radius:`), 0 for square corners
    cut_outline: bool = False  # `cut_outline: true`: each card's cut drawn as a thin line

    def layout_name(self, name: str | None, type_: str = "") -> str | None:
        """The layout a component draws with: the one it names, else the one named after its type, else `base`,
        else the first; None for a game without layouts."""
        if not self.layouts:
            return None
        if name:
            return name
        return type_ if type_ in self.layouts else "base" if "base" in self.layouts else self.first

    def layout_for(self, name: str | None, type_: str = "", kind: str = "", size: str = "",
                   long: bool = False) -> tuple[Element, ...] | None:
        """The elements a component draws with: its file's layout (`layout_name`), or for a file without layouts
        the default for its kind and size (`default_name`); None when neither."""
        found = self.layout_name(name, type_)
        if found is None:
            found = self.default_name(kind, size, long)
            return None if found is None else self.defaults[found]
        return self.layouts.get(found)

    def default_name(self, kind: str, size: str, long: bool = False) -> str | None:
        """The default layout of a component of `kind` printed at `size` (layouts/default_layouts.yaml): the one
        named `<kind>-<size>`, else the one named after the size (tile, token, marker), else a card's; its
        `-long` variant (a smaller picture, more room for words) when `long`. None for a file with layouts."""
        if not self.defaults or self.layouts:
            return None
        for name in (f"{kind}-{size}", size, f"card-{size}", "card-poker"):
            if name in self.defaults:
                return f"{name}-long" if long and f"{name}-long" in self.defaults else name
        return None


# --- Checking the sections --------------------------------------------------------------------------------------

class _AnyField(Field):
    """Anything: checked later, by the code that knows what it is (a layout's elements by `resolve`)."""

    def check(self, value, path, problems):
        return value


class _FieldDecl(Record):
    """One `fields:` entry: its shape (choices, number, text, list, keys: a mapping of declared fields, checked
    the same way), whether it may be left out, which component types carry it, and what it means."""

    def __init__(self):
        super().__init__({"choices": ListOf(Str(max_len=40), 1, 200), "number": ListOf(Int(-10**6, 10**6), 2, 2),
                          "text": Bool(), "list": Bool(), "optional": Bool(), "keys": MapOf(LAYOUT_NAME, self),
                          "types": ListOf(Str(max_len=40), 1, 60), "about": Str(max_len=300)})


FIELD_DECL = _FieldDecl()
FONT_FILE = Str(max_len=200)
FONT_DECL = Record({"regular": FONT_FILE, "bold": FONT_FILE, "italic": FONT_FILE, "bold_italic": FONT_FILE},
                   required=("regular",))
SECTIONS = {
    "fields": MapOf(LAYOUT_NAME, FIELD_DECL),
    "colours": MapOf(LAYOUT_NAME, MapOf(Str(max_len=40), FixedColour())),
    "fonts": MapOf(LAYOUT_NAME, FONT_DECL),
    "layouts": MapOf(LAYOUT_NAME, _AnyField()),  # elements checked by `resolve`
    "back": Record({"art": Str(max_len=200), "layout": LAYOUT_NAME}),
    "corner_radius": Num(0, 30),  # mm: the cards' cut rounds its corners (at most a third of the short side)
    "cut_outline": Bool(),  # a thin line along each card's cut
}


def declared_field(decl: Mapping) -> Field:
    """The check for one `fields:` entry's values: one of its `choices`, a whole number in its `number` range, a
    translated text, a mapping of its `keys`, or a short text; with `list: true`, a list of such values (a list
    of words when it says nothing else)."""
    if "keys" in decl:
        return Record({key: declared_field(sub) for key, sub in decl["keys"].items()},
                      required=tuple(key for key, sub in decl["keys"].items() if not sub.get("optional")))
    if "choices" in decl:
        one: Field = Enum(decl["choices"], "choice")
    elif "number" in decl:
        one = Int(*decl["number"])
    elif decl.get("text"):
        return TextsField(max_len=4000)  # validate's fit check says whether a layout's box holds it
    else:
        one = Str(max_len=40 if decl.get("list") else 200)
    return ListOf(one, 0, 40) if decl.get("list") else one
