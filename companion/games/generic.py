"""A game with card data and no rules module (a designer's data-only game): it prints with the generic layout,
deals by the `setup:` section of its data, and scores by the declared `value` of the components each player names."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from functools import cache
from random import Random
from typing import Any

from ..components import SHAPES, ComponentType
from ..core.i18n import N_
from ..core.rng import randbelow, shuffled
from ..core.schema import INVALID, Enum, Field, InputError, Int, ListOf, MapOf, Problems, Record, Value, Word, problem
from ..look import Face, Icon
from ..scoring import DEFAULT, GAME_STEPS, HELD_KINDS, Env, FormulaError, Scoring, Table, card_fields, dealt, one_budget
from .base import NAME, check_unique_names, checked
from .descriptor import Entry, Game

COMPONENT_TYPES = {
    kind: ComponentType(kind, {"icons": ListOf(Enum(SHAPES, "icon"), 0, 6), "value": Int(-999, 999)}, texts=("name",))
    for kind in ("card", "reference", "tile", "token")
}
# Where the look declares no colour for a shape: one colour per card (Okabe–Ito), the same on every build.
MAX_HELD = 500  # copies of one component a request may name
PALETTE = ("#D55E00", "#E69F00", "#F0E442", "#009E73", "#56B4E9", "#0072B2", "#CC79A7")


def valued(card_set) -> dict[str, int]:
    """Every component with a declared value, by id."""
    return {c.id: c.data["value"] for c in card_set.components if "value" in c.data}


def scoring_of(card_set) -> Scoring | None:
    """The game's scoring: its `scoring:` section, else one rule, the sum of `value` (None: nothing to score by)."""
    if card_set.scoring is not None:
        return card_set.scoring
    return DEFAULT if valued(card_set) else None


def holdable(card_set) -> dict:
    """The components a player may name at scoring, by id: those with a value for the sum of values, every card,
    tile and token for a declared scoring."""
    if card_set.scoring is None:
        return {c.id: c for c in card_set.components if "value" in c.data}
    return {c.id: c for c in card_set.components if c.kind in HELD_KINDS}


def offered(card_set) -> dict:
    """The components a scoring page offers each player to count, by id: those its `scoring.cards:` takes (a card's
    formula, computed on each component's fields), else every one a player may hold. A component the formula cannot
    be computed on (validate proves it can) is offered: a card is never hidden by a failure. A photo or a scanned code
    still adds any holdable one."""
    held = holdable(card_set)
    scoring = card_set.scoring
    if scoring is None or scoring.offered is None:
        return held
    table = Table(scoring, [[]], [{}], 1, False)
    out = {}
    for cid, c in held.items():
        env = Env(table, 0, ())
        env.card = card_fields(c)
        try:
            taken = scoring.offered.run(env)
        except (FormulaError, RecursionError, MemoryError):
            taken = True
        if isinstance(taken, list) or bool(taken):  # (a list is no condition: validate says so; offered)
            out[cid] = c
    return out


class Held(Field):
    """The components a player names: a list of ids (repeated for copies) or `{id: copies}`."""

    def __init__(self, ids):
        self.ids = Enum(sorted(ids), "component")

    def check(self, value, path, problems):
        """Component id → copies held, from either form (a list counted, a mapping as given)."""
        if isinstance(value, (list, tuple)):
            if len(value) > MAX_HELD:
                return problems.add(path, "must have at most %(n)s items, has %(has)s", n=MAX_HELD, has=len(value))
            ids = [self.ids.check(v, (*path, i), problems) for i, v in enumerate(value)]
            return INVALID if INVALID in ids else dict(Counter(ids))
        if isinstance(value, Mapping):
            counts = MapOf(self.ids, Int(0, MAX_HELD)).check(value, path, problems)
            return INVALID if counts is INVALID else dict(counts)
        return problems.add(path, "must be a list of component ids or {id: copies}, got %(got)s", got=Value(value))


