"""What a game's phone pages need beyond the generic ones: `GamePages`, which each game's web glue declares as
`PAGES` in a module beside this file. The game's descriptor names that module (`Game.web`), and
`companion.web.games.glue` loads it from there: no second list of games, and a module misnamed is an error at start-up.

A game without web glue (a designer's data-only game) gets the generic pages: setup, rules and card pages, a
sheet with typed points, and a scoring page when its components declare values, where a scanned card or a photo of
the cards adds to the cards a player holds."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ... import library
from ...cards import CardSet, Component
from ...core.i18n import N_, _
from ...games import generic
from ..play import forms
from ..play.forms import MultiDict
from ..play.plain import Words

Prepare = Callable[[dict, MultiDict], dict]  # a score request from a form → the request to score
# (request, result, form) → what the page shows beside the answer
Extras = Callable[[dict | None, dict | None, MultiDict], dict]
Targets = Callable[[Component, MultiDict], list[tuple[str, str]]]  # where a scanned card can go: (field, whose)
Add = Callable[[Component, MultiDict, str], None]  # fill that field with the card
ToScore = Callable[[dict], list[tuple[str, str]]]  # a setup's answer → the scoring form's fields it fills
Ready = Callable[[MultiDict], bool]  # whether a sent form is to be worked out yet
View = Callable[..., tuple[str, dict[str, Any], int]]  # (form, lang) → (template, context, status): play/views.py
Shows = Callable[[CardSet, str, MultiDict], dict]  # (card set, lang, form) → what the page shows from the data


def players_filled(req: dict, _form: MultiDict) -> dict:
    """The default preparation: player rows nobody filled in are left out."""
    if "players" in req:
        req["players"] = forms.filled(req["players"])
    return req


@dataclass(frozen=True)
class Page:
    """A page of a game's own beside its scoring and setup pages: its address, and the view that works out what it
    shows (no Flask: the server serves it and the static site's phones draw it, as the scoring pages)."""

    rule: str  # its URL rule, e.g. "/solo/<game id>"
    view: View


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
    # setup answer keys whose entries name places on a layout of (rows, columns) cards: each entry ({"cells": [...],
    # "cards": [...], optionally "pair": bool}) is drawn as that layout with its cards in their cells
    grids: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    to_score: ToScore | None = None  # what a setup carries to the scoring page beside the names (fields, values)
    play: Callable[[dict], tuple[str, str] | None] | None = None  # a setup's answer → (endpoint, words) of the page
    # its Play button opens, when not the scoring page (a one-player deal: a page of its own)
    ready: Ready | None = None  # a sent form is worked out only when this says so (default: always)
    score_label: str = N_("Score")
    links: tuple[tuple[str, str], ...] = ()  # (label, endpoint) shown with the game on the home page
    shows: Shows | None = None  # what its scoring page shows from the game's card data (the generic page's hand)
    own: Mapping[str, Page] = field(default_factory=dict)  # its pages of its own, by endpoint ("<blueprint>.<name>")
    # its request's lists of texts or numbers whose form has a field a position (`forms.fields_of`: "order",
    # "rounds.*.order"), where others have one field for the whole list (`players.0.hand:list`)
    by_position: tuple[str, ...] = ()
    as_form: Callable[[dict], dict] | None = None  # a request as its form says it (the same request, said otherwise)


def request_fields(glue: GamePages, request: Mapping) -> list[tuple[str, str]]:
    """A score request as its game's scoring form's fields (a saved round opened again in the calculator): the
    forms' one inverse (`forms.fields_of`), given where this form has a field a list position; none for a request
    that no form gives back whole."""
    try:
        return forms.fields_of(glue.as_form(dict(request)) if glue.as_form else request, glue.by_position)
    except ValueError:
        return []


def cards_held(c: Component, form: MultiDict) -> list[tuple[str, str]]:
    """A data-only game's scanned card goes to a player's cards when a player may name it at scoring
    (`generic.holdable`): each player holding fewer copies of it than are printed."""
    if c.id not in generic.holdable(library.current()[c.game]):
        return []
    return [(f"players.{i}", name) for i, name in forms.players_of(form)
            if _copies(form, f"players.{i}.cards.{c.id}:int") < c.qty]


def one_more(c: Component, form: MultiDict, target: str) -> None:
    """One more copy of the card among that player's cards."""
    field = f"{target}.cards.{c.id}:int"
    form.setlist(field, [str(_copies(form, field) + 1)])


def _copies(form: MultiDict, field: str) -> int:
    return forms.count((form.get(field) or "").strip())


KIND_WORDS = {"card": N_("Cards"), "tile": N_("Tiles"), "token": N_("Tokens")}


_NAMED = re.compile(r"players\.\d{1,3}\.cards\.(.+):int")  # a player's copies of a component, on the form
CHIPS_AT_MOST = 21  # a counter of at most this many values is a row of number chips (one tap for any); else a stepper


def hand_page(card_set: CardSet, lang: str, form: MultiDict) -> dict:
    """What a data-only game's scoring page shows from its data: the components it offers a player to count
    (`scoring.cards:`, `generic.offered`), in groups (by the choices of the first `each` field, headed by the file's
    labels; else by type), the counters (`chips`: those of at most CHIPS_AT_MOST values, as chips), the rounds, the
    rules and who wins (see templates/score/generic.html). A component the form names that the page does not offer
    (added by a photo or a scanned code, or an old link) is shown too, in its group, for every player."""
    scoring = generic.scoring_of(card_set)
    offered, holdable = generic.offered(card_set), generic.holdable(card_set)
    named = {m[1] for m in map(_NAMED.fullmatch, form) if m and m[1] in holdable and forms.count(form.get(m[0]))}
    held = [c for cid, c in holdable.items() if cid in offered or cid in named]
    by = scoring.group if scoring is not None else None
    groups: dict[Any, list[Component]] = {}
    for c in held:
        groups.setdefault(("each", c.data[by]) if by and by in c.data else ("type", c.type), []).append(c)
    order = list(scoring.choices.get(by) or ()) if by else []
    keys = sorted(groups, key=lambda k: (k[0] == "type", order.index(k[1]) if k[1] in order else len(order),
                                         isinstance(k[1], str), k[1]))
    return {
        "held_groups": [(_heading(card_set, key, lang), groups[key]) for key in keys],
        "scoring": scoring, "declared": scoring is not None and scoring.declared,
        "rounds": list(range(1, scoring.rounds + 1)) if scoring and scoring.target is None and scoring.rounds > 1
        else None,
        "target_game": scoring is not None and scoring.target is not None,
        "chips": {c.key for c in (scoring.counters if scoring else ()) if c.high - c.low + 1 <= CHIPS_AT_MOST},
    }


def _heading(card_set: CardSet, key: tuple, lang: str) -> str:
    kind, value = key
    if kind == "each" or card_set.labels.get(value):
        return card_set.label(str(value), lang)
    return _(KIND_WORDS[value], lang) if value in KIND_WORDS else value


def cards_counted(request: dict) -> dict:
    """A data-only game's request with each player's cards as copies of each (`{"XX01": 2}`), as its form counts
    them, where a request lists them (`["XX01", "XX01"]`): the same hand."""
    rows = request.get("players")
    if not isinstance(rows, list):
        return request
    out = []
    for p in rows:
        held = p.get("cards") if isinstance(p, dict) else None
        if isinstance(held, list) and all(isinstance(c, str) for c in held):
            p = {**p, "cards": {c: held.count(c) for c in dict.fromkeys(held)}}
        out.append(p)
    return {**request, "players": out}


GENERIC = GamePages(targets=cards_held, add=one_more, shows=hand_page, as_form=cards_counted,
                    words=Words(fields={"cards": "", "counters": "", "round": N_("Round")}))
