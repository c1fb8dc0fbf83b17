"""A designer's 48-card deck built cold, companion against protograf, side by side in one run (issue 45, item 6).

The deck: four suits of twelve poker cards with rounded corners (3 mm), a band in the suit's colour, the suit's name
and the rank in Bitstream Vera (the example game's font, embedded), the suit's SVG picture with transparency (a
half-transparent shine over the example game's fruit), a line of text, and one back; no QR code (protograf prints
none). companion's layout is in percent of the card; protograf's script places the same boxes in millimetres.
Each tool builds the deck in a fresh process (its imports, fonts, pictures and writing counted), the two taking
turns, RUNS times; the medians are compared. protograf is installed from PyPI into a venv of the benchmark's own
(BENCH_VENV, default ~/.cache/companion/bench-protograf), never into the project's; its font cache is made once
before the runs (protograf scans the system's fonts the first time). Run on demand:
`.venv/bin/python benchmarks/bench_protograf.py [--runs N] [--profile]`."""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "example-game"
VENV = Path(os.environ.get("BENCH_VENV", Path.home() / ".cache" / "companion" / "bench-protograf"))
SUITS = {"apple": ("#b03a2e", "Manzana", "Apple"), "pear": ("#6d8c12", "Pera", "Pear"),
         "grape": ("#6d3a82", "Uva", "Grape"), "plum": ("#2f5d9e", "Ciruela", "Plum")}
SHINE = '<ellipse cx="38" cy="40" rx="14" ry="20" fill="#ffffff" fill-opacity="0.35"/>\n</svg>'

GAME = """game: benchdeck
title: Harvest
prefix: BD
players: [2, 4]
card_size: poker
corner_radius: 3
languages: [en]
fields:
  suit: {choices: [apple, pear, grape, plum]}
  rank: {number: [1, 12]}
colours:
  suit: {apple: "#b03a2e", pear: "#6d8c12", grape: "#6d3a82", plum: "#2f5d9e"}
fonts:
  vera: {regular: fonts/Vera.ttf, bold: fonts/VeraBd.ttf}
look:
  accent: "#3d5a2a"
layouts:
  fruit:
    band:  {rect: [0, 0, "100%", "16%"], fill: "{colour:suit}", bleed: true}
    title: {text: "{name}", at: ["10%", "3%", "80%", "10%"], font: vera, size: 12, align: center, valign: middle,
            colour: "#ffffff"}
    rank:  {text: "**{rank}**", at: ["5%", "18%", "14%", "8%"], font: vera, size: 14, colour: "{colour:suit}"}
    art:   {art: "art/{suit}.svg", at: ["15%", "22%", "70%", "45%"]}
    body:  {text: "{text}", at: ["10%", "72%", "80%", "8%"], font: vera, size: 9, align: center}
  back:
    ground: {rect: [0, 0, "100%", "100%"], fill: "#3d5a2a", bleed: true}
    name:   {text: "Harvest", at: ["10%", "45%", "80%", "10%"], font: vera, size: 16, align: center,
             colour: "#ffffff"}
back: {layout: back}
components:
"""

PROTOGRAF = """import os
from protograf import *
Create(filename=os.environ["DECK_PDF"], paper="A4", margin=10, units="mm")  # (protograf reads sys.argv itself)
colours = {colours!r}
rows = [["SUIT", "NAME", "RANK", "COLOUR"]] + [[s, n, r, colours[s][0]] for s, n in {names!r} for r in range(1, 13)]
Data(data_list=rows)
Deck(cards=48, card_size="poker", rounding=3, fill="#fbf7ee", stroke="#fbf7ee")
Font("Bitstream Vera Sans", size=12)
Card("*", rectangle(x=0, y=0, width=63.5, height=14.2, fill=T("{{{{COLOUR}}}}"), stroke=T("{{{{COLOUR}}}}")))
Card("*", text(text=T("{{{{NAME}}}}"), x=31.75, y=7, font_size=12, stroke="#ffffff"))
Card("*", text(text=T("{{{{RANK}}}}"), x=7, y=20, font_size=14, stroke=T("{{{{COLOUR}}}}")))
Card("*", image(T("art/{{{{SUIT}}}}.svg"), x=9.5, y=19.6, width=44.5, height=40))
Card("*", text(text=T("Worth {{{{RANK}}}}."), x=31.75, y=68, font_size=9))
CardBack("*", rectangle(x=0, y=0, width=63.5, height=88.9, fill="#3d5a2a", stroke="#3d5a2a"))
CardBack("*", text(text="Harvest", x=31.75, y=44, font_size=16, stroke="#ffffff"))
Save()
"""


