"""Gemas: gem colours, card kinds and tokens, and the component types its card data uses."""
from __future__ import annotations

from ..components import ComponentType
from ..schema import Enum

GAME_ID = "gemas"
COLOURS = ("green", "blue", "violet", "orange")
ACTIONS = ("thief", "chipote", "healing")  # the three action cards, laid down in sets of three
VOCABULARY = (*COLOURS, *ACTIONS)

COLOUR = {"colour": Enum(COLOURS, "gem colour")}

COMPONENT_TYPES = {
    "gem-card": ComponentType("card", COLOUR, required=("colour",)),
    **{action: ComponentType("card", texts=("name", "text")) for action in ACTIONS},
    "help": ComponentType("reference", texts=("name", "text")),
    "gem-token": ComponentType("token", COLOUR, required=("colour",)),
    "bandaid": ComponentType("token", texts=("name",)),
    "heart": ComponentType("token", texts=("name",)),
}
