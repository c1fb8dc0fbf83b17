"""Gemas: gem colours, card kinds and tokens, and the component types its card data uses."""
from __future__ import annotations

from collections.abc import Mapping
from copy import deepcopy
from dataclasses import replace
from random import Random

from ..components import ComponentType
from ..core.i18n import N_, _
from ..core.rng import randbelow, shuffled
from ..core.schema import Bool, Enum, InputError, Int, ListOf, Problems, Record, Term, Word, problem
from ..look import Face
from .base import NAME, check_unique_names, checked, reference_items, top
from .descriptor import FIRST_PLAYER, Entry, Game, Reroll

COLOURS = ("green", "blue", "violet", "orange")
ACTIONS = ("thief", "chipote", "healing")  # the three action cards, laid down in sets of three
VOCABULARY = (*COLOURS, *ACTIONS)

COLOUR = {"colour": Enum(COLOURS, "gem colour")}

COMPONENT_TYPES = {
    "gem-card": ComponentType("card", COLOUR, required=("colour",)),
    **{action: ComponentType("card", texts=("name", "text")) for action in ACTIONS},
    "help": ComponentType("reference", texts=("name", "text")),
    "gem-token": ComponentType("token", COLOUR, required=("colour",)),
    "bandaid": ComponentType("token", texts=("name",)),
    "heart": ComponentType("token", texts=("name",)),
}


# --- Scoring, laying down a set, setup ----------------------------------------------------------------------

GEM_POINTS = {"green": 4, "blue": 3, "violet": 2, "orange": 1}  # [A] by scarcity; the scan lost the values
BANDAIDS = 3  # [R] per player, and the most a player may hold
TOKENS = {"green": 4, "blue": 5, "violet": 5, "orange": 6}  # [R] the 20 gem tokens


def reserve_size(players: int) -> dict[str, int]:
    """[A] The reserve for a player count (the scan lost the table); 5 or more players use all 20 gems."""
    if players == 2:
        return {"green": 2, "blue": 3, "violet": 3, "orange": 4}
    if players <= 4:
        return {"green": 3, "blue": 4, "violet": 4, "orange": 5}
    return dict(TOKENS)


def uses_heart(players: int) -> bool:
    """[R] No heart with two players or in teams (eight or more)."""
    return 3 <= players <= 7


def points(gems: Mapping[str, int]) -> int:
    """A player's points: each gem held is worth its colour's GEM_POINTS."""
    return sum(GEM_POINTS[c] * n for c, n in gems.items())


def complete_set(gems: Mapping[str, int]) -> bool:
    """One gem of each colour wins at once [R]."""
    return all(gems.get(c, 0) >= 1 for c in COLOURS)


_GEMS = Record({c: Int(0, TOKENS[c]) for c in COLOURS})
_PLAYER = Record({"name": NAME, "gems": _GEMS, "bandaids": Int(0, BANDAIDS), "heart": Bool()},
                 required=("name", "gems"))
EXCHANGE = "exchange"  # [R] the turn's other move that changes the gems: two equal gems for another from the reserve
EXCHANGE_HELD = 3  # [R] only while holding three gems of that colour, two of which are given
_LAY_DOWN = Record({"player": NAME, "set": Enum(("gems", *ACTIONS, EXCHANGE), "set"),
                    "cards": ListOf(Enum(COLOURS, "gem colour"), 3, 3), "target": NAME,
                    "choice": Enum(COLOURS, "gem colour"), "give": Enum(COLOURS, "gem colour"),
                    "take": Enum(COLOURS, "gem colour")}, required=("player", "set"))
_REQUEST = Record({"players": ListOf(_PLAYER, 1, 10), "lay_down": _LAY_DOWN}, required=("players",))


def _standings(players: list[dict]) -> dict:
    """Who leads, and who won once the game is over [A]: a complete set wins at once; a heartless player out of
    band-aids (3-7 players) ends it, won on most points, then most gems, then shared. Before either, nobody has
    won: `winners` is empty, `leaders` says who is ahead (nobody while nobody holds a gem), `won_by` is None."""
    rows = [{"name": p["name"], "gems": dict(p["gems"]), "points": points(p["gems"]),
             "complete_set": complete_set(p["gems"]), "bandaids": p["bandaids"], "heart": p["heart"]}
            for p in players]
    complete = [r["name"] for r in rows if r["complete_set"]]
    out_of_bandaids = uses_heart(len(rows)) and any(r["bandaids"] == 0 and not r["heart"] for r in rows)
    # nobody leads a table where nobody holds a gem (at 0-0-0 every player would be "leading")
    held = any(sum(r["gems"].values()) for r in rows)
    leaders = complete or (top(rows, lambda r: (r["points"], sum(r["gems"].values()))) if held else [])
    won_by = "complete_set" if complete else "points" if out_of_bandaids else None
    return {"players": rows, "leaders": leaders, "winners": leaders if won_by else [], "won_by": won_by}


