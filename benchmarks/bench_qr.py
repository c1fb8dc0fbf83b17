"""The printed codes through a simulated phone camera (tests/camera.py): QR version and module size per game for a
LAN base and a typical https base, and the decode rate over every card of every game, three camera seeds each.

Run: .venv/bin/python benchmarks/bench_qr.py"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from camera import decode_rate  # noqa: E402
from companion import games, library  # noqa: E402
from companion.pnp import draw  # noqa: E402
from companion.pnp.document import BuildSettings, qr_version  # noqa: E402

BASES = ("http://192.168.1.20:5000", "https://you.github.io/deck")
SEEDS = ("a", "b", "c")


def main() -> None:
    print(f"module {draw.QR_MODULE_MM} mm, quiet zone {draw.QR_QUIET} modules, error correction: M sets the "
          "version, each code at the highest level that version holds; 150 DPI")
    for base in BASES:
        ok = tried = 0
        start = time.perf_counter()
        for game in games.GAMES:
            card_set = library.load_game(game)
            settings = BuildSettings(base_url=base)
            version = qr_version(card_set, settings)
            size = (17 + 4 * version) * draw.QR_MODULE_MM
            outer = size + 2 * draw.QR_QUIET * draw.QR_MODULE_MM
            got = [decode_rate(card_set, settings, seed) for seed in SEEDS]
            game_ok, game_tried = sum(g[0] for g in got), sum(g[1] for g in got)
            ok, tried = ok + game_ok, tried + game_tried
            print(f"{base:28} {game:16} version {version}  code {size:.1f} mm ({outer:.1f} mm with quiet zone)  "
                  f"{game_ok}/{game_tried}")
        print(f"{base:28} all games: {ok}/{tried} = {100 * ok / tried:.2f} % decoded "
              f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
