"""The full five-game build against a floor measured in the same run: a bare reportlab script that draws the
same number of cards, 9 to an A4 page (a frame, four circles, two lines of TTF text, a QR code drawn one
rectangle per module), plus a back page per front page. Both warm (in this process, after a first build: the
watch loop's case) and cold (each in a fresh process, as `companion build` is run: imports and fonts paid every
time, the art read from the cache art_cache.py keeps; "first": with an empty cache, every picture read by svglib;
the floor's process imports only reportlab, qrcode and the font). Run on demand:
`.venv/bin/python benchmarks/bench_build.py`."""
from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import qrcode
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from companion.pnp import font as draw  # the floor's font: Noto Serif, as the build's


def card_url(base: str, card_id: str) -> str:
    return base.upper() + f"/C/{card_id}"  # as companion.pnp.document.card_url writes a code's address


def floor(n_cards: int, path: Path) -> None:
    from reportlab import rl_config

    rl_config.useA85 = 0  # binary streams, as the build writes them (the floor ran after a build had set this)
    draw.register_fonts()
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    w, h = 63.5 * mm, 88.9 * mm
    for start in range(0, n_cards, 9):
        batch = range(start, min(start + 9, n_cards))
        for i, n in enumerate(batch):
            x, y = 10 * mm + (i % 3) * w, 280 * mm - (i // 3 + 1) * h
            c.rect(x, y, w, h)
            for k in range(4):
                c.circle(x + (10 + 14 * k) * mm, y + 60 * mm, 5 * mm)
            c.setFont(draw.BOLD, 10)
            c.drawString(x + 5 * mm, y + 80 * mm, f"Card {n}")
            c.setFont(draw.FONT, 7)
            c.drawString(x + 5 * mm, y + 5 * mm, f"ID-{n:04d}")
            code = qrcode.QRCode(border=0)
            code.add_data(card_url("http://127.0.0.1:5000", f"ID-{n:04d}"))
            code.make(fit=True)
            matrix = code.get_matrix()
            module = 12 * mm / len(matrix)
            for r, row in enumerate(matrix):
                for col, dark in enumerate(row):
                    if dark:
                        c.rect(x + 45 * mm + col * module, y + 15 * mm - r * module, module, module, stroke=0, fill=1)
        c.showPage()
        for i, _ in enumerate(batch):  # the back page
            x, y = 10 * mm + (2 - i % 3) * w, 280 * mm - (i // 3 + 1) * h
            c.rect(x, y, w, h, fill=1)
        c.showPage()
    c.save()


def timed(fn, repeats: int = 3) -> tuple[float, float]:
    """The median (wall seconds, CPU seconds of this process and its children) of `repeats` runs of fn: on a shared
    machine the CPU seconds move less with the load than the wall."""
    walls, cpus = [], []
    for _ in range(repeats):
        before = _cpu()
        start = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - before)
    return statistics.median(walls), statistics.median(cpus)


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def fresh(*args: str, cache: str | None = None) -> None:
    """Run this file again in a new Python process with `args` (and its own empty COMPANION_CACHE folder)."""
    env = dict(os.environ, **({"COMPANION_CACHE": tempfile.mkdtemp(dir=cache)} if cache else {}))
    subprocess.run([sys.executable, __file__, *args], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env)


def main() -> None:
    from companion import cards, library
    from companion.pnp.build import build
    from companion.pnp.document import BuildSettings

    games = list(cards.load_shipped())
    n_cards = sum(c.qty for g in games for c in library.load_game(g).components if c.kind != "back")
    with tempfile.TemporaryDirectory() as tmp:
        out, floor_pdf = Path(tmp) / "out", Path(tmp) / "floor.pdf"
        build(games, out, BuildSettings())  # warm-up: fonts, imports, art; the per-code and per-text caches are
        real_s = timed(lambda: (_forget(), build(games, out, BuildSettings())))  # emptied before each build
        floor_s = timed(lambda: floor(n_cards, floor_pdf))
        cold_s = timed(lambda: fresh("--build", str(out)))  # the art read before, by the warm-up (art_cache)
        first_s = timed(lambda: fresh("--build", str(out), cache=tmp))  # nothing kept: every picture read
        cold_floor_s = timed(lambda: fresh("--floor", str(n_cards), str(floor_pdf)))
        real_bytes = sum(p.stat().st_size for p in out.glob("*.pdf"))
        floor_bytes = floor_pdf.stat().st_size
    print(json.dumps({
        "components": n_cards, "load_average": os.getloadavg()[0],
        **_times("warm", real_s, floor_s), **_times("cold", cold_s, cold_floor_s),
        **_times("first", first_s, cold_floor_s),
        "real_pdf_bytes": real_bytes, "floor_pdf_bytes": floor_bytes, "size_ratio": round(real_bytes / floor_bytes, 2),
    }, indent=2))


def _times(name: str, real: tuple[float, float], bare: tuple[float, float]) -> dict:
    """The build's and the floor's wall and CPU seconds, and their ratios."""
    out = {}
    for i, kind in enumerate(("wall", "cpu")):
        out |= {f"{name}_{kind}_build_s": round(real[i], 2), f"{name}_{kind}_floor_s": round(bare[i], 2),
                f"{name}_{kind}_ratio": round(real[i] / bare[i], 2)}
    return out


def _forget() -> None:
    """Empty what a build keeps of one code or text for the next, so a warm build computes each again."""
    from companion.pnp import draw, textfit

    draw.qr_runs.cache_clear()
    if hasattr(draw, "qr_path"):
        draw.qr_path.cache_clear()
    getattr(textfit, "_FITTED", {}).clear()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--build"]:  # `companion build` of the five games, as a designer runs it
        from companion.cli import main as cli

        cli(["build", "--out", sys.argv[2]])
    elif sys.argv[1:2] == ["--floor"]:
        floor(int(sys.argv[2]), Path(sys.argv[3]))
    else:
        main()
