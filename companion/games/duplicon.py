"""Duplicon: eight card types, each its own colour and its own shape, and the turn-summary card."""
from __future__ import annotations

from ..components import SHAPES, ComponentType
from ..schema import Enum

GAME_ID = "duplicon"
# [A] The 8 types were never published: one shape and one colour each (Okabe–Ito palette, so that
# colours stay apart for colour-blind players, and the shape alone tells the types apart anyway).
COLOURS = ("vermilion", "orange", "yellow", "bluish-green", "sky-blue", "blue", "reddish-purple", "black")
VOCABULARY = (*SHAPES, *COLOURS)

COMPONENT_TYPES = {
    "pair-card": ComponentType("card", {"shape": Enum(SHAPES, "shape"), "colour": Enum(COLOURS, "colour")},
                               required=("shape", "colour")),
    "turn-summary": ComponentType("reference", texts=("name", "text")),
}
