"""A real `companion serve`: many phones writing to one sheet at once lose nothing, and a server killed with
SIGKILL in the middle of a burst loses no entry it had acknowledged."""
import http.client
import os
import signal
import threading
import time

import pytest

from helpers.server import Api, free_port, start_server


def on(database: str) -> dict:
    """The server's environment for this database (SQLite: the instance folder's own)."""
    return {} if database.startswith("sqlite") else {"COMPANION_DATABASE_URL": database}


@pytest.mark.slow  # real servers started, written to and killed
def test_concurrent_writers_through_the_server_lose_no_entry(tmp_path, database):
    base, proc = start_server(instance=tmp_path, env=on(database))
    try:
        first = Api(base)
        status, sheet = first.call("POST", "/api/v1/sheets", {"game": "duplicon", "players": ["A", "B", "C", "D"]})
        token, answers = sheet["token"], []

        def phone(k):
            api = Api(base)  # each thread is its own phone: own session and form token
            for i in range(30):
                answers.append(api.call("POST", f"/api/v1/sheets/{token}/entries",
                                        {"points": {"ABCD"[k % 4]: 1}, "client_id": f"phone-{k:02d}-{i:03d}"})[0])

        threads = [threading.Thread(target=phone, args=(k,)) for k in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert answers.count(201) == 360, sorted(set(answers))
        state = first.call("GET", f"/api/v1/sheets/{token}")[1]
        assert state["version"] == 360 and len(state["entries"]) == 360
        assert state["totals"] == {"A": 90, "B": 90, "C": 90, "D": 90}
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.slow  # real servers started, written to and killed
def test_sigkill_mid_burst_loses_no_acknowledged_entry(tmp_path, database):
    port = free_port()
    base, proc = start_server(port, tmp_path, env=on(database))
    token = Api(base).call("POST", "/api/v1/sheets", {"game": "gemas", "players": ["A", "B"]})[1]["token"]
    acknowledged, stop = [], threading.Event()

    def phone(k):
        api = Api(base, timeout=5)
        i = 0
        while not stop.is_set():
            client_id = f"burst-{k:02d}-{i:05d}"
            try:
                status, _ = api.call("POST", f"/api/v1/sheets/{token}/entries",
                                     {"points": {"A": 1}, "client_id": client_id})
            except (OSError, http.client.HTTPException):
                return  # the server is gone (mid-answer too): this write was never acknowledged
            if status == 201:
                acknowledged.append(client_id)
            i += 1

    threads = [threading.Thread(target=phone, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    while len(acknowledged) < 150:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    stop.set()
    for t in threads:
        t.join()
    assert len(acknowledged) >= 150

    base, proc = start_server(port, tmp_path, env=on(database))
    try:
        status, log = Api(base).call("GET", f"/api/v1/sheets/{token}/log")
        kept = {r["client_id"] for r in log["log"]}
        lost = [c for c in acknowledged if c not in kept]
        assert not lost, f"{len(lost)} acknowledged entries lost after SIGKILL, e.g. {lost[:3]}"
        assert [r["seq"] for r in log["log"]] == list(range(1, len(log["log"]) + 1))  # no gap, no half change
    finally:
        proc.terminate()
        proc.wait(timeout=10)
