"""Gemas on the phone: gems held, band-aids and hearts, and a set laid down this turn."""
from __future__ import annotations

import re

from ...i18n import N_
from .. import forms
from ..forms import MultiDict
from . import GamePages


SEAT = re.compile(r"#(\d{1,2})")  # a seat of the form ("#0" is the first row), whatever its name says now


def prepare(req: dict, _form: MultiDict) -> dict:
    rows = req.get("players", [])
    req["players"] = forms.filled(rows)
    for p in req["players"]:
        if isinstance(p, dict):
            p.setdefault("gems", {})  # no gem typed in: none held
    move = req.get("lay_down")
    if isinstance(move, dict) and not (move.get("player") and move.get("set")):
        del req["lay_down"]  # nothing laid down this turn
    elif isinstance(move, dict):
        # "Who" and "Against" name a seat, so a name typed after the page was drawn still matches its row.
        for key in ("player", "target"):
            seat = SEAT.fullmatch(str(move.get(key, "")))
            if seat and isinstance(rows, list) and int(seat[1]) < len(rows) and isinstance(rows[int(seat[1])], dict):
                move[key] = rows[int(seat[1])].get("name", move[key])
    return req


PAGES = GamePages(
    template="score/gemas.html", prepare=prepare,
    setup_words={"reserve": N_("Gem reserve"), "bandaids_each": N_("Band-aids each"), "heart": N_("Hearts in play"),
                 "teams": N_("Teams")},
)
