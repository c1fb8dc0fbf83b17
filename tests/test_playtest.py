"""Playtest figures (`companion playtest FILE --json`): twelve finished sheets of a designer's game, made here with
known hands, times and versions, give back the plays, player counts, seats' shares, each rule's numbers, rounds,
minutes and margins, recomputed here from what the sheets hold."""
import json
import shutil
import sqlite3

import pytest

from companion import library
from companion.cli import main
from companion.sheets import files as sheet_files
from companion.sheets import service as sheet_service
from companion.sheets.storage import Store
from helpers.playtest import EXAMPLE, expected, twelve_games


@pytest.fixture
def game_file(tmp_path):
    """The example game copied (its version is the copy's digest), and the same game as version "2"."""
    shutil.copy(EXAMPLE, tmp_path / "cometas.yaml")
    text = EXAMPLE.read_text(encoding="utf-8").replace("game: cometas\n", "game: cometas\nversion: 2\n", 1)
    (tmp_path / "v2").mkdir()
    (tmp_path / "v2" / "cometas.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "cometas.yaml", tmp_path / "v2" / "cometas.yaml"


@pytest.fixture
def instance(tmp_path, monkeypatch):
    folder = tmp_path / "instance"
    folder.mkdir()
    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(folder))
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    return folder












def close(got, want):
    """Numbers equal to a millionth, in the same shape."""
    if isinstance(want, dict):
        assert set(got) >= set(want), (got, want)
        for key in want:
            close(got[key], want[key])
    elif isinstance(want, list):
        assert len(got) == len(want)
        for a, b in zip(got, want, strict=True):
            close(a, b)
    elif isinstance(want, float):
        assert got == pytest.approx(want, abs=1e-6)
    else:
        assert got == want


def playtest_json(path, capsys) -> dict:
    assert main(["playtest", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_twelve_finished_sheets_give_their_figures(game_file, instance, capsys):
    path, _ = game_file
    games = twelve_games()
    with library.using(library.Library([path], eager=False)):
        card_version = library.current().get("cometas").version
        store = Store(f"sqlite:///{instance / 'companion.sqlite'}")
        for export, _known in games:
            store.create(*sheet_files.import_json({**export, "card_version": card_version}))
        # an unfinished sheet and another game's finished one are not counted
        token = sheet_service.create(store, {"game": "cometas", "players": ["Ana", "Bea"]})
        sheet_service.change(store, store.open(token).sheet_id, "add", {"points": {"Ana": 3}})
        store.close()
    report = playtest_json(path, capsys)
    assert report["game"] == "cometas"
    assert list(report["versions"]) == [card_version]
    figures = report["versions"][card_version]
    close(figures, expected([known for _, known in games]))
    assert figures["players"] == {"2": 4, "3": 4, "4": 4}
    close(figures["by_players"]["3"], expected([known for _, known in games if len(known["players"]) == 3]))


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_each_version_has_its_own_figures_newest_first(game_file, instance, capsys):
    """Sheets started from the file, then from its "version: 2", each record the version they started with."""
    path, v2 = game_file
    games = twelve_games(seed=7)
    for file, part in ((path, games[:5]), (v2, games[5:])):
        with library.using(library.Library([file], eager=False)):
            store = Store(f"sqlite:///{instance / 'companion.sqlite'}")
            for export, _known in part:
                token = sheet_service.create(store, {"game": "cometas", "players": export["players"]})
                sheet_id = store.open(token).sheet_id
                for record in export["log"][:-1]:
                    sheet_service.change(store, sheet_id, "add", record["body"])
                if not store.meta(sheet_id)["finished"]:
                    sheet_service.change(store, sheet_id, "finish", {})
            store.close()
    digest = __import__("hashlib").sha256(path.read_bytes()).hexdigest()[:12]
    report = playtest_json(v2, capsys)
    assert list(report["versions"]) == ["2", digest]
    assert report["versions"]["2"]["plays"] == 7 and report["versions"][digest]["plays"] == 5
    close({k: v for k, v in report["versions"]["2"].items() if k not in ("minutes", "by_players")},
          {k: v for k, v in expected([known for _, known in games[5:]]).items() if k != "minutes"})


def test_no_finished_sheet_is_said_and_exit_0(game_file, instance, capsys):
    path, _ = game_file
    assert main(["playtest", str(path)]) == 0
    assert "no finished sheet" in capsys.readouterr().out
    assert playtest_json(path, capsys) == {"game": "cometas", "versions": {}}


def test_a_database_from_before_versions_were_kept_gets_them_and_its_sheets_are_unknown(game_file, instance,
                                                                                            capsys):
    """A store made before sheets recorded their version: its table is made at start, its sheets count as
    "unknown", and a new sheet records its version."""
    path, _ = game_file
    games = twelve_games(seed=3)[:2]
    url = f"sqlite:///{instance / 'companion.sqlite'}"
    with library.using(library.Library([path], eager=False)):
        store = Store(url)
        for export, _known in games:
            store.create(*sheet_files.import_json(export))  # (an export of those days: no card_version)
        store.close()
    with sqlite3.connect(instance / "companion.sqlite") as db:
        db.execute("DROP TABLE sheet_card_versions")
    report = playtest_json(path, capsys)
    assert list(report["versions"]) == ["unknown"] and report["versions"]["unknown"]["plays"] == 2
    with sqlite3.connect(instance / "companion.sqlite") as db:
        assert db.execute("SELECT count(*) FROM sheet_card_versions").fetchone() == (0,)


def test_the_text_report_names_each_version_and_rule(game_file, instance, capsys):
    path, _ = game_file
    with library.using(library.Library([path], eager=False)):
        store = Store(f"sqlite:///{instance / 'companion.sqlite'}")
        for export, _known in twelve_games()[:3]:
            store.create(*sheet_files.import_json({**export, "card_version": "7"}))
        store.close()
    assert main(["playtest", str(path)]) == 0
    out = capsys.readouterr().out
    assert "cometas version 7: 3 finished games" in out
    for rule in ("flocks", "tails", "rainbows", "knots"):
        assert f"rule {rule}: mean" in out
