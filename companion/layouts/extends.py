"""A file's `layouts:` resolved: each layout's `extends` chain merged (without recursing, bounded in length and
in elements), `null` dropping an inherited element, a layout's `scale:` given to its elements, and each element
checked once, where it is written."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from ..core.schema import INVALID, Path, Problems, Record, Value
from .schema import BOXLESS, COMMON, ELEMENT_NAME, KINDS, MIN_TEXT_PT, PROPERTIES, Element

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

