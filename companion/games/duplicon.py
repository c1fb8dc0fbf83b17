"""Duplicon: eight card types, each its own colour and its own shape, and the turn-summary card."""
from __future__ import annotations

from collections.abc import Mapping
from random import Random

from ..components import SHAPES, ComponentType
from ..core.i18n import N_
from ..core.rng import randbelow, shuffled
from ..core.schema import Enum, Int, Path, Problems, Record, Word
from ..look import Face, Icon
from . import rounds
from .base import NAME, checked
from .descriptor import Entry, Game, Reroll

# [A] The 8 types were never published: one shape and one colour each (Okabe–Ito palette, so that
# colours stay apart for colour-blind players, and the shape alone tells the types apart anyway).
COLOURS = ("vermilion", "orange", "yellow", "bluish-green", "sky-blue", "blue", "reddish-purple", "black")
VOCABULARY = (*SHAPES, *COLOURS)

COMPONENT_TYPES = {
    "pair-card": ComponentType("card", {"shape": Enum(SHAPES, "shape"), "colour": Enum(COLOURS, "colour")},
                               required=("shape", "colour")),
    "turn-summary": ComponentType("reference", texts=("name", "text")),
}


# --- Scoring and setup ------------------------------------------------------------------------------------

TARGET = 100  # [R] the game ends at the end of the round in which someone reaches it [A: "reaches or passes"]
WON, IN_HAND, IN_ZONE = 1, -2, -3  # [R] points per card
DECK_SIZE = 96

_ENTRY = Record({"name": NAME, "won": Int(0, DECK_SIZE), "hand": Int(0, DECK_SIZE), "zone": Int(0, DECK_SIZE)},
                required=("name", "won", "hand", "zone"))
_REQUEST = rounds.request(_ENTRY, (2, 4))


def round_score(won: int, hand: int, zone: int) -> int:
    """+1 per card won, -2 per card left in hand, -3 per card in the play zone."""
    return WON * won + IN_HAND * hand + IN_ZONE * zone


def score(request: Mapping, card_set=None) -> dict:
    """Rounds to the target (100 unless the request gives another): see companion/games/rounds.py."""
    req = checked(_REQUEST, request)
    return rounds.score(req["rounds"], req.get("target", TARGET),
                        lambda e: round_score(e["won"], e["hand"], e["zone"]), _check_round)


def _check_round(entries, path: Path, problems: Problems) -> None:
    """Cards are won in pairs, and a round counts no more cards than the deck has."""
    for j, e in enumerate(entries):
        if e["won"] % 2:
            problems.add((*path, j, "won"), "cards are won in pairs: %(won)s is odd", won=e["won"])
    if sum(e["won"] + e["hand"] + e["zone"] for e in entries) > DECK_SIZE:
        problems.add(path, "counts more than the %(cards)s cards of the deck", cards=DECK_SIZE)


def setup(card_set, rng: Random, players: int, options: Mapping) -> dict:
    """The 3 × 3 grid with its opening turns (a matching pair goes out and two more are turned), hands of
    three, the dealer and the first player (to the dealer's right; play goes counter-clockwise)."""
    deck = shuffled([c.id for c in card_set.deck()], rng)
    grid, deck = deck[:9], deck[9:]
    turns, out = [], []
    while True:
        a, b = shuffled(range(9), rng)[:2]
        pair = grid[a] == grid[b]
        turns.append({"cells": sorted([a, b]), "cards": [grid[a], grid[b]], "pair": pair})
        if not pair or len(deck) < 2:
            break
        out += [grid[a], grid[b]]
        grid[a], grid[b] = deck.pop(0), deck.pop(0)
    hands = [deck[3 * i:3 * i + 3] for i in range(players)]
    return {"players": players, "grid": [grid[0:3], grid[3:6], grid[6:9]], "opening_turns": turns,
            "non_scoring": out, "hands": hands, "deck": deck[3 * players:], **_seats(players, rng),
            "direction": "counter-clockwise"}


def _seats(players: int, rng: Random) -> dict:
    """The dealer, and the first player to the dealer's right (seats are numbered clockwise; the player on the
    dealer's right sits one seat counter-clockwise)."""
    dealer = randbelow(rng, players)
    return {"dealer": dealer, "first_player": (dealer - 1) % players}


def face(c, s, lang: str) -> Face:
    """A pair card: its shape in its colour (in its frame, when the data gives one as art); the turn summary: its
    text."""
    if c.type == "pair-card":  # with art, the data's picture frames the shape
        shape, colour = c.data["shape"], c.data["colour"]
        return Face(f"{s.label(shape, lang)} · {s.label(colour, lang)}", s.look.accent,
                    (Icon(shape, s.look.colour(colour)),), art=c.art.path if c.art else None, framed=c.art is not None)
    return Face(c.name_in(lang, c.id), s.look.accent, text=c.text_in(lang))


GAME = Game(
    id="duplicon", component_types=COMPONENT_TYPES, vocabulary=VOCABULARY, default_players=2, score=score,
    setup=setup, entry=Entry(Word("round"), N_("a round")), sheet_points=rounds.sheet_points, face=face, terms=COLOURS,
    # who starts follows the dealer: the two are dealt again together
    rerolls={"dealer": Reroll(lambda deal, rng: _seats(deal["players"], rng), ("dealer", "first_player"),
                              N_("Dealer"))},
    web="companion.web.games.duplicon", sheet_end=rounds.target_end(TARGET), linked_sections=("round",),
)
