"""Duplicon on the phone: rounds typed per player, each round's parts worked out, totals to the target."""
from __future__ import annotations


from ...games.duplicon import round_score
from ...i18n import N_
from .. import forms
from ..forms import MultiDict
from ..plain import Words
from . import GamePages


def prepare(req: dict, form: MultiDict) -> dict:
    names = forms.typed_names(form)
    rounds = [forms.named_rows(names, entries, won=0, hand=0, zone=0) for entries in forms.filled(req.get("rounds", []))]
    return {**req, "rounds": rounds}


def extras(req: dict | None, result: dict | None, _form: MultiDict) -> dict:
    """Each round's parts, worked out by the same rule the engine uses."""
    parts = []
    for entries in (req or {}).get("rounds", []):
        row = {}
        for e in entries:
            if all(isinstance(e.get(k), int) for k in ("won", "hand", "zone")):
                row[e["name"]] = (f"{e['won']} − 2×{e['hand']} − 3×{e['zone']} = "
                                  f"{round_score(e['won'], e['hand'], e['zone'])}")
        parts.append(row)
    return {"parts": parts}


PAGES = GamePages(
    words=Words(fields={"rounds": "", "won": N_("cards won"), "zone": N_("cards in the play zone")},
                counted={"rounds": N_("Round %(k)s")},
                count_of={"rounds": N_("number of rounds"), "rounds[]": N_("number of players")}),
    template="score/duplicon.html", prepare=prepare, extras=extras,
    hidden=("hands", "deck", "grid"),  # a memory game: the face-down grid is what players must find
    setup_words={"grid": N_("Grid (3 × 3)"), "opening_turns": N_("Cards turned at the start"),
                 "non_scoring": N_("Non-scoring pile"), "cells": N_("Cells"), "cards": N_("Cards"), "pair": N_("Pair")},
)
