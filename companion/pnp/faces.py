"""What each printed component shows, as plain data: the game's descriptor builds a front's Face (a data-only
game the generic one), and every back is the game's title on its accent with its emblem."""
from __future__ import annotations

from .. import games
from ..cards import CardSet, Component
from ..look import Back, Face


def face(c: Component, s: CardSet, lang: str) -> Face:
    return games.for_data(s.game).face(c, s, lang)


def back(c: Component, s: CardSet, lang: str) -> Back:
    return Back(c.name_in(lang) or s.title.get(lang), s.look.accent, s.look.emblem)
