"""The setup helper: players and options in, a seeded setup out; the seed stays in the URL, so the same link
deals the same game on another phone, and "reroll" keeps everything but the seed. The form comes from the game's
declared options; the words of its answer from the game's page glue."""
from __future__ import annotations

import secrets

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _l

from .. import cards, games, service
from ..schema import InputError
from .game_pages import pages
from .locale import with_query
from .saved import absolute

bp = Blueprint("setup", __name__)

# What the fields every game's setup answer may have are called on the page; each game's own come from its glue.
WORDS = {
    "players": _l("Players"), "first_player": _l("First player"), "dealer": _l("Dealer"),
    "direction": _l("Direction of play"), "counter-clockwise": _l("counter-clockwise"),
    "hand": _l("Your hand"), "hands": _l("Hands"), "deck": _l("Deck (top first)"), "discard": _l("Discard pile"),
    "market": _l("Market"), "steps": _l("How to set up"),
}


def options_from(rules: games.Game, args) -> dict[str, str]:
    """The game's declared options as the text the rules parse: lists comma-joined, flags yes/no."""
    out = {}
    for option in rules.options:
        values = [v for v in args.getlist(option.key) if v]
        if values:
            out[option.key] = values[-1] if option.is_flag else ",".join(values)
    return out


@bp.get("/setup/<game>")
def setup(game: str):
    card_set = cards.load_all().get(game)
    if card_set is None:
        abort(404)
    rules, glue = games.for_data(game), pages(game)
    words = {**WORDS, **{o.key: _l(o.label) for o in rules.options},
             **{key: _l(text) for key, text in glue.setup_words.items()}}
    args = request.args
    if not args.get("seed"):  # a fresh deal gets its seed in the URL first, so the link can be shared
        fresh = {**args.to_dict(flat=False), "seed": secrets.token_hex(4)}
        return redirect(with_query(url_for("setup.setup", game=game), fresh))
    players = args.get("players") or str(rules.players_by_default(card_set))
    result, problems, status = None, [], 200
    try:
        result = service.setup(game, players, args["seed"], options_from(rules, args))
    except InputError as e:
        problems, status = e.problems, 400
    reroll = {**args.to_dict(flat=False), "seed": secrets.token_hex(4)}
    reroll.pop("lang", None)
    share = {k: v for k, v in args.to_dict(flat=False).items() if k != "lang"}
    return render_template(
        "setup.html", card_set=card_set, options=rules.options, result=result, problems=problems, form=args,
        players=players, per_player=glue.per_player, setup_label=lambda key: str(words.get(key, key)), setup_words=words,
        card_ids=set(card_set.catalogue()), bad={".".join(map(str, p.path)) for p in problems},
        reroll_url=with_query(url_for("setup.setup", game=game), reroll),
        share_url=with_query(absolute(url_for("setup.setup", game=game)), share)), status
