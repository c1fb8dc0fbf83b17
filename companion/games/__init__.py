"""The registry of games: the one list the CLI, the PDF builder, the web app and the tests iterate over.

Each rules module declares one `Game`; a game with card data and no rules module is a data-only game and gets the
generic descriptor (see `generic.py`)."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..components import ComponentType
from . import duplicon, duquesa, gemas, generic, nobles, queens_necklace
from .descriptor import Entry, Game, Option

GAMES: Mapping[str, Game] = MappingProxyType(
    {g.id: g for g in (duquesa.GAME, queens_necklace.GAME, gemas.GAME, nobles.GAME, duplicon.GAME)})

__all__ = ["GAMES", "Entry", "Game", "Option", "get", "for_data", "component_types"]


def get(game_id: str) -> Game:
    """A game with rules of its own; KeyError for any other id."""
    return GAMES[game_id]


def for_data(game_id: str) -> Game:
    """The descriptor for a card data file's game: its own, or the generic one of a data-only game."""
    return GAMES.get(game_id) or generic.game(game_id)


def component_types(game_id: str) -> Mapping[str, ComponentType]:
    """The component types a game's card data may use."""
    return for_data(game_id).component_types
