"""The Duquesa's phone pages: scanned cards go to the common card or a hand; the solo rank and turn helper."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import Component
from ...games.duquesa import GAME, HAND_SIZE
from ...i18n import N_
from ..forms import MultiDict
from . import GamePages

if TYPE_CHECKING:
    from flask import Blueprint

RANKS = {"aprendiz": N_("Apprentice"), "artista": N_("Artist"), "oficial": N_("Officer"), "magister": N_("Magister")}


def targets(c: Component, form: MultiDict) -> list[tuple[str, str]]:
    from .. import scan

    if c.type != "necklace":
        return []
    hands = [(f"players.{i}.hand:list", name) for i, name in scan.players(form)]
    # a full hand is not offered, nor a hand or common card that already holds this card
    return [(field, whose) for field, whose in [("common", "common"), *hands]
            if c.id not in form.getlist(field) and (field == "common" or len(form.getlist(field)) < HAND_SIZE)]


def add(c: Component, form: MultiDict, target: str) -> None:
    if target == "common":
        form.setlist("common", [c.id])
    elif c.id not in form.getlist(target):
        form.add(target, c.id)


def blueprint() -> Blueprint:
    """The solo pages (made when the app is, so this module's form glue also loads where Flask does not); what
    they show is worked out in `web.views`."""
    from flask import Blueprint

    from .. import scoring

    bp = Blueprint("duquesa_pages", __name__)
    bp.add_url_rule(f"/solo/{GAME.id}", "solo", lambda: scoring.show("duquesa_pages.solo"))
    bp.add_url_rule(f"/solo/{GAME.id}/turn", "solo_turn", lambda: scoring.show("duquesa_pages.solo_turn"))
    return bp


PAGES = GamePages(
    template="score/duquesa.html", targets=targets, add=add, blueprint=blueprint, links=((N_("Solo"), "duquesa_pages.solo"),),
    hidden=("hands", "draw_pile", "out_of_play", "turns", "spare"),  # (a solo hand is the one player's own)
    to_score=lambda deal: [("common", deal["common"])] if deal.get("common") else [],
    setup_words={"out_of_play": N_("Out of play (face down)"), "common": N_("Common card"),
                 "turns": N_("Solo turns (two cards each)"), "spare": N_("Left in the box"),
                 "draw_pile": N_("Draw pile (top first)")},
)