def request_field(card_set, scoring: Scoring, earlier: bool = True) -> Record:
    """The check of a score request for this game: its round, each player's name, cards and counters, and the
    game's earlier rounds (`earlier`: a request a round, from the first)."""
    counters = Record({c.key: Int(c.low, c.high) for c in scoring.counters})
    player = Record({"name": NAME, "cards": Held(holdable(card_set)), "counters": counters}, required=("name",))
    fields = {"round": Int(1, scoring.rounds), "players": ListOf(player, *card_set.players)}
    if earlier:
        fields["earlier"] = ListOf(request_field(card_set, scoring, earlier=False), 0, scoring.rounds - 1)
    return Record(fields, required=("players",))


def score(request: Any, card_set) -> dict:
    """Each player's points for the round (`round`, 1 by default; its `earlier` rounds before it, which before() and
    game() read) and the points of every rule, by the game's scoring (companion/scoring/); each player's `game`
    total; whether the game is `over` by its rules; the winners: of the whole game once it is over, else of this
    round's points, then the tie-breakers."""
    scoring = scoring_of(card_set)
    if scoring is None:
        raise InputError([problem((), "this game's components declare no value to score by; keep score with points "
                                      "typed on a sheet")])
    rounds = _rounds_of(card_set, scoring, request)
    hands, counters, round_, names = rounds[-1]
    with _formula_errors():
        with one_budget(GAME_STEPS):
            played = scoring.play(rounds)
            _refuse_failed_checks(scoring, rounds, played)
            history = played[-1]["history"]
            breaks = scoring.tie_breaks(hands, counters, round_, [history[n] for n in names]) if scoring.ties \
                else None
            totals = dict.fromkeys(names, 0)
            for (_, _, _, seated), past in zip(rounds, played, strict=True):
                for n, result in zip(seated, past["players"], strict=True):
                    totals[n] += result["points"]
            over = game_over(scoring, rounds[-1], [totals[n] for n in names], played)
    scored = played[-1]["players"]
    players = [{"name": name, **s, "game": totals[name], "cards": {card["id"]: n for card, n in hands[i]},
                **({"counters": counters[i]} if scoring.counters else {})}
               for i, (name, s) in enumerate(zip(names, scored, strict=True))]
    by = [totals[n] for n in names] if over else [p["points"] for p in players]
    return {"round": round_, "last": scoring.last_round(round_, len(names)), "over": over, "players": players,
            "winners": scoring.winners(names, by, breaks)}




@contextmanager
def _formula_errors() -> Iterator[None]:
    """A formula that fails at a table (validate proved the file: one that reached here without it, or a flaw)
    as a 400 naming it, never a 500."""
    try:
        yield
    except FormulaError as e:
        raise InputError([problem(("players",), "the game's scoring cannot score these hands: %(why)s",
                                  why=f"{e.place}: {e}" if e.place else str(e))]) from None
    except (RecursionError, MemoryError):
        raise InputError([problem(("players",), "the game's scoring cannot score these hands: %(why)s",
                                  why="too deep or too large")]) from None


def game_over(scoring: Scoring, last: tuple, totals: list[int], played: list[dict]) -> bool:
    """Whether the game ends after this round: its last numbered round, or a total reaching the target (with a
    `max` of rounds, whichever comes first)."""
    hands, counters, round_, names = last
    if scoring.target is None:
        return round_ >= scoring.rounds_for(len(names))
    if scoring.limited and round_ >= scoring.rounds:
        return True
    before = played[-2]["history"] if len(played) > 1 else {}
    targets = scoring.target_of(hands, counters, round_, [before.get(n, {}) for n in names])
    return any(t >= target for t, target in zip(totals, targets, strict=True))


