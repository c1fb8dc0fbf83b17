"""The Duquesa's phone pages: scanned cards go to the common card or a hand; the solo rank and turn helper."""
from __future__ import annotations

from ... import service
from ...cards import CardSet, Component
from ...core import i18n
from ...core.i18n import N_
from ...core.schema import whole_number
from ...games.duquesa import GAME, HAND_SIZE, SETS, SOLO_TURNS
from ...library import current
from ..play import forms, views
from ..play.forms import MultiDict
from ..play.plain import Words
from . import GamePages, Page

RANKS = {"aprendiz": N_("Apprentice"), "artista": N_("Artist"), "oficial": N_("Officer"), "magister": N_("Magister")}


def targets(c: Component, form: MultiDict) -> list[tuple[str, str]]:
    """Where a scanned necklace card can go: the common card and each hand not yet full, unless it holds the card."""
    if c.type != "necklace":
        return []
    hands = [(f"players.{i}.hand:list", name) for i, name in forms.players_of(form)]
    placed = form.getlist("common") + [card for field, _ in hands for card in form.getlist(field)]
    # a card is in one place only (the common card, or a hand); a full hand is not offered
    return [(field, whose) for field, whose in [("common", "common"), *hands]
            if c.id not in placed and (field == "common" or len(form.getlist(field)) < HAND_SIZE)]


def add(c: Component, form: MultiDict, target: str) -> None:
    """A scanned card becomes the common card, or joins a hand that does not hold it yet."""
    if target == "common":
        form.setlist("common", [c.id])
    elif c.id not in form.getlist(target):
        form.add(target, c.id)


SETS_FIELD = "_sets"  # the expansions whose cards the pickers offer: the page's own, not the score request's


def sets_on(form: MultiDict) -> list[str]:
    """The expansions switched on in a form (its `_sets` boxes, or what a setup carried)."""
    chosen = form.getlist(SETS_FIELD)
    return [s for s in SETS[1:] if s in chosen]


def necklaces(card_set: CardSet, form: MultiDict, expansions: bool = True) -> list[Component]:
    """The cards a page's pickers offer: the base game's, and an expansion's only when it is on; a card the form
    already names (an old link, a scanned card) is offered whatever its set, so it never vanishes from a hand."""
    on = {"base", *(sets_on(form) if expansions else ())}
    named = {v for key in form if not key.startswith("_") for v in form.getlist(key)}
    return [c for c in card_set.components if c.type == "necklace" and (c.set in on or c.id in named)]


def extras(_req, _result, form: MultiDict) -> dict:
    """The pickers' cards (the base game's, and the expansions' switched on) and the expansions switched on."""
    return {"necklaces": necklaces(current()[GAME.id], form), "sets_on": sets_on(form)}


def turn_extras(card_set: CardSet, form: MultiDict, result: dict | None) -> dict:
    """The turn helper's base-game cards (the rulebook's solo game has no expansions), and the cards the hidden
    one can be once the player takes it: every card not in hand, common, turned up or gone."""
    base = necklaces(card_set, form, expansions=False)
    chosen = whole_number(form.get("turn:int") or "", signed=False, digits=1)
    out = {"necklaces": base, "may_draw": [], "turns": SOLO_TURNS, "carried": chosen is not None,
           "turn": min(max(chosen or 1, 1), SOLO_TURNS)}
    if result:
        known = {*form.getlist("hand:list"), form.get("common"), form.get("seen"), *form.getlist("gone:list")}
        out["may_draw"] = [c for c in base if c.set == "base" and c.id not in known]
    return out


def solo_deal(deal: dict) -> bool:
    """A one-player deal of the base game: the rulebook's solo game, which the turn helper plays (with expansion
    cards the rank is unofficial, and Play opens the scoring page as for two)."""
    return bool(deal.get("hand")) and not deal.get("expansions")


def to_play(deal: dict) -> list[tuple[str, str]]:
    """What a deal carries to the page its Play opens: the common card and the expansions on to the scoring page;
    a one-player deal's hand and common card to the solo turn helper's first turn (the card turned up is the
    player's to tap: the deal's turn pairs stay in the dealer's view)."""
    if solo_deal(deal):
        return [*(("hand:list", c) for c in deal["hand"]), ("common", deal["common"]), ("turn:int", "1")]
    return [*([("common", deal["common"])] if deal.get("common") else []),
            *((SETS_FIELD, s) for s in deal.get("expansions", ()))]


def solo(form: MultiDict, lang: str) -> views.View:
    """The solo rank from a final hand (four cards and the common card) or from the florins."""
    def compute(req: dict) -> dict:
        if "florins" in req:
            return service.score(GAME.id, {"florins": req["florins"]})
        return service.score(GAME.id, {"common": req.get("common"), "players": [
            {"name": i18n._("You", lang), "hand": req.get("hand", [])}]})
    return views.scoring(GAME.id, form, lang, PAGES, "score/duquesa-solo.html", compute, ranks=RANKS,
                         **extras(None, None, form))


def solo_turn(form: MultiDict, lang: str) -> views.View:
    """The turn helper: given the hand, the common card and the card turned up, keep it or take? And then the next
    turn's hand, carried in the address turn after turn to the rank."""
    template, context, status = views.scoring(GAME.id, form, lang, PAGES, "score/duquesa-turn.html",
                                              lambda req: service.solo_turn(GAME.id, req))
    return template, {**context, **turn_extras(context["card_set"], form, context["result"])}, status


PAGES = GamePages(
    words=Words(fields={"common": N_("common card"), "hand": N_("hand"), "florins": N_("florins"),
                        "seen": N_("card turned up"), "gone": N_("cards already gone"), "drawn": N_("card drawn"),
                        "turn": N_("turn")},
                count_of={"hand": N_("cards in the hand")}),
    template="score/duquesa.html", targets=targets, extras=extras, add=add, links=((N_("Solo"), "duquesa_pages.solo"),),
    own={"duquesa_pages.solo": Page(f"/solo/{GAME.id}", solo),
         "duquesa_pages.solo_turn": Page(f"/solo/{GAME.id}/turn", solo_turn)},
    hidden=("hands", "draw_pile", "out_of_play", "turns", "spare"),  # (a solo hand is the one player's own)
    to_score=to_play,
    play=lambda deal: ("duquesa_pages.solo_turn", N_("Play: open the turn helper")) if solo_deal(deal) else None,
    setup_words={"out_of_play": N_("Out of play (face down)"), "common": N_("Common card"),
                 "turns": N_("Solo turns (two cards each)"), "spare": N_("Left in the box"),
                 "draw_pile": N_("Draw pile (top first)")},
)
