"""The JSON API: the same answers as `companion score` and `companion setup`; 400 names the field, 404 the game
(answered by errors.py)."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from .. import service

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.post("/<game>/score")
def score(game: str):
    """The answer of `companion score` to the JSON body (an unknown game is a 404 before the body is read)."""
    service.card_set(game)  # an unknown game is a 404 before the body is read
    return jsonify(service.score(game, service.parse_json(request.get_data())))


@bp.get("/<game>/setup")
def setup(game: str):
    """A seeded setup as JSON from the query: players, seed, the game's options, seed.PART for a part dealt again."""
    args = request.args.to_dict()
    players, seed = args.pop("players", None), args.pop("seed", None)
    rerolls = {k[5:]: args.pop(k) for k in list(args) if k.startswith("seed.")}  # a part dealt again alone
    return jsonify(service.setup(game, players, seed, args, rerolls))
