"""Queen's Necklace: gems, characters, tiles, and the component types its card data uses."""
from __future__ import annotations

from typing import Mapping

from ..components import ComponentType, check_descending
from ..schema import Enum, Int, ListOf, Path, Problems

GAME_ID = "queens-necklace"
GEMS = ("diamond", "emerald", "ruby", "amber")  # the rulebook's column order
TRUE_GEMS = ("diamond", "emerald", "ruby")  # what the Alchemist may move
TILE_VALUES = (30, 20, 10, 0)
# Character → card colour: blue influence, purple special timing, grey played at a sale.
CHARACTERS = {
    "confessor": "blue", "courtier": "blue", "forger": "blue", "favorite": "blue", "thief": "blue",
    "alchemist": "purple", "astrologer": "purple", "cardinal": "purple", "musketeer": "purple",
    "queen": "purple", "king": "grey", "banker": "grey",
}
COLOURS = ("blue", "purple", "grey")
VOCABULARY = (*GEMS, *CHARACTERS, *COLOURS)

# [A] The rulebook does not list the price steps printed on each card; ours are in the data.
PRICES = {"prices": ListOf(Int(0, 20), 2, 6)}
TILE_VALUE = {"value": Int(0, 30, allowed=TILE_VALUES)}


def check_prices(card: Mapping, path: Path, problems: Problems) -> None:
    if "prices" in card:
        check_descending(card["prices"], (*path, "prices"), problems)


def check_gem_card(card: Mapping, path: Path, problems: Problems) -> None:
    check_prices(card, path, problems)
    if card.get("gem") == "amber" and card.get("gems") != 1:
        problems.add((*path, "gems"), "amber cards carry 1 gem")


COMPONENT_TYPES = {
    "gem": ComponentType("card", {**PRICES, "gem": Enum(GEMS, "gem"), "gems": Int(1, 3)},
                         required=("gem", "gems", "prices"), validate=check_gem_card),
    "ring": ComponentType("card", PRICES, required=("prices",), texts=("name", "text"), validate=check_prices),
    "necklace": ComponentType("card", PRICES, required=("prices",), texts=("name", "text"),
                              validate=check_prices),
    "character": ComponentType("card", {**PRICES, "character": Enum(CHARACTERS, "character")},
                               required=("character", "prices"), texts=("name", "text"), validate=check_prices),
    "merchant": ComponentType("card", texts=("name", "text")),
    "blank": ComponentType("card", {"colour": Enum(COLOURS, "colour")}, required=("colour",), texts=("name",)),
    "summary": ComponentType("reference", texts=("name", "text")),
    "gem-tile": ComponentType("tile", {"gem": Enum(GEMS, "gem")}, required=("gem",)),
    "fashion-tile": ComponentType("tile", TILE_VALUE, required=("value",)),
    "rarity-tile": ComponentType("tile", TILE_VALUE, required=("value",)),
    "price-marker": ComponentType("token", texts=("name",)),
}