def score(request: Mapping, card_set=None) -> dict:
    """Points, complete sets and the winners; with `lay_down`, the outcome of laying down a set first."""
    req = checked(_REQUEST, request)
    check_unique_names(req["players"])
    fewest = card_set.players[0] if card_set is not None else 2
    if len(req["players"]) < fewest:  # one player's gems alone are no game (it used to be scored as two)
        raise InputError([problem(("players",), "a game has at least %(fewest)s players, got %(got)s", fewest=fewest,
                                  got=len(req["players"]))])
    n = len(req["players"])
    players = [{"name": p["name"], "gems": {c: p["gems"].get(c, 0) for c in COLOURS},
                "bandaids": p.get("bandaids", BANDAIDS), "heart": p.get("heart", uses_heart(n))}
               for p in req["players"]]
    reserve = reserve_size(n)
    problems = Problems()
    for i, p in enumerate(players):
        if p["heart"] and not uses_heart(n):
            problems.add(("players", i, "heart"), "a %(n)s-player game is played without hearts", n=n)
    for c in COLOURS:
        held = sum(p["gems"][c] for p in players)
        if held > reserve[c]:
            problems.add(("players",), "%(held)s %(gem)s gems held; a %(n)s-player game has %(reserve)s", held=held,
                         gem=Term(c), n=n, reserve=reserve[c])
        reserve[c] -= held
    if problems:
        raise InputError(problems)
    events = []
    if "lay_down" in req:
        after, after_reserve = deepcopy(players), dict(reserve)
        events = lay_down(after, after_reserve, req["lay_down"], n)
        pending = next((e for e in events if e["event"] == "choose"), None)
        if pending:  # nothing happens until the player chooses: send the request again with `choice`
            return {**_standings(players), "reserve": reserve, "events": events, "pending_choice": pending}
        players, reserve = after, after_reserve
    return {**_standings(players), "reserve": reserve, "events": events}


def lay_down(players: list[dict], reserve: dict[str, int], move: Mapping, n: int) -> list[dict]:
    """Apply the benefit of a set of three [R] to the players and reserve in place; return what happened."""
    by_name = {p["name"]: p for p in players}
    path = ("lay_down",)
    me = by_name.get(move["player"])
    if me is None:
        raise InputError([problem((*path, "player"), "no player is called %(name)s", name=repr(move["player"]))])
    kind = move["set"]
    if kind == "gems":
        return _take_gem(me, reserve, move, path)
    if kind == EXCHANGE:
        return _exchange(me, reserve, move, path)
    if kind == "healing":
        if me["bandaids"] >= BANDAIDS:
            return [{"event": "heal", "player": me["name"], "bandaids": me["bandaids"], "note": "already at 3"}]
        me["bandaids"] += 1
        return [{"event": "heal", "player": me["name"], "bandaids": me["bandaids"]}]
    target = by_name.get(move.get("target"))
    if target is None or target is me:
        raise InputError([problem((*path, "target"), "must name another player")])
    if kind == "thief":
        held = [c for c in sorted(COLOURS, key=GEM_POINTS.get) if target["gems"][c]]
        if not held:
            return [{"event": "steal", "from": target["name"], "gem": None, "note": "no gem to take"}]
        gem = held[0]  # [R] always the lowest-valued gem
        target["gems"][gem] -= 1
        me["gems"][gem] += 1
        return [{"event": "steal", "from": target["name"], "to": me["name"], "gem": gem}]
    if target["bandaids"] == 0:  # losing the last one is dealt with at once: nobody sits at 0 [R]
        raise InputError([problem((*path, "target"), "%(name)s has no band-aid left to lose", name=target["name"])])
    return _bump(me, target, reserve, move.get("choice"), n, path)


