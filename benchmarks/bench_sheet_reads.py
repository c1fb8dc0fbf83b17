"""What one read of saved sheets costs when the sheets are full (issue 15, item 4): `/sheets` for a phone that
remembers 30 full sheets, one full sheet's page, its API read and a poll, against SQLite (and PostgreSQL with
--postgresql URL). Full: 2,000 changes each (1,400 entries, 400 edits, 200 undos), the most a sheet holds.

In-process (Flask's test client), so it measures the app and the database, not the network.
Run: .venv/bin/python benchmarks/bench_sheet_reads.py [--sheets 30] [--repeat 20] [--postgresql URL]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import sheets  # noqa: E402
from companion.sheets.storage import Store  # noqa: E402
from companion.web import create_app  # noqa: E402

PLAYERS = ["Ana", "Bruno", "Carla", "Dario"]


def full_log() -> list[dict]:
    log, at = [], "2026-11-20T20:00:00Z"
    for i in range(1, sheets.MAX_LOG + 1):
        if i <= 1400:
            record = {"seq": i, "action": "add", "at": at,
                      "body": {"points": {p: (i * (k + 3)) % 11 for k, p in enumerate(PLAYERS)}, "note": f"ronda {i}"}}
        elif i <= 1800:
            record = {"seq": i, "action": "edit", "target": i - 1400, "at": at,
                      "body": {"points": {p: k for k, p in enumerate(PLAYERS)}}}
        else:
            record = {"seq": i, "action": "undo", "target": i - 1000, "at": at}
        log.append(record)
    return log


def timed(client, path: str, repeat: int) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        r = client.get(path)
        times.append(time.perf_counter() - start)
        assert r.status_code == 200, (path, r.status_code)
        size = len(r.get_data())
    return statistics.median(times) * 1000, size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sheets", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--postgresql", help="an empty PostgreSQL database's SQLAlchemy URL")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-reads-")
    url = args.postgresql or f"sqlite:///{folder}/companion.sqlite"
    store = Store(url)
    log = full_log()
    start = time.perf_counter()
    tokens = store.create_many([({"game": "duplicon", "title": f"Noche {n}", "players": PLAYERS}, log)
                                for n in range(args.sheets)])
    print(f"{args.sheets} full sheets ({len(log)} changes each) written in {time.perf_counter() - start:.1f} s "
          f"on {store.engine.dialect.name}")
    app = create_app({"TESTING": True, "INSTANCE_PATH": folder, "DATABASE_URL": url})
    client = app.test_client()
    with client.session_transaction() as session:
        session["sheets"] = tokens
    for label, path in [("/sheets, 30 full sheets", "/sheets"), ("a full sheet's page", f"/s/{tokens[0]}"),
                        ("a full sheet, API", f"/api/v1/sheets/{tokens[0]}"),
                        ("a poll, nothing new", f"/api/v1/sheets/{tokens[0]}?since={len(log)}")]:
        ms, size = timed(client, path, args.repeat)
        print(f"{label:28} {ms:8.1f} ms  {size / 1024:7.1f} KiB")


if __name__ == "__main__":
    main()
