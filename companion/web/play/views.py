"""What the computing pages show (scoring and setup; a game's pages of its own build on `scoring`), from their form
alone.

No Flask here: the server's views render these contexts with Flask, and the static site's phones render the same
contexts in their own Python (`render.PhoneRenderer`), so both show the same answer in the same words. A view
returns (template, context, status); a problem in the form is a 400 with the problems named on the page.
"""
from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from ... import cards, games, library, service
from ...core import i18n
from ...core.rng import make_rng
from ...core.schema import InputError, Problem, whole_number
from ..games import GamePages
from . import forms, plain
from .forms import MultiDict

View = tuple[str, dict[str, Any], int]
# A form that is still being filled: a card just added from its QR code, or what a setup carried to the scoring
# page (its names and what else it carries). It is scored when it can be, but not refused.
STILL_FILLING = ("_added", "_from", "_seen")

# What the fields every game's setup answer may have are called on the page; each game's own come from its glue.
PLAY_SCORING = i18n.N_("Play: open the scoring")
SETUP_WORDS = {
    "players": i18n.N_("Players"), "first_player": i18n.N_("First player"), "dealer": i18n.N_("Dealer"),
    "direction": i18n.N_("Direction of play"), "counter-clockwise": i18n.N_("counter-clockwise"),
    "hand": i18n.N_("Your hand"), "hands": i18n.N_("Hands"), "deck": i18n.N_("Deck (top first)"),
    "discard": i18n.N_("Discard pile"), "market": i18n.N_("Market"), "steps": i18n.N_("How to set up"),
}


class NotFound(LookupError):
    """No such game, or no such page for it (a 404)."""


def card_set_of(game: str) -> cards.CardSet:
    """A known game's card set by id; NotFound (a 404) if there is none."""
    card_set = library.current().get(game)
    if card_set is None:
        raise NotFound(game)
    return card_set


def has_score_page(game: str) -> bool:
    """Whether a known game has a scoring page: a game with rules, or a data-only game whose components have values."""
    card_set = library.current().get(game)
    return card_set is not None and games.for_data(game).scores(card_set)


def player_names(form: MultiDict, lang: str) -> Callable[[int], list[str]]:
    """The players' names for `n` seats: typed once at the top of a form or carried from a setup or a sheet
    (`_names`), else typed in a player's own row (`players.N.name`), else "Player k"."""
    typed = forms.typed_names(form)

    def name(i: int) -> str:
        given = (typed[i] if i < len(typed) else "") or (form.get(f"players.{i}.name") or "").strip()
        return given or i18n._("Player %(n)s", lang, n=i + 1)
    return lambda n: [name(i) for i in range(n)]


def seat_heads(names: list[str], lang: str) -> list[str]:
    """What heads each seat's part of a page (its hand, its row, its chip): its name, and where two players are
    named alike (which the rules refuse) the name with its seat, "Ana (Player 2)", so that each hand is still told
    apart while the name is corrected. companion.js says them so as a name is typed."""
    alike = Counter(name.strip() for name in names)
    return [f"{name} ({i18n._('Player %(n)s', lang, n=i + 1)})" if alike[name.strip()] > 1 else name
            for i, name in enumerate(names)]


def bad_fields(problems: list[Problem]) -> set[str]:
    """Dotted paths of the fields (and their parents) that have a problem, to mark them on the form."""
    out = set()
    for p in problems:
        for i in range(1, len(p.path) + 1):
            out.add(".".join(str(k) for k in p.path[:i]))
    return out


def seat_count(chosen: str, low: int, high: int, default: int) -> int:
    """How many players a form is for: the count `chosen` (text from the form), else `default`; within the
    game's counts."""
    return min(max(whole_number(chosen, signed=False, digits=2) or default, low), high)


