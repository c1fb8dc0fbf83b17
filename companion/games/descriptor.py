"""The one declaration each game makes of itself: a frozen `Game` that the registry lists and every part of the
companion asks (the command line, the PDF builder, the web app, saved sheets and the tests)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any

from ..components import ComponentType
from ..core.i18n import N_
from ..core.rng import randbelow
from ..core.schema import Bool, Enum, Field, ListOf, Record, Word
from ..look import Face
from .base import checked

# companion.cards.CardSet and .Component, named here without importing the loader (the rules never need it).
CardSet = Component = Any

_TRUE, _FALSE = {"1", "true", "yes", "on", "si", "sí"}, {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Option:
    """One setup option, declared once: it checks the request and builds the setup form.

    With `choices` it is a list of them (comma-separated as text); without, a yes/no flag."""

    key: str
    label: str  # English, marked for translation where it is declared (N_)
    choices: tuple[str, ...] = ()
    what: str = Word("choice")  # how one choice is named in a message (an Enum's `what`)

    @property
    def is_flag(self) -> bool:
        return not self.choices

    def field(self) -> Field:
        """The check of its value: a flag's true or false, else a list of its choices (at most as many as it has)."""
        return Bool() if self.is_flag else ListOf(Enum(self.choices, self.what), 0, len(self.choices))

    def parse(self, value: Any) -> Any:
        """Text from a command-line flag or a URL parameter as the field expects it; anything else is left for
        the field to name."""
        if not isinstance(value, str):
            return value
        if self.is_flag:
            text = value.strip().lower()
            return True if text in _TRUE else False if text in _FALSE else value
        return [part.strip() for part in value.split(",") if part.strip()]


@dataclass(frozen=True)
class Entry:
    """What one entry of a saved sheet is for this game (a hand, a sale, a round) and how it is said."""

    kind: str
    words: str  # English, marked with N_ ("a hand"); pages translate it


@dataclass(frozen=True)
class Reroll:
    """One part of a setup that can be dealt again alone, leaving every other part as it was: only parts no other
    part was dealt from (who starts, a separate shuffle), never a share of one shuffle (hands, market and deck go
    together or not at all). `deal` gives the parts it changes from the setup and a generator of their own seed;
    `parts` are the setup keys it changes (the page puts its button on each), `label` how a message names it."""

    deal: Callable[[Mapping[str, Any], Random], dict]
    parts: tuple[str, ...]
    label: str  # English, marked for translation (N_)


def _first_player(deal: Mapping[str, Any], rng: Random) -> dict:
    return {"first_player": randbelow(rng, deal["players"])}


FIRST_PLAYER = Reroll(_first_player, ("first_player",), N_("First player"))


@dataclass(frozen=True)
class Game:
    """A game's rules and what it declares about itself. Player counts come from its card data (`players:`)."""

    id: str
    component_types: Mapping[str, ComponentType]
    vocabulary: tuple[str, ...]  # the words its card data labels (stones, gems, suits...)
    default_players: int
    score: Callable[[Any, CardSet], dict]
    setup: Callable[[CardSet, Random, int, Mapping[str, Any]], dict]  # options already checked
    entry: Entry
    sheet_points: Callable[[Mapping], list[tuple[str, int]]]  # a scored result, seat by seat
    face: Callable[[Component, CardSet, str], Face]  # what a printed front shows
    # what its rules derive from a component for its layouts' placeholders ({index}, {strength}...), in a language
    face_values: Callable[[Component, CardSet, str], Mapping[str, Any]] | None = None
    face_fields: tuple[str, ...] = ()  # the names face_values may give: placeholders validate knows
    terms: tuple[str, ...] = ()  # the look terms its faces draw: the card data must declare each
    options: tuple[Option, ...] = ()
    solo: Callable[[Any, CardSet], dict] | None = None  # a hint for one solo turn
    simulate: Callable[[CardSet, Random, int], dict] | None = None  # many solo games, for tuning a deck
    scores: Callable[[CardSet], bool] = lambda _card_set: True  # whether its card data can be scored
    # the setup's parts that can be dealt again alone, by the name of their seed (`seed.<name>` in a setup's link)
    rerolls: Mapping[str, Reroll] = field(default_factory=lambda: {"first_player": FIRST_PLAYER})
    # the module of its phone pages' glue, which declares PAGES (companion/web/games/<game>.py), named, not
    # imported: the rules know no web. Every game with rules of its own has one; a data-only game has the generic.
    web: str | None = None
    # how a saved sheet of the game ends and who wins (a data-only game's `rounds:`, `winner:` and `ties:`): given
    # its card data, how many entries count, the last one's body (None: not read) and the totals → {"over",
    # "round", "winners", ...}, or None where the game declares no end (the players finish the sheet)
    sheet_end: Callable[[CardSet, int, Mapping | None, Mapping[str, int]], dict | None] | None = None
    # a game whose rounds read the game so far (a data-only game's before() and game()): given its card data and a
    # sheet's entries in order, each counting round from the `start`-th one on scored again after the rounds before
    # it (its body's points and `history`, the sums after it, set in place); None where each round stands alone
    restate: Callable[[CardSet, list[dict], int], None] | None = None
    restates: Callable[[CardSet], bool] = lambda _card_set: False  # whether this card data's rounds read earlier ones
    # the rules sections its pages link to besides REQUIRED_SECTIONS (a game of rounds' result: `round`), which
    # validate asks its card data for
    linked_sections: tuple[str, ...] = ()

    def players_by_default(self, card_set: CardSet) -> int:
        """The default player count, within the counts the card data allows."""
        low, high = card_set.players
        return min(max(self.default_players, low), high)

    def check_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Setup options as given (text or values) → checked values; unknown or bad ones are named."""
        declared = {o.key: o for o in self.options}
        parsed = {k: declared[k].parse(v) if k in declared else v for k, v in (raw or {}).items()}
        return dict(checked(Record({o.key: o.field() for o in self.options}), parsed))
