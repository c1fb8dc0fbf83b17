"""The JSON API: the same answers as `companion score` and `companion setup`, and the cards in a photo of the table;
400 names the field, 404 the game (answered by errors.py)."""
from __future__ import annotations

import threading

from flask import Blueprint, jsonify, request
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge, ServiceUnavailable

from .. import photo, service
from ..schema import InputError, problem
from . import locale

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


SCANS = threading.BoundedSemaphore(2)  # photos searched at once (each takes a CPU for up to BUDGET, 100-200 MB)
SCAN_WAIT = 10  # seconds a photo waits for its turn before a 503


@bp.post("/<game>/scan")
def scan(game: str):
    """The game's printed cards in a photo of the table (multipart field `photo`: JPEG, PNG or WebP): each card's
    id and its code's corners in the photo's pixels as seen (turned by its EXIF orientation), and the photo's size.
    Two copies of a card are two entries; codes of other games' cards, or of anything else, are left out."""
    card_set = service.card_set(game)  # an unknown game is a 404 before the body is read
    request.max_content_length = photo.MAX_REQUEST
    try:
        try:
            upload = request.files.get("photo")
        except RequestEntityTooLarge:
            raise InputError([problem(photo.FIELD, "is larger than %(most)s MiB",
                                      most=photo.MAX_BYTES // photo.MiB)]) from None
        if upload is None:
            raise InputError([problem(photo.FIELD, "is missing: choose a photo of the cards")])
        data = upload.read(photo.MAX_BYTES + 1)
        if not SCANS.acquire(timeout=SCAN_WAIT):
            raise ServiceUnavailable("the companion is reading other photos just now; try again in a few seconds",
                                     retry_after=5)
        try:
            found = photo.find_codes(data)
        finally:
            SCANS.release()
    except InputError as e:  # `message`: what is wrong in the reader's language, for the page to show
        return jsonify(error=str(e), field=e.field, problems=[str(p) for p in e.problems],
                       message=f"{_('Photo')}: {e.problems[0].say(locale.current())}"), 400
    cards = []
    for code in found.codes:
        card = _card(card_set, photo.card_id(code.text, card_set.game))
        if card is not None:
            cards.append({"id": card.id, "corners": [list(corner) for corner in code.corners]})
    return jsonify(cards=cards, size=list(found.size))


def _card(card_set, card_id: str | None):
    """The card of the set a printed code names (as its card page finds it), or None (another game's, a back)."""
    try:
        card = card_set.component(card_id) if card_id else None
    except KeyError:
        return None
    return card if card is not None and card.kind != "back" else None
