"""Gemas on the phone: gems held, band-aids and hearts, and a set laid down this turn."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from .. import forms
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
    setup_words={"reserve": _l("Gem reserve"), "bandaids_each": _l("Band-aids each"), "heart": _l("Hearts in play"),
                 "teams": _l("Teams")},
)
