"""Nobles en duelo: a French deck read as nobles and number cards, and the component types it prints."""
from __future__ import annotations

from ..components import ComponentType
from ..schema import Enum, Int

GAME_ID = "nobles"
SUITS = ("hearts", "diamonds", "clubs", "spades")
NOBLE_RANKS = {11: "jack", 12: "queen", 13: "king"}
VOCABULARY = (*SUITS, *NOBLE_RANKS.values(), "joker")

SUIT = {"suit": Enum(SUITS, "suit")}

COMPONENT_TYPES = {
    "number": ComponentType("card", {**SUIT, "rank": Int(1, 10)}, required=("suit", "rank")),
    "noble": ComponentType("card", {**SUIT, "rank": Int(11, 13)}, required=("suit", "rank")),
    "joker": ComponentType("card", texts=("name",)),
    "reference": ComponentType("reference", texts=("name", "text")),
    "resource": ComponentType("token", texts=("name",)),
    "wound": ComponentType("token", texts=("name",)),
}
