"""The rules' entry points, shared by the command line, the web app and saved sheets: same checks, same answers.
Pure: importing it loads neither Flask nor reportlab (the PDF build lives in `companion.pnp.build`)."""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from . import cards, games, library
from .core.rng import MAX_SEED_LEN, make_rng
from .core.schema import InputError, Int, Problems, Word, problem, whole_number
from .games import Game

MAX_REQUEST_BYTES = 256 * 1024


class UnknownGame(KeyError):
    def __init__(self, game_id: str):
        super().__init__(game_id)
        self.game_id = game_id

    def __str__(self) -> str:
        return f"unknown game {self.game_id!r}; games: {', '.join(library.current().all())}"


def card_set(game: str) -> cards.CardSet:
    """A known game's card data by id: shipped, or added from a file to the library in use (companion.library)."""
    found = library.current().get(game)
    if found is None:
        raise UnknownGame(game)
    return found


def catalogue() -> list[cards.CardSet]:
    """Every known game's card data: the registry's games in its order, then data-only games."""
    known = library.current().all()
    return [known[g] for g in games.GAMES if g in known] + [s for g, s in known.items() if g not in games.GAMES]


def resolve(game: str) -> tuple[Game, cards.CardSet]:
    """A game's descriptor and its card data, by id."""
    data = card_set(game)
    return games.for_data(data.game), data


def parse_json(text: str | bytes, limit: int = MAX_REQUEST_BYTES) -> Any:
    """A request body as plain data; InputError naming the line and column of bad JSON."""
    if len(text) > limit:
        raise InputError([problem((), "the request is larger than %(most)s KiB", most=limit // 1024)])

    def no_duplicates(pairs):
        out = {}
        for key, value in pairs:
            if key in out:
                raise _TwiceInOneObject(key)
            out[key] = value
        return out

    try:
        return json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as e:
        raise InputError([problem((), "not valid JSON: %(error)s at line %(line)s, column %(column)s", error=e.msg,
                                  line=e.lineno, column=e.colno)]) from None
    except _TwiceInOneObject as e:
        raise InputError([problem((), "not valid JSON: the key %(key)s appears twice in one object",
                                  key=repr(e.key))]) from None
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise InputError([problem((), "not valid JSON: %(error)s", error=str(e))]) from None


class _TwiceInOneObject(ValueError):
    def __init__(self, key: str):
        super().__init__(f"the key {key!r} appears twice in one object")
        self.key = key


def score(game: str, request: Any) -> dict:
    """A request (plain data) scored by the game's rules; InputError names every problem (UnknownGame: no such game)."""
    rules, data = resolve(game)
    return rules.score(request, data)


def setup(game: str, players: Any = None, seed: Any = None, options: Mapping[str, Any] | None = None,
          rerolls: Mapping[str, Any] | None = None) -> dict:
    """A seeded setup; `players`, `seed` and the options may arrive as text (URL parameters). `rerolls` gives a
    seed of its own to parts the game deals again alone (`Game.rerolls`: who starts, a separate shuffle): each is
    dealt from its seed, every other part from `seed` as before, so the same seeds deal the same setup."""
    rules, data = resolve(game)
    low, high = data.players  # one check for every game, from the counts its card data declares
    if isinstance(players, str):
        number = whole_number(players.strip(), digits=6)
        players = players if number is None else number
    if players is None:
        players = rules.players_by_default(data)
    problems = Problems()
    Int(1, 20).check(players, ("players",), problems)
    if problems:
        raise InputError(problems)
    if not low <= players <= high:
        if low == high:
            raise InputError([problem(("players",), "must be %(n)s", n=low)])
        if high == low + 1:
            raise InputError([problem(("players",), "must be %(lo)s or %(hi)s", lo=low, hi=high)])
        raise InputError([problem(("players",), "must be from %(lo)s to %(hi)s", lo=low, hi=high)])
    if seed is not None and (not str(seed).strip() or len(str(seed)) > 64):
        raise InputError([problem(("seed",), "must be 1 to 64 characters, not only spaces")])
    checked_options = rules.check_options(options)
    part_seeds = _part_seeds(rules, rerolls)
    rng, seed_text = make_rng(seed)
    deal = {"game": data.game, "seed": seed_text, **rules.setup(data, rng, players, checked_options)}
    for name, part_seed in part_seeds.items():
        reroll = rules.rerolls[name]
        if any(part in deal for part in reroll.parts):  # (a generic game's data may deal no first player)
            deal.update(reroll.deal(deal, make_rng(part_seed)[0]))
    if part_seeds:
        deal["rerolls"] = part_seeds
    return deal


def _part_seeds(rules, rerolls: Mapping[str, Any] | None) -> dict[str, str]:
    """The per-part seeds of a setup, checked: a part the game deals again alone, a seed as a setup's own is."""
    problems = Problems()
    seeds: dict[str, str] = {}
    for name, part_seed in (rerolls or {}).items():
        reroll = rules.rerolls.get(name)
        if reroll is None:
            problems.add(("seed",), "this game has no part %(part)s to deal again alone; reroll the whole setup "
                         "instead", part=name)
        elif not isinstance(part_seed, (str, int)) or not str(part_seed).strip() or len(str(part_seed)) > MAX_SEED_LEN:
            problems.add(("seed",), "the seed that deals %(part)s again must be 1 to 64 characters, not only spaces",
                         part=Word(reroll.label))
        else:
            seeds[name] = str(part_seed)
    if problems:
        raise InputError(problems)
    return {name: seeds[name] for name in rules.rerolls if name in seeds}  # the game's order, whatever the link's


def solo_turn(game: str, request: Any) -> dict:
    """A solo game's turn helper (keep the card turned up, or take the hidden one?)."""
    rules, data = resolve(game)
    if rules.solo is None:
        raise InputError([problem(("game",), "%(game)s has no solo turn helper", game=data.game)])
    return rules.solo(request, data)


def simulate(game: str, games_count: int, seed: Any = None) -> dict:
    """`games_count` solo games played from `seed` (None: a fresh one), and the seed; InputError without a simulator."""
    rules, data = resolve(game)
    if rules.simulate is None:
        with_one = [g.id for g in games.GAMES.values() if g.simulate]
        if len(with_one) == 1:
            raise InputError([problem(("game",), "%(game)s has no solo simulator (only %(with_one)s has one)",
                                      game=data.game, with_one=with_one[0])])
        raise InputError([problem(("game",), "%(game)s has no solo simulator (only %(with_one)s have one)",
                                  game=data.game, with_one=" and ".join(with_one))])
    rng, seed_text = make_rng(seed)
    return {"game": data.game, "seed": seed_text, **rules.simulate(data, rng, games_count)}
