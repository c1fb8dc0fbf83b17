"""Pieces every game's request checking shares: run a schema, cards by id or inline, player names."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.schema import INVALID, Field, InputError, Name, Path, Problems, Record, Value
from ..layouts import list_items

NAME = Name(max_len=40)


def checked(field: Field, data: Any) -> Any:
    """Run a field check on a whole request; InputError with every problem if anything is wrong."""
    problems = Problems()
    value = field.check(data, (), problems)
    if problems or value is INVALID:
        raise InputError(problems)
    return value


class CardRef(Field):
    """A card given by its printed id (looked up in the game's card data) or inline as its fields."""

    def __init__(self, catalogue: Mapping[str, Mapping], inline: Record,
                 validate: Callable[[Mapping, Path, Problems], None] | None = None):
        self.catalogue, self.inline, self.validate = catalogue, inline, validate

    def check(self, value, path, problems):
        """The card's fields as a dict: the catalogue's (and `id`) for an id, else the inline ones, checked."""
        if isinstance(value, str):
            if value not in self.catalogue:
                return problems.add(path, "unknown card id %(card)s", card=repr(value))
            return {"id": value, **self.catalogue[value]}
        if not isinstance(value, Mapping):
            return problems.add(path, "must be a card id or a card's fields, got %(got)s", got=Value(value))
        card = self.inline.check(value, path, problems)
        if card is INVALID:
            return INVALID
        before = len(problems)
        if self.validate:
            self.validate(card, path, problems)
        return INVALID if len(problems) > before else dict(card)


def check_copies(cards: Sequence[tuple[Path, Mapping]], copies: Mapping[str, int]) -> None:
    """Cards given by id cannot appear more often than the game prints them."""
    seen: Counter = Counter()
    problems = Problems()
    for path, card in cards:
        card_id = card.get("id")
        if card_id is None:
            continue
        seen[card_id] += 1
        if seen[card_id] > copies.get(card_id, 1):
            n = copies.get(card_id, 1)
            if n == 1:
                problems.add(path, "%(card)s is used more often than the game has it (%(n)s copy)", card=card_id, n=n)
            else:
                problems.add(path, "%(card)s is used more often than the game has it (%(n)s copies)", card=card_id,
                             n=n)
    if problems:
        raise InputError(problems)


def add_duplicate_names(players: Sequence[Mapping], path: Path, problems: Problems) -> None:
    """A problem for every player whose name an earlier player already uses."""
    seen = set()
    for i, p in enumerate(players):
        if p["name"] in seen:
            problems.add((*path, i, "name"), "%(name)s is used by two players", name=repr(p["name"]))
        seen.add(p["name"])


def check_unique_names(players: Sequence[Mapping], path: Path = ("players",)) -> None:
    """InputError naming every player whose name an earlier player already uses."""
    problems = Problems()
    add_duplicate_names(players, path, problems)
    if problems:
        raise InputError(problems)


def top(items: Sequence[Mapping], key: Callable[[Mapping], Any]) -> list[str]:
    """The names of every item sharing the best key (a shared win when more than one)."""
    best = max(map(key, items))
    return [item["name"] for item in items if key(item) == best]


LEAD = re.compile(r"^([^:*]{1,20}:)")  # an item's lead words up to a colon ("Oro:", "Turno:")


def reference_items(text: str, bold_lead: bool = False) -> list[str]:
    """A reference card's text as lines of the layout markup's list: a `- ` item (printed as a bullet) a sentence, a
    long sentence's clauses as `– ` lines under it (layouts.list_items); with `bold_lead`, each one's lead in bold."""
    return [("- " if level == 0 else "– ") + (LEAD.sub(r"**\1**", item) if bold_lead else item)
            for level, item in list_items(text)]
