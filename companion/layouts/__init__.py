"""Card faces as data: a game's `fields:`, `colours:`, `fonts:` and `layouts:` sections checked and resolved
(`extends` merged, `null` dropping an element), and one element's placeholders filled in for one component.

The entry point: the design built from a file's header (`build_design`), the default layouts, a layout's elements
checked against a face (`check_elements`); every name of the layouts' modules is importable from here. The jobs
live in `layout_schema` (the sections' checks and the records), `layout_resolve` (`extends`), `layout_markup`
(placeholders and text markup) and `layout_size` (percent and `scale:`); see docs/code-map.md.

Pure data, no drawing: `companion/pnp/layout.py` draws a resolved layout, and the phone's card page reads the same
one. `docs/card-data.md` documents it for designers."""
from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from ..core.schema import Path, Problems
from .extends import MAX_ELEMENTS, MAX_EXTENDS, names_shown, resolve
from .schema import (
    BOX,
    BOXLESS,
    COLOUR_TEXT,
    COMMON,
    DEFAULT_FONT,
    ELEMENT_NAME,
    FIELD_DECL,
    KINDS,
    LAYOUT_NAME,
    MIN_TEXT_PT,
    PATTERNS,
    PLACEHOLDER,
    PREFIXES,
    PROPERTIES,
    QUIET_MIN_PT,
    QUIET_PT,
    SECTIONS,
    Colour,
    Design,
    Element,
    FixedColour,
    FlagOrTemplate,
    FontFamily,
    Length,
    Num,
    Percent,
    Template,
    declared_field,
)
from .size import SCALED, sized
from .texts import (
    Missing,
    Run,
    check_closed,
    check_icon,
    check_markup,
    fill,
    fill_list,
    list_items,
    markup,
    placeholders,
    plain,
    value_of,
)

__all__ = [  # the layouts' names, wherever they live: callers import them from here
    "BOX", "BOXLESS", "COLOUR_TEXT", "COMMON", "COMPONENT_KEYS", "DEFAULT_FONT", "DEFAULT_LAYOUTS", "ELEMENT_NAME",
    "FIELD_DECL", "KINDS", "LAYOUT_NAME", "MAX_ELEMENTS", "MAX_EXTENDS", "MIN_TEXT_PT", "PATTERNS", "PLACEHOLDER",
    "PREFIXES", "PROPERTIES", "QUIET_MIN_PT", "QUIET_PT", "SCALED", "SECTIONS", "Colour", "Design", "Element",
    "FixedColour", "FlagOrTemplate", "FontFamily", "Length", "Missing", "Num", "Percent", "Run", "Template",
    "build_design", "check_closed", "check_elements", "check_icon", "check_markup", "declared_field",
    "default_layouts", "fill", "fill_list", "font_path", "list_items", "markup", "names_shown", "placeholders",
    "plain", "resolve", "sized", "value_of",
]


def font_path(given: str) -> str | None:
    """A font file's path as written, normalised, or None when it leads outside the data file's folder."""
    normal = posixpath.normpath(given)
    if "\\" in given or "\0" in given or posixpath.isabs(given) or normal == ".." or normal.startswith("../"):
        return None
    return normal


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
    fonts = _fonts(header, folder, line_of, problems)
    back = header.get("back") or {}
    back_art = _back_art(back, folder, problems)
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


def _fonts(header: Mapping, folder: str, line_of, problems: Problems) -> dict[str, FontFamily]:
    """The `fonts:` families with their files' paths on disk; a problem for a file that is no .ttf or .otf inside
    the data file's folder (a family left without its regular file is left out)."""
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
    return fonts


def _back_art(back: Mapping, folder: str, problems: Problems) -> str | None:
    """The back's picture on disk (`back.art`), or None; a problem when it is no SVG, PNG or JPEG inside the data
    file's folder."""
    if "art" not in back:
        return None
    normal = font_path(back["art"])
    if normal is None or not normal.lower().endswith((".svg", ".png", ".jpg", ".jpeg")):
        problems.add(("back", "art"), "%(got)s must be an SVG, PNG or JPEG file inside the data file's folder, "
                                      "given relative to it", got=repr(back["art"]))
        return None
    return os.path.join(folder, normal)


def _corner_radius(header: Mapping, problems: Problems) -> float:
    """The file's `corner_radius` (mm); a problem when it is over a third of its cards' short side."""
    from ..components import SIZES

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
    """The layouts a file without `layouts:` is drawn with (companion/layouts/default_layouts.yaml), resolved once: one
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
            if isinstance(value, str):
                _check_template(value, known, design, icon_names, (*where, key), problems)
                if e.kind == "text" and key == "text":
                    check_closed(value, (*where, key), problems)
        if e.kind == "icon" and not PLACEHOLDER.search(e.props["icon"]):
            check_icon(e.props["icon"], icon_names, (*where, "icon"), problems)
        font = e.props.get("font")
        if font is not None and font != DEFAULT_FONT and font not in design.fonts:
            problems.add((*where, "font"), "names the font %(name)s, which fonts: does not declare; declared: "
                                           "%(known)s", name=repr(font),
                         known=", ".join([DEFAULT_FONT, *design.fonts]))


def _check_template(value: str, known: set[str], design: Design, icon_names: set[str], where: Path,
                    problems: Problems) -> None:
    """One property's placeholders: each a field some component has, each `{colour:field}` a field `colours:`
    colours, each `{icon:name}` a term or shape."""
    for name in placeholders(value):
        if name not in known:
            problems.add(where, "names the field %(name)s, which no component has; known: %(known)s",
                         name=repr(name), known=", ".join(sorted(known)))
    for key in PLACEHOLDER.findall(value):
        if key.startswith("colour:"):
            field_name = key.split(":", 1)[1]
            if field_name in known and field_name not in design.colours:
                problems.add(where, "uses {colour:%(name)s} but colours: gives no colours for %(name)s",
                             name=field_name)
        if key.startswith("icon:"):
            check_icon(key[5:], icon_names, where, problems)
