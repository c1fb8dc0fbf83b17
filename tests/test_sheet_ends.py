"""Issue 43: a saved sheet keeps its game's end inside the write. Where a sheet of a game of rounds stands (no round
after its end, finished once it is over, a target the sheet's own players can be held to) is decided in the write's
own transaction, from the totals that transaction keeps: phones racing the last round cannot pass it, an import is
checked by the same rules, and a designer's target that cannot be computed for a sheet is a 400 naming the rule with
nothing stored. On SQLite and PostgreSQL (the `database` fixture), with real concurrent writers."""
import contextvars
import json
import threading

import pytest

from companion import library, sheets
from companion.core.schema import InputError
from companion.sheets import service as sheet_service
from companion.sheets import storage
from companion.web import create_app
from test_sheet_rounds import game_file

PLAYERS = ["Ana", "Bo"]
RACERS = 6


@pytest.fixture
def store(database):
    s = storage.Store(database)
    yield s
    s.close()


def at_once(calls):
    """Run the calls in threads released together (each in a copy of this context: the library in use); what each
    returned, or the exception it raised."""
    results, go = [None] * len(calls), threading.Barrier(len(calls))

    def run(i, call):
        go.wait()
        try:
            results[i] = call()
        except Exception as e:  # noqa: BLE001 (a refusal is a result here)
            results[i] = e

    threads = [threading.Thread(target=contextvars.copy_context().run, args=(run, i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    return results


def points(ana: int, bo: int) -> dict:
    return {"points": {"Ana": ana, "Bo": bo}}


def test_six_adds_racing_the_last_round_of_three_leave_three_rounds_and_a_finished_sheet(tmp_path, store):
    """Two rounds played, six phones add the third at once, three times over: each time one round is kept, the five
    others are refused naming the game's end, and the sheet counts three rounds and is finished in the same write."""
    path = game_file(tmp_path, "  rounds: 3")
    with library.using(library.Library([path])):
        for _ in range(3):
            sheet_id = store.open(sheet_service.create(store, {"game": "probe", "players": PLAYERS})).sheet_id
            for _ in range(2):
                sheet_service.change(store, sheet_id, "add", points(1, 2))
            results = at_once([lambda s=sheet_id: sheet_service.change(store, s, "add", points(5, 5))] * RACERS)
            written = [r for r in results if isinstance(r, storage.Written)]
            refused = [r for r in results if isinstance(r, sheets.Conflict)]
            assert len(written) == 1 and len(refused) == RACERS - 1, results
            assert {r.kind for r in refused} == {"over"}
            assert all("the game ended after round 3" in str(r) for r in refused), refused
            sheet, log = store.load(sheet_id)
            state = sheets.fold(sheet, log)
            assert [r["action"] for r in log] == ["add", "add", "add", "finish"]
            assert len(state["entries"]) == 3 and state["finished"] and state["totals"] == {"Ana": 7, "Bo": 9}
            summary = store.summaries([sheet_id])[sheet_id]
            assert summary["finished"] and summary["end"]["played"] == 3 and summary["winners"] == ["Bo"]


def test_six_phones_racing_the_last_round_over_http_get_one_201_and_five_409s(tmp_path, database):
    """The same race through the API of one app, six phones (clients with sessions of their own) in threads."""
    path = game_file(tmp_path, "  rounds: 3")
    app = create_app({"TESTING": True, "DATABASE_URL": database, "CARD_FILES": [str(path)],
                      "INSTANCE_PATH": str(tmp_path / "instance")})
    phones = []
    for _ in range(RACERS):
        client = app.test_client()
        client.csrf = client.get("/api/v1/csrf").get_json()["csrf"]
        phones.append(client)
    first = phones[0]
    r = first.post("/api/v1/sheets", json={"game": "probe", "players": PLAYERS}, headers={"X-CSRF-Token": first.csrf})
    assert r.status_code == 201, r.get_json()
    api = f"/api/v1/sheets/{r.get_json()['token']}"
    for _ in range(2):
        assert first.post(f"{api}/entries", json=points(1, 2), headers={"X-CSRF-Token": first.csrf}).status_code == 201
    answers = at_once([lambda c=c: c.post(f"{api}/entries", json=points(5, 5), headers={"X-CSRF-Token": c.csrf})
                       for c in phones])
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201] + [409] * (RACERS - 1), statuses
    for a in answers:
        if a.status_code == 409:
            body = a.get_json()
            assert body["kind"] == "over" and "the game ended after round 3" in body["error"], body
    state = first.get(api).get_json()
    assert len(state["entries"]) == 3 and state["finished"] and state["end"]["played"] == 3


def export(players, log, game="probe") -> dict:
    return {"format": sheets.FORMAT, "version": 1, "game": game, "title": "", "players": players, "log": log}


def adds(*rows) -> list[dict]:
    return [{"seq": i + 1, "action": "add", "at": "2024-05-01T20:00:00Z", "body": points(*row)}
            for i, row in enumerate(rows)]


def test_an_import_of_six_rounds_of_a_three_round_game_is_refused_at_the_fourth(tmp_path, database):
    path = game_file(tmp_path, "  rounds: 3")
    with library.using(library.Library([path])):
        with pytest.raises(InputError) as refused:
            sheets.import_json(export(PLAYERS, adds(*[(1, 2)] * 6)))
        assert [p.path for p in refused.value.problems] == [("log", 3)]
        assert "is a round after the game's end: the game ended after round 3" in str(refused.value)
    app = create_app({"TESTING": True, "DATABASE_URL": database, "CARD_FILES": [str(path)],
                      "INSTANCE_PATH": str(tmp_path / "instance")})
    client = app.test_client()
    csrf = client.get("/api/v1/csrf").get_json()["csrf"]
    r = client.post("/api/v1/sheets/import", data=json.dumps(export(PLAYERS, adds(*[(1, 2)] * 6))),
                    headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"})
    assert r.status_code == 400 and r.get_json()["field"] == "log[3]", r.get_json()
    store = storage.Store(database)
    try:
        assert store.sheet_ids() == []  # nothing stored
    finally:
        store.close()


def test_an_import_whose_first_round_reaches_the_target_takes_no_second(tmp_path):
    path = game_file(tmp_path, '  rounds: {target: "20"}')
    with library.using(library.Library([path])):
        with pytest.raises(InputError) as refused:
            sheets.import_csv(sheets.export_csv({"game": "probe", "players": PLAYERS}, adds((25, 3), (1, 1))))
        assert [p.path for p in refused.value.problems] == [("log", 1)]
        assert "the game ended after round 1 (a total reached the target of 20)" in str(refused.value)


def test_a_sheet_that_ended_corrected_and_reopened_exports_and_imports_again(tmp_path, store):
    """What the store writes is what an import takes: the finish the end wrote, a correction of the finished sheet,
    a reopen and a correction after it (which finishes it again)."""
    path = game_file(tmp_path, "  rounds: 3")
    with library.using(library.Library([path])):
        sheet_id = store.open(sheet_service.create(store, {"game": "probe", "players": PLAYERS})).sheet_id
        for _ in range(3):
            sheet_service.change(store, sheet_id, "add", points(1, 2))
        sheet_service.change(store, sheet_id, "edit", {**points(4, 2), "base": 2}, target=2)
        sheet_service.change(store, sheet_id, "reopen", {})
        sheet_service.change(store, sheet_id, "edit", {**points(0, 2), "base": 3}, target=3)
        sheet, log = store.load(sheet_id)
        assert [r["action"] for r in log] == ["add", "add", "add", "finish", "edit", "reopen", "edit", "finish"]
        again = sheets.fold(*sheets.import_json(sheets.export_json(sheet, log)))
        assert again["finished"] and again["totals"] == {"Ana": 5, "Bo": 6} == sheets.fold(sheet, log)["totals"]
        assert again["end"]["over"] and again["winners"] == ["Bo"]


@pytest.mark.parametrize("target, players, expected", [("60 // (players - 3)", 3, None),
                                                      ("60 // (players - 3)", 4, 60),
                                                      ("60 // (players - 1)", 2, 60)])
def test_a_target_formula_is_computed_for_the_sheets_own_players(tmp_path, database, target, players, expected):
    """The target of a 2-4 player game: at 3 players `60 // (players - 3)` divides by zero, so starting such a sheet
    is a 400 naming the rule and stores nothing; `players - 1` is fine for every real table (and was a 500 on every
    round, asked with one pretend player)."""
    path = game_file(tmp_path, f'  rounds: {{target: "{target}"}}')
    app = create_app({"TESTING": True, "DATABASE_URL": database, "CARD_FILES": [str(path)],
                      "INSTANCE_PATH": str(tmp_path / "instance")})
    client = app.test_client()
    header = {"X-CSRF-Token": client.get("/api/v1/csrf").get_json()["csrf"]}
    names = ["Ana", "Bo", "Cy", "Di"][:players]
    r = client.post("/api/v1/sheets", json={"game": "probe", "players": names}, headers=header)
    store = storage.Store(database)
    try:
        if expected is None:
            assert r.status_code == 400, r.get_data(as_text=True)
            body = r.get_json()
            assert body["field"] == "scoring.rounds.target" and "for 3 players" in body["error"], body
            assert store.sheet_ids() == []
            page = client.post("/sheets", data={"_csrf": header["X-CSRF-Token"], "game": "probe",
                                                **{f"players.{i}": n for i, n in enumerate(names)}})
            assert page.status_code == 400 and "scoring.rounds.target" in page.get_data(as_text=True)
            assert store.sheet_ids() == []
            return
        assert r.status_code == 201, r.get_data(as_text=True)
        api = f"/api/v1/sheets/{r.get_json()['token']}"
        for _ in range(2):
            added = client.post(f"{api}/entries", json={"points": {"Ana": 1}}, headers=header)
            assert added.status_code == 201, added.get_data(as_text=True)
        state = client.get(api).get_json()
        assert state["end"]["target"] == expected and len(state["entries"]) == 2 and not state["finished"]
    finally:
        store.close()


def test_a_target_that_fails_in_a_later_round_refuses_that_round_and_keeps_the_others(tmp_path, store):
    """`60 // (3 - round)` cannot be computed once three rounds are played: the third round is a 400 naming the
    rule, decided inside the write, and the sheet is as it was (two rounds, its version unchanged)."""
    path = game_file(tmp_path, '  rounds: {target: "60 // (3 - round)"}')
    with library.using(library.Library([path])):
        sheet_id = store.open(sheet_service.create(store, {"game": "probe", "players": PLAYERS})).sheet_id
        for _ in range(2):
            sheet_service.change(store, sheet_id, "add", points(1, 2))
        with pytest.raises(InputError) as refused:
            sheet_service.change(store, sheet_id, "add", points(1, 2))
        assert refused.value.field == "scoring.rounds.target" and "in round 3" in str(refused.value)
        sheet, log = store.load(sheet_id)
        assert len(log) == 2 and store.version(sheet_id) == 2
        assert store.summaries([sheet_id])[sheet_id]["totals"] == {"Ana": 2, "Bo": 4}
