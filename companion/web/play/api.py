"""The JSON API: the same answers as `companion score` and `companion setup`, and the cards in a photo of the table;
400 names the field, 404 the game (answered by errors.py)."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from ... import service
from ...core.schema import InputError
from ..photos import pages as photo_pages

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


@bp.post("/<game>/scan")
def scan(game: str):
    """The game's printed cards in a photo of the table (multipart field `photo`: JPEG, PNG or WebP): each card's
    id and its code's corners in the photo's pixels as seen (turned by its EXIF orientation), and the photo's size.
    Two copies of a card are two entries; codes of other games' cards, or of anything else, are left out."""
    card_set = service.card_set(game)  # an unknown game is a 404 before the body is read
    try:
        cards, size = photo_pages.cards_in(card_set, "photo")
    except InputError as e:  # `message`: what is wrong in the reader's language, for the page to show
        return jsonify(error=str(e), field=e.field, problems=[str(p) for p in e.problems],
                       message=photo_pages.wrong(e)), 400
    return jsonify(cards=[{"id": card.id, "corners": corners} for card, corners in cards], size=size)