def _refuse_failed_checks(scoring: Scoring, rounds: list, played: list[dict]) -> None:
    """A table that fails one of the file's checks is refused with its message (`checks[i]`; an earlier round's
    under `earlier[k]`)."""
    problems = Problems()
    for k, (hands, counters, round_, names) in enumerate(rounds):
        if not scoring.checks:
            break
        before = played[k - 1]["history"] if k else {}
        table = scoring.table(hands, counters, round_, [before.get(n, {}) for n in names])
        prefix = () if k == len(rounds) - 1 else ("earlier", k)
        for i in scoring.failed_checks(table):
            problems.add((*prefix, "checks", i), "the table does not hold: %(message)s",
                         message=scoring.checks[i].message)
    if problems:
        raise InputError(problems)


def _rounds_of(card_set, scoring: Scoring, request: Any) -> list[tuple[list, list, int, list[str]]]:
    """A checked request as the scoring reads it: each round (the earlier ones, then this one) as its hands,
    counters, round and the players' names, the same players in every round."""
    req = checked(request_field(card_set, scoring), request)
    earlier = req.get("earlier", [])
    problems = Problems()
    if earlier and "round" in req and req["round"] != len(earlier) + 1:
        problems.add(("round",), "is %(got)s, but %(n)s earlier rounds come before it: it is round %(want)s",
                     got=req["round"], n=len(earlier), want=len(earlier) + 1)
    names = sorted(p["name"] for p in req["players"])
    for k, past in enumerate(earlier):
        if "round" in past and past["round"] != k + 1:
            problems.add(("earlier", k, "round"), "is %(got)s; earlier[%(k)s] is round %(want)s", got=past["round"],
                         k=k, want=k + 1)
        if sorted(p["name"] for p in past["players"]) != names:
            problems.add(("earlier", k, "players"), "names other players than this round (%(names)s): every round "
                                                    "has the same players", names=", ".join(names))
    if problems:
        raise InputError(problems)
    rounds = [_table_of(card_set, scoring, past, k + 1, ("earlier", k)) for k, past in enumerate(earlier)]
    round_ = len(earlier) + 1 if earlier else req.get("round", 1)  # (a round alone: the game so far unknown)
    rounds.append(_table_of(card_set, scoring, req, round_, ()))
    most = scoring.rounds_for(len(names))
    if most is not None and round_ > most:
        raise InputError([problem(("round",), "is round %(n)s of a game of %(most)s rounds for %(players)s players",
                                  n=round_, most=most, players=len(names))])
    return rounds


def _table_of(card_set, scoring: Scoring, req: Mapping, round_: int, at: tuple) -> tuple[list, list, int, list[str]]:
    """One checked round as the scoring reads it: the hands, the counters, the round and the names."""
    try:
        check_unique_names(req["players"])
        _check_copies(req["players"], card_set.copies())
    except InputError as e:
        raise InputError([p.under(*at) for p in e.problems]) from None
    fields = {i: card_fields(c) for i, c in holdable(card_set).items()}
    hands = [[(fields[c], n) for c, n in p.get("cards", {}).items() if n] for p in req["players"]]
    counters = [{c.key: p.get("counters", {}).get(c.key, c.default) for c in scoring.counters}
                for p in req["players"]]
    return hands, counters, round_, [p["name"] for p in req["players"]]


def sheet_end(card_set, played: int, last: Mapping | None, totals: Mapping[str, int]) -> dict | None:
    """Where a saved sheet of a game with `scoring:` stands: the next round, whether the game is over (after round
    N, or once a player's total reaches the target) and then its winners, by `winner:` and the last round's
    `ties:` (a round typed as points has none to break with)."""
    scoring = card_set.scoring
    if scoring is None or not totals:
        return None
    names = list(totals)
    out: dict[str, Any] = {"round": played + 1, "played": played}
    if scoring.target is None:
        out["rounds"] = most = _rounds_for(scoring, len(names))
        over = played >= most
    else:
        targets = _targets(scoring, len(names), max(played, 1))
        out["target"] = max(targets)
        over = played > 0 and any(totals[n] >= t for n, t in zip(names, targets, strict=True))
        if scoring.limited:  # {target, max}: whichever comes first
            out["rounds"] = scoring.rounds
            over = over or played >= scoring.rounds
    breaks = _last_breaks(card_set, scoring, last, names) if over and scoring.ties and last else None
    best = scoring.winners(names, [totals[n] for n in names], breaks)
    out.update(over=over, fewest_wins=scoring.fewest_wins, leaders=best if played else [],
               winners=best if over else [])
    return out


