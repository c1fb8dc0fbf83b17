"""Nobles en duelo on the phone: the duel calculator with its dice seed, and the court tracker to the next duel."""
from __future__ import annotations

import secrets
from urllib.parse import urlencode

from ...games.nobles import GAME
from ...i18n import N_
from ...schema import whole_number
from ..forms import MultiDict
from . import GamePages


def prepare(req: dict, _form: MultiDict) -> dict:
    """The duel form always sends a version (a select has no blank); a Joker has none, nor a suit or a weapon."""
    for side in ("attacker", "defender"):
        noble = req.get(side)
        if isinstance(noble, dict) and noble.get("noble") == "joker":
            for part in ("version", "suit", "weapon"):
                noble.pop(part, None)
    return req


def extras(req: dict | None, result: dict | None, form: MultiDict) -> dict:
    """Blank dice are rolled with a fresh seed (the result's URL keeps the one used), and the court tracker: the
    next duel's form (`next_query`) keeps both nobles, their weapons and suits, adds the wounds and resources this
    duel gave, and clears the dice and cards."""
    out = {"fresh_seed": secrets.token_hex(4), "next_query": None}
    if result is None:
        return out
    keep = {k: form.getlist(k) for k in form if not (".dice" in k or ".cards." in k or k in ("seed", "lang"))}
    for side in ("attacker", "defender"):
        wounds = result["wounds"].get(side)
        if wounds:
            keep[f"{side}.wounds:int"] = [str(wounds["wounds"])]
        gained = result["resources"].get(side)
        if gained:
            had = whole_number(form.get(f"{side}.resources:int") or "0", signed=False, digits=6) or 0
            keep[f"{side}.resources:int"] = [str(had + gained)]
    out["next_query"] = urlencode([(k, v) for k, values in keep.items() for v in values])
    return out


PAGES = GamePages(
    template="score/nobles.html", prepare=prepare, extras=extras, score_label=N_("Duel"), per_player=("hands", "nobles_dealt"),
    hidden=("hands", "nobles_dealt", "noble_deck", "number_deck"),
    setup_words={"keep": N_("Nobles each player keeps"),
                 "nobles_dealt": N_("Nobles dealt (keep some, shuffle the rest into the noble deck)"),
                 "noble_deck": N_("Noble deck"), "number_deck": N_("Number deck")},
)
