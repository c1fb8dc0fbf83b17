"""The Duquesa's phone pages: scanned cards go to the common card or a hand; the solo rank and turn helper."""
from __future__ import annotations

from flask import Blueprint
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from ... import service
from ...cards import Component
from ...games.duquesa import GAME
from ...i18n import N_
from .. import scan, scoring
from . import GamePages

bp = Blueprint("duquesa_pages", __name__)
RANKS = {"aprendiz": _l("Apprentice"), "artista": _l("Artist"), "oficial": _l("Officer"), "magister": _l("Magister")}


def targets(c: Component, form: MultiDict) -> list[tuple[str, str]]:
    if c.type != "necklace":
        return []
    return [("common", "common")] + [(f"players.{i}.hand:list", name) for i, name in scan.players(form)]


def add(c: Component, form: MultiDict, target: str) -> None:
    if target == "common":
        form.setlist("common", [c.id])
    elif c.id not in form.getlist(target):
        form.add(target, c.id)


@bp.get(f"/solo/{GAME.id}")
def solo():
    """The solo rank from a final hand (four cards and the common card) or from the florins."""
    def compute(req: dict) -> dict:
        if "florins" in req:
            return service.score(GAME.id, {"florins": req["florins"]})
        return service.score(GAME.id, {"common": req.get("common"), "players": [
            {"name": str(_l("You")), "hand": req.get("hand", [])}]})
    return scoring.page(GAME.id, "score/duquesa-solo.html", compute, ranks=RANKS)


@bp.get(f"/solo/{GAME.id}/turn")
def solo_turn():
    """The turn helper: given the hand, the common card and the card turned up, keep it or take the hidden one?"""
    return scoring.page(GAME.id, "score/duquesa-turn.html", lambda req: service.solo_turn(GAME.id, req))


PAGES = GamePages(
    template="score/duquesa.html", targets=targets, add=add, blueprint=bp, links=((N_("Solo"), "duquesa_pages.solo"),),
    setup_words={"out_of_play": _l("Out of play (face down)"), "common": _l("Common card"),
                 "turns": _l("Solo turns (two cards each)"), "spare": _l("Left in the box"),
                 "draw_pile": _l("Draw pile (top first)")},
)