def _rounds_for(scoring: Scoring, players: int) -> int:
    """The rounds a sheet of `players` plays (a `rounds:` formula computed for them); InputError naming it when it
    cannot be (validate computes it for every player count the file allows)."""
    try:
        return scoring.rounds_for(players)
    except FormulaError as e:
        raise InputError([problem(("scoring", "rounds"), "the game's rounds cannot be computed for %(players)s "
                                                         "players: %(why)s", players=players, why=str(e))]) from None


def _targets(scoring: Scoring, players: int, round_: int) -> list[int]:
    """Each player's target on a sheet of `players` in round `round_`; InputError (a 400) naming the rule when the
    file's formula cannot be computed for this table (validate tries the fewest and the most players only)."""
    counters = [{c.key: c.default for c in scoring.counters} for _ in range(players)]
    try:
        return scoring.target_of([[] for _ in range(players)], counters, round_)
    except FormulaError as e:
        why = str(e)
    except (RecursionError, MemoryError):
        why = "too deep or too large"
    raise InputError([problem(("scoring", "rounds", "target"), "the game's target cannot be computed for "
                                                               "%(players)s players in round %(round)s: %(why)s",
                              players=players, round=round_, why=why)])


def restates(card_set) -> bool:
    """Whether a sheet's rounds of this game read the game so far (before() or game() anywhere in its scoring)."""
    return card_set.scoring is not None and bool(card_set.scoring.remembered)


def restate(card_set, entries: list[dict], start: int = 0) -> None:
    """A sheet's counting scored rounds from the `start`-th entry on, each scored again after the rounds before it:
    its body's `points` (by seat) and `history` (each seat's sums after it, what before() and game() read) set in
    place (and its `rules`, each rule's points). A round typed as points adds nothing to the game so far; a round that
    no longer scores keeps its points."""
    scoring = card_set.scoring
    sums: dict[str, dict] = {}
    for e in reversed(entries[:start]):
        if e["active"] and "history" in e["body"]:
            sums = e["body"]["history"]
            break
    for e in entries[start:]:
        body = e["body"]
        if not e["active"] or "request" not in body:
            continue
        seats = body.get("seats") or [p["name"] for p in body["request"]["players"]]
        request = {**body["request"], "players": [{**p, "name": seat} for p, seat in
                                                  zip(body["request"]["players"], seats, strict=False)]}
        try:
            hands, counters, round_, names = _rounds_of(card_set, scoring, request)[-1]
            with one_budget(GAME_STEPS):
                played = scoring.play([(hands, counters, round_, names)], start={n: sums.get(n, {}) for n in names})
        except (InputError, FormulaError, RecursionError, MemoryError):
            continue
        scored = dict(zip(names, played[0]["players"], strict=True))
        body["points"] = {**body["points"], **{n: r["points"] for n, r in scored.items()}}
        if "rules" in body:  # (each rule's points too, as the playtest figures read them)
            body["rules"] = {**body["rules"], **{n: dict(r["rules"]) for n, r in scored.items()}}
        sums = {**sums, **played[0]["history"]}
        body["history"] = sums


def _last_breaks(card_set, scoring: Scoring, body: Mapping, names: list[str]) -> list[tuple]:
    """The tie-breakers of the sheet's players on the last round's hands (those who sat out it: none)."""
    if "request" not in body:
        return [() for _ in names]
    try:
        hands, counters, round_, seated = _rounds_of(card_set, scoring, body["request"])[-1]
        seats = body.get("seats") or seated
        kept = body.get("history")  # the game's sums after this round (`restate`): ties see the whole game
        breaks = scoring.tie_breaks(hands, counters, round_, [kept.get(n, {}) for n in seats] if kept else None)
    except (InputError, FormulaError):
        return [() for _ in names]
    by_seat = dict(zip(seats, breaks, strict=False))
    low = tuple(-10**12 for _ in scoring.ties)
    return [by_seat.get(n, low) for n in names]


