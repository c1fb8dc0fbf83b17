"""`companion sheets export --all DIR` backs up every saved sheet, one JSON file each; `companion sheets import
FILE...` restores them, each file checked like a new change, all or nothing."""
import json
import os

import pytest

import postgres
from companion.cli import main
from companion.sheets import files as sheet_files
from companion.sheets import service as sheet_service
from companion.sheets.storage import Store


@pytest.fixture
def instance(tmp_path, monkeypatch, database):
    """The server's instance folder, its database SQLite in it or a real PostgreSQL (COMPANION_DATABASE_URL)."""
    folder = tmp_path / "instance"
    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(folder))
    if database.startswith("sqlite"):
        monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    else:
        monkeypatch.setenv("COMPANION_DATABASE_URL", database)
    return folder


def store_of(folder) -> Store:
    """The store the CLI uses for this instance."""
    folder.mkdir(parents=True, exist_ok=True)
    return Store(os.environ.get("COMPANION_DATABASE_URL") or f"sqlite:///{folder / 'companion.sqlite'}")


def exports(store: Store) -> list[dict]:
    return [sheet_files.export_json(*store.load(i)) for i in store.sheet_ids()]


def fill(store: Store) -> None:
    token = sheet_service.create(store, {"game": "gemas", "title": "Friday", "players": ["Ana", "Bruno", "Carla"]})
    sheet_id = store.open(token).sheet_id
    sheet_service.change(store, sheet_id, "add", {"points": {"Ana": 4, "Bruno": 2}})
    sheet_service.change(store, sheet_id, "add", {"request": {"players": [
        {"name": "Ana", "gems": {"green": 1}}, {"name": "Bruno", "gems": {"blue": 2}},
        {"name": "Carla", "gems": {"orange": 1}}]}})
    sheet_service.change(store, sheet_id, "undo", {"base": 1}, target=1)
    sheet_service.change(store, sheet_id, "finish", {})
    sheet_service.create(store, {"game": "nobles", "players": ["A", "B"]})


def test_export_all_then_import_into_a_new_instance_gives_the_same_sheets(instance, tmp_path, monkeypatch, capsys):
    store = store_of(instance)
    fill(store)
    before = exports(store)
    backup = tmp_path / "backup"
    assert main(["sheets", "export", "--all", str(backup)]) == 0
    files = sorted(backup.glob("*.json"))
    assert [f.name for f in files] == ["sheet-00001-gemas.json", "sheet-00002-nobles.json"]
    assert [json.loads(f.read_text(encoding="utf-8")) for f in files] == before
    assert "2 sheets written" in capsys.readouterr().out

    other = tmp_path / "other"
    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(other))
    if os.environ.get("COMPANION_DATABASE_URL"):
        monkeypatch.setenv("COMPANION_DATABASE_URL", postgres.cluster().new_database())
    assert main(["sheets", "import", *map(str, files)]) == 0
    out = capsys.readouterr().out
    assert out.count("imported; its edit link is /s/") == 2
    assert exports(store_of(other)) == before


def test_a_damaged_file_is_named_exits_2_and_nothing_is_imported(instance, tmp_path, capsys):
    store = store_of(instance)
    fill(store)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(sheet_files.export_json(*store.load(1))), encoding="utf-8")
    damaged = json.loads(good.read_text(encoding="utf-8"))
    damaged["log"][1]["seq"] = 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(damaged), encoding="utf-8")
    count = len(store.sheet_ids())
    assert main(["sheets", "import", str(good), str(bad), str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: log[1].seq: must be 2" in err and "missing.json: cannot be read" in err
    assert str(good) not in err
    assert len(store.sheet_ids()) == count, "nothing may be half-imported"


def test_export_into_a_file_is_refused(instance, tmp_path, capsys):
    target = tmp_path / "a-file"
    target.write_text("keep me")
    assert main(["sheets", "export", "--all", str(target)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err and target.read_text() == "keep me"
