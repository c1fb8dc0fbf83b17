"""Card faces as data: a game's `fields:`, `colours:`, `fonts:` and `layouts:` sections checked and resolved
(`extends` merged, `null` dropping an element), and one element's placeholders filled in for one component.

Pure data, no drawing: `companion/pnp/layout.py` draws a resolved layout, and the phone's card page reads the same
one. The contract is `shared/specs/layouts.md`; `docs/card-data.md` documents it for designers."""
from __future__ import annotations

import math
import os
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from .components import SIZES
from .schema import (
    INVALID,
    Bool,
    Enum,
    Field,
    Int,
    ListOf,
    MapOf,
    Path,
    Problems,
    Record,
    Str,
    Texts,
    TextsField,
    Value,
    closest,
)

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
        """The default layout of a component of `kind` printed at `size` (companion/default_layouts.yaml): the one
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


MAX_EXTENDS = 32  # layouts a chain of `extends` may climb from a layout to one that extends none (ours climb 2)
MAX_ELEMENTS = 10_000  # elements of all of a file's layouts once resolved, each counting those it inherits again
SHOWN_NAMES = 20  # layout names a message lists before it says how many more there are

_Merged = dict[str, tuple[Mapping, "Element | None"]]  # a layout's elements: as written (merged) and as checked


def names_shown(names, most: int = SHOWN_NAMES) -> str:
    """Names for a message, comma-separated: the first `most`, then how many more there are."""
    names = list(names)
    shown = ", ".join(names[:most])
    return f"{shown} and {len(names) - most} more" if len(names) > most else shown


def resolve(raw: Mapping[str, Mapping], path: Path, problems: Problems,
            line_of=lambda path: 0) -> dict[str, tuple[Element, ...]]:
    """Every layout with its `extends` chain merged: a parent's elements in their order, then the child's new ones;
    a child's `name: null` drops the parent's element, a mapping without a kind changes some of its properties, a
    mapping with a kind replaces it. A child shares its parent's checked elements (each is checked once, where it
    is written). Problems name the layout and element; so are a loop of `extends`, a chain of more than
    MAX_EXTENDS, and layouts holding more than MAX_ELEMENTS elements together (resolving stops there)."""
    merged: dict[str, _Merged | None] = {}
    depth: dict[str, int] = {}
    resolved: dict[str, tuple[Element, ...]] = {}
    total = 0
    for name in raw:
        if not isinstance(raw[name], Mapping):
            problems.add((*path, name), "must be a mapping of elements, got %(got)s", got=Value(raw[name]))
            continue
        for link in [] if name in merged else _unmerged(name, raw, merged, path, problems):  # the top one first
            parent_name = raw[link].get("extends")
            parent = merged.get(parent_name) if parent_name is not None else {}
            depth[link] = depth[parent_name] + 1 if parent_name is not None and parent is not None else 0
            if parent is None:  # a parent in error: said where it is
                merged[link] = None
            elif depth[link] > MAX_EXTENDS:
                problems.add((*path, link, "extends"), "makes a chain of more than %(most)s layouts extending one "
                             "another: %(chain)s", most=MAX_EXTENDS, chain=_chain_shown(link, raw))
                merged[link] = None
            else:
                merged[link] = _merge(link, raw[link], parent, path, problems, line_of)
                total += len(merged[link])
            if total > MAX_ELEMENTS:
                problems.add((*path, link), "brings the layouts to more than %(most)s elements, counting each "
                             "layout's inherited elements again: make fewer layouts, or fewer elements in those "
                             "others extend", most=MAX_ELEMENTS)
                return resolved
        if merged[name] is not None:
            resolved[name] = tuple(e for _, e in merged[name].values() if e is not None)
    return resolved


def _unmerged(name: str, raw: Mapping, merged: Mapping, path: Path, problems: Problems) -> list[str]:
    """The layouts of `name`'s chain still to merge, the top one first, found without recursing (a chain may be
    thousands long). An `extends` naming no layout, or closing a loop, is a problem; then [] (the layouts below
    it are marked as failed in `merged`, which is a dict)."""
    links = [name]
    while True:
        current = links[-1]
        parent = raw[current].get("extends")
        if parent is None or (isinstance(parent, str) and parent in merged):
            return links[::-1]
        if not isinstance(parent, str) or parent not in raw:
            problems.add((*path, current, "extends"), "no layout is named %(got)s; the file declares: %(names)s",
                         got=repr(parent), names=names_shown(raw))
        elif parent in links:
            loop = " → ".join((*links[links.index(parent):], parent))
            problems.add((*path, current, "extends"), "is a loop: %(loop)s", loop=loop)
        elif isinstance(raw[parent], Mapping):
            links.append(parent)
            continue
        merged.update(dict.fromkeys(links))  # a parent that is no mapping is said where it is
        return []


def _chain_shown(name: str, raw: Mapping) -> str:
    """A layout's chain of `extends` up to the layout that extends none, as `a → b → … → base`, its middle left out
    when it is long."""
    chain = [name]
    while raw[chain[-1]].get("extends") is not None:
        chain.append(raw[chain[-1]]["extends"])
    return " → ".join(chain if len(chain) <= 6 else (*chain[:3], "…", *chain[-2:]))


def _merge(name: str, layout: Mapping, parent: _Merged, path: Path, problems: Problems, line_of) -> _Merged:
    """One layout's elements: its parent's (the same objects), each it drops, changes or adds checked here."""
    out = dict(parent)
    for element, value in layout.items():
        if element in ("extends", "scale"):
            continue
        where = (*path, name, element)
        if ELEMENT_NAME.check(element, where, problems) is INVALID:
            continue
        if value is None:
            if element not in out:
                problems.add(where, "drops an element that %(layout)s does not have",
                             layout=repr(layout["extends"]) if "extends" in layout else "it")
            out.pop(element, None)
            continue
        if not isinstance(value, Mapping):
            problems.add(where, "must be a mapping like {text: \"{name}\", at: [4, 3, 55, 8]} or null, got %(got)s",
                         got=Value(value))
            continue
        props = {**out[element][0], **value} if element in out and not any(k in value for k in KINDS) else value
        out[element] = (props, _element(element, props, line_of(where), where, problems))
    if "scale" in layout:
        _scaled(layout["scale"], out, (*path, name), problems)
    return out


def _scaled(scale, out: _Merged, path: Path, problems: Problems) -> None:
    """A layout's `scale: poker`: each of its elements (inherited ones too) that gives no `scale` of its own takes
    it, as if written on it."""
    if COMMON["scale"].check(scale, (*path, "scale"), problems) is INVALID:
        return
    for element, (props, checked) in list(out.items()):
        if checked is not None and "scale" not in props:
            props = {**props, "scale": scale}
            out[element] = (props, replace(checked, props=MappingProxyType({**checked.props, "scale": scale})))


def sized(elements: tuple[Element, ...], size_mm: tuple[float, float]) -> tuple[Element, ...]:
    """A layout's elements for a card of `size_mm`: each box given in percent made mm (x and width of the card's
    width, y and height of its height), and an element's sizes written for another card (`scale: poker`: text
    sizes, icons' size and gap, a rect's stroke and radius) multiplied by the ratio of the heights, a text never
    below its least size (MIN_TEXT_PT, a quiet one QUIET_MIN_PT). Elements that depend on no size stay as they are."""
    if not any(e.relative for e in elements):
        return elements
    key = (id(elements), size_mm)
    found = _SIZED.get(key)
    if found is None or found[0] is not elements:
        if len(_SIZED) > 256:
            _SIZED.clear()
        found = _SIZED[key] = (elements, tuple(_sized(e, size_mm) if e.relative else e for e in elements))
    return found[1]


_SIZED: dict[tuple[int, tuple[float, float]], tuple[tuple[Element, ...], tuple[Element, ...]]] = {}
SCALED = ("size", "min_size", "gap", "stroke_width", "radius")  # what `scale:` multiplies


def _sized(e: Element, size_mm: tuple[float, float]) -> Element:
    w, h = size_mm
    props = dict(e.props)
    key = "rect" if e.kind == "rect" else "at"
    props[key] = tuple(float(v) * (w if i % 2 == 0 else h) / 100 if isinstance(v, Percent) else v
                       for i, v in enumerate(props[key]))
    if "scale" in props:
        k = h / SIZES[props["scale"]][1]
        for name in SCALED:
            if name in props:
                props[name] *= k
        quiet = props.get("quiet", False)
        floor = QUIET_MIN_PT if quiet else MIN_TEXT_PT
        if e.kind == "text":
            props["size"] = max(props.get("size", (QUIET_PT if quiet else 8.0) * k), floor)
            if "min_size" in props:
                props["min_size"] = min(max(props["min_size"], floor), props["size"])
        elif e.kind == "icons" and "size" in props:  # its captions' points
            props["size"] = max(props["size"], MIN_TEXT_PT)
    return replace(e, props=MappingProxyType(props))


def _element(name: str, props: Mapping, line: int, path: Path, problems: Problems) -> Element | None:
    present = [k for k in KINDS if k in props]
    kinds = [k for k in present if not any(k in PROPERTIES[o] for o in present if o != k)]  # pips' own `icon`
    if len(kinds) != 1:
        problems.add(path, "must have one kind of %(kinds)s, has %(has)s", kinds=", ".join(KINDS),
                     has=", ".join(kinds) or "none")
        return None
    kind = kinds[0]
    fields = {**COMMON, **PROPERTIES[kind]}
    checked = Record(fields, required=(kind,) if kind in BOXLESS else (kind, "at")).check(props, path, problems)
    if checked is INVALID:
        return None
    if kind == "text" and not checked.get("quiet"):  # below 6 pt only the quiet id
        small = [key for key in ("size", "min_size") if checked.get(key, MIN_TEXT_PT) < MIN_TEXT_PT]
        for key in small:
            problems.add((*path, key), "must be from %(lo)s to %(hi)s, got %(got)s", lo=MIN_TEXT_PT, hi=120,
                         got=checked[key])
        if small:
            return None
    box = checked["rect" if kind in BOXLESS else "at"]
    if float(box[2]) <= 0 or float(box[3]) <= 0:
        problems.add((*path, "rect" if kind in BOXLESS else "at"), "must have a width and a height above 0")
        return None
    return Element(name, kind, MappingProxyType(dict(checked)), line)


def font_path(given: str) -> str | None:
    """A font file's path as written, normalised, or None when it leads outside the data file's folder."""
    normal = posixpath.normpath(given)
    if "\\" in given or "\0" in given or posixpath.isabs(given) or normal == ".." or normal.startswith("../"):
        return None
    return normal


# --- Filling placeholders for one component ---------------------------------------------------------------------

class Missing(Exception):
    """A placeholder names a field the component does not have: the element is not drawn."""


def value_of(key: str, values: Mapping[str, Any], lang: str) -> Any:
    """A component's value for a placeholder's key (`name`, `suit`, `flavour.en`); Missing when it has none."""
    head, _, tail = key.partition(".")
    if head not in values or values[head] is None:
        raise Missing(key)
    value = values[head]
    if isinstance(value, Texts):
        return value.get(tail or lang)
    if tail:
        raise Missing(key)
    return value


def fill(template: str, values: Mapping[str, Any], lang: str, design: Design | None = None) -> str:
    """A text with every `{field}` replaced by the component's value, `{colour:field}` by the colour `colours:`
    gives that value and `{label:field}` by the word `labels:` gives it in `lang`; `{icon:...}` is left for the
    markup. Missing when a field is absent (or has no colour)."""
    def one(match: re.Match) -> str:
        key = match.group(1)
        prefix, _, name = key.rpartition(":")
        if prefix == "icon":
            return match.group(0)
        value = value_of(name, values, lang)
        if isinstance(value, (list, tuple)):
            value = ", ".join(map(str, value))
        if prefix == "colour":
            found = design.colours.get(name, {}).get(str(value)) if design else None
            if found is None:
                raise Missing(key)
            return found
        if prefix == "label":
            texts = design.labels.get(str(value)) if design else None
            return texts.get(lang) if texts else str(value)
        return str(value)

    return PLACEHOLDER.sub(one, template)


def fill_list(template: str, values: Mapping[str, Any], lang: str) -> list:
    """An `icons:`/`track:` element's list: `{field}` alone names a list field (a text is split at commas)."""
    match = PLACEHOLDER.fullmatch(template.strip())
    if match:
        value = value_of(match.group(1), values, lang)
    else:
        value = template
    if isinstance(value, (list, tuple)):
        return list(value)
    return [part.strip() for part in str(value).split(",") if part.strip()]


