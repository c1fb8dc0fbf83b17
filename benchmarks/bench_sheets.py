"""Bounded write load on saved sheets: `companion serve` (waitress, 8 threads, SQLite in a fresh instance folder)
takes POST /api/v1/sheets/<token>/entries at a fixed rate from client processes, spread over several sheets (tables)
as an evening in a games club would. Every answer's latency is recorded; at the end the log of every sheet is read
back and each acknowledged entry must be in it.

Run: .venv/bin/python benchmarks/bench_sheets.py [--rate 300] [--seconds 120] [--sheets 24] [--clients 2]
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Phone:
    """One keep-alive connection with its own session cookie and form token."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""
        self.csrf = self.send("GET", "/api/v1/csrf")[1]["csrf"]

    def send(self, method: str, path: str, data=None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json", **({"Cookie": self.cookie} if self.cookie else {}),
                   **({"X-CSRF-Token": self.csrf} if hasattr(self, "csrf") else {})}
        self.conn.request(method, path, body=json.dumps(data) if data is not None else None, headers=headers)
        r = self.conn.getresponse()
        body = r.read()
        cookie = r.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return r.status, json.loads(body)


def client(port: int, tokens: list[str], rate: float, seconds: float, threads: int, index: int, out) -> None:
    """Each thread sends at rate/threads writes a second on a fixed schedule (no catch-up bursts beyond it)."""
    results: list[tuple[float, int, str, str]] = []
    lock = threading.Lock()

    def run(t: int) -> None:
        phone = Phone(port)
        interval = threads / rate
        start = time.perf_counter() + (t / threads) * interval
        i = 0
        while True:
            due = start + i * interval
            if due - start > seconds:
                break
            delay = due - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            token = tokens[(index * 1000 + t * 7 + i) % len(tokens)]
            client_id = f"bench-{index}-{t}-{i:06d}"
            began = time.perf_counter()
            try:
                status, _ = phone.send("POST", f"/api/v1/sheets/{token}/entries",
                                       {"points": {"A": 1, "B": i % 7}, "client_id": client_id})
            except (OSError, http.client.HTTPException, ValueError):
                status, phone = 0, Phone(port)
            with lock:
                results.append((time.perf_counter() - began, status, token, client_id))
            i += 1

    workers = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    out.put(results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=300, help="writes per second, all clients together")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--sheets", type=int, default=24)
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--threads", type=int, default=16, help="connections per client process")
    args = parser.parse_args(argv)
    per_sheet = args.rate * args.seconds / args.sheets
    if per_sheet > 1900:
        parser.error(f"{per_sheet:.0f} changes per sheet; a sheet holds 2000: use more --sheets")

    instance = tempfile.mkdtemp(prefix="bench-sheets-")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--port", str(port)],
                              env=dict(os.environ, COMPANION_INSTANCE_PATH=instance),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        setup = Phone(port)
        tokens = [setup.send("POST", "/api/v1/sheets", {"game": "gemas", "players": ["A", "B"]})[1]["token"]
                  for _ in range(args.sheets)]
        out: mp.Queue = mp.Queue()
        procs = [mp.Process(target=client, args=(port, tokens, args.rate / args.clients, args.seconds, args.threads,
                                                 k, out)) for k in range(args.clients)]
        began = time.perf_counter()
        for p in procs:
            p.start()
        results = [r for _ in procs for r in out.get()]
        for p in procs:
            p.join()
        elapsed = time.perf_counter() - began

        ok = [r for r in results if r[1] == 201]
        errors = len(results) - len(ok)
        latencies = sorted(r[0] * 1000 for r in results)
        kept: set[str] = set()
        for token in tokens:
            kept |= {c["client_id"] for c in setup.send("GET", f"/api/v1/sheets/{token}/log")[1]["log"]}
        missing = sum(1 for r in ok if r[3] not in kept)
        db = os.path.join(instance, "companion.sqlite")
        print(f"sheets: {args.sheets}, target {args.rate:.0f} writes/s for {args.seconds:.0f} s, "
              f"{args.clients} client processes × {args.threads} connections")
        print(f"writes: {len(results)} in {elapsed:.1f} s = {len(results) / elapsed:.0f}/s; acknowledged {len(ok)}, "
              f"errors {errors}, acknowledged but missing afterwards {missing}")
        print(f"latency ms: p50 {statistics.median(latencies):.1f}, p99 {latencies[int(len(latencies) * 0.99)]:.1f}, "
              f"max {latencies[-1]:.1f}")
        print(f"database: {os.path.getsize(db) / 1e6:.1f} MB (+ WAL {os.path.getsize(db + '-wal') / 1e6:.1f} MB)")
        return 0 if errors == 0 and missing == 0 else 1
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
