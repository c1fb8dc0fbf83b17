"""Lighthouse (issue 38, item 9) on every kind of page of `companion serve`, started on 127.0.0.1 with a throwaway
instance folder: the home page, a game's rules, a card's page, a setup, the saved sheets and each game's scoring
page, in Debian's chromium, Lighthouse's default phone (a mid-range phone, its CPU slowed 4× and a slow 4G line,
both simulated). Prints the four category scores per page as a Markdown table (the median of --runs runs each),
then what kept a page under 100.

Lighthouse is pinned (LIGHTHOUSE_VERSION, from the npm registry) and installed outside the repository, in the
companion's cache folder (COMPANION_CACHE, else ~/.cache/companion; see companion/web/site_runtime.cache_dir), by
npm the first time; --lighthouse names another copy's executable.
Run: .venv/bin/python benchmarks/bench_lighthouse.py [--runs 3] [--only /score/duquesa ...] [--lighthouse PATH]
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import games  # noqa: E402
from companion.web.site.python import cache_dir  # noqa: E402

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
LIGHTHOUSE_VERSION = "12.2.3"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PAGES = {"home": "/", "rules": "/rules/duquesa", "card": "/c/duquesa/DQ01", "setup": "/setup/duquesa?seed=1a2b3c4d",
         "sheets": "/sheets", **{f"score: {g}": f"/score/{g}" for g in sorted(games.GAMES)}}


def lighthouse(given: str | None) -> str:
    """The Lighthouse executable: the one given, else the pinned one in the cache folder (installed by npm once)."""
    if given:
        return given
    folder = cache_dir() / f"lighthouse-{LIGHTHOUSE_VERSION}"
    executable = folder / "node_modules" / ".bin" / "lighthouse"
    if not executable.exists():
        folder.mkdir(parents=True, exist_ok=True)
        print(f"installing lighthouse {LIGHTHOUSE_VERSION} in {folder} (npm)", file=sys.stderr)
        subprocess.run(["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund",
                        f"lighthouse@{LIGHTHOUSE_VERSION}"], check=True, stdout=subprocess.DEVNULL)
    return str(executable)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(instance: str) -> tuple[subprocess.Popen, str]:
    """`companion serve` on a free loopback port, once it answers."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port",
                               str(port)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, "COMPANION_INSTANCE_PATH": instance})
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=1)
            return server, base
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("companion serve did not start")


def run(executable: str, url: str) -> dict:
    """One Lighthouse run of `url`: its report (JSON)."""
    done = subprocess.run([executable, url, "--quiet", "--output=json", "--output-path=stdout",
                           f"--only-categories={','.join(CATEGORIES)}",
                           "--chrome-flags=--headless=new --no-sandbox"],
                          capture_output=True, text=True, env={**os.environ, "CHROME_PATH": CHROMIUM}, check=False)
    if done.returncode != 0:
        raise SystemExit(f"lighthouse failed on {url}: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


def scores(report: dict) -> dict[str, int]:
    return {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}


def short_of_full(report: dict) -> list[str]:
    """The audits that cost this run points (id and what Lighthouse shows of them)."""
    weighted = {ref["id"] for c in CATEGORIES for ref in report["categories"][c]["auditRefs"] if ref["weight"]}
    return [f"{a['id']} {a.get('displayValue', '')}".strip() for a in report["audits"].values()
            if a["id"] in weighted and a["score"] is not None and a["score"] < 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per page; the table shows each score's median")
    parser.add_argument("--only", nargs="+", help="these paths instead of every kind of page")
    parser.add_argument("--lighthouse", help="a Lighthouse executable (default: the pinned one, installed once)")
    args = parser.parse_args()
    pages = {path: path for path in args.only} if args.only else PAGES
    executable = lighthouse(args.lighthouse)
    with tempfile.TemporaryDirectory(prefix="companion-lighthouse-") as instance:
        server, base = serve(instance)
        try:
            rows, notes = [], []
            for name, path in pages.items():
                runs = [run(executable, base + path) for _ in range(args.runs)]
                median = {c: statistics.median(scores(r)[c] for r in runs) for c in CATEGORIES}
                rows.append(f"| {name} (`{path}`) | " + " | ".join(f"{median[c]:g}" for c in CATEGORIES) + " |")
                notes += [f"- {name}: {', '.join(lost)}" for r in runs if (lost := short_of_full(r))]
                print(f"{name}: {median}", file=sys.stderr, flush=True)
        finally:
            server.terminate()
            server.wait()
    print(f"Lighthouse {LIGHTHOUSE_VERSION}, chromium, its default phone; median of {args.runs} run(s)\n")
    print("| page | " + " | ".join(CATEGORIES) + " |")
    print("|---|" + "---:|" * len(CATEGORIES))
    print("\n".join(rows))
    if notes:
        print("\nshort of 100:\n" + "\n".join(notes))


if __name__ == "__main__":
    main()