def placeholders(template: str) -> list[str]:
    """The field names a template uses (`colour:suit` → `suit`; inline icons name no field)."""
    names = []
    for key in PLACEHOLDER.findall(template):
        if key.startswith("icon:"):
            continue
        names.append(key.split(":", 1)[-1].split(".", 1)[0])
    return names


# --- Text markup ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Run:
    """A piece of a text line: words in one style, or one inline icon (a term or shape's name)."""

    text: str = ""
    bold: bool = False
    italic: bool = False
    icon: str | None = None


_TOKEN = re.compile(r"\\[*\\{]|\*\*|\*|\{icon:([a-z0-9_-]+)\}|\n")


def markup(text: str, bold: bool = False, italic: bool = False) -> list[list[Run]]:
    """Lines of runs from a text with `**bold**`, `*italic*`, `{icon:name}` and line breaks (`\\*` is a star).
    An unclosed `*` or `**` styles to the end of the text, as a reader would expect from a half-typed one."""
    lines: list[list[Run]] = [[]]
    b, i = bold, italic
    pos = 0
    buf = ""

    def flush():
        nonlocal buf
        if buf:
            lines[-1].append(Run(buf, b, i))
            buf = ""

    for m in _TOKEN.finditer(text):
        buf += text[pos:m.start()]
        pos = m.end()
        token = m.group(0)
        if token.startswith("\\"):
            buf += token[1]
        elif token == "**":
            flush()
            b = not b
        elif token == "*":
            flush()
            i = not i
        elif token == "\n":
            flush()
            lines.append([])
        else:
            flush()
            lines[-1].append(Run(icon=m.group(1), bold=b, italic=i))
    buf += text[pos:]
    flush()
    return lines


