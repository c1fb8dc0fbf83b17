"""The static site's budgets for scoring on the phone (issues 16 and 30), measured in Debian's chromium against the
site served on 127.0.0.1 by a small static server that compresses (gzip, as most static hosts do at least) and logs
every request:

- first visit: bytes sent for a scoring page, its Python and the service worker's copy of the site in the visitor's
  language (counted by the server, after compression), and every address asked for once only;
- the same for a first visit of the home page alone (it keeps the same, so scoring works offline afterwards);
- first score: from asking for a scoring page with a filled form in its address until its answer is drawn, on a
  first visit (cold) and again from the service worker's copy (warm); Python ready, and when the runtime, our code
  and the entry were up;
- tap to new total: a sent form until the answer is drawn (median of 20 taps);
- the page stays responsive while Python loads: the longest main-thread task (PerformanceObserver 'longtask');
- all of it again with the CPU throttled ×4 (Chrome's DevTools throttling).

Budgets: first visit ≤ 6.8 MB, nothing fetched twice; first score ×4 ≤ 5 s cold, ≤ 3 s warm; tap ≤ 100 ms; no long
task over 200 ms.
Run: .venv/bin/python benchmarks/bench_site.py [--taps 20] [--throttle 1 4]   (needs npm reachable the first time)
"""
from __future__ import annotations

import argparse
import collections
import functools
import gzip
import http.server
import statistics
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.web.site import build as site  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FORMS = Path(__file__).resolve().parents[1] / "tests" / "web" / "forms"  # a filled scoring form per game
LONG_TASKS = """
window.__long = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); })
  .observe({ type: "longtask", buffered: true });
"""
# when the answer was drawn, in ms since the page was asked for (read at once where a page does not say it)
DRAWN_AT = "Number(document.documentElement.dataset.drawnAt) || Math.round(performance.now())"
KEPT = "async () => (await navigator.serviceWorker.ready).active?.state === 'activated'"


class Compressing(http.server.SimpleHTTPRequestHandler):
    """A static file server that gzips what the phone asks gzipped and lets it keep files ten minutes (as GitHub
    Pages does), and counts the bytes it sends (the phones' Python, py/, and everything else apart) and the
    requests for each address."""

    sent = {"py": 0, "site": 0}
    asked: collections.Counter = collections.Counter()
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".mjs": "text/javascript", ".js": "text/javascript"}

    def log_message(self, *args):
        pass

    def send_head(self):
        Compressing.asked[self.path] += 1
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if "gzip" not in self.headers.get("Accept-Encoding", "") or not path.is_file():
            return super().send_head()
        body = _gzipped(str(path), path.stat().st_mtime)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.send_header("Last-Modified", self.date_time_string(int(path.stat().st_mtime)))
        self.end_headers()
        Compressing.sent["py" if "/py/" in self.path else "site"] += len(body)
        self.wfile.write(body)
        return None

    @classmethod
    def reset(cls) -> None:
        cls.sent.update(py=0, site=0)
        cls.asked.clear()


@functools.cache
def _gzipped(path: str, _mtime: float) -> bytes:
    return gzip.compress(Path(path).read_bytes(), 9)


def phone(browser, throttle: float):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  locale="es-ES")
    context.add_init_script(LONG_TASKS)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    return context, page


def first_visit_of_home(browser, base: str, throttle: float) -> dict:
    """A first visit of the home page alone, until the service worker has kept the site and the runtime."""
    context, page = phone(browser, throttle)
    Compressing.reset()
    page.goto(f"{base}/")
    page.wait_for_function(KEPT, timeout=300000, polling=200)
    out = {"bytes": sum(Compressing.sent.values()), "twice": {u: n for u, n in Compressing.asked.items() if n > 1},
           "requests": sum(Compressing.asked.values())}
    context.close()
    return out


def visit(browser, base: str, throttle: float, taps: int, game: str) -> dict:
    context, page = phone(browser, throttle)
    out = {}
    Compressing.reset()
    form = (FORMS / f"{game}.txt").read_text().strip()
    page.goto(f"{base}/score/{game}/?{form}")  # a first visit, with a form to score
    page.wait_for_function("document.documentElement.dataset.drawn", timeout=300000, polling=20)
    out["cold_score_ms"] = int(page.evaluate(DRAWN_AT))
    out["first_ready_ms"] = int(page.evaluate("document.documentElement.dataset.pythonReady"))
    out["cold_phases"] = page.evaluate("JSON.parse(document.documentElement.dataset.pythonPhases)")
    out["cold_worker_at"] = int(page.evaluate("document.documentElement.dataset.pythonReadyAt")) - out["first_ready_ms"]
    out["cold_first_call_ms"] = int(page.evaluate("document.documentElement.dataset.drawnIn"))
    out["first_long_ms"] = max(page.evaluate("window.__long"), default=0)
    page.wait_for_function(KEPT, timeout=300000, polling=200)  # the service worker has kept the site and runtime
    try:  # and Python's memory (a site built before issue 30 keeps none)
        page.wait_for_function("document.documentElement.dataset.pythonSnapshot", timeout=60000)
        out["snapshot_bytes"] = int(page.evaluate("document.documentElement.dataset.pythonSnapshot"))
    except Exception:
        out["snapshot_bytes"] = 0
    out["first_visit_bytes"] = dict(Compressing.sent)
    out["first_visit_twice"] = {u: n for u, n in Compressing.asked.items() if n > 1}
    Compressing.reset()
    page.goto(f"{base}/score/{game}/?{form}")  # a second visit: from the service worker's copy
    page.wait_for_function("document.documentElement.dataset.drawn", timeout=300000, polling=20)
    out["warm_score_ms"] = int(page.evaluate(DRAWN_AT))
    out["cached_ready_ms"] = int(page.evaluate("document.documentElement.dataset.pythonReady"))
    out["cached_phases"] = page.evaluate("JSON.parse(document.documentElement.dataset.pythonPhases)")
    out["first_answer_ms"] = int(page.evaluate("document.documentElement.dataset.drawnIn"))
    out["cached_long_ms"] = max(page.evaluate("window.__long"), default=0)
    out["second_visit_bytes"] = sum(Compressing.sent.values())
    times = []
    field = page.locator("main form input[type=text], main form input[inputmode=numeric]").last
    for i in range(taps):
        before = int(page.evaluate("document.documentElement.dataset.drawn"))
        field.fill(str(i % 4) if game != "duquesa" else f"Name {i}")
        page.click("form.form .go button[type=submit]")
        page.wait_for_function(f"Number(document.documentElement.dataset.drawn) > {before}")
        times.append(int(page.evaluate("document.documentElement.dataset.drawnIn")))
    out["tap_median_ms"] = statistics.median(times) if times else 0
    out["tap_max_ms"] = max(times, default=0)
    context.close()
    return out


