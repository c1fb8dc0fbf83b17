"""Load on the score API: the companion's POST /api/v1/duquesa/score against a bare Flask JSON endpoint, both
served by waitress the way `companion serve` does (8 threads), in separate processes, in the same run.

Run: .venv/bin/python benchmarks/bench_web.py [--connections 32] [--seconds 10]
The load comes from client processes, each holding keep-alive connections in threads; every request's latency is
recorded and the p50/p99 and throughput are printed for both servers, with the ratio.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

BODY = (Path(__file__).resolve().parents[1] / "docs" / "examples" / "duquesa-score.json").read_bytes()


def bare_app():
    from flask import Flask, jsonify, request

    app = Flask("bare")

    @app.post("/api/v1/duquesa/score")
    def score():
        return jsonify(echo=len(request.get_data()))

    return app


def serve(kind: str, port: int) -> None:
    import logging

    import waitress

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "task queue depth" lines are expected under load
    if kind == "companion":
        from companion.web import create_app

        app = create_app()
    else:
        app = bare_app()
    waitress.serve(app, host="127.0.0.1", port=port, threads=8, _quiet=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def client(port: int, connections: int, seconds: float, out) -> None:
    """One client process: `connections` threads, each a keep-alive connection posting as fast as answers come."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        mine, bad = [], 0
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            try:
                conn.request("POST", "/api/v1/duquesa/score", BODY, {"Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    bad += 1
            except (OSError, http.client.HTTPException):
                bad += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                continue
            mine.append(time.perf_counter() - t0)
        with lock:
            latencies.extend(mine)
            errors[0] += bad

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put((latencies, errors[0]))


def load(port: int, connections: int, seconds: float, processes: int) -> dict:
    queue: mp.Queue = mp.Queue()
    per = [connections // processes + (1 if i < connections % processes else 0) for i in range(processes)]
    procs = [mp.Process(target=client, args=(port, n, seconds, queue)) for n in per if n]
    for p in procs:
        p.start()
    results = [queue.get() for _ in procs]
    for p in procs:
        p.join()
    latencies = sorted(x for lat, _ in results for x in lat)
    q = statistics.quantiles(latencies, n=100)
    return {"requests": len(latencies), "errors": sum(e for _, e in results), "per_s": len(latencies) / seconds,
            "p50_ms": q[49] * 1000, "p99_ms": q[98] * 1000}


def wait_up(port: int) -> None:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"server on {port} did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--client-processes", type=int, default=2)
    args = parser.parse_args()
    # the companion's answer must be the real one, not an error
    from companion import service
    expected = service.score("duquesa", json.loads(BODY))
    figures = {}
    for kind in ("bare", "companion"):
        port = free_port()
        server = mp.Process(target=serve, args=(kind, port), daemon=True)
        server.start()
        wait_up(port)
        if kind == "companion":
            conn = http.client.HTTPConnection("127.0.0.1", port)
            conn.request("POST", "/api/v1/duquesa/score", BODY, {"Content-Type": "application/json"})
            assert json.loads(conn.getresponse().read()) == expected
        load(port, 4, 1.0, 1)  # warm up
        figures[kind] = load(port, args.connections, args.seconds, args.client_processes)
        server.terminate()
        server.join()
    for kind, f in figures.items():
        print(f"{kind:9s} {f['per_s']:8.0f} req/s  p50 {f['p50_ms']:6.1f} ms  p99 {f['p99_ms']:6.1f} ms  "
              f"errors {f['errors']}  ({f['requests']} requests, {args.connections} connections)")
    print(f"ratio companion/bare throughput: {figures['companion']['per_s'] / figures['bare']['per_s']:.2f}")


if __name__ == "__main__":
    main()