def plain(text: str) -> str:
    """A marked-up text as plain words (for the phone's alt text and for checking a font's characters)."""
    return "\n".join("".join(r.text for r in line) for line in markup(text))


def check_markup(text: str, icon_names, path: Path, problems: Problems) -> None:
    """One problem at most for a marked-up text: an inline icon that is no term or shape in `icon_names` (drawn as
    a gap), else a `**` or `*` nothing closes (`check_closed`)."""
    for m in _TOKEN.finditer(text):
        if m.group(1) is not None and m.group(1) not in icon_names:
            check_icon(m.group(1), icon_names, path, problems)
            return
    check_closed(text, path, problems)


def check_icon(name: str, icon_names, path: Path, problems: Problems) -> None:
    """A problem for an icon name that is no term or shape, naming the closest known one (else all of them)."""
    if name in icon_names:
        return
    near = closest(name, icon_names)
    if near:
        problems.add(path, "names the icon %(name)s, which is neither a term in look.terms nor a shape; did you "
                           "mean %(near)s?", name=repr(name), near=repr(near))
    else:
        problems.add(path, "names the icon %(name)s, which is neither a term in look.terms nor a shape "
                           "(%(shapes)s)", name=repr(name), shapes=", ".join(sorted(icon_names)))


def check_closed(text: str, path: Path, problems: Problems) -> None:
    """A problem for a `**` or `*` that nothing closes (the rest of the text would print bold or italic)."""
    opened: dict[str, int | None] = {"**": None, "*": None}  # each style's opening star while it is open
    for m in _TOKEN.finditer(text):
        if m.group(0) in opened:
            opened[m.group(0)] = m.start() if opened[m.group(0)] is None else None
    for stars, style in (("**", "bold"), ("*", "italic")):
        if opened[stars] is not None:
            at = text[opened[stars]:opened[stars] + 24].replace("\n", " ")
            problems.add(path, "opens %(style)s with %(stars)s at %(at)s and nothing closes it, so the rest of the "
                               "text prints %(style)s: close it with %(stars)s (a star that is a star: \\*)",
                         style=style, stars=stars, at=repr(at))
            return