def scoring(game: str, form: MultiDict, lang: str, glue: GamePages, template: str | None = None,
            compute: Callable[[dict], dict] | None = None, **context: Any) -> View:
    """A scoring page: when the form was sent, prepared by the game's page glue, scored, and shown with why; what
    the game's glue shows beside the answer (`extras`) is added. A game's page of its own passes its `template`
    and what it `compute`s instead of the score."""
    card_set = card_set_of(game)
    if template is None and not has_score_page(game):
        raise NotFound(game)
    req, result, problems, status = None, None, [], 200
    # players added or removed (`_seats`) or more cards shown (`_redraw`): scored when sent again; a game's glue
    # may wait for more (`ready`)
    if (forms.is_submitted(form) and not any(k in form for k in ("_seats", "_redraw"))
            and (glue.ready is None or glue.ready(form))):
        try:
            req = glue.prepare(forms.request_from_form(form), form)  # (a glue may refuse what the form says, too)
            result = (compute or (lambda r: service.score(game, r)))(req)
        except InputError as e:
            if not any(mark in form for mark in STILL_FILLING):
                problems, status = e.problems, 400
    if template is None and glue.extras:
        context.update(glue.extras(req, result, form))
    if template is None and glue.shows:
        context.update(glue.shows(card_set, lang, form))
    low, high = card_set.players  # player counts come from the card data, the default from the game
    default = games.for_data(game).players_by_default(card_set)
    # opened from a saved sheet: the sheet's round its first round is, as its rows and problems say it
    sheet_round = whole_number((form.get("_sheet_round") or "").strip(), signed=False, digits=3) or None
    context.update(card_set=card_set, result=result, sheet_round=sheet_round,
                   problems=plain.said_all(problems, lang, req, card_set, glue.words, sheet_round or 1),
                   form=form, bad=bad_fields(problems),
                   seats=range(low, high + 1),
                   # the player-count button just pressed (`_seats`: it sends the whole form, so what was typed
                   # stays), else the form's own count (`_n`)
                   n=seat_count(form.get("_seats") or form.get("_n") or "", low, high, default),
                   player_names=player_names(form, lang), seat_heads=lambda names: seat_heads(names, lang),
                   request_made=req)
    return template or glue.template, context, status


def options_from(rules: games.Game, form: MultiDict) -> dict[str, str]:
    """The game's declared options as the text the rules parse: lists comma-joined, flags yes/no."""
    out = {}
    for option in rules.options:
        values = [v for v in form.getlist(option.key) if v]
        if values:
            out[option.key] = values[-1] if option.is_flag else ",".join(values)
    return out


def new_seed() -> str:
    """A fresh seed for a setup's link: 8 hex digits."""
    return secrets.token_hex(4)


_FACES: dict[tuple[str, str], tuple[cards.CardSet, dict]] = {}  # (game, lang) → (the card set, its card_faces)


def card_faces(game: str, lang: str) -> dict[str, tuple[tuple[str, ...], str]]:
    """Each card's id → how a list of cards shows it: the icons of the look terms its data names (stones, a gem
    colour, a suit) and its printed face's title; where two cards share a title, with the face's corner index
    ("4 · Hearts"), and where they still do, with the card's id. Kept while the game's card set is the same one
    (a designer's file read again, or another app's game of that id, makes its own)."""
    card_set = card_set_of(game)
    kept = _FACES.get((game, lang))
    if kept is None or kept[0] is not card_set:
        kept = _FACES[(game, lang)] = (card_set, _card_faces(card_set, lang))
    return kept[1]


def _card_faces(card_set: cards.CardSet, lang: str) -> dict[str, tuple[tuple[str, ...], str]]:
    rules = games.for_data(card_set.game)
    icons = card_set.look.icons()
    listed = card_set.select(("card",))
    faces = {c.id: rules.face(c, card_set, lang) for c in listed}
    words = {c.id: faces[c.id].title or c.name_in(lang, c.id) for c in listed}
    for disambiguate in (lambda cid, text: f"{faces[cid].corner} · {text}" if faces[cid].corner else text,
                         lambda cid, text: f"{text} ({cid})"):
        counts = Counter(words.values())
        words = {cid: disambiguate(cid, text) if counts[text] > 1 else text for cid, text in words.items()}
    out = {}
    drawn = face_icons(card_set)
    for c in listed:
        shown = _terms_drawn(c, icons)
        out[c.id] = (shown or ((FACE_ICON + c.id,) if c.id in drawn else ()), words[c.id])
    return out


