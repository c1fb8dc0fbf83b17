"""Live totals at the table (issue 13), measured in Debian's chromium against `companion serve` on 127.0.0.1:

- tap to new total: a card tapped on the Duquesa page until its answer is redrawn in place (the page script's own
  timing, `data-live-in`: the request, the page's HTML parsed and the answer swapped), median and worst of N games;
- the same with the CPU throttled ×4 (Chrome's DevTools throttling);
- the heaviest scoring page with everything it loads, in bytes as sent (no compression).

Budget: tap to new total under 100 ms; the page under 60 KB.
Run: .venv/bin/python benchmarks/bench_live.py [--games 10]
"""
from __future__ import annotations

import argparse
import re
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
HANDS = [["DQ02", "DQ07", "DQ12", "DQ16"], ["DQ03", "DQ05", "DQ09", "DQ14"]]  # base-game cards (the page's)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def page_weight(base: str) -> dict[str, int]:
    import urllib.request

    out = {}
    for game in ("duquesa", "queens-necklace", "gemas", "gemas?_n=10", "nobles", "duplicon"):
        html = urllib.request.urlopen(f"{base}/score/{game}").read()
        assets = re.findall(rb'<(?:link(?![^>]*rel="alternate")|script)[^>]+(?:href|src)="(/[^"]+)"', html)
        out[game] = len(html) + sum(len(urllib.request.urlopen(base + a.decode()).read()) for a in assets)
    return out


def taps(page, base: str, games: int) -> list[float]:
    """Play `games` Duquesa games by tapping; after the last card of each, the live redraw's time."""
    times = []
    for _ in range(games):
        page.goto(f"{base}/score/duquesa?players.0.name=Ana&players.1.name=Bruno")
        sections = page.locator("details.pick")
        sections.nth(0).locator("label.card:has(input[value='DQ01'])").tap()
        for k, cards in enumerate(HANDS):
            for card in cards:
                before = page.evaluate("Number(document.documentElement.dataset.live || 0)")
                sections.nth(k + 1).locator(f"label.card:has(input[value='{card}'])").tap()
                deadline = time.time() + 5
                while page.evaluate("Number(document.documentElement.dataset.live || 0)") == before:
                    if time.time() > deadline:
                        raise SystemExit("no live redraw within 5 s")
                    page.wait_for_timeout(5)
                times.append(float(page.evaluate("document.documentElement.dataset.liveIn")))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port",
                               str(port)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.1)
        weights = page_weight(base)
        print(f"heaviest scoring page with what it loads: {max(weights.values()) / 1024:.1f} KB "
              f"({max(weights, key=weights.get)}); budget 60 KB")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for throttle in (1, 4):
                context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
                page = context.new_page()
                if throttle > 1:
                    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                times = taps(page, base, args.games)
                print(f"CPU x{throttle}: tap to new total, median {statistics.median(times):.0f} ms, "
                      f"worst {max(times):.0f} ms over {len(times)} taps (budget 100 ms)")
                context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