# --- A game's design from its checked sections ------------------------------------------------------------------

# placeholders every component can fill: `art` is its art file as written (for `when:`/`unless:`), `accent` the
# look's accent colour
COMPONENT_KEYS = ("id", "name", "text", "qty", "type", "set", "art", "accent", "emblem")


def build_design(header: Mapping, folder: str, line_of, problems: Problems) -> Design:
    """A Design from a data file's checked header (its `colours:`, `fonts:`, `layouts:` and `back:`); problems
    for an `extends` that names no layout or loops, a `back.layout` that names none, a font or back art file's
    path leading outside the data file's folder. Files are not read here (see pnp.check_design). A file without
    layouts gets the default ones (`default_layouts`): every face is drawn from layouts."""
    layouts = resolve(header.get("layouts") or {}, ("layouts",), problems, line_of)
    fonts = {}
    for family, files in (header.get("fonts") or {}).items():
        paths = {}
        for style, given in files.items():
            normal = font_path(given)
            if normal is None or not normal.lower().endswith((".ttf", ".otf")):
                problems.add(("fonts", family, style), "%(got)s must be a .ttf or .otf file inside the data file's "
                                                       "folder, given relative to it", got=repr(given))
                continue
            paths[style] = os.path.join(folder, normal)
        if "regular" in paths:
            fonts[family] = FontFamily(family, line=line_of(("fonts", family)), **paths)
    back = header.get("back") or {}
    back_art = None
    if "art" in back:
        normal = font_path(back["art"])
        if normal is None or not normal.lower().endswith((".svg", ".png", ".jpg", ".jpeg")):
            problems.add(("back", "art"), "%(got)s must be an SVG, PNG or JPEG file inside the data file's folder, "
                                          "given relative to it", got=repr(back["art"]))
        else:
            back_art = os.path.join(folder, normal)
    if "layout" in back and back["layout"] not in layouts and back["layout"] not in (header.get("layouts") or {}):
        problems.add(("back", "layout"), "no layout is named %(got)s; the file declares: %(names)s",
                     got=repr(back["layout"]), names=", ".join(header.get("layouts") or {}) or "none")
    if "art" in back and "layout" in back:
        problems.add(("back",), "gives both art and layout; give one")
    ours = default_layouts() if not header.get("layouts") else {}
    return Design(layouts=MappingProxyType(layouts), colours=MappingProxyType(dict(header.get("colours") or {})),
                  labels=MappingProxyType(dict(header.get("labels") or {})),
                  fonts=MappingProxyType(fonts), back_art=back_art, back_layout=back.get("layout"),
                  first=next(iter(layouts), None), defaults=ours, corner_radius=_corner_radius(header, problems),
                  cut_outline=bool(header.get("cut_outline")))


