"""One component entry checked against its game's types: the types with the file's `fields:` declared on them,
each entry checked into a Component, and the backs (the one a file's `back:` makes, and which back each uses)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from .. import games, layouts
from ..components import BACK, DEFAULT_SIZE, ComponentType
from ..core.schema import INVALID, Enum, Field, Problems, Record
from .model import COMMON_FIELDS, Component


def component_types(game_id: str) -> Mapping[str, ComponentType]:
    """The game's component types (its rules', or a data-only game's), and the back every game may print."""
    return {**games.component_types(game_id), "back": BACK}


def declared_types(types: Mapping[str, ComponentType], declared: Mapping[str, Mapping],
                    problems: Problems) -> dict[str, ComponentType]:
    """The game's component types with the file's `fields:` on them. A field goes on the types its `types:` names
    (required there unless `optional: true`); else on those whose rules already read it (a shipped game declaring
    its own fields: the rules' stricter check stays); else on every type but backs (required on cards unless
    optional)."""
    fields: dict[str, dict[str, Field]] = {name: {} for name in types}
    required: dict[str, list[str]] = {name: [] for name in types}
    for name, decl in declared.items():
        named = decl.get("types")
        unknown = [t for t in named or () if t not in types]
        if unknown:
            problems.add(("fields", name, "types"), "%(got)s: no such component type; the game's types: %(types)s",
                         got=", ".join(map(repr, unknown)), types=", ".join(t for t in types if t != "back"))
        carriers = [t for t in named or () if t in types] if named else \
            [t for t, ct in types.items() if name in ct.fields] or [t for t, ct in types.items() if ct.kind != "back"]
        for t in carriers:
            if name not in types[t].fields:
                fields[t][name] = layouts.declared_field(decl)
                if not decl.get("optional") and (named or types[t].kind == "card"):
                    required[t].append(name)
    return {t: replace(ct, fields={**fields[t], **ct.fields}, required=(*ct.required, *required[t]))
            if fields[t] else ct for t, ct in types.items()}


def check_component(raw, types, sets, header, line: int, problems: Problems):
    if not isinstance(raw, dict):
        return problems.add((), "each component must be a mapping with at least id and type")
    ctype = types.get(raw.get("type")) if isinstance(raw.get("type"), str) else None
    fields = {**COMMON_FIELDS, "type": Enum(types, "type")}
    if ctype:
        fields.update(ctype.fields)
    else:  # no type, or an unknown one: one problem, its type's; the fields some type has are checked with it
        raw = {k: v for k, v in raw.items() if k in fields or not any(k in t.fields for t in types.values())}
        if "type" not in raw:
            problems.add(("type",), "is missing; give one of: %(types)s", types=", ".join(types))
    required = ("id", *(("type",) if ctype or "type" in raw else ()), *(ctype.required if ctype else ()),
                *(ctype.texts if ctype else ()))
    checked = Record(fields, required).check(raw, (), problems)
    if checked is INVALID or ctype is None:
        return INVALID
    if ctype.validate:
        ctype.validate(checked, (), problems)
    if not checked["id"].startswith(header["prefix"]):
        problems.add(("id",), f"must start with the file's prefix {header['prefix']}")
    set_name = checked.get("set", "base")
    if set_name not in sets:
        problems.add(("set",), f"unknown set {set_name!r}; the file declares: {', '.join(sets)}")
    if problems:
        return INVALID
    game_data = {k: v for k, v in checked.items() if k not in COMMON_FIELDS}
    return Component(
        game=header["game"], id=checked["id"], type=checked["type"], kind=ctype.kind,
        qty=checked.get("qty", 1), set=set_name,
        size=checked.get("size") or DEFAULT_SIZE[ctype.kind] or header.get("card_size", "poker"),
        name=checked.get("name"), text=checked.get("text"), back=checked.get("back"),
        reconstructed=checked.get("reconstructed", False), data=MappingProxyType(game_data), line=line,
        layout=checked.get("layout"),
    )


def implicit_back(header: Mapping, line: int) -> Component:
    """The back a file's `back:` section makes when it lists no back component: `<prefix>-BACK`, for its cards."""
    return Component(game=header["game"], id=f"{header['prefix']}-BACK", type="back", kind="back", qty=1, set="base",
                     size=header.get("card_size", "poker"), name=header["title"], text=None, back=None,
                     reconstructed=False, data=MappingProxyType({"for": ("card", "reference")}), line=line)


def resolve_back(c: Component, backs: Mapping[str, Component]) -> str | None:
    """`back: none` means no back; no `back:` means the first back made for the component's kind."""
    if c.kind == "back" or c.back == "none":
        return None
    if c.back:
        return c.back
    return next((b.id for b in backs.values() if c.kind in b.data["for"]), None)
