"""Gemas on the phone: gems held, band-aids and hearts, and a set laid down this turn."""
from __future__ import annotations


from ...i18n import N_
from .. import forms
from ..forms import MultiDict
from . import GamePages


def prepare(req: dict, _form: MultiDict) -> dict:
    req["players"] = forms.filled(req.get("players", []))
    for p in req["players"]:
        if isinstance(p, dict):
            p.setdefault("gems", {})  # no gem typed in: none held
    move = req.get("lay_down")
    if isinstance(move, dict) and not (move.get("player") and move.get("set")):
        del req["lay_down"]  # nothing laid down this turn
    return req


PAGES = GamePages(
    template="score/gemas.html", prepare=prepare,
    setup_words={"reserve": N_("Gem reserve"), "bandaids_each": N_("Band-aids each"), "heart": N_("Hearts in play"),
                 "teams": N_("Teams")},
)
