"""What a layout's placeholders (`{field}`) are filled with for a component: plain values from its card data and
its game's rules, for the print (pnp/faces.py), the phone's card pages and the files a card set draws with
(library.files_used). Below the print: reading it needs no drawing library."""
from __future__ import annotations

from . import games
from .cards import CardSet, Component


def values(c: Component, s: CardSet, lang: str) -> dict:
    """A component's values for a layout's placeholders: its own keys, its game fields, and what its game's rules
    derive from them (`Game.face_values`: a piece's strength, a gem's points)."""
    out = {"id": c.id, "qty": c.qty, "type": c.type, "set": c.set, "accent": s.look.accent, **c.data}
    if c.art is not None:
        out["art"] = c.art.given
    out["emblem"] = list(s.look.emblem)  # the look's emblem: icons for an `icons: "{emblem}"` element, face or back
    derive = games.for_data(s.game).face_values
    if derive is not None:
        out.update(derive(c, s, lang))
    if c.name is not None:
        out["name"] = c.name
    if c.text is not None:
        out["text"] = c.text
    return out
