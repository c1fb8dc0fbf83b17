"""Where the cards found in a photo go on a scoring page's form (issue 28): each card the game's glue can place in
the part the photo was taken for (`_to`) is added there as a tap would add it, and the filled form comes back as
a query, with what the photo gave said in the page's language. Pure: the server (photo_pages, after zxing-cpp) and
the static site's phone (companion.web.site.browser, after zxing-wasm in the page) fill a form with this same code."""
from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlencode

from ...cards import CardSet, Component
from ...core import i18n
from ..games import GamePages
from ..play.forms import Fields

SEEN, TOOK = "_seen", "_took"  # in the filled page's address: the cards found, and those added
TARGET = "_to"  # the form's field naming the part the photo fills
LEFT_OUT = ("_csrf", SEEN, TOOK)  # the form's token, and what the last photo said


class Form(Fields):
    """A form's fields that a game's glue can change (`setlist`, `add`, `pop`, as werkzeug's MultiDict), kept in
    order: each name where it first came, its values in order."""

    def setlist(self, key: str, values: Iterable[str]) -> None:
        self._values[str(key)] = [str(v) for v in values]

    def add(self, key: str, value: str) -> None:
        self._values.setdefault(str(key), []).append(str(value))

    def pop(self, key: str, default: str | None = None) -> str | None:
        values = self._values.pop(key, None)
        return values[0] if values else default


def card_of(card_set: CardSet, card_id: str | None) -> Component | None:
    """The card of the set a printed code names (as its card page finds it), or None (another game's, a back)."""
    try:
        card = card_set.component(card_id) if card_id else None
    except KeyError:
        return None
    return card if card is not None and card.kind != "back" else None


def said(seen: list[str], took: list[str], lang: str) -> str:
    """What a photo gave, in `lang`: how many cards it shows, which were added, which were not."""
    if not seen:
        return i18n._("No card found in the photo: lay the cards flat and upright, each card's code (at its lower "
                      "left) showing, in good light, and hold the phone steady.", lang)
    words = [i18n._("Cards found in the photo: %(n)s.", lang, n=len(seen))]
    if took:
        words.append(i18n._("Added: %(cards)s.", lang, cards=", ".join(took)))
    left = list(seen)
    for card in took:
        left.remove(card)
    if left:
        words.append(i18n._("Not added (already in place, no room, or a tap says where): %(cards)s.", lang,
                            cards=", ".join(left)))
    return " ".join(words)


def filled(pages: GamePages, pairs: Iterable[tuple[str, str]], cards: list[tuple[Component, list[list[int]]]],
           lang: str) -> dict:
    """The form sent with a photo (`pairs`, its `_to` naming the part the photo fills) with `cards` (each found card
    and its code's corners, in the order found) added where the game's glue puts them: `{"cards": [{"id",
    "corners", "added"}], "query": the filled form (with `_seen` and `_took`), "said": what the photo gave}`."""
    form = Form((k, v) for k, v in pairs if k not in LEFT_OUT)
    target = form.pop(TARGET, "")
    found = []
    for card, corners in cards:
        added = target in dict(pages.targets(card, form))
        if added:
            pages.add(card, form, target)
        found.append({"id": card.id, "corners": corners, "added": added})
    seen, took = [c["id"] for c in found], [c["id"] for c in found if c["added"]]
    form.setlist(SEEN, [",".join(seen) or "-"])
    form.setlist(TOOK, [",".join(took)])
    return {"cards": found, "query": urlencode(list(form.items(multi=True))), "said": said(seen, took, lang)}