def _check_copies(players, copies) -> None:
    problems, used = Problems(), Counter()
    for i, p in enumerate(players):
        for card_id, n in p.get("cards", {}).items():
            used[card_id] += n
            if used[card_id] > copies[card_id]:
                problems.add(("players", i, "cards", card_id), "%(card)s is named more often than the game has it "
                                                              "(%(n)s)", card=card_id, n=copies[card_id])
    if problems:
        raise InputError(problems)


def sheet_points(result: Mapping) -> list[tuple[str, int]]:
    """What a scored round adds to a saved sheet, seat by seat: each player's points."""
    return [(p["name"], p["points"]) for p in result["players"]]


def setup(card_set, rng: Random, players: int, options: Mapping) -> dict:
    """Shuffle the cards; deal `hand_size` a player and lay out a `market` when the data declares them; the data's
    setup steps as text; a first player."""
    plan = card_set.setup
    hand, market = dealt(plan.get("hand_size"), players, 1), plan.get("market", 0)
    deck = shuffled([c.id for c in card_set.deck()], rng)
    if hand * players + market > len(deck):
        raise InputError([problem(("players",), "%(players)s players need %(need)s cards; the deck has %(has)s",
                                  players=players, need=hand * players + market, has=len(deck))])
    out: dict[str, Any] = {"players": players}
    if plan.get("steps"):  # what to do at the table comes first
        out["steps"] = [{"es": t.es, "en": t.en} for t in plan["steps"]]
    if hand:
        out["hands"] = [deck[hand * i:hand * i + hand] for i in range(players)]
    deck = deck[hand * players:]
    if market:
        out["market"], deck = deck[:market], deck[market:]
    out.update(deck=deck, first_player=randbelow(rng, players))
    return out


def face(c, s, lang: str) -> Face:
    """Title, icons, a value and a text, all from the data; icon colours from the look, else one per card."""
    colour = PALETTE[sum(map(ord, c.id)) % len(PALETTE)]
    icons = tuple(Icon(shape, s.look.colour(shape, colour)) for shape in c.data.get("icons", ()))
    value = c.data.get("value")
    return Face(c.name_in(lang, c.id), s.look.accent, icons, big=None if value is None else str(value),
                text=c.text_in(lang))


def face_values(c, s, lang: str) -> dict:
    """What the default layouts (companion/layouts/default_layouts.yaml) show besides the data: the colour of an icon
    whose shape the look gives none (one per card), and a reference card's text as a list, an item a sentence."""
    out = {"shape_colour": PALETTE[sum(map(ord, c.id)) % len(PALETTE)]}
    if c.kind == "reference" and c.text is not None:
        out["text_list"] = c.text.map(_as_list)
    return out


def _as_list(text: str) -> str:
    """A text as list items (`- ` lines, see docs/card-data.md), one a sentence."""
    return "\n".join(f"- {sentence}" for sentence in re.split(r"(?<=\.)\s+(?=\S)", text.strip()))


GAME = Game(
    id="", component_types=COMPONENT_TYPES, vocabulary=SHAPES, default_players=2, score=score, setup=setup,
    entry=Entry(Word("round"), N_("a round")), sheet_points=sheet_points, face=face,
    scores=lambda s: scoring_of(s) is not None, sheet_end=sheet_end,
    face_values=face_values, face_fields=("shape_colour", "text_list"), restate=restate, restates=restates,
)


@cache
def game(game_id: str) -> Game:
    """The descriptor of a data-only game."""
    return replace(GAME, id=game_id)
