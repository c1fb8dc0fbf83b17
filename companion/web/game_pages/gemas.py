"""Gemas on the phone: gems held, band-aids and hearts, and a set laid down this turn."""
from __future__ import annotations

import re

from ...games.gemas import COLOURS, TOKENS, uses_heart
from ...i18n import N_
from .. import forms
from ..forms import MultiDict
from ..plain import Words
from . import GamePages

SEAT = re.compile(r"#(\d{1,2})")  # a seat of the form ("#0" is the first row), whatever its name says now


def prepare(req: dict, _form: MultiDict) -> dict:
    """Blank rows are left out and a player with no gems typed holds none; a lay-down without its player or set is
    dropped, and the seats it names ("#0") become those rows' names."""
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


def extras(_req: dict | None, result: dict | None, form: MultiDict) -> dict:
    """A turn's result carried to the table: while a colour is still to choose, one query per colour (`choices`:
    this form with that choice); once the set is laid down, the next turn's form (`next_query`): every player's
    gems, band-aids and heart after the move, names kept, nothing laid down. None once the game is over."""
    out: dict = {"choices": [], "next_query": None, "most": TOKENS}  # most: the gems of a colour the game has
    if result is None:
        return out
    pending = result.get("pending_choice")
    if pending:
        out["choices"] = [(c, forms.carried(form, changes={"lay_down.choice": c})) for c in pending["options"]]
        return out
    if not result["events"] or result["won_by"]:
        return out
    n = len(result["players"])
    table = {"_n": str(n)}
    for i, p in enumerate(result["players"]):
        at = f"players.{i}."
        table[at + "name"] = p["name"]
        table.update({f"{at}gems.{c}:int": str(p["gems"][c]) for c in COLOURS})
        table[at + "bandaids:int"] = str(p["bandaids"])
        if uses_heart(n):
            table[at + "heart:bool"] = "1" if p["heart"] else "0"
    # Rows come from the result (seat i is its i-th player), so no field of this turn's form is kept.
    out["next_query"] = forms.carried(form, lambda _name: True, table)
    return out


PAGES = GamePages(
    words=Words(fields={"gems": "", "bandaids": N_("band-aids"), "heart": N_("heart"),
                        "lay_down": N_("set laid down"), "player": N_("who"), "target": N_("against"),
                        "set": N_("set"), "cards": N_("cards"), "choice": N_("choice")},
                count_of={"cards": N_("number of cards")}),
    template="score/gemas.html", prepare=prepare, extras=extras,
    setup_words={"reserve": N_("Gem reserve"), "bandaids_each": N_("Band-aids each"), "heart": N_("Hearts in play"),
                 "teams": N_("Teams")},
)
