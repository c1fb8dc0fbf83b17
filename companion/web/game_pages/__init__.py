"""What a game's phone pages need beyond the generic ones, one module per game beside this file
(`<game id with _ for ->.py` declaring `PAGES`), found from the game registry: no second list of games.

A game without a module here (a designer's data-only game) gets the generic pages: setup, rules and card pages, a
sheet with typed points, and a scoring page when its components declare values."""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ...cards import Component
from ...i18n import N_
from .. import forms
from ..forms import MultiDict
from ..plain import Words

if TYPE_CHECKING:
    from flask import Blueprint

Prepare = Callable[[dict, MultiDict], dict]  # a score request from a form → the request to score
Extras = Callable[[dict | None, dict | None, MultiDict], dict]  # (request, result, form) → what the page shows beside the answer
Targets = Callable[[Component, MultiDict], list[tuple[str, str]]]  # where a scanned card can go: (field, whose)
Add = Callable[[Component, MultiDict, str], None]  # fill that field with the card
ToScore = Callable[[dict], list[tuple[str, str]]]  # a setup's answer → the scoring form's fields it fills
Ready = Callable[[MultiDict], bool]  # whether a sent form is to be worked out yet


def players_filled(req: dict, _form: MultiDict) -> dict:
    """The default preparation: player rows nobody filled in are left out."""
    if "players" in req:
        req["players"] = forms.filled(req["players"])
    return req


@dataclass(frozen=True)
class GamePages:
    """A game's glue for the web: its scoring template and how its form becomes a request, what its page shows
    beside the answer, what a scanned card adds to, the words of its setup answer, and any pages of its own."""

    template: str = "score/generic.html"
    prepare: Prepare = players_filled
    extras: Extras | None = None
    targets: Targets | None = None
    add: Add | None = None
    setup_words: Mapping[str, str] = field(default_factory=dict)  # setup answer keys → texts (N_, shown translated)
    words: Words = field(default_factory=Words)  # what its players call its request's fields, for problems
    per_player: tuple[str, ...] = ("hands",)  # setup answer keys holding one list per player
    hidden: tuple[str, ...] = ("hands", "deck")  # setup answer keys the players must not see: the dealer's view
    to_score: ToScore | None = None  # what a setup carries to the scoring page beside the names (fields, values)
    play: Callable[[dict], tuple[str, str] | None] | None = None  # a setup's answer → (endpoint, words) of the page
    # its Play button opens, when not the scoring page (the Duquesa's one-player deal: the solo turn helper)
    ready: Ready | None = None  # a sent form is worked out only when this says so (default: always)
    score_label: str = N_("Score")
    links: tuple[tuple[str, str], ...] = ()  # (label, endpoint) shown with the game on the home page
    blueprint: Callable[[], Blueprint] | None = None  # makes its pages of its own (the Duquesa's solo pages)


GENERIC = GamePages()


@cache
def pages(game_id: str) -> GamePages:
    """The web glue of a known game (callers check the id first): its module's PAGES, or the generic pages."""
    if not re.fullmatch(r"[a-z][a-z0-9-]{0,39}", game_id):
        return GENERIC
    name = f"{__name__}.{game_id.replace('-', '_')}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return GENERIC
    return module.PAGES
