"""Rules engine speed: Duquesa necklaces scored per second (worst case: two rainbow cards) and solo games
simulated per second, on one core. Run on demand: `.venv/bin/python benchmarks/bench_rules.py`."""
from __future__ import annotations

import json
import platform
import time

from companion import library, service
from companion.core.rng import make_rng
from companion.games import duquesa


def rate(fn, seconds: float = 2.0) -> float:
    """Calls per second of fn over about `seconds` (after one warm-up call)."""
    fn()
    n, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            fn()
        n += 100
    return n / elapsed


def main() -> None:
    catalogue = library.load_game("duquesa").catalogue()
    base = [catalogue[f"DQ{i:02d}"] for i in (2, 7, 12, 16, 1)]
    two_rainbows = [catalogue["DQ19"], catalogue["DQ19"], *base[2:]]
    compiled = [duquesa.compile_card(c) for c in two_rainbows]
    request = {"common": "DQ01", "players": [{"name": "A", "hand": ["DQ19", "DQ19", "DQ12", "DQ16"]},
                                             {"name": "B", "hand": ["DQ02", "DQ03", "DQ04", "DQ05"]}]}
    rng, _ = make_rng("bench")
    deck = [c.id for c in library.load_game("duquesa").deck(sets=("base",))]
    compiled_all = {i: duquesa.compile_card(c) for i, c in catalogue.items()}
    figures = {
        "python": platform.python_version(),
        "necklace_base_per_s": rate(lambda: duquesa.necklace(base)),
        "necklace_two_rainbows_per_s": rate(lambda: duquesa.necklace(two_rainbows)),
        "best_choice_two_rainbows_per_s": rate(lambda: duquesa.best_choice(compiled)),
        "score_request_two_players_per_s": rate(lambda: service.score("duquesa", request)),
        "solo_games_per_s": rate(lambda: duquesa.play_solo(deck, compiled_all, rng)),
    }
    print(json.dumps({k: round(v) if isinstance(v, float) else v for k, v in figures.items()}, indent=2))


if __name__ == "__main__":
    main()
