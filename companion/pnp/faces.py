"""What each printed component shows, as plain data: the game's descriptor builds a front's Face (a data-only
game the generic one), and every back is the game's title on its accent with its emblem."""
from __future__ import annotations

from dataclasses import replace

from .. import games
from ..cards import CardSet, Component
from ..look import Back, Face


def face(c: Component, s: CardSet, lang: str) -> Face:
    """The game's face; a reference card's text is printed as a list."""
    made = games.for_data(s.game).face(c, s, lang)
    return replace(made, listed=True) if c.kind == "reference" and made.text else made


def back(c: Component, s: CardSet, lang: str) -> Back:
    return Back(c.name_in(lang) or s.title.get(lang), s.look.accent, s.look.emblem)