def _take_gem(me: dict, reserve: dict, move: Mapping, path) -> list[dict]:
    colours = move.get("cards")
    if colours is None:
        raise InputError([problem((*path, "cards"), "is missing: the colours of the three gem cards")])
    counts = {c: colours.count(c) for c in set(colours)}
    majority = next((c for c, k in counts.items() if k >= 2), None)
    if majority and reserve[majority]:
        options = [majority]
    elif majority and counts[majority] == 2:
        other = next(c for c in colours if c != majority)
        options = [other] if reserve[other] else []
    else:
        options = [c for c in COLOURS if c in colours and reserve[c]] if not majority else []
    if not options:  # [R] nothing of the right colour left: any colour the reserve still has
        options = [c for c in COLOURS if reserve[c]]
    if not options:
        return [{"event": "take", "player": me["name"], "gem": None, "note": "the reserve is empty"}]
    choice = move.get("choice")
    if len(options) > 1 and choice not in options:
        if choice is None:
            return [{"event": "choose", "player": me["name"], "options": options}]
        raise InputError([problem((*path, "choice"), "must be one of: %(expected)s", expected=", ".join(options))])
    gem = options[0] if len(options) == 1 else choice
    reserve[gem] -= 1
    me["gems"][gem] += 1
    return [{"event": "take", "player": me["name"], "gem": gem}]


def _exchange(me: dict, reserve: dict, move: Mapping, path) -> list[dict]:
    """Two equal gems back to the reserve for one of another colour from it, only while holding three of the colour
    given [R]; the gem taken is of another colour than the two given, and the reserve must have one [A]."""
    give, take = move.get("give"), move.get("take")
    problems = Problems()
    if give is None:
        problems.add((*path, "give"), "is missing: the colour of the two gems given")
    elif me["gems"][give] < EXCHANGE_HELD:
        problems.add((*path, "give"), "exchanging needs %(n)s gems of that colour (%(gem)s); %(name)s holds %(held)s",
                     n=EXCHANGE_HELD, gem=Term(give), name=me["name"], held=me["gems"][give])
    if take is None:
        problems.add((*path, "take"), "is missing: the colour of the gem taken")
    elif take == give:
        problems.add((*path, "take"), "must be another colour than the two gems given")
    elif not reserve[take]:
        problems.add((*path, "take"), "the reserve has no gem of that colour left: %(gem)s", gem=Term(take))
    if problems:
        raise InputError(problems)
    me["gems"][give] -= 2
    reserve[give] += 2
    me["gems"][take] += 1
    reserve[take] -= 1
    return [{"event": "exchange", "player": me["name"], "gave": give, "took": take}]


def _bump(me: dict, target: dict, reserve: dict, choice, n: int, path) -> list[dict]:
    """A chipote: the target loses a band-aid; losing the last one returns their gems to the reserve, the
    attacker takes one of them, and a player still holding the heart gives it up to start again at 3 [R]."""
    target["bandaids"] = max(0, target["bandaids"] - 1)
    events = [{"event": "bump", "player": target["name"], "bandaids": target["bandaids"]}]
    if target["bandaids"]:
        return events
    lost = {c: k for c, k in target["gems"].items() if k}
    taken = None
    if lost:
        options = [c for c in COLOURS if c in lost]
        if len(options) > 1 and choice not in options:
            if choice is not None:
                raise InputError([problem((*path, "choice"), "must be one of: %(expected)s",
                                          expected=", ".join(options))])
            events.append({"event": "choose", "player": me["name"], "options": options})
            return events
        taken = options[0] if len(options) == 1 else choice
    for c, k in lost.items():
        reserve[c] += k
        target["gems"][c] = 0
    if taken:
        reserve[taken] -= 1
        me["gems"][taken] += 1
    events.append({"event": "lose_gems", "player": target["name"], "gems": lost, "taken_by": me["name"],
                   "gem_taken": taken})
    if target["heart"] or not uses_heart(n):
        target["heart"] = False
        target["bandaids"] = BANDAIDS
        events.append({"event": "refill" if not uses_heart(n) else "lose_heart", "player": target["name"]})
    else:
        events.append({"event": "game_over", "player": target["name"]})
    return events


def sheet_points(result: Mapping) -> list[tuple[str, int]]:
    """What a scored round adds to a saved sheet, seat by seat: each player's points."""
    return [(p["name"], p["points"]) for p in result["players"]]


