"""What each printed component shows, as plain data: the game's descriptor builds a front's Face (a data-only
game the generic one), and every back is the game's title on its accent with its emblem."""
from __future__ import annotations

from dataclasses import replace

from .. import games
from ..cards import CardSet, Component
from ..look import Back, Face


def face(c: Component, s: CardSet, lang: str) -> Face:
    """The game's face, with the component's art file (if its data names one) in its art window; a reference
    card's text is printed as a list."""
    made = games.for_data(s.game).face(c, s, lang)
    if c.art is not None and made.art is None:
        made = replace(made, art=c.art.path)
    return replace(made, listed=True) if c.kind == "reference" and made.text else made


def back(c: Component, s: CardSet, lang: str) -> Back:
    return Back(c.name_in(lang) or s.title.get(lang), s.look.accent, s.look.emblem)
