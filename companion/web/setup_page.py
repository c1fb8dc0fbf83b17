"""The setup helper: players and options in, a seeded setup out; the seed stays in the URL, so the same link
deals the same game on another phone, and "reroll" keeps everything but the seed."""
from __future__ import annotations

import secrets

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _l

from .. import cards, service
from ..schema import InputError

bp = Blueprint("setup", __name__)

# What each field of a setup answer (and each option) is called on the page; a key missing here is shown as is.
LABELS = {
    "players": _l("Players"), "expansions": _l("Expansions"), "jokers": _l("Add the two Jokers"),
    "double": _l("Double deck (104 cards)"), "first_player": _l("First player"), "dealer": _l("Dealer"),
    "direction": _l("Direction of play"), "counter-clockwise": _l("counter-clockwise"),
    "hand": _l("Your hand"), "hands": _l("Hands"), "deck": _l("Deck (top first)"), "discard": _l("Discard pile"),
    # Duquesa
    "out_of_play": _l("Out of play (face down)"), "common": _l("Common card"),
    "turns": _l("Solo turns (two cards each)"), "spare": _l("Left in the box"), "draw_pile": _l("Draw pile (top first)"),
    # Queen's Necklace
    "fashion": _l("Fashion tiles, +30 to 0"), "market": _l("Market"),
    "merchant_positions": _l("Merchants at deck positions"),
    # Gemas
    "reserve": _l("Gem reserve"), "bandaids_each": _l("Band-aids each"), "heart": _l("Hearts in play"),
    "teams": _l("Teams"),
    # Nobles en duelo
    "keep": _l("Nobles each player keeps"),
    "nobles_dealt": _l("Nobles dealt (keep some, shuffle the rest into the noble deck)"),
    "noble_deck": _l("Noble deck"), "number_deck": _l("Number deck"),
    # Duplicon
    "grid": _l("Grid (3 × 3)"), "opening_turns": _l("Cards turned at the start"), "non_scoring": _l("Non-scoring pile"),
    "cells": _l("Cells"), "cards": _l("Cards"), "pair": _l("Pair"),
}


def setup_label(key) -> str:
    return str(LABELS.get(key, key))


def options_from(module, args) -> dict[str, str]:
    """The game's declared options as the text the rules parse: lists comma-joined, flags yes/no."""
    out = {}
    for key, kind in module.SETUP_OPTIONS.items():
        values = [v for v in args.getlist(key) if v]
        if values:
            out[key] = ",".join(values) if kind != "flag" else values[-1]
    return out


@bp.get("/setup/<game>")
def setup(game: str):
    card_set = cards.load_shipped().get(game)
    if card_set is None:
        abort(404)
    module = service.game_module(game)
    args = request.args
    if not args.get("seed"):  # a fresh deal gets its seed in the URL first, so the link can be shared
        fresh = {**args.to_dict(flat=False), "seed": secrets.token_hex(4)}
        return redirect(url_for("setup.setup", game=game, **fresh))
    players = args.get("players") or str(module.DEFAULT_PLAYERS)
    result, problems, status = None, [], 200
    try:
        result = service.setup(game, players, args["seed"], options_from(module, args))
    except InputError as e:
        problems, status = e.problems, 400
    reroll = {**args.to_dict(flat=False), "seed": secrets.token_hex(4)}
    reroll.pop("lang", None)
    share = {k: v for k, v in args.to_dict(flat=False).items() if k != "lang"}
    return render_template(
        "setup.html", card_set=card_set, module=module, result=result, problems=problems, form=args, players=players,
        setup_label=setup_label, setup_words=LABELS, card_ids=set(card_set.catalogue()),
        bad={".".join(map(str, p.path)) for p in problems}, reroll_url=url_for("setup.setup", game=game, **reroll),
        share_url=url_for("setup.setup", game=game, _external=True, **share)), status
