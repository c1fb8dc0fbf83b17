"""A saved sheet of a game scored from data (scoring: with rounds, a target, fewest wins, tie-breakers): each entry
scores one round (its number filled in by the sheet), the sheet finishes itself when the game is over by its rules,
and names the winner the rules give; on the server's store and in a phone's own sheet alike."""

import pytest

from companion import library, sheets
from companion.games import rounds as rounds_helper
from companion.sheets import service as sheet_service
from companion.sheets import storage
from companion.web.site import browser
from helpers.probe_game import game_file


@pytest.fixture
def store(tmp_path):
    s = storage.Store(f"sqlite:///{tmp_path / 'sheets.sqlite'}")
    yield s
    s.close()


def play(store, path, hands, players=("Ana", "Bo")):
    """A sheet of the game, one round added a hand of each player; the sheet's state after each round."""
    with library.using(library.Library([path])):
        token = sheet_service.create(store, {"game": path.stem, "players": list(players)})
        sheet_id = store.open(token).sheet_id
        states = []
        for round_hands in hands:
            request = {"players": [{"name": n, "cards": cards, "counters": counters}
                                   for n, (cards, counters) in zip(players, round_hands, strict=True)]}
            try:
                sheet_service.change(store, sheet_id, "add", {"request": request})
            except sheets.Conflict as e:
                states.append(e.kind)
                continue
            states.append(sheets.fold(*store.load(sheet_id)))
        return states, store.summaries([sheet_id])[sheet_id]


def test_three_rounds_then_the_sheet_is_finished_with_the_rules_winner(tmp_path, store):
    path = game_file(tmp_path, "  rounds: 3")
    hands = [[({"PR-R": 3}, {}), ({"PR-B": 1}, {})]] * 2 + [[({"PR-R": 1}, {"bonus": 0}), ({"PR-B": 1}, {"bonus": 9})]]
    states, summary = play(store, path, hands + hands[:1])
    first, second, third, after = states
    # round 1: Ana 6 + most reds 3 = 9, Bo 5 + most blues 3 = 8
    assert first["totals"] == {"Ana": 9, "Bo": 8} and not first["finished"] and first["end"]["round"] == 2
    assert second["totals"] == {"Ana": 18, "Bo": 16}
    # round 3 is the last: Bo's bonus counts (when: last); Ana 2 + 3, Bo 5 + 3 + 9
    assert third["totals"] == {"Ana": 23, "Bo": 33} and third["finished"] and third["winners"] == ["Bo"]
    assert [e["body"]["request"]["round"] for e in third["entries"]] == [1, 2, 3]
    assert after == "over"  # a fourth round is refused: the game is over by its rules
    assert summary["finished"] and summary["winners"] == ["Bo"]  # the list of sheets, from kept totals alone


def test_to_a_target_with_fewest_points_winning_and_a_tie_breaker(tmp_path, store):
    path = game_file(tmp_path, '  rounds: {target: "20"}\n  winner: fewest\n  ties: ["bonus"]')
    hands = [[({"PR-B": 2}, {}), ({"PR-B": 2}, {})], [({"PR-B": 1}, {"bonus": 1}), ({"PR-B": 1}, {"bonus": 4})]]
    states, summary = play(store, path, hands)
    assert summary["winners"] == ["Ana"]
    # round 1: both 10 + split 3 // 2 = 11; round 2: 5 + 1 + bonus each (a target game's every round is its last)
    assert states[0]["totals"] == {"Ana": 11, "Bo": 11} and not states[0]["finished"]
    assert states[1]["totals"] == {"Ana": 18, "Bo": 21} and states[1]["finished"]
    assert states[1]["winners"] == ["Ana"]  # fewest points win


def test_a_tie_on_totals_is_broken_by_the_last_rounds_hands(tmp_path, store):
    path = game_file(tmp_path, '  rounds: 1\n  ties: ["count()"]')
    states, _ = play(store, path, [[({"PR-R": 1, "PR-B": 1}, {}), ({"PR-B": 1, "PR-R": 1}, {})]])
    assert states[0]["totals"] == {"Ana": 9, "Bo": 9} and states[0]["winners"] == ["Ana", "Bo"]  # 7 + 1 + 1 each
    states, _ = play(store, game_file(tmp_path, '  rounds: 1\n  ties: ["count(colour == \'red\')"]', "probe2"),
                     [[({"PR-R": 2}, {}), ({"PR-B": 1}, {})]])
    assert states[0]["totals"] == {"Ana": 7, "Bo": 8} and states[0]["winners"] == ["Bo"]


def test_a_phone_kept_sheet_ends_the_same_way(tmp_path):
    path = game_file(tmp_path, "  rounds: 2")
    with library.using(library.Library([path])):
        kept = browser.sheet_new({"sheet": {"game": "probe", "players": ["Ana", "Bo"]}})
        for _ in range(2):
            request = {"players": [{"name": "Ana", "cards": {"PR-R": 1}}, {"name": "Bo", "cards": {"PR-B": 1}}]}
            kept = browser.sheet_change({"sheet": kept["sheet"], "log": kept["log"], "action": "add",
                                         "data": {"request": request}})
    state = kept["state"]
    assert state["finished"] and state["winners"] == ["Bo"] and state["totals"] == {"Ana": 10, "Bo": 16}
    assert [r["action"] for r in kept["log"]] == ["add", "add", "finish"]


def test_the_round_helpers_score_a_round_as_a_whole():
    """Majorities need the table: a game's round may be scored whole (`whole_round`) instead of entry by entry."""
    def whole(entries):
        best = max(e["won"] for e in entries)
        return {e["name"]: 5 if e["won"] == best else 0 for e in entries}
    result = rounds_helper.score([[{"name": "A", "won": 3}, {"name": "B", "won": 1}],
                                  [{"name": "A", "won": 0}, {"name": "B", "won": 2}]], 10, whole_round=whole)
    assert result["rounds"] == [{"A": 5, "B": 0}, {"A": 0, "B": 5}] and result["totals"] == {"A": 5, "B": 5}


def test_an_export_stopped_half_way_leaves_no_half_written_file(tmp_path, store, monkeypatch):
    sheet_service.create(store, {"game": "gemas", "players": ["A", "B"]})
    real_replace = sheet_service.os.replace

    def interrupted(*_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(sheet_service.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sheet_service.export_all(store, tmp_path / "backup")
    assert list((tmp_path / "backup").iterdir()) == []
    monkeypatch.setattr(sheet_service.os, "replace", real_replace)
    assert len(sheet_service.export_all(store, tmp_path / "backup")) == 1


def test_a_points_only_duplicon_sheet_names_its_winner_at_the_target(store):
    token = sheet_service.create(store, {"game": "duplicon", "players": ["Ana", "Bo"]})
    sheet_id = store.open(token).sheet_id
    sheet_service.change(store, sheet_id, "add", {"points": {"Ana": 60, "Bo": 40}})
    state = sheets.fold(*store.load(sheet_id))
    assert not state["finished"] and state["leaders"] == ["Ana"] and state["winners"] == []
    sheet_service.change(store, sheet_id, "add", {"points": {"Ana": 10, "Bo": 64}})
    state = sheets.fold(*store.load(sheet_id))
    assert state["totals"] == {"Ana": 70, "Bo": 104} and state["finished"] and state["winners"] == ["Bo"]