def cold_phases(r: dict) -> str:
    """Where a cold first score's time went, each phase in ms (the worker's marks: see worker.js)."""
    c, start = r["cold_phases"], r["cold_worker_at"]
    parts = {"page until the worker starts": start, "Pyodide's scripts (download, load)": c["scripts"],
             "runtime (WebAssembly compiled, Python started)": c["runtime"] - c["scripts"],
             "our code unpacked": c["unpacked"] - c["runtime"],
             "card data (companion.cards)": c["cards"] - c["unpacked"],
             "imports (companion.web.site.browser)": c["code"] - c["cards"],
             "ready until asked": r["cold_score_ms"] - start - r["first_ready_ms"] - r["cold_first_call_ms"],
             "first call (page drawn)": r["cold_first_call_ms"]}
    return ", ".join(f"{k} {v}" for k, v in parts.items()) + f"; total {r['cold_score_ms']} ms"


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=20)
    parser.add_argument("--throttle", type=float, nargs="+", default=[1, 4])
    parser.add_argument("--game", default="duquesa", help="the scoring page scored (tests/web/forms/<game>.txt)")
    parser.add_argument("--no-home", action="store_true", help="skip the first visit of the home page alone")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "site"
        httpd = None
        try:
            import socket

            with socket.socket() as s:  # the site's base URL must be the address it is served from
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
            built = site.build(folder, f"http://127.0.0.1:{port}")
            httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port),
                                                    functools.partial(Compressing, directory=str(folder)))
            threading.Thread(target=httpd.serve_forever, daemon=True).start()
            base = f"http://127.0.0.1:{port}"
            said = ", ".join(f"{lang} {b / 1e6:.2f} MB" for lang, b in built.get("first_visit_bytes", {}).items())
            print(f"site: {built['files']} files, {built['bytes'] / 1e6:.1f} MB on disk; our code zip "
                  f"{built['runtime']['code_bytes'] / 1e3:.0f} KB; a first visit by the build's count: {said}")
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                for throttle in args.throttle:
                    home = {"bytes": 0, "requests": 0, "twice": "skipped"} if args.no_home else \
                        first_visit_of_home(browser, base, throttle)
                    r = visit(browser, base, throttle, args.taps, args.game)
                    print(f"CPU ×{throttle:g}, {args.game}'s first score cold: {cold_phases(r)}", flush=True)
                    sent, cold, warm = r["first_visit_bytes"], r["cold_phases"], r["cached_phases"]
                    print(f"CPU ×{throttle:g}: home page's first visit {home['bytes'] / 1e6:.2f} MB in "
                          f"{home['requests']} requests, asked twice: {home['twice'] or 'none'}; "
                          f"scoring page's first visit {sent['py'] / 1e6:.2f} MB for the phone's Python (gzip -9) "
                          f"+ {sent['site'] / 1e6:.2f} MB for the pages kept, asked twice: "
                          f"{r['first_visit_twice'] or 'none'}; "
                          f"first score cold {r['cold_score_ms'] / 1000:.2f} s (Python ready "
                          f"{r['first_ready_ms'] / 1000:.2f} s after the worker started; runtime up at "
                          f"{cold['runtime']} ms, our code at {cold['code']}, entry at {cold['imported']}); "
                          f"first score warm {r['warm_score_ms'] / 1000:.2f} s "
                          f"({r['second_visit_bytes'] / 1e3:.0f} KB sent; memory snapshot "
                          f"{r['snapshot_bytes'] / 1e6:.0f} MB kept on the phone, restored: "
                          f"{warm.get('restored', False)}; runtime up at "
                          f"{warm['runtime']} ms, our code at {warm['code']}, entry at {warm['imported']}, "
                          f"answer drawn {r['first_answer_ms']} ms after asking); "
                          f"tap to total median {r['tap_median_ms']} ms (max {r['tap_max_ms']}); longest main-thread "
                          f"task {r['first_long_ms']:.0f} ms first visit, {r['cached_long_ms']:.0f} ms warm",
                          flush=True)
                browser.close()
        finally:
            if httpd:
                httpd.shutdown()


if __name__ == "__main__":
    main()
