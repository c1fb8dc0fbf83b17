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


def extras(req: dict | None, result: dict | None) -> dict:
    """Blank dice are rolled with a fresh seed (the result's URL keeps the one used), and the court tracker: the
    next duel's form keeps both nobles, their weapons and suits, adds the wounds and resources this duel gave, and
    clears the dice and cards."""
    from flask import request, url_for
    from werkzeug.datastructures import MultiDict as Editable

    out = {"fresh_seed": secrets.token_hex(4), "next_url": None}
    if result is None:
        return out
    form = request.args
    keep = Editable((k, v) for k, v in form.items(multi=True)
                     if not (".dice" in k or ".cards." in k or k in ("seed", "lang")))
    for side in ("attacker", "defender"):
        wounds = result["wounds"].get(side)
        if wounds:
            keep.setlist(f"{side}.wounds:int", [str(wounds["wounds"])])
        gained = result["resources"].get(side)
        if gained:
            had = form.get(f"{side}.resources:int", "0")
            had = whole_number(had, signed=False, digits=6) or 0
            keep.setlist(f"{side}.resources:int", [str(had + gained)])
    out["next_url"] = url_for("scoring.score", game=GAME.id) + "?" + urlencode(list(keep.items(multi=True)))
    return out


PAGES = GamePages(
    template="score/nobles.html", prepare=prepare, extras=extras, score_label=N_("Duel"), per_player=("hands", "nobles_dealt"),
    setup_words={"keep": N_("Nobles each player keeps"),
                 "nobles_dealt": N_("Nobles dealt (keep some, shuffle the rest into the noble deck)"),
                 "noble_deck": N_("Noble deck"), "number_deck": N_("Number deck")},
)
