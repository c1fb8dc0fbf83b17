"""Card data: one loader and one schema for every game's `cards/<game>.yaml`, with errors as file:line.

The package reads card data through this module: `load_file`, `check_file` and `check_text`, `load_shipped`, and
the model (`CardSet`, `Component`, `DataError`). Each job lives in a module of its own (docs/code-map.md):
`cards_model` (the fields and the objects), `cards_yaml` (the YAML with a line for every field), `cards_check` (the
file's checks, step by step), `cards_components`, `cards_layouts_check` and `cards_warnings` (what it checks), and
`cards_rows` (the components of its spreadsheets)."""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path as FsPath
from types import MappingProxyType

from ..core import resources
from .check import MAX_COPIES, check_file, check_text
from .model import ID_PATTERN, REQUIRED_SECTIONS, CardSet, Component, DataError

__all__ = ["ID_PATTERN", "MAX_COPIES", "REQUIRED_SECTIONS", "CardSet", "Component", "DataError", "check_file",
           "check_text", "load_file", "load_shipped", "shipped_files"]


def load_file(path: str | FsPath) -> CardSet:
    """A card data file's card set (DataError if it is broken). Its art files are not read: see
    `pnp.design_check.check_art`."""
    card_set, errors = check_file(path)
    if errors:
        raise DataError(errors)
    return card_set


def shipped_files() -> list[FsPath]:
    """The card data files shipped with the package (`cards/*.yaml`), sorted by name."""
    return sorted(resources.cards_dir().glob("*.yaml"))


@cache
def load_shipped() -> Mapping[str, CardSet]:
    """Every shipped card set by game id (loaded once per process); printed ids must be unique across games."""
    loaded: dict[str, CardSet] = {}
    for card_set in map(load_file, shipped_files()):
        _check_ids_are_new(card_set, loaded.values())
        loaded[card_set.game] = card_set
    return MappingProxyType(loaded)


def _check_ids_are_new(card_set: CardSet, others) -> None:
    """A printed id opens one card (`BASE/C/<id>`): no two games may print the same one."""
    taken = {c.id: s for s in others if s.game != card_set.game for c in s.components}
    errors = [f"{c.where(card_set.path)}: {c.id}: id: {taken[c.id].game} ({taken[c.id].path}) prints this id "
              f"too; ids must be unique across games" for c in card_set.components if c.id in taken]
    if errors:
        raise DataError(errors)
