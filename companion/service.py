"""One entry point per capability, shared by the command line and the web app: same checks, same answers."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Mapping

from . import cards, games
from .pnp.document import BuildSettings, render
from .rng import make_rng
from .schema import InputError, Int, Problem, Problems

MAX_REQUEST_BYTES = 256 * 1024


class UnknownGame(KeyError):
    def __init__(self, game_id: str):
        super().__init__(game_id)
        self.game_id = game_id

    def __str__(self) -> str:
        return f"unknown game {self.game_id!r}; games: {', '.join(games.GAMES)}"


def game_module(game_id: str):
    try:
        return games.get(game_id)
    except KeyError:
        raise UnknownGame(game_id) from None


def parse_json(text: str | bytes, limit: int = MAX_REQUEST_BYTES) -> Any:
    """A request body as plain data; InputError naming the line and column of bad JSON."""
    if len(text) > limit:
        raise InputError([Problem((), f"the request is larger than {limit // 1024} KiB")])

    def no_duplicates(pairs):
        out = {}
        for key, value in pairs:
            if key in out:
                raise ValueError(f"the key {key!r} appears twice in one object")
            out[key] = value
        return out

    try:
        return json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as e:
        raise InputError([Problem((), f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}")]) from None
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise InputError([Problem((), f"not valid JSON: {e}")]) from None


def score(game_id: str, request: Any) -> dict:
    module = game_module(game_id)
    return module.score(request, cards.load_game(game_id))


def setup(game_id: str, players: Any = None, seed: Any = None, options: Mapping[str, str] | None = None) -> dict:
    """A seeded setup; `players` and `seed` may arrive as text (URL parameters)."""
    module = game_module(game_id)
    if isinstance(players, str):
        players = int(players) if players.strip().lstrip("-").isdigit() else players
    if players is None:
        players = module.DEFAULT_PLAYERS
    problems = Problems()
    Int(1, 20).check(players, ("players",), problems)
    if problems:
        raise InputError(problems)
    low, high = module.PLAYERS  # one check for every game, from the counts each game declares
    if not low <= players <= high:
        span = str(low) if low == high else f"{low} or {high}" if high == low + 1 else f"from {low} to {high}"
        raise InputError([Problem(("players",), f"must be {span}")])
    if seed is not None and (not str(seed).strip() or len(str(seed)) > 64):
        raise InputError([Problem(("seed",), "must be 1 to 64 characters, not only spaces")])
    rng, seed_text = make_rng(seed)
    result = module.setup(cards.load_game(game_id), rng, players, dict(options or {}))
    return {"game": game_id, "seed": seed_text, **result}


def solo_turn(request: Any) -> dict:
    """The Duquesa solo turn helper (keep the card turned up, or take the hidden one?)."""
    return games.get("duquesa").solo_turn(request, cards.load_game("duquesa"))


def simulate(game_id: str, games_count: int, seed: Any = None) -> dict:
    module = game_module(game_id)
    if not hasattr(module, "simulate"):
        raise InputError([Problem(("game",), f"{game_id} has no solo simulator (only duquesa has one)")])
    rng, seed_text = make_rng(seed)
    return {"game": game_id, "seed": seed_text, **module.simulate(cards.load_game(game_id), rng, games_count)}


def _card_set(game: str) -> cards.CardSet:
    """A shipped game by id, or any card data file by path (a designer's own game needs no code)."""
    if game.endswith((".yaml", ".yml")):
        return cards.load_file(game)
    if game not in cards.load_shipped():
        raise UnknownGame(game)
    return cards.load_game(game)


def build(game_ids: list[str], out_dir: str | Path, settings: BuildSettings, png: bool = False) -> list[tuple[Path, int]]:
    """Write one PDF per game into `out_dir`. Every setting and the folder are checked before anything is
    written; each PDF is rendered to a temporary file and all are renamed only when every one succeeded."""
    problems = settings.problems()
    if problems:
        raise InputError(problems)
    card_sets = [_card_set(g) for g in game_ids]
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError([Problem(("out",), f"{out} is a file, not a folder")])
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = tempfile.TemporaryFile(dir=out)
        probe.close()
    except OSError as e:
        raise InputError([Problem(("out",), f"cannot write to {out}: {e.strerror or e}")]) from None
    temps: list[Path] = []
    results: list[tuple[Path, int]] = []  # final path and page count, one per game
    try:
        for card_set in card_sets:
            fd, tmp = tempfile.mkstemp(prefix=f".{card_set.game}.", suffix=".pdf.part", dir=out)
            temps.append(Path(tmp))
            with os.fdopen(fd, "wb") as f:
                results.append((out / f"{card_set.game}.pdf", render(card_set, settings, f)))
        umask = os.umask(0)
        os.umask(umask)
        for tmp, (final, _) in zip(temps, results):
            os.chmod(tmp, 0o666 & ~umask)  # a temporary file is private; the PDF is not
            os.replace(tmp, final)
    except BaseException:
        for tmp in temps:
            tmp.unlink(missing_ok=True)
        raise
    if png:  # after the PDFs: each game's folder of per-card PNGs is replaced as a whole
        from .pnp.export import card_pngs

        for card_set in card_sets:
            card_pngs(card_set, settings, out / f"{card_set.game}-png")
    return results
