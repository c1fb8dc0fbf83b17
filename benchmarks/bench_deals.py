"""Random deals, speed: `companion simulate FILE --deals 10000 --players 4` for each example game with `scoring:`
and `setup.hand_size`, timed in this process on one core (the CPU time of the process, and the wall time beside
it). Target: 10,000 four-player tables in at most 10 s. A profile of the slowest with --profile.
Run on demand: `.venv/bin/python benchmarks/bench_deals.py [--deals N] [--profile]`."""
from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import time
from pathlib import Path

from companion import cards
from companion.games.deals import simulate_deals

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "example-game"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, {args.deals} tables of 4 a game")
    for name in ("cometas", "huerto", "especias"):
        card_set = cards.load_file(EXAMPLES / f"{name}.yaml")
        cpu, wall = time.process_time(), time.perf_counter()
        simulate_deals(card_set, args.deals, 4, "bench")
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(f"{name}: {cpu:.2f} s CPU ({wall:.2f} s wall), {cpu / args.deals * 1e3:.3f} ms a table")
    if args.profile:
        card_set = cards.load_file(EXAMPLES / "cometas.yaml")
        profile = cProfile.Profile()
        profile.runcall(simulate_deals, card_set, args.deals, 4, "bench")
        pstats.Stats(profile).sort_stats("cumulative").print_stats(18)


if __name__ == "__main__":
    main()
