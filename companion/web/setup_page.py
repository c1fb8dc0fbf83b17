"""The setup helper: players and options in, a seeded setup out; the seed stays in the URL, so the same link
deals the same game on another phone, and "reroll" keeps everything but the seed."""
from __future__ import annotations

import secrets

from flask import Blueprint, abort, redirect, render_template, request, url_for

from .. import cards, service
from ..schema import InputError

bp = Blueprint("setup", __name__)


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
    return render_template("setup.html", card_set=card_set, module=module, result=result, problems=problems,
                           form=args, players=players, reroll_url=url_for("setup.setup", game=game, **reroll),
                           share_url=url_for("setup.setup", game=game, _external=True, **share)), status
