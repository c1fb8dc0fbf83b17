"""A photo of the cards on the table fills a scoring page (issue 28): the page's form is sent with the photo to the
part it fills (`_to`: a hand, a column, a side's pieces, as the game's glue names its targets), each card found goes
where the glue's `add` puts it, and the page comes back filled in. The page's script sends the same form and gets
JSON (the cards found with their corners, to outline them on the photo, and the filled form's query); without a
script it is a plain multipart form whose answer is the filled page (303). A bad photo is the page again, with what is
wrong said, and a 400. The photo is read and dropped: nothing is kept."""
from __future__ import annotations

import threading
import traceback
from urllib.parse import urlencode

from flask import Blueprint, abort, jsonify, redirect, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from ... import library
from ...cards import CardSet, Component
from ...core.schema import InputError, problem
from ..games import glue
from ..play import plain, scoring
from ..shell import locale
from . import fill as photo_fill

bp = Blueprint("photo_pages", __name__)
SCANS = threading.BoundedSemaphore(2)  # photos searched at once (each takes a CPU for up to photo.BUDGET, 50-240 MB)
MAX_PARTS = 1000  # fields and files in a photo's form (a scoring page's has a few dozen, a few hundred at most)
MAX_FIELD = 256 * 1024  # bytes in one of its text fields (what the app takes in a whole request without a photo)
SCAN_WAIT = 10  # seconds a photo waits for its turn before a 503
PAGE_FIELD = "_photo"  # the page's file field (a name of its own: the scoring form's fields are the request's)
SEEN, TOOK = photo_fill.SEEN, photo_fill.TOOK  # in the filled page's address: the cards found, and those added


class Busy(HTTPException):
    """Two photos are being read and a third waited SCAN_WAIT for its turn: a 503, said as what it is."""

    code = 503
    description = "the companion is reading other photos just now; try again in a few seconds"
    field, retry_after = "photo", 5
    title = _l("Busy reading photos")
    message = _l("The companion is reading other photos just now. Try again in a few seconds.")


def cards_in(card_set: CardSet, field: str = "photo") -> tuple[list[tuple[Component, list[list[int]]]], list[int]]:
    """The game's printed cards in the photo uploaded as `field`, in the order found, each with its code's corners,
    and the photo's size as seen. InputError names a missing, empty, oversized or unreadable photo; a 503 when
    the companion is reading other photos for longer than SCAN_WAIT. Codes of other games' cards, of a back or of
    anything else are left out; two copies of a card are two entries."""
    from ... import photo  # (zxing-cpp: imported by the server that reads photos, not by a static site's phone)

    uploads = _uploads(field)
    data = uploads[0].read(photo.MAX_BYTES + 1)
    if not SCANS.acquire(timeout=SCAN_WAIT):
        raise Busy()
    try:
        found = photo.find_codes(data)
    finally:
        SCANS.release()
    cards = []
    for code in found.codes:
        card = photo_fill.card_of(card_set, photo.card_id(code.text, card_set.game))
        if card is not None:
            cards.append((card, [list(corner) for corner in code.corners]))
    return cards, list(found.size)