def make_decks(folder: Path) -> tuple[Path, Path]:
    """The same deck for both tools in `folder`: companion's data file and protograf's script, their art and
    fonts beside them."""
    (folder / "art").mkdir(parents=True)
    shutil.copytree(EXAMPLE / "fonts", folder / "fonts")
    for suit in SUITS:
        svg = (EXAMPLE / "art" / f"{suit}.svg").read_text(encoding="utf-8")
        (folder / "art" / f"{suit}.svg").write_text(svg.replace("</svg>", SHINE), encoding="utf-8")
    lines = [f"  - {{id: BD-{suit[:2].upper()}-{rank}, type: card, layout: fruit, suit: {suit}, rank: {rank}, "
             f"name: {en}, text: \"Worth {rank}.\"}}" for suit, (_, _, en) in SUITS.items() for rank in range(1, 13)]
    data = folder / "benchdeck.yaml"
    back = "\n  - {id: BD-BACK, type: back, for: [card], name: Harvest}\n"
    data.write_text(GAME + "\n".join(lines) + back, encoding="utf-8")
    script = folder / "protograf_deck.py"
    script.write_text(PROTOGRAF.format(colours=SUITS, names=[(s, en) for s, (_, _, en) in SUITS.items()]),
                      encoding="utf-8")
    return data, script


def protograf_python() -> Path:
    """The benchmark venv's Python, with protograf installed from PyPI the first time."""
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if subprocess.run([str(python), "-c", "import protograf"], capture_output=True).returncode:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "protograf"], check=True)
    return python


def timed(command: list[str], env: dict, cwd: Path) -> tuple[float, float]:
    """A fresh process's wall time and CPU time (user and system: what a shared machine's load does not inflate)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="also where companion's cold build spends its time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "deck"
        data, script = make_decks(folder)
        home = Path(tmp) / "home"  # protograf finds fonts by name: the deck's font where it looks, its cache here
        (home / ".fonts").mkdir(parents=True)
        for font in (folder / "fonts").glob("*.ttf"):
            shutil.copy(font, home / ".fonts")
        env = dict(os.environ, HOME=str(home), DECK_PDF=str(Path(tmp) / "protograf.pdf"))
        # both as a designer's machine runs them: Python keeps the bytecode it compiles (this project's machines set
        # PYTHONDONTWRITEBYTECODE, which would make both compile every module at every run)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        theirs = [str(protograf_python()), str(script)]
        ours = [sys.executable, "-m", "companion.cli", "build", str(data), "--out", str(Path(tmp) / "out"),
                "--qr", "none"]
        timed(theirs, env, folder)  # protograf's font cache, made once (not a build)
        timed(ours, env, folder)  # (companion's art cache, likewise: the SVGs read once per machine)
        times: dict[str, list[tuple[float, float]]] = {"companion": [], "protograf": []}
        for _ in range(args.runs):
            times["protograf"].append(timed(theirs, env, folder))
            times["companion"].append(timed(ours, env, folder))
        for name, runs in times.items():
            print(f"{name}: median {statistics.median(w for w, _ in runs):.3f} s wall, "
                  f"{statistics.median(c for _, c in runs):.3f} s CPU, cold "
                  f"(wall {', '.join(f'{w:.3f}' for w, _ in runs)})")
        for k, what in ((0, "wall"), (1, "CPU")):
            mine = statistics.median(r[k] for r in times["companion"])
            other = statistics.median(r[k] for r in times["protograf"])
            print(f"{what}: companion takes {mine / other:.2f} of protograf's time ({other / mine:.1f}× faster; "
                  "aim 5×)")
        print(f"PDFs: companion {(Path(tmp) / 'out' / 'benchdeck.pdf').stat().st_size:,} bytes, protograf "
              f"{(Path(tmp) / 'protograf.pdf').stat().st_size:,} bytes; load average {os.getloadavg()[0]:.1f}")
        if args.profile:
            out = subprocess.run([sys.executable, "-X", "importtime", "-m", "cProfile", "-s", "cumulative", "-m",
                                  "companion.cli", *ours[3:]], capture_output=True, text=True, env=env, cwd=folder)
            print("\n".join(out.stdout.splitlines()[:45]))
            imports = [line for line in out.stderr.splitlines()
                       if line.startswith("import time:") and line.split("|")[1].strip().isdigit()]
            slow = sorted(imports, key=lambda line: -int(line.split("|")[1]))[:15]
            print("slowest imports (µs, with what they import):\n" + "\n".join(slow))


if __name__ == "__main__":
    main()
