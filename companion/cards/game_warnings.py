"""Warnings for a game with rules of its own (companion/games/), of what its tests require of its card data: faces
drawn from `layouts:`, the fields its rules read declared in `fields:`, and rules sections for its players. They do
not stop a build; each is a `file:line: card id: field: warning: ...` line."""
from __future__ import annotations

from collections.abc import Callable, Mapping

from .. import games, layouts
from ..core.schema import WRITTEN, Enum, Path
from .model import REQUIRED_SECTIONS, SECTION_CHARS, Component

LineOf = Callable[[Path], int]  # a field path → its line in the data file


def rules_game_warnings(filename: str, line: LineOf, header: Mapping, components: list[Component],
                        design: layouts.Design) -> list[str]:
    """The warnings for the file `filename` of a game with rules of its own (none for a data-only game)."""
    if header["game"] not in games.GAMES:
        return []
    warnings = []
    if not design.layouts:
        warnings.append(f"{filename}:1: -: layouts: warning: a game with rules of its own draws every face and back "
                        f"from the layouts: of its card data; this file has none")
    return [*warnings, *_declared_fields(filename, line, header), *_sections(filename, line, header),
            *_unnamed_types(filename, header, components)]


def _declared_fields(filename: str, line: LineOf, header: Mapping) -> list[str]:
    """Each field its rules read, declared in `fields:` on the types that carry it (a choice with the rules'
    choices, in their order): as a designer's file declares its own, so its layouts and validate know it."""
    declared = header.get("fields") or {}
    carried: dict[str, list[str]] = {}
    for type_name, ctype in games.component_types(header["game"]).items():
        for name in ctype.fields:
            carried.setdefault(name, []).append(type_name)
    warnings = []
    for name, types in carried.items():
        where = f"{filename}:{line(('fields', name))}: -: fields.{name}: warning:"
        rules = games.component_types(header["game"])[types[0]].fields[name]
        if name not in declared:
            warnings.append(f"{where} the rules read {name!r} on {', '.join(types)}: declare it in fields:")
        elif set(declared[name].get("types") or ()) != set(types):
            warnings.append(f"{where} the rules read it on {', '.join(types)}: give exactly these types:")
        elif isinstance(rules, Enum) and tuple(declared[name].get("choices") or ()) != rules.values:
            warnings.append(f"{where} the rules' choices are {', '.join(rules.values)}, in this order")
    return warnings


def _sections(filename: str, line: LineOf, header: Mapping) -> list[str]:
    """A section of REQUIRED_SECTIONS (or one the game's pages link to, `Game.linked_sections`) missing, or short
    in a language."""
    sections = {s["id"]: (i, s) for i, s in enumerate(header.get("rules", ()))}
    warnings = []
    linked = games.GAMES[header["game"]].linked_sections
    for needed in (*REQUIRED_SECTIONS, *linked):
        if needed not in sections:
            why = f"a game with rules of its own explains at least {', '.join(REQUIRED_SECTIONS)}" \
                if needed in REQUIRED_SECTIONS else "the game's scoring page links to it: add it"
            warnings.append(f"{filename}:{line(('rules',))}: -: rules: warning: no {needed!r} section; {why}")
            continue
        i, section = sections[needed]
        for lang in WRITTEN.get():
            if len(section["text"].get(lang)) <= SECTION_CHARS:
                warnings.append(f"{filename}:{line(('rules', i, 'text', lang))}: -: rules[{i}].text.{lang}: warning: "
                                f"the {needed!r} section says {len(section['text'].get(lang))} characters; explain "
                                f"it for players in more than {SECTION_CHARS}")
    return warnings


def _unnamed_types(filename: str, header: Mapping, components: list[Component]) -> list[str]:
    """A printed type that no rules section names (its card pages then quote no rule), at its first component."""
    named = {name for s in header.get("rules", ()) for name in s.get("cards", ())}
    unnamed: dict[str, Component] = {}
    for c in components:
        if c.kind != "back" and c.type not in named and c.id not in named:
            unnamed.setdefault(c.type, c)
    return [f"{c.where(filename)}: {c.id}: type: warning: no rules section names the type {kind!r} or this id in "
            f"its cards:, so its card page quotes no rule" for kind, c in unnamed.items()]
