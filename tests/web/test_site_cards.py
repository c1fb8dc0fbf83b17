"""`companion site --cards FILE`: a designer's own game on the static site beside the shipped ones (issue 36's
"left"), read and checked as `validate` reads it: its rules and card pages, the art and fonts its file names, and
(tests/web/test_browser_data_scoring.py, test_browser_data_sheet.py) its scoring on the phone. A broken file is an
error at its line and nothing is written."""
import shutil
from pathlib import Path

import pytest

from companion.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example-game"
BASE = "https://you.github.io/deck"


@pytest.mark.slow  # builds a whole site with the phones' Python (about 4 s)
def test_a_designers_file_goes_on_the_site_with_its_art_and_fonts(tmp_path, capsys):
    game = shutil.copytree(EXAMPLE, tmp_path / "game")
    out = tmp_path / "site"
    assert main(["site", "--out", str(out), "--base-url", BASE, "--no-scoring",
                 "--cards", str(game / "cosecha.yaml")]) == 0
    capsys.readouterr()
    card = (out / "en" / "c" / "cosecha" / "HV-PEAR-5" / "index.html").read_text(encoding="utf-8")
    assert ">Pears<" in card and "/deck/en/art/cosecha/art/pear.svg" in card  # its face, drawn from its layout
    for tree in (out, out / "en"):
        assert (tree / "art/cosecha/art/pear.svg").read_bytes() == (game / "art/pear.svg").read_bytes()
        assert (tree / "fonts/cosecha/body-regular.ttf").read_bytes() == (game / "fonts/Vera.ttf").read_bytes()
    assert (out / "rules" / "cosecha" / "index.html").is_file() and (out / "rules" / "duquesa" / "index.html").is_file()
    home = (out / "en" / "index.html").read_text(encoding="utf-8")
    assert "Harvest" in home and "/deck/en/rules/cosecha/" in home  # listed with the shipped games
    assert not (out / "art" / "cosecha" / "cosecha.yaml").exists()  # only the files it names


def test_a_broken_file_or_a_taken_game_id_is_an_error_at_its_line_and_nothing_is_written(tmp_path, capsys):
    game = shutil.copytree(EXAMPLE, tmp_path / "game")
    data = game / "cosecha.yaml"
    text = data.read_text(encoding="utf-8")
    twin = game / "twin.yaml"  # the same game id again
    twin.write_text(text, encoding="utf-8")
    out = tmp_path / "site"
    assert main(["site", "--out", str(out), "--base-url", BASE, "--no-scoring", "--cards", str(data),
                 "--cards", str(twin)]) == 2
    err = capsys.readouterr().err
    assert f"{twin}:1: -: game: 'cosecha' is already the game of {data}" in err and "Traceback" not in err
    assert not out.exists()
    players = next(line for line in text.splitlines() if line.startswith("players:"))
    line = text[: text.index(players)].count("\n") + 1
    data.write_text(text.replace(players, "players: many"), encoding="utf-8")
    assert main(["site", "--out", str(out), "--base-url", BASE, "--no-scoring", "--cards", str(data)]) == 2
    err = capsys.readouterr().err
    assert f"{data}:{line}: -: players:" in err and "Traceback" not in err
    assert not out.exists()
    assert main(["site", "--out", str(out), "--base-url", BASE, "--cards", str(tmp_path / "none.yaml")]) == 2
    assert "none.yaml" in capsys.readouterr().err and not out.exists()
