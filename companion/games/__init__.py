"""The registry of games: the CLI, the PDF builder, the web app and the tests iterate over it."""
from __future__ import annotations

from types import ModuleType
from typing import Mapping

from ..components import GENERIC_TYPES, ComponentType
from . import duplicon, duquesa, gemas, nobles, queens_necklace

GAMES: dict[str, ModuleType] = {m.GAME_ID: m for m in (duquesa, queens_necklace, gemas, nobles, duplicon)}


def get(game_id: str) -> ModuleType:
    """The rules module of a game; KeyError for an unknown id."""
    return GAMES[game_id]


def component_types(game_id: str) -> Mapping[str, ComponentType]:
    """The component types a game's card data may use; a game without rules uses the generic ones."""
    module = GAMES.get(game_id)
    return module.COMPONENT_TYPES if module else GENERIC_TYPES