def _corner_radius(header: Mapping, problems: Problems) -> float:
    """The file's `corner_radius` (mm); a problem when it is over a third of its cards' short side."""
    from .components import SIZES

    radius = header.get("corner_radius") or 0.0
    size = header.get("card_size", "poker")
    most = min(SIZES[size]) / 3
    if radius > most:
        problems.add(("corner_radius",), "must be at most a third of a %(size)s card's short side (%(most)s mm), "
                                         "got %(got)s", size=size, most=f"{most:.1f}", got=f"{radius:g}")
        return 0.0
    return radius


DEFAULT_LAYOUTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "default_layouts.yaml")


@lru_cache(maxsize=1)
def default_layouts() -> Mapping[str, tuple[Element, ...]]:
    """The layouts a file without `layouts:` is drawn with (companion/default_layouts.yaml), resolved once: one
    for each kind and size a game prints (card-poker, reference-mini, tile, token, marker, back-bridge...)."""
    import yaml

    with open(DEFAULT_LAYOUTS, encoding="utf-8") as f:
        raw = yaml.safe_load(f)
    problems = Problems()
    resolved = resolve(raw, ("layouts",), problems)
    if problems:  # ours: tests/test_default_layouts.py keeps them sound
        raise ValueError("; ".join(f"{'.'.join(map(str, p.path))}: {p.message}" for p in problems))
    return MappingProxyType(resolved)


