"""Duplicon on the phone: rounds typed per player, each round's parts worked out, totals to the target (the pages of
every game of rounds: companion/web/games/rounds.py, templates/_rounds.html)."""
from __future__ import annotations

from ...core.i18n import N_
from ...games.duplicon import round_score
from ..play.plain import Words
from . import GamePages, rounds


def parts(e: dict) -> str | None:
    """A player's round worked out by the same rule the engine uses: won − 2 × in hand − 3 × in the zone."""
    if not all(isinstance(e.get(k), int) for k in ("won", "hand", "zone")):
        return None
    return f"{e['won']} − 2×{e['hand']} − 3×{e['zone']} = {round_score(e['won'], e['hand'], e['zone'])}"


PAGES = GamePages(
    words=rounds.WORDS | Words(fields={"won": N_("cards won"), "zone": N_("cards in the play zone")}),
    template="score/duplicon.html", prepare=rounds.prepare(won=0, hand=0, zone=0), extras=rounds.parts(parts),
    hidden=("hands", "deck", "grid"),  # a memory game: the face-down grid is what players must find
    grids={"opening_turns": (3, 3)},  # each card turned at the start, shown in its place on the grid
    setup_words={"grid": N_("Grid (3 × 3)"), "opening_turns": N_("Cards turned at the start"),
                 "non_scoring": N_("Non-scoring pile"), "cells": N_("Cells"), "cards": N_("Cards"), "pair": N_("Pair")},
)
