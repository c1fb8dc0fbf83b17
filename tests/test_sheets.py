"""Saved sheets as plain data: entries scored by each game's rules, the log folded into totals, conflicts, and
export → import giving the same sheet."""
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import games, service, sheets
from companion.core.schema import InputError
from companion.sheets import files as sheet_files
from helpers.games import GAME_IDS, examples

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def example(game):
    return json.loads((EXAMPLES / f"{game}-score.json").read_text())


def names_in(game):
    result = service.score(game, example(game))
    return [str(label) for label, _ in games.get(game).sheet_points(result)]


def names_typed(data):
    """Every value of a "name" key in a request, in order of first appearance."""
    found = []
    if isinstance(data, dict):
        found += [data["name"]] if "name" in data else []
        data = list(data.values())
    if isinstance(data, list):
        for item in data:
            found += [n for n in names_typed(item) if n not in found]
    return found


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_seats_of_a_scored_entry_are_its_players(game):
    assert names_in(game) == (["attacker", "defender"] if game == "nobles" else names_typed(example(game)))


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_scored_entry_gives_each_seat_the_points_its_rules_give(game):
    result = service.score(game, example(game))
    seats = names_in(game)
    players = [f"P{i}" for i in range(len(seats))] + ["Spare"]
    body = sheets.entry_body(game, players, {"request": example(game), "seats": list(reversed(players[:-1]))})
    expected = dict(zip(reversed(players[:-1]), [p for _, p in games.get(game).sheet_points(result)], strict=True))
    assert body["points"] == {**expected, "Spare": 0}
    assert body["request"] == example(game) and body["seats"] == list(reversed(players[:-1]))


def test_the_points_come_from_the_rules_not_from_the_client():
    ana_bruno = ["Ana", "Bruno"]
    body = sheets.entry_body("duquesa", ana_bruno, {"request": example("duquesa")})
    florins = {p["name"]: p["florins"] for p in service.score("duquesa", example("duquesa"))["players"]}
    assert body["points"] == florins and body["seats"] == ana_bruno  # the request's names are the sheet's players
    with pytest.raises(InputError, match="points"):
        sheets.entry_body("duquesa", ana_bruno, {"request": example("duquesa"), "points": {"Ana": 999}})


def test_duel_seats_say_who_attacked():
    body = sheets.entry_body("nobles", ["Ana", "Bruno"], {"request": example("nobles"), "seats": ["Bruno", "Ana"]})
    winner = service.score("nobles", example("nobles"))["winner"]
    assert body["points"] == ({"Bruno": 1, "Ana": 0} if winner == "attacker" else {"Bruno": 0, "Ana": 1})


@pytest.mark.parametrize("data, field", [
    ({"points": {"Zoe": 3}}, "points.Zoe"),
    ({"points": {"Ana": "three"}}, "points.Ana"),
    ({"points": {"Ana": 1}, "colour": "red"}, "colour"),
    ({}, "points"),
    ({"request": {"common": "DQ99", "players": []}}, "request.common"),
    ({"request": example("duquesa"), "seats": ["Ana", "Ana"]}, "seats[1]"),
    ({"request": example("duquesa"), "seats": ["Ana"]}, "seats"),
    ({"request": example("duquesa"), "seats": ["Ana", "Zoe"]}, "seats[1]"),
    ({"points": {"Ana": 1}, "note": "x" * 201}, "note"),
    ([1, 2], ""),
])
def test_bad_entries_name_the_field(data, field):
    with pytest.raises(InputError) as e:
        sheets.entry_body("duquesa", ["Ana", "Bruno"], data)
    assert e.value.field == field, str(e.value)


def test_new_sheets_are_checked():
    assert sheets.new_sheet({"game": "gemas", "players": ["A", "B"]})["title"] == ""
    for data, field in [({"game": "chess", "players": ["A"]}, "game"), ({"game": "gemas", "players": []}, "players"),
                        ({"game": "gemas", "players": ["A", "A"]}, "players[1]"), ({"game": "gemas"}, "players"),
                        ({"game": "gemas", "players": ["A"]}, "players"),
                        ({"game": "duquesa", "players": list("ABC")}, "players")]:
        with pytest.raises(InputError) as e:
            sheets.new_sheet(data)
        assert e.value.field == field


SHEET = {"game": "duquesa", "title": "Friday", "players": ["Ana", "Bruno"]}


def rec(seq, action, target=None, **points):
    r = {"seq": seq, "action": action, "at": "2026-11-21T20:00:00Z"}
    if target:
        r["target"] = target
    if action in sheets.WITH_BODY:
        r["body"] = {"points": {"Ana": points.get("Ana", 0), "Bruno": points.get("Bruno", 0)}}
    return r


def test_undo_edit_and_restore_keep_the_history_and_change_the_totals():
    log = [rec(1, "add", Ana=5, Bruno=2), rec(2, "add", Ana=1), rec(3, "edit", 1, Ana=7, Bruno=2), rec(4, "undo", 2)]
    state = sheets.fold(SHEET, log)
    assert state["totals"] == {"Ana": 7, "Bruno": 2} and state["version"] == 4
    assert [(e["seq"], e["rev"], e["active"], e["changes"]) for e in state["entries"]] == [(1, 3, True, 1),
                                                                                           (2, 4, False, 1)]
    state = sheets.fold(SHEET, [*log, rec(5, "restore", 2), rec(6, "finish")])
    assert state["totals"] == {"Ana": 8, "Bruno": 2} and state["finished"] and state["winners"] == ["Ana"]


