"""Each component of a file against the layout it prints with: the layout found at each size it is drawn at, its
fields, fonts and icons known; a layout problem said at the line where what it names is written."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from .. import games, layouts
from ..components import SIZES
from ..core.schema import Path, Problems
from ..look import DRAWN_SHAPES, Look


def _element_named(design: layouts.Design, layout: str, name: str) -> layouts.Element | None:
    """The element `name` of layout `layout` (None: it has none)."""
    return next((e for e in design.layouts.get(layout, ()) if e.name == name), None)


def report_layout_problems(problems: Problems, report) -> None:
    """A problem under `layouts.<name>` is said as `file:line: <name>: <element>: ...`; others as they are."""
    for p in problems:
        if p.path[:1] == ("layouts",) and len(p.path) >= 2:
            report(replace(p, path=p.path[2:]), str(p.path[1]), p.path[:2])
        else:
            report(p)


def check_layouts(design: layouts.Design, components, types, look: Look, game: str, problems: Problems) -> list:
    """Each layout at each size a component draws it at: on the face, its fields, fonts and icons known (into
    `problems`); returned, each component whose `layout:` names none the file has, with what to say."""
    unknown = []
    known = set(layouts.COMPONENT_KEYS) | {name for t in types.values() for name in t.fields} \
        | set(games.for_data(game).face_fields)  # what the game's rules derive for its faces
    icon_names = set(DRAWN_SHAPES) | {name for name, term in look.terms.items() if term.shape}
    checked: set[tuple[str, str]] = set()
    for c in components:
        name = c.layout
        if c.kind == "back":  # a back drawn by a picture, or as the game's title on its accent, has no layout
            name = c.layout or (None if c.art or design.back_art else design.back_layout)
            if name is None:
                continue
        elements = design.layout_for(name, c.type)
        if elements is None:
            unknown.append((c, f"no layout is named {name!r}; the file has: {layouts.names_shown(design.layouts)}"))
            continue
        used = design.layout_name(name, c.type)
        if (used, c.size) not in checked:
            checked.add((used, c.size))
            layouts.check_elements(elements, SIZES[c.size], known, design, icon_names, ("layouts", used), problems)
    return unknown


def written_at(design: layouts.Design, lines: Mapping[Path, int], path: Path) -> Path:
    """A layout problem's path under the layout where what it names is written: an element (or a property of
    one) a layout inherits is checked in each layout that has it, and said once, at its own line."""
    probe = path[:4]  # layouts, the layout, the element, its property
    if path[:1] != ("layouts",) or len(path) < 3 or probe in lines:
        return path
    mine = _element_named(design, path[1], path[2])
    for name in design.layouts:
        other = _element_named(design, name, path[2])
        if mine is not None and other is not None and ("layouts", name, *probe[2:]) in lines and (
                other is mine or len(probe) == 4 and other.props.get(probe[3]) == mine.props.get(probe[3])):
            return ("layouts", name, *path[2:])
    return path
