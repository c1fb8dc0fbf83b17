"""`companion serve --cards FILE` serves the file as it is now (companion/library.py reads it again when it, its art
or its fonts change) and `/preview/<game>` draws every card of it; a file saved broken keeps its last good version
served, and the preview names its errors by file and line."""
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import library
from companion.web import create_app
from helpers.server import free_port

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example-game"
PEAR = "name: {es: Peras, en: Pears}"


@pytest.fixture
def game(tmp_path):
    """A copy of the example game's folder (its data file, art and fonts)."""
    shutil.copytree(EXAMPLE, tmp_path / "game")
    return tmp_path / "game" / "cosecha.yaml"


@pytest.fixture
def client(game, tmp_path):
    return create_app({"TESTING": True, "CARD_FILES": [str(game)], "INSTANCE_PATH": str(tmp_path / "instance")}) \
        .test_client()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def page(client, path: str) -> str:
    r = client.get(path, follow_redirects=True)
    assert r.status_code == 200, path
    return r.get_data(as_text=True)


def test_the_preview_draws_every_component_linking_to_its_page(client, game):
    shown = page(client, "/preview/cosecha?lang=en")
    card_set = library.Library([game]).get("cosecha")
    for c in card_set.components:
        assert f"<code>{c.id}</code>" in shown, c.id
        if c.kind != "back":
            assert f'href="/c/cosecha/{c.id}"' in shown
    assert shown.count('<svg class="face-svg"') == len(card_set.components)  # fronts, and the back
    ids = re.findall(r' id="([^"]+)"', shown)
    assert len(ids) == len(set(ids)), "two faces of one page share an id"
    assert "/static/preview.js" in shown and 'data-preview-url="/preview/cosecha/version"' in shown
    assert ('href="/preview/cosecha"' in page(client, "/rules/cosecha")
            and 'href="/preview/cosecha"' in page(client, "/"))
    spanish = page(client, "/preview/cosecha?lang=es")
    assert "Vista previa" in spanish and "Peras" in spanish


def test_a_changed_name_shows_at_the_next_page_load(client, game):
    before = client.get("/preview/cosecha/version").get_json()["version"]
    assert "Peras" in page(client, "/C/HV-PEAR-5")  # (the printed code's address: the page in Spanish)
    edit(game, PEAR, "name: {es: Peras maduras, en: Ripe pears}")
    assert "Peras maduras" in page(client, "/C/HV-PEAR-5")
    assert "Ripe pears" in page(client, "/c/cosecha/HV-PEAR-5?lang=en")
    assert "Ripe pears" in page(client, "/preview/cosecha?lang=en")
    assert client.get("/preview/cosecha/version").get_json()["version"] != before


def test_a_broken_file_keeps_its_last_good_version_and_the_preview_names_the_error(client, game):
    edit(game, PEAR, "name: {es: Peras maduras, en: Ripe pears}")
    assert "Ripe pears" in page(client, "/c/cosecha/HV-PEAR-5?lang=en")
    good = client.get("/preview/cosecha/version").get_json()
    line = game.read_text(encoding="utf-8").split("\n").index(next(
        t for t in game.read_text(encoding="utf-8").split("\n") if "id: HV-PEAR-5" in t)) + 1
    edit(game, "id: HV-PEAR-5, type: card, layout: fruit, qty: 2,", "id: HV-PEAR-5, type: card, layout: fruit, qty: 0,")
    broken = client.get("/preview/cosecha/version").get_json()
    assert broken["version"] != good["version"] and broken["errors"] >= 1
    shown = page(client, "/preview/cosecha?lang=en")
    assert f"{game}:{line}: HV-PEAR-5: qty:" in shown and 'class="problems file-errors"' in shown
    assert "Ripe pears" in shown  # the cards drawn are the last good version's
    assert "Ripe pears" in page(client, "/C/HV-PEAR-5")  # (in English: the language the reader chose above)
    edit(game, "qty: 0,", "qty: 3,")  # fixed: served as it is, the errors gone
    shown = page(client, "/preview/cosecha?lang=en")
    assert "file-errors" not in shown and "× 3" in shown
    assert client.get("/preview/cosecha/version").get_json()["errors"] == 0


def test_the_version_follows_the_art_and_fonts_too(client, game):
    versions = [client.get("/preview/cosecha/version").get_json()["version"]]
    for changed in (game.parent / "art" / "pear.svg", game.parent / "fonts" / "Vera.ttf"):
        stat = changed.stat()
        os.utime(changed, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
        versions.append(client.get("/preview/cosecha/version").get_json()["version"])
    assert len(set(versions)) == 3
    art = client.get("/art/cosecha/art/pear.svg")
    assert "no-cache" in art.headers["Cache-Control"]  # a designer's picture is checked again at each use
    assert client.get("/art/cosecha/art/pear.svg", headers={"If-None-Match": art.headers["ETag"]}).status_code == 304


def test_a_shipped_game_has_a_preview_without_the_watch(client):
    shown = page(client, "/preview/nobles?lang=en")
    assert "preview.js" not in shown and "NB-" in shown
    assert client.get("/preview/nobles/version").status_code == 404
    assert client.get("/preview/chess").status_code == 404


def test_looking_for_changes_costs_little(game):
    """The stat of every watched file, at the start of each request: well under a millisecond for the example."""
    own = library.Library([game])
    assert len(own.added()[0].watched) >= 10  # the data file, its pictures and its fonts
    own.refresh()
    start = time.process_time()  # CPU time (stat calls included): a busy machine does not stretch it
    for _ in range(200):
        own.refresh()
    assert (time.process_time() - start) / 200 < 0.001


@pytest.mark.slow
def test_serve_prints_the_preview_address(game, tmp_path):
    port = free_port()
    env = dict(os.environ, COMPANION_INSTANCE_PATH=str(tmp_path / "instance"))
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--port", str(port), "--cards", str(game)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = proc.stdout.readline() + proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert f"every card at http://127.0.0.1:{port}/preview/cosecha" in first


def test_a_changed_spreadsheet_row_shows_at_the_next_page_load(client, game):
    """A component read from the file's spreadsheet (`rows:`) is served as the spreadsheet is now."""
    head = "id,type,suit,rank,name.es,name.en,text.es,text.en\r\n"
    sheet = game.parent / "more.csv"
    sheet.write_text(head + "HV-PEAR-9,card,pear,9,Pera,Pear,Nada.,Nothing.\r\n", encoding="utf-8")
    edit(game, "\ncomponents:", "\nrows: more.csv\ncomponents:")
    assert "Pera" in page(client, "/C/HV-PEAR-9")
    sheet.write_text(head + "HV-PEAR-9,card,pear,9,Pera dorada,Golden pear,Nada.,Nothing.\r\n", encoding="utf-8")
    assert "Pera dorada" in page(client, "/C/HV-PEAR-9")
    assert "Pera dorada" in page(client, "/preview/cosecha")
    sheet.write_text(head + "HV-PEAR-9,card,pear,99,Pera dorada,Golden pear,Nada.,Nothing.\r\n", encoding="utf-8")
    shown = page(client, "/preview/cosecha?lang=en")
    assert f"{sheet}:2: HV-PEAR-9: rank:" in shown and "Golden pear" in shown  # named by row; the last good drawn