def _terms_drawn(c: cards.Component, icons) -> tuple[str, ...]:
    """The look terms a card's data names (stones, a gem colour, a suit) that the look draws as icons, in order."""
    terms = [t for v in c.data.values() for t in ((v,) if isinstance(v, str) else v if isinstance(v, tuple) else ())]
    return tuple(dict.fromkeys(t for t in terms if isinstance(t, str) and t in icons))


FACE_ICON = "face-"  # the icon class of a card drawn by its face's own icons (`face_icons`): `i-face-<card id>`


def face_icons(card_set: cards.CardSet) -> dict[str, tuple]:
    """Each card's id → the icons its printed face draws (a shape in its colour), for the cards
    whose data names no term the look draws and whose face is no picture of its own (none, or a frame around its
    icons): a list of cards shows them as the card does, from the same description of the face (`Game.face`) the
    print and the card's page draw. The game's look stylesheet has a class for each (`icons.face_rules`). Kept
    while the game's card set is the same one, as `card_faces` keeps its answer (drawing every face takes
    milliseconds, and every setup page and look stylesheet asks)."""
    kept = _FACE_ICONS.get(card_set.game)
    if kept is None or kept[0] is not card_set:
        kept = _FACE_ICONS[card_set.game] = (card_set, _face_icons(card_set))
    return kept[1]


_FACE_ICONS: dict[str, tuple[cards.CardSet, dict[str, tuple]]] = {}


def _face_icons(card_set: cards.CardSet) -> dict[str, tuple]:
    rules = games.for_data(card_set.game)
    icons = card_set.look.icons()
    out = {}
    for c in card_set.select(("card",)):
        if _terms_drawn(c, icons):
            continue
        face = rules.face(c, card_set, "en")
        drawn = tuple(i for i in face.icons if i.art is None)
        if drawn and (face.art is None or face.framed):
            out[c.id] = drawn
    return out


def card_art(card_set: cards.CardSet) -> dict[str, str]:
    """Each card's id → its `art:` picture's name under the game's art address (`pages.card_art`), for a list of
    cards to show its picture rather than its terms' shapes; cards without one are left out, and so are those
    whose picture only frames the icons drawn on it (`face_icons` draws those)."""
    from .face_svg import art_files

    names = {path: name for name, path in art_files(card_set).items()}
    framed = face_icons(card_set)
    return {c.id: names[c.art.path] for c in card_set.select(("card",))
            if c.art is not None and c.art.path in names and c.id not in framed}


LEADS = ("first_player", "dealer", "direction")  # what a setup says first, before its public layout
NOT_SHOWN = ("game", "seed", "players", "rerolls")


