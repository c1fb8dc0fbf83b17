"""The print-service export: every game's per-card PNGs (300 DPI, 1/8 inch bleed; 153 files), timed as
`companion build --png` runs it (after the PDFs, in the same process) and in a fresh process that has built
nothing yet. Run on demand: `.venv/bin/python benchmarks/bench_png.py`."""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion import cards, library
from companion.pnp.build import build
from companion.pnp.document import BuildSettings
from companion.pnp.export import many_card_pngs

GAMES = sorted(cards.load_shipped())
COLD = """
import sys, time, tempfile
from pathlib import Path
from companion import library
from companion.pnp.document import BuildSettings
from companion.pnp.export import many_card_pngs
out = Path(tempfile.mkdtemp())
start = time.perf_counter()
n = sum(map(len, many_card_pngs([(library.load_game(g), out / g) for g in sys.argv[1:]], BuildSettings())))
print(time.perf_counter() - start, n)
"""


def export(out: Path) -> int:
    games = [(library.load_game(g), out / f"{g}-png") for g in GAMES]
    return sum(len(files) for files in many_card_pngs(games, BuildSettings()))


def main() -> None:
    out = Path(tempfile.mkdtemp())
    build(GAMES, out, BuildSettings())  # as `companion build --png` does: the PDFs first
    warm, n = [], 0
    for _ in range(3):
        start = time.perf_counter()
        n = export(out)
        warm.append(time.perf_counter() - start)
    cold = []
    for _ in range(3):
        result = subprocess.run([sys.executable, "-c", COLD, *GAMES], capture_output=True, text=True, check=True)
        cold.append(float(result.stdout.split()[0]))
    size = sum(p.stat().st_size for p in out.rglob("*.png"))
    print(f"{n} PNGs, {size / 1e6:.1f} MB")
    print(f"after the PDFs (as companion build --png): median of 3 {statistics.median(warm):.2f} s "
          f"({', '.join(f'{t:.2f}' for t in warm)})")
    print(f"fresh process:                            median of 3 {statistics.median(cold):.2f} s "
          f"({', '.join(f'{t:.2f}' for t in cold)})")


if __name__ == "__main__":
    main()