def check_elements(elements: tuple[Element, ...], size_mm: tuple[float, float], known: set[str], design: Design,
                   icon_names: set[str], path: Path, problems: Problems) -> None:
    """A layout's elements against a face of `size_mm`: each box on the face, every placeholder a field some
    component can have, every font declared, every fixed icon name a term or shape. Reported under `path`
    (`layouts.<name>.<element>`)."""
    w, h = size_mm
    for e in sized(elements, size_mm):
        where = (*path, e.name)
        x, y, bw, bh = e.box
        if x < -0.01 or y < -0.01 or x + bw > w + 0.01 or y + bh > h + 0.01:
            problems.add(where, "is off the face: [%(x)s, %(y)s, %(w)s, %(h)s] mm on a face of %(fw)s × %(fh)s mm",
                         x=f"{x:g}", y=f"{y:g}", w=f"{bw:g}", h=f"{bh:g}", fw=f"{w:g}", fh=f"{h:g}")
        for key, value in e.props.items():
            if not isinstance(value, str):
                continue
            for name in placeholders(value):
                if name not in known:
                    problems.add((*where, key), "names the field %(name)s, which no component has; known: %(known)s",
                                 name=repr(name), known=", ".join(sorted(known)))
            for key_full in PLACEHOLDER.findall(value):
                if key_full.startswith("colour:"):
                    field_name = key_full.split(":", 1)[1]
                    if field_name in known and field_name not in design.colours:
                        problems.add((*where, key), "uses {colour:%(name)s} but colours: gives no colours for "
                                                    "%(name)s", name=field_name)
                if key_full.startswith("icon:"):
                    check_icon(key_full[5:], icon_names, (*where, key), problems)
            if e.kind == "text" and key == "text":
                check_closed(value, (*where, key), problems)
        if e.kind == "icon" and not PLACEHOLDER.search(e.props["icon"]):
            check_icon(e.props["icon"], icon_names, (*where, "icon"), problems)
        font = e.props.get("font")
        if font is not None and font != DEFAULT_FONT and font not in design.fonts:
            problems.add((*where, "font"), "names the font %(name)s, which fonts: does not declare; declared: "
                                           "%(known)s", name=repr(font),
                         known=", ".join([DEFAULT_FONT, *design.fonts]))


def list_items(text: str) -> list[tuple[int, str]]:
    """A reference text as list items (level, text) for a layout's list: one a sentence; a sentence of four or more
    clauses split at its semicolons into sub-items under its first."""
    out = []
    for sentence in re.split(r"(?<=\.)\s+(?=\S)", text.strip()):
        clauses = sentence.split("; ")
        if len(clauses) >= 4:
            out.append((0, clauses[0]))
            out += [(1, clause) for clause in clauses[1:]]
        else:
            out.append((0, sentence))
    return out