def setup(game: str, form: MultiDict, lang: str, glue: GamePages) -> View:
    """The setup helper for a form that has its seed (the caller puts a fresh one in the address first, so the
    link deals the same game on another phone); without a seed (a static page before its script runs) only the
    form. What the table sees comes first (`public`: who starts, then the layout); the hands and decks only in the
    dealer's view (`hidden`, the game glue's `hidden` keys). `reroll` and `share` are the query strings of a new
    deal and of this one; `to_score` and `to_sheet` those of the scoring page and a new sheet with these players
    (and what the game's glue carries to them: `to_score`); `to_players` the scoring page's with the players alone
    (the page's tab to it, before a deal)."""
    card_set = card_set_of(game)
    rules = games.for_data(game)
    words = {**SETUP_WORDS, **{o.key: o.label for o in rules.options}, **glue.setup_words}
    players = form.get("players") or str(rules.players_by_default(card_set))
    low, high = card_set.players
    count = seat_count(players, low, high, low)
    names = player_names(form, lang)(count)
    result, problems, status = None, [], 200
    public, hidden, to_score, to_sheet, play = [], [], "", "", None
    part_seeds = {k[len(PART_SEED):]: form.get(k, "") for k in form if k.startswith(PART_SEED)}
    rerolls: dict[str, str] = {}
    named = [("_names", name) for name in names]
    if form.get("seed"):
        try:
            result = service.setup(game, players, form.get("seed"), options_from(rules, form), part_seeds)
        except InputError as e:
            problems, status = e.problems, 400
    if result:
        shown = [(k, v) for k, v in result.items() if k not in NOT_SHOWN and v not in (None, [], {})]
        public = sorted([(k, v) for k, v in shown if k not in glue.hidden],
                        key=lambda kv: LEADS.index(kv[0]) if kv[0] in LEADS else len(LEADS))
        hidden = [(k, v) for k, v in shown if k in glue.hidden]
        to_score = urlencode([("_n", count), *named, *(glue.to_score(result) if glue.to_score else []),
                              ("_from", "setup")])
        own = glue.play(result) if glue.play else None
        play = ((own[0], {}, own[1]) if own else ("scoring.score", {"game": game}, PLAY_SCORING)
                if has_score_page(game) else None)
        to_sheet = urlencode([("game", game), *((f"players.{i}", name) for i, name in enumerate(names))])
        rerolls = reroll_parts(rules, result, glue.hidden)
    kept = [(k, v) for k in form for v in form.getlist(k) if k not in ("lang", "seed")]
    whole = [(k, v) for k, v in kept if not k.startswith(PART_SEED)]  # a new deal: every part from its new seed
    return "setup.html", dict(
        card_set=card_set, options=rules.options, result=result,
        problems=plain.said_all(problems, lang, None, card_set, glue.words),
        form=form, players=players, to_players=urlencode([("_n", count), *named]), heads=seat_heads(names, lang),
        names=names, public=public, hidden=hidden, to_score=to_score, to_sheet=to_sheet, per_player=glue.per_player,
        play=play, grids=glue.grids,
        setup_label=lambda key: i18n._(words[key], lang) if key in words else card_set.label(key, lang),
        setup_words=words, card_faces=card_faces(game, lang), card_art=card_art(card_set),
        icons=set(card_set.look.icons()),
        bad={".".join(map(str, p.path)) for p in problems},
        reroll=[*whole, ("seed", new_seed())], share=[*kept, ("seed", form.get("seed") or "")],
        reroll_part={name: [*((k, v) for k, v in kept if k != PART_SEED + name), ("seed", form.get("seed") or ""),
                            (PART_SEED + name, part_seed)] for name, part_seed in rerolls.items()},  # its ↻ link
        reroll_button={part: name for name in rerolls for part in rules.rerolls[name].parts}), status


PART_SEED = "seed."  # a setup's link: `seed.<part>` deals that part again alone (Game.rerolls)


def reroll_parts(rules, result: dict, hidden: tuple[str, ...]) -> dict[str, str]:
    """The next seed of each part the table can see and the game deals again alone: derived from the seeds the
    page has, so the page stays a function of its address (the same link shows the same buttons), and the first
    of them that changes the part, so a tap never seems to do nothing. A part nobody sees is not offered."""
    out = {}
    current = result.get("rerolls", {})
    for name, reroll in rules.rerolls.items():
        if not any(result.get(p) not in (None, [], {}) and p not in hidden for p in reroll.parts):
            continue
        for attempt in range(12):
            text = f"{result['seed']}/{name}/{current.get(name, '')}/{attempt}"
            candidate = hashlib.sha256(text.encode()).hexdigest()[:8]
            changed = reroll.deal(result, make_rng(candidate)[0])
            if any(changed.get(p) != result.get(p) for p in reroll.parts):
                out[name] = candidate
                break
    return out


def with_links(context: dict[str, Any], here: str, absolute_here: str) -> dict[str, Any]:
    """A view's context with the addresses it names as query strings made whole: the setup page's new deal
    (`reroll_url`, beside `here`) and its shared link (`share_url`, from `absolute_here`, for another phone)."""
    if "reroll" in context:
        context.update(reroll_url=f"{here}?{urlencode(context['reroll'])}",
                       share_url=f"{absolute_here}?{urlencode(context['share'])}",
                       reroll_urls={part: f"{here}?{urlencode(context['reroll_part'][name])}#part-{part}"
                                    for part, name in context["reroll_button"].items()})
    return context


def sheet_choices() -> dict[str, Any]:
    """What a new-sheet form offers and a list of sheets names: each game's title and player counts."""
    known = service.catalogue()
    choices = [(s.game, s.title) for s in known]
    return {"choices": choices, "titles": dict(choices), "limits": {s.game: s.players for s in known}}


PHONE_SHEETS = "phone_sheets.index"  # a static site's sheets, kept in the phone's storage (web/site/phone_sheets.py)
