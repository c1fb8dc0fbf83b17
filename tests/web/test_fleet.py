"""Several app servers on one PostgreSQL (issue 15, item 9): started together on an empty database, sharing one
session key, a phone moves between them freely; without the shared key it could not (the control)."""
import secrets
import threading

import pytest

import postgres
from helpers.server import Api, start_server

pytestmark = pytest.mark.postgres  # every test here runs its servers on the real PostgreSQL


def fleet(tmp_path, key: str | None, n: int = 2) -> list[tuple[str, object]]:
    """n `companion serve` processes on one new PostgreSQL database, started at the same moment."""
    database = postgres.cluster().new_database()
    env = {"COMPANION_DATABASE_URL": database, **({"COMPANION_SECRET_KEY": key} if key else {})}
    servers = [None] * n

    def start(i):
        servers[i] = start_server(instance=tmp_path / f"server-{i}", env=env)

    threads = [threading.Thread(target=start, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(servers), "a server did not start"
    return servers


def stop(servers) -> list[str]:
    out = []
    for _base, proc in servers:
        proc.terminate()
        out.append(proc.communicate(timeout=10)[0])
    return out


def page(phone: Api, path: str) -> str:
    with phone.opener.open(phone.base + path, timeout=15) as r:
        return r.read().decode()


def test_a_phone_moves_between_servers_sharing_one_key(tmp_path):
    servers = fleet(tmp_path, secrets.token_hex(32))
    (a, _), (b, _) = servers
    try:
        phone = Api(a)  # one cookie jar: both servers sit behind one name, as behind a load balancer
        status, made = phone.call("POST", "/api/v1/sheets", {"game": "duplicon", "title": "Viernes",
                                                             "players": ["Ana", "Bruno"]})
        assert status == 201
        token, form_token = made["token"], phone.csrf
        phone.base = b
        answer = phone.call("POST", f"/api/v1/sheets/{token}/entries",
                            {"points": {"Ana": 4}, "client_id": "entry-0001"})
        assert answer[0] == 201, answer
        again = phone.call("GET", "/api/v1/csrf")[1]["csrf"]  # the same session on this server: its form token,
        assert again != form_token and phone.call(  # masked afresh (csrf.py), and the first one still taken here
            "POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 1}, "client_id": "entry-0003"},
            headers={"X-CSRF-Token": form_token})[0] == 201
        assert "Viernes" in page(phone, "/sheets")  # and its list of sheets is still there
        phone.base = a
        assert phone.call("POST", f"/api/v1/sheets/{token}/entries",
                          {"points": {"Bruno": 6}, "client_id": "entry-0002"})[0] == 201
        phone.base = b
        assert phone.call("GET", f"/api/v1/sheets/{token}")[1]["totals"] == {"Ana": 5, "Bruno": 6}
    finally:
        printed = stop(servers)
    assert all("session key: COMPANION_SECRET_KEY" in text for text in printed), printed


def test_without_a_shared_key_the_other_server_refuses_the_phone(tmp_path):
    """The control: each server's own key makes the phone a stranger on the other; serve says what to set."""
    servers = fleet(tmp_path, None)
    (a, _), (b, _) = servers
    try:
        phone = Api(a)
        token = phone.call("POST", "/api/v1/sheets", {"game": "duplicon", "players": ["Ana", "Bruno"]})[1]["token"]
        phone.base = b
        status, body = phone.call("POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 4}})
        assert status == 400 and body["field"] == "csrf"
    finally:
        printed = stop(servers)
    assert all("must share one key" in text and "COMPANION_SECRET_KEY" in text for text in printed), printed