def _uploads(field: str) -> list:
    """The files sent as `field`, read from a multipart body of up to photo.MAX_REQUEST bytes, MAX_PARTS parts and
    MAX_FIELD bytes a text field; InputError names which was passed, or a photo missing or sent as text. Another
    body is not read (an urlencoded one of 20 MiB, ten million empty fields, took 24 s and 900 MB to parse)."""
    from ... import photo

    if request.mimetype != "multipart/form-data":
        raise InputError([problem(photo.FIELD, "is missing: choose a photo of the cards")])
    if (request.content_length or 0) > photo.MAX_REQUEST:
        raise InputError([problem(photo.FIELD, "is larger than %(most)s MiB", most=photo.MAX_BYTES // photo.MiB)])
    request.max_content_length = photo.MAX_REQUEST
    request.max_form_parts, request.max_form_memory_size = MAX_PARTS, MAX_FIELD
    try:
        uploads = [u for u in request.files.getlist(field) if u.filename]  # a page's empty file fields send no file
    except RequestEntityTooLarge as e:
        raise InputError([_refused(e)]) from None
    if uploads:
        return uploads
    if field in request.form:
        raise InputError([problem(photo.FIELD, "came as text, not as a file: send it as a file (multipart/form-data "
                                               "with a file name)")])
    raise InputError([problem(photo.FIELD, "is missing: choose a photo of the cards")])


def _refused(e: RequestEntityTooLarge):
    """Which of the photo request's limits Werkzeug's form parser met, as a problem: it raises the same exception
    for each, so the function that raised it says (the body's length was checked before)."""
    from ... import photo

    raised = traceback.extract_tb(e.__traceback__)[-1].name
    if raised == "next_event":  # werkzeug.sansio.multipart: one part more than max_form_parts
        return problem(photo.FIELD, "came in a request of more than %(most)s parts (fields and files)",
                       most=MAX_PARTS)
    if raised in ("parse", "receive_data"):  # a text field (or a part's headers) past max_form_memory_size
        return problem(photo.FIELD, "came with a text field larger than %(most)s KiB: send the photo as a file",
                       most=MAX_FIELD // 1024)
    return problem(photo.FIELD, "is larger than %(most)s MiB", most=photo.MAX_BYTES // photo.MiB)


def wrong(e: InputError) -> str:
    """What is wrong with a photo, in the reader's language ("Photo: is missing: choose a photo of the cards")."""
    photo = _("Photo")  # (not inside the f-string: the catalogue's extraction would not see it there)
    return f"{photo}: {e.problems[0].say(locale.current())}"


def said(seen: list[str], took: list[str]) -> str:
    """What a photo gave, in the page's language (see photo_fill.said)."""
    return photo_fill.said(seen, took, locale.current())


@bp.post("/score/<game>/photo")
def fill(game: str):
    """The scoring page's form filled with the cards in its photo (see the module's docstring)."""
    card_set = library.current().get(game)
    pages = glue.taking_photos(game) if card_set is not None else None
    if pages is None:
        abort(404)
    wants_json = request.accept_mimetypes.best == "application/json"
    try:
        cards, size = cards_in(card_set, PAGE_FIELD)
    except InputError as e:
        form = _form()
        message = wrong(e)
        if wants_json:
            return jsonify(error=str(e), message=message), 400
        template, context, _status = glue.VIEWS["scoring.score"](form, locale.current(), game=game)
        context["problems"] = [plain.Said(("_photo",), message), *context["problems"]]
        return scoring.respond((template, context, 400), game)
    answer = photo_fill.filled(pages, request.form.items(multi=True), cards, locale.current())
    if wants_json:
        return jsonify(cards=answer["cards"], size=size, query=answer["query"], said=answer["said"])
    query = answer["query"]
    lang = [("lang", request.args["lang"])] if "lang" in request.args else []  # a page asked in a language keeps it
    return redirect(f"{url_for('scoring.score', game=game)}?{query}{'&' + urlencode(lang) if lang else ''}", 303)


def _form() -> MultiDict:
    """The page's form as sent, without its file, its token and what the last photo said (empty when it was refused
    unread: too many parts, too large)."""
    try:
        return MultiDict([(k, v) for k, v in request.form.items(multi=True) if k not in photo_fill.LEFT_OUT])
    except (RequestEntityTooLarge, ValueError):
        return MultiDict()


@bp.app_context_processor
def _note() -> dict:
    """`photo_note`: what the photo just read gave, on the page it filled (its address says: `_seen`, `_took`)."""
    seen = request.args.get(SEEN)
    if not seen:
        return {"photo_note": None}
    took = request.args.get(TOOK, "")
    return {"photo_note": said([c for c in seen.split(",") if c and c != "-"], [c for c in took.split(",") if c])}
