"""El Collar de la Duquesa: stones, wishes and the card checks shared by card data and score requests."""
from __future__ import annotations

from typing import Mapping

from ..components import ComponentType
from ..schema import Enum, Int, ListOf, Path, Problems, Record

GAME_ID = "duquesa"
STONES = ("amber", "jet", "amethyst", "pearl", "emerald", "ruby", "sapphire", "diamond")
RAINBOW, GOLD = "rainbow", "gold"
VOCABULARY = (*STONES, RAINBOW, GOLD)

WISH = Record(
    {"stone": Enum((*STONES, RAINBOW), "stone"), "count": Int(1, 4), "florins": Int(1, 60)},
    required=("stone", "count", "florins"),
)
CARD_FIELDS = {"stones": ListOf(Enum(VOCABULARY, "stone"), 1, 4), "wish": WISH}


def check_card(card: Mapping, path: Path, problems: Problems) -> None:
    """The shapes a Duquesa card can have: 4 stones and a wish; 1 rainbow stone and the rainbow
    wish; 3 stones and a gold ingot with no wish (the gold table is printed instead)."""
    stones, wish = card.get("stones", ()), card.get("wish")
    if RAINBOW in stones:
        if len(stones) != 1:
            problems.add((*path, "stones"), "a rainbow card has the rainbow stone alone")
    elif len(stones) != 4:
        problems.add((*path, "stones"), f"must have 4 stones, has {len(stones)}")
    if stones.count(GOLD) > 1:
        problems.add((*path, "stones"), "a card has at most one gold ingot")
    if GOLD in stones:
        if wish is not None:
            problems.add((*path, "wish"), "a gold card has no wish (it scores by the gold table)")
    elif wish is None:
        problems.add((*path, "wish"), "is missing")
    elif wish["stone"] == RAINBOW and wish["count"] != 1:
        problems.add((*path, "wish", "count"), "must be 1 for a rainbow wish")
    elif wish["stone"] != RAINBOW and wish["count"] not in (2, 3, 4):
        problems.add((*path, "wish", "count"), "must be 2, 3 or 4")


COMPONENT_TYPES = {
    "necklace": ComponentType("card", CARD_FIELDS, required=("stones",), validate=check_card),
    "reference": ComponentType("reference", texts=("name", "text")),
}
