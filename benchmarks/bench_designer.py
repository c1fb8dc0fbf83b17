"""A designer's 40-card deck drawn from layouts: the example game's fruit layout (its own fonts, colours by suit, pips
of the designer's pictures, corner indices, a code) for 4 suits × 10 ranks, built to a PDF. Times the first build in
a fresh process (fonts registered, pictures parsed) and the next ones. Run on demand:
`.venv/bin/python benchmarks/bench_designer.py`."""
from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITS = ("apple", "pear", "grape", "plum")
NAMES = {"apple": ("Manzana", "Apple"), "pear": ("Pera", "Pear"), "grape": ("Uva", "Grape"),
         "plum": ("Ciruela", "Plum")}


def deck(folder: Path) -> Path:
    """The example game with its components replaced by 40 numbered fruit cards."""
    shutil.copytree(ROOT / "docs" / "example-game", folder, dirs_exist_ok=True)
    text = (folder / "cosecha.yaml").read_text(encoding="utf-8")
    head = text[:text.index("components:")]
    lines = ["components:"]
    for suit in SUITS:
        es, en = NAMES[suit]
        for rank in range(1, 11):
            lines.append(f"  - {{id: HV-{suit[:2].upper()}-{rank}, type: card, layout: fruit, suit: {suit}, "
                         f"rank: {rank}, name: {{es: {es}, en: {en}}}, "
                         f"text: {{es: \"Vale **{rank}**.\", en: \"Worth **{rank}**.\"}}}}")
    (folder / "cosecha.yaml").write_text(head + "\n".join(lines) + "\n", encoding="utf-8")
    return folder / "cosecha.yaml"


CHILD = """
import sys, time, json
start = time.perf_counter()
from companion.pnp.build import build
from companion.pnp.document import BuildSettings
imported = time.perf_counter()
times = []
for i in range(4):
    t = time.perf_counter()
    [(path, pages)] = list(build([sys.argv[1]], sys.argv[2] + str(i), BuildSettings(base_url="http://192.168.1.20:5000")))
    times.append(time.perf_counter() - t)
print(json.dumps({"import": imported - start, "builds": times, "pages": pages, "bytes": path.stat().st_size}))
"""


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = deck(Path(tmp) / "game")
        runs = []
        for _ in range(3):
            out = subprocess.run([sys.executable, "-c", CHILD, str(data), str(Path(tmp) / "out")], check=True,
                                 capture_output=True, text=True)
            runs.append(json.loads(out.stdout))
    first = statistics.median(r["builds"][0] for r in runs)
    warm = statistics.median(t for r in runs for t in r["builds"][1:])
    print(f"40-card designer deck ({runs[0]['pages']} pages, {runs[0]['bytes']:,} bytes): first build in a fresh "
          f"process {first:.3f} s (after {statistics.median(r['import'] for r in runs):.2f} s of imports), "
          f"next builds {warm:.3f} s (median of {3 * 3})")


if __name__ == "__main__":
    main()