def setup(card_set, rng: Random, players: int, options: Mapping) -> dict:
    """Hands of five, the first discard, the gem reserve, tokens per player, teams, and the first player."""
    deck = shuffled([c.id for c in card_set.deck()], rng)
    hands = [deck[5 * i:5 * i + 5] for i in range(players)]
    deck = deck[5 * players:]
    teams = _teams(players, rng)
    return {"players": players, "hands": hands, "discard": deck[0], "deck": deck[1:],
            "reserve": reserve_size(players), "bandaids_each": BANDAIDS, "heart": uses_heart(players),
            "teams": teams, "first_player": randbelow(rng, players)}


def _teams(players: int, rng: Random) -> list[list[int]] | None:
    """[R] Teams of two (8 or 10 players) or three (9), seats drawn at random; none below 8 players."""
    if players < 8:
        return None
    size = 3 if players == 9 else 2
    seats = shuffled(list(range(players)), rng)
    return [sorted(seats[i:i + size]) for i in range(0, players, size)]


ART = ("thief", "chipote", "healing", "bandaid", "heart")  # the component types drawn as a picture


def face(c, s, lang: str) -> Face:
    """A gem card or token: its gem; an action card or token: its picture and text."""
    if "colour" in c.data:  # its value on the gem itself, and under it in words on a card
        colour = c.data["colour"]
        points = GEM_POINTS[colour]
        gem = replace(s.look.icon(colour), letter=str(points))
        caption = (_("%(n)s points", lang, n=points) if points != 1 else _("1 point", lang),)
        return Face(s.label(colour, lang), s.look.accent, (gem,), captions=caption if c.kind == "card" else ())
    art = (s.look.icon(c.type),) if c.type in ART else ()
    text = c.text_in(lang)
    if c.type == "help":  # the reserve for each table size, which the rules need at setup
        rows = [f"{label}: {'/'.join(str(r[x]) for x in COLOURS)}" for label, r in _reserve_rows(s.players, lang)]
        text += " " + "; ".join([_("Gems in the reserve (green/blue/violet/orange)", lang), *rows]) + "."
    return Face(c.name_in(lang, c.id), s.look.accent, art, text=text)


def face_values(c, s, lang: str) -> dict:
    """What the card data's layouts print that the rules derive (cards/gemas.yaml, `layouts:`): a gem's `points`
    and `worth` ("4 points"), `shade` (its colour again, for the light `colours:` behind the big gem), an action
    card's `initial` (its name's first letter, in its corner icon), a help card's `items` (its text as a list) and
    `reserve` (the reserve for each table size)."""
    if "colour" in c.data:
        colour = c.data["colour"]
        points = GEM_POINTS[colour]
        return {"points": points, "shade": colour,
                "worth": _("%(n)s points", lang, n=points) if points != 1 else _("1 point", lang)}
    if c.type in ACTIONS:  # the letter in its corner icon: its name's initial, beside the icon's shape
        return {"initial": (c.name_in(lang) or c.type)[:1].upper()}
    if c.type != "help" or c.text is None:
        return {}
    rows = [f"{label}: {'/'.join(str(r[x]) for x in COLOURS)}" for label, r in _reserve_rows(s.players, lang)]
    return {"items": "\n".join(reference_items(c.text_in(lang))),
            "reserve": "\n".join([f"**{_('Gems in the reserve (green/blue/violet/orange)', lang)}**", *rows])}


def _reserve_rows(players: tuple[int, int], lang: str) -> list[tuple[str, dict[str, int]]]:
    """The reserve by player count, counts that share a reserve grouped: ("3–4 players", {...})."""
    rows: list[tuple[int, int, dict]] = []
    for n in range(players[0], players[1] + 1):
        r = reserve_size(n)
        if rows and rows[-1][2] == r:
            rows[-1] = (rows[-1][0], n, r)
        else:
            rows.append((n, n, r))
    return [(_("%(a)s–%(b)s players", lang, a=a, b=b) if a != b else _("%(n)s players", lang, n=a), r)
            for a, b, r in rows]


GAME = Game(
    id="gemas", component_types=COMPONENT_TYPES, vocabulary=VOCABULARY, default_players=4, score=score,
    setup=setup, entry=Entry(Word("round"), N_("a round")), sheet_points=sheet_points, face=face,
    terms=(*COLOURS, *ART), face_values=face_values,
    face_fields=("points", "worth", "shade", "initial", "items", "reserve"),
    # the teams are drawn from the seats, not the cards: drawn again, no card moves
    rerolls={"first_player": FIRST_PLAYER,
             "teams": Reroll(lambda deal, rng: {"teams": _teams(deal["players"], rng)}, ("teams",), N_("Teams"))},
    web="companion.web.games.gemas",
)
