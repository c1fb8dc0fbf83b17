"""The full five-game build against a floor measured in the same run: a bare reportlab script that draws the
same number of cards, 9 to an A4 page (a frame, four circles, two lines of TTF text, a QR code drawn one
rectangle per module), plus a back page per front page. Run on demand: `.venv/bin/python benchmarks/bench_build.py`."""
from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

import qrcode
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from companion import cards, library
from companion.pnp import draw
from companion.pnp.build import build
from companion.pnp.document import BuildSettings, card_url


def floor(n_cards: int, path: Path) -> None:
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


def timed(fn, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    games = list(cards.load_shipped())
    n_cards = sum(c.qty for g in games for c in library.load_game(g).components if c.kind != "back")
    with tempfile.TemporaryDirectory() as tmp:
        out, floor_pdf = Path(tmp) / "out", Path(tmp) / "floor.pdf"
        build(games, out, BuildSettings())  # warm-up: fonts, imports, QR caches cleared below
        draw.qr_runs.cache_clear()
        real_s = timed(lambda: (draw.qr_runs.cache_clear(), build(games, out, BuildSettings())))
        floor_s = timed(lambda: floor(n_cards, floor_pdf))
        real_bytes = sum(p.stat().st_size for p in out.glob("*.pdf"))
        floor_bytes = floor_pdf.stat().st_size
    print(json.dumps({
        "components": n_cards,
        "real_build_s": round(real_s, 2), "floor_s": round(floor_s, 2), "time_ratio": round(real_s / floor_s, 2),
        "real_pdf_bytes": real_bytes, "floor_pdf_bytes": floor_bytes, "size_ratio": round(real_bytes / floor_bytes, 2),
    }, indent=2))


if __name__ == "__main__":
    main()
