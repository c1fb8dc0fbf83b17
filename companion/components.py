"""What a printed component can be: kinds, sizes, and the per-game component types declared on them."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import pairwise

from .core.schema import Enum, Field, ListOf, Path, Problems

# Print categories: how a component is laid out and backed.
KINDS = ("card", "reference", "tile", "token", "back")
# Physical sizes by name: trim width × height in millimetres.
SIZES = {"poker": (63.5, 88.9), "bridge": (57.2, 88.9), "mini": (44.5, 63.5), "tile": (50.0, 50.0),
         "token": (25.0, 25.0), "marker": (8.0, 8.0)}  # a marker sits on one 9 mm step of a price track
CARD_SIZES = ("poker", "bridge", "mini")  # what a whole game's cards may be printed at
# None: file's card_size
DEFAULT_SIZE = {"card": None, "reference": None, "back": None, "tile": "tile", "token": "token"}

# Simple vector shapes every layout can draw; a game's types and data-only games use them.
SHAPES = ("circle", "square", "triangle", "diamond", "star", "heart", "hexagon", "cross")

Validator = Callable[[Mapping, Path, Problems], None]


@dataclass(frozen=True)
class ComponentType:
    """One type of component a game prints: its kind, its game fields, and what it must state."""

    kind: str
    fields: Mapping[str, Field] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    texts: tuple[str, ...] = ()  # which of "name" / "text" the entry must give (in es and en)
    validate: Validator | None = None  # cross-field rules, shared with score-request parsing


BACK = ComponentType("back", {"for": ListOf(Enum(KINDS[:-1], "kind"), 1)}, required=("for",), texts=("name",))

def check_descending(values, path: Path, problems: Problems) -> None:
    """A price track must go down from its first to its last step."""
    if any(a <= b for a, b in pairwise(values)):
        problems.add(path, "must go down step by step, got %(got)s", got=str(list(values)))