def test_stale_changes_are_conflicts_and_adds_never_are():
    state = sheets.fold(SHEET, [rec(1, "add", Ana=5), rec(2, "edit", 1, Ana=6), rec(3, "add")])
    sheets.check_change(state, "add", None, None)  # another phone added meanwhile: both kept
    sheets.check_change(state, "edit", 1, 2)
    with pytest.raises(sheets.Conflict) as e:
        sheets.check_change(state, "edit", 1, 1)  # saw entry 1 before it was edited
    assert e.value.entry["body"]["points"]["Ana"] == 6
    with pytest.raises(sheets.NotFound):
        sheets.check_change(state, "undo", 9, 9)
    done = sheets.fold(SHEET, [rec(1, "add"), rec(2, "undo", 1)])
    with pytest.raises(sheets.Conflict, match="undone"):
        sheets.check_change(done, "edit", 1, 2)
    finished = sheets.fold(SHEET, [rec(1, "add"), rec(2, "finish")])
    with pytest.raises(sheets.Conflict, match="finished"):
        sheets.check_change(finished, "add", None, None)


def full_log():
    body = sheets.entry_body("duquesa", SHEET["players"], {"request": example("duquesa"), "note": "primera, «con» ñ"})
    return [{"seq": 1, "action": "add", "at": "2026-11-21T20:00:00Z", "body": body, "client_id": "phone-a-0001"},
            rec(2, "add", Ana=3, Bruno=-1), rec(3, "edit", 2, Ana=4), rec(4, "undo", 1), rec(5, "restore", 1),
            rec(6, "finish"), rec(7, "reopen")]


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_then_import_gives_the_same_sheet(fmt):
    log = full_log()
    if fmt == "json":
        sheet, again = sheet_files.import_json(json.loads(json.dumps(sheet_files.export_json(SHEET, log))))
    else:
        sheet, again = sheet_files.import_csv(sheet_files.export_csv(SHEET, log))
    assert sheet == SHEET and again == log
    assert sheets.fold(sheet, again) == sheets.fold(SHEET, log)


def test_a_csv_reads_as_a_table_of_points():
    lines = sheet_files.export_csv(SHEET, full_log()).splitlines()  # text quoted, numbers bare (issue 25, item 8)
    assert lines[0].endswith(',"Ana","Bruno"') and lines[1].startswith('"duquesa","Friday",0,"create"')
    assert lines[3].endswith(",3,-1")


@pytest.mark.parametrize("change, where", [
    (lambda d: d["log"][1].update(seq=9), "log[1].seq"),
    (lambda d: d["log"][2].update(target=8), "log[2]"),
    (lambda d: d["log"][0]["body"].update(request={"common": "nope"}), "log[0].request"),
    (lambda d: d["log"][1]["body"]["points"].update(Zoe=1), "log[1].points.Zoe"),
    (lambda d: d["log"][3].pop("target"), "log[3].target"),
    (lambda d: d["log"][1].update(client_id="phone-a-0001"), "log[1].client_id"),
    (lambda d: d.update(players=["Ana"]), "log[0].seats[1]"),
    (lambda d: d.update(format="excel"), "format"),
])
def test_a_damaged_export_is_refused_naming_the_change(change, where):
    data = json.loads(json.dumps(sheet_files.export_json(SHEET, full_log())))
    change(data)
    with pytest.raises(InputError) as e:
        sheet_files.import_json(data)
    assert e.value.field.startswith(where), str(e.value)


def test_a_damaged_csv_names_the_row():
    text = sheet_files.export_csv(SHEET, full_log()).replace(",3,-1", ",3,lots")
    with pytest.raises(InputError, match=r"row 4.Bruno: must be a whole number"):
        sheet_files.import_csv(text)
    with pytest.raises(InputError, match="column names"):
        sheet_files.import_csv("a,b\n1,2\n")


actions = st.lists(st.tuples(st.sampled_from(sheets.ACTIONS), st.integers(1, 8), st.integers(-50, 50)), max_size=25)


@settings(max_examples=examples(150), deadline=None)
@given(actions)
def test_any_accepted_history_round_trips_through_both_formats(steps):
    """Build a log by applying random changes the way the store does (refused ones are skipped)."""
    log = []
    for action, target, points in steps:
        state = sheets.fold(SHEET, log)
        entry = next((e for e in state["entries"] if e["seq"] == target), None)
        try:
            sheets.check_change(state, action, target if action in sheets.TARGETED else None,
                                entry["rev"] if entry else None)
        except (sheets.Conflict, sheets.NotFound):
            continue
        log.append(rec(len(log) + 1, action, target if action in sheets.TARGETED else None, Ana=points))
    assert sheet_files.import_json(sheet_files.export_json(SHEET, log))[1] == log
    assert sheet_files.import_csv(sheet_files.export_csv(SHEET, log))[1] == log


def test_players_named_like_csv_columns_survive_an_export_and_import():
    """Issue 15, item 8: a player called "note", "at" or "seq" broke the sheet's own CSV round trip."""
    sheet = sheets.new_sheet({"game": "gemas", "players": ["note", "at", "seq"]})
    log = [{"seq": 1, "action": "add", "at": "2026-11-21T20:00:00Z",
            "body": sheets.entry_body("gemas", sheet["players"], {"points": {"note": 3, "at": 1, "seq": 2},
                                                                  "note": "first round"})}]
    again, again_log = sheet_files.import_csv(sheet_files.export_csv(sheet, log))
    assert again == sheet and sheets.fold(again, again_log)["totals"] == {"note": 3, "at": 1, "seq": 2}
