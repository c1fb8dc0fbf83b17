"""Font files made to hurt (issue 37, items 1 and 5). A `fonts:` entry that is a link to a file outside the game's
folder (a session key, /etc/passwd) is refused by validate, never served at /fonts/<game>/..., never put on a static
site, and a game folder that turns bad while `serve --cards` runs is not served (the others are). A font whose
character map claims U+0000 to U+FFFFFFFF (reportlab's reader expanded it: 2.5 GB and 13 s) is refused by name in
well under a second. The bomb is made here with fontTools from a shipped font."""
import logging
import os
import shutil
import struct
import time
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables.DefaultTable import DefaultTable

from companion import cards
from companion.cli import main
from companion.pnp import font_tables
from companion.web import create_app
from companion.web.play import face_svg
from helpers.capped import child  # a child process capped in time and memory, and its peak resident memory

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "example-game"
SHIPPED_FONT = ROOT / "companion" / "pnp" / "fonts" / "NotoSerif-Regular.ttf"
BODY_LINE = 33  # cosecha.yaml's `body:` family: fonts/Vera.ttf is its regular face
PEAK_MB = 500  # what validate may take on the bomb (it took 2,460 MB before)


def example(folder: Path) -> Path:
    """A copy of the example game in `folder`; its data file."""
    shutil.copytree(EXAMPLE, folder)
    return folder / "cosecha.yaml"


def link_out(game: Path, target: Path) -> None:
    """The game's body font made a link to `target`, outside its folder."""
    font = game.parent / "fonts" / "Vera.ttf"
    font.unlink()
    font.symlink_to(os.path.relpath(target, font.parent))


def secret(tmp_path: Path) -> tuple[Path, bytes]:
    """A file beside the game's folder that nobody may read through it (as an instance's session key)."""
    content = b"session-key-0123456789abcdef-DO-NOT-SERVE"
    path = tmp_path / "secret_key"
    path.write_bytes(content)
    return path, content


def cmap_bomb(source: Path, target: Path, groups=((0, 0xFFFFFFFF, 0),), fmt: int = 12) -> None:
    """`source` with its character map replaced by one format-12 (or 13) subtable holding `groups`."""
    font = TTFont(source)
    sub = struct.pack(">HHIII", fmt, 0, 16 + 12 * len(groups), 0, len(groups))
    sub += b"".join(struct.pack(">III", *g) for g in groups)
    table = DefaultTable("cmap")
    table.data = struct.pack(">HHHHI", 0, 1, 3, 10, 12) + sub
    font["cmap"] = table
    font.save(target)


# --- 1. A font link leading outside the game's folder ------------------------------------------------------------


def test_validate_refuses_a_font_link_leading_outside_by_name(tmp_path, capsys):
    game = example(tmp_path / "game")
    link_out(game, secret(tmp_path)[0])
    assert main(["validate", str(game)]) == 2
    err = capsys.readouterr().err
    assert f"{game}:{BODY_LINE}: -: fonts.body.regular: 'fonts/Vera.ttf' leads outside the data file's folder " \
           f"(through a link); a font file must be in that folder or below it" in err.splitlines()
    assert "Traceback" not in err


def test_a_font_link_is_never_served_nor_listed(tmp_path):
    game = example(tmp_path / "game")
    path, content = secret(tmp_path)
    link_out(game, path)
    card_set = cards.load_file(game)  # loading reads no font: the data is fine
    assert "body-regular.ttf" not in face_svg.font_files(card_set)  # what the phone and the static site load
    assert "body-bold.ttf" in face_svg.font_files(card_set)
    with pytest.raises(cards.DataError) as e:  # `serve --cards` with it: refused before serving, by name
        create_app({"TESTING": True, "CARD_FILES": [str(game)], "INSTANCE_PATH": str(tmp_path / "instance")})
    assert any("fonts.body.regular: 'fonts/Vera.ttf' leads outside" in line for line in e.value.errors)


def test_a_game_made_bad_while_served_is_not_served_and_the_others_are(tmp_path, caplog):
    game = example(tmp_path / "game")
    path, content = secret(tmp_path)
    app = create_app({"TESTING": True, "CARD_FILES": [str(game)], "INSTANCE_PATH": str(tmp_path / "instance")})
    client = app.test_client()
    assert client.get("/fonts/cosecha/body-regular.ttf").status_code == 200
    assert client.get("/c/cosecha/HV-PEAR-5").status_code == 200
    link_out(game, path)
    with caplog.at_level(logging.WARNING, logger="companion.library"):
        font = client.get("/fonts/cosecha/body-regular.ttf")
    assert font.status_code == 404 and content not in font.data
    assert f"{game} has errors; its game is not served until they are fixed" in caplog.text
    assert "fonts.body.regular: 'fonts/Vera.ttf' leads outside the data file's folder" in caplog.text
    for url in ("/c/cosecha/HV-PEAR-5", "/fonts/cosecha/body-bold.ttf", "/icons/cosecha.css", "/preview/cosecha"):
        assert client.get(url).status_code == 404, url
    assert client.get("/rules/duquesa").status_code == 200  # the other games go on
    link = game.parent / "fonts" / "Vera.ttf"
    link.unlink()
    shutil.copy(EXAMPLE / "fonts" / "Vera.ttf", link)  # fixed: served again at the next request
    assert client.get("/fonts/cosecha/body-regular.ttf").data == (EXAMPLE / "fonts" / "Vera.ttf").read_bytes()
    assert client.get("/c/cosecha/HV-PEAR-5").status_code == 200


def test_a_data_error_keeps_the_last_good_cards_only_while_their_files_are_sound(tmp_path):
    """A save with a typo keeps the last good cards on the preview (as before); with their font now a link out, not."""
    game = example(tmp_path / "game")
    app = create_app({"TESTING": True, "CARD_FILES": [str(game)], "INSTANCE_PATH": str(tmp_path / "instance")})
    client = app.test_client()
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("game: cosecha", "game: cosecha\nnonsense: 1", 1), encoding="utf-8")
    assert client.get("/preview/cosecha").status_code == 200
    link_out(game, secret(tmp_path)[0])
    assert client.get("/preview/cosecha").status_code == 404
    assert client.get("/fonts/cosecha/body-regular.ttf").status_code == 404


def test_the_static_site_refuses_a_game_with_a_font_link_and_copies_nothing(tmp_path, capsys, monkeypatch):
    """A link to a font outside (a font licensed to this machine only): the site would have published it."""
    game = example(tmp_path / "cards")
    outside = tmp_path / "licensed.ttf"
    outside.write_bytes((EXAMPLE / "fonts" / "Vera.ttf").read_bytes() + b"LICENSED-TO-THIS-MACHINE-ONLY")
    link_out(game, outside)
    monkeypatch.setattr(cards, "shipped_files", lambda: [game])
    cards.load_shipped.cache_clear()
    try:
        out = tmp_path / "site"
        assert main(["site", "--out", str(out), "--base-url", "https://you.github.io/deck", "--no-scoring"]) == 2
    finally:
        cards.load_shipped.cache_clear()
    err = capsys.readouterr().err
    assert f"{game}:{BODY_LINE}: -: fonts.body.regular: 'fonts/Vera.ttf' leads outside the data file's folder" in err
    assert "Traceback" not in err
    assert not [p for p in out.rglob("*") if p.is_file() and b"LICENSED-TO-THIS" in p.read_bytes()]


# --- 5. A character map bomb ---------------------------------------------------------------------------------------


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_validate_refuses_a_cmap_bomb_quickly_and_in_little_memory(tmp_path):
    game = example(tmp_path / "game")
    bomb = game.parent / "fonts" / "Vera.ttf"
    cmap_bomb(SHIPPED_FONT, bomb)
    assert bomb.stat().st_size < 700_000
    start = time.monotonic()
    code, err, peak_mb = child(["validate", str(game)], tmp_path)  # in a child: time and address space capped
    seconds = time.monotonic() - start
    assert code == 2, err
    assert f"{game}:{BODY_LINE}: -: fonts.body.regular: 'fonts/Vera.ttf' has a character map (cmap format 12) " \
           f"covering 4,294,967,296 code points up to U+FFFFFFFF; a font maps at most 1,114,112, from U+0000 to " \
           f"U+10FFFF" in err.splitlines(), err
    assert seconds < 10, seconds
    assert peak_mb < PEAK_MB, peak_mb


def test_the_bomb_is_refused_in_the_one_place_fonts_are_opened(tmp_path):
    """register_font (build, the phone's faces, the site) refuses it before reportlab reads it: little memory."""
    import tracemalloc

    from companion.pnp import layout

    bomb = tmp_path / "bomb.ttf"
    cmap_bomb(EXAMPLE / "fonts" / "Vera.ttf", bomb)
    tracemalloc.start()
    try:
        with pytest.raises(layout.FontProblem, match=r"^has a character map \(cmap format 12\) covering"):
            layout.register_font(str(bomb), "bomb-test", str(tmp_path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 << 20, peak


@pytest.mark.parametrize("groups,fmt,words", [
    (((0, 0x10FFFF, 0), (0, 0x10, 0)), 12, "covering 1,114,129 code points up to U+10FFFF"),
    (((0x110000, 0x110000, 1),), 12, "covering 1 code points up to U+110000"),
    (((0, 0xFFFFFFFF, 1),), 13, "(cmap format 13) covering 4,294,967,296"),
], ids=["overlapping-groups", "past-unicode", "format-13"])
def test_a_character_map_past_unicode_is_refused(tmp_path, groups, fmt, words):
    bomb = tmp_path / "bomb.ttf"
    cmap_bomb(EXAMPLE / "fonts" / "Vera.ttf", bomb, groups, fmt)
    assert words in font_tables.problem(str(bomb))


def test_a_format_4_map_of_overlapping_segments_is_refused():
    """32,767 segments each spanning U+0000 to U+FFFF: reportlab would walk two billion code points."""
    segments = 32767
    body = struct.pack(">HHHH", 2 * segments, 0, 0, 0) + struct.pack(f">{segments}H", *[0xFFFF] * segments)
    body += b"\0\0" + struct.pack(f">{segments}H", *[0] * segments) + b"\0\0" * 2 * segments
    sub = struct.pack(">HHH", 4, (6 + len(body)) & 0xFFFF, 0) + body  # (a 16-bit length: large maps wrap it)
    data = struct.pack(">HHHHI", 0, 1, 3, 1, 12) + sub
    assert "(cmap format 4) covering 2,147,418,112 code points" in font_tables.cmap_problem(data)


@pytest.mark.parametrize("data,words", [
    (struct.pack(">HH", 1, 0), "of version 1 with 0 subtables"),  # reportlab swaps these and reads on
    (struct.pack(">HHHHI", 0, 1, 3, 10, 12) + struct.pack(">HHIII", 12, 0, 16, 0, 400_000_000), "cannot be read"),
], ids=["swapped-header", "groups-past-the-end"])
def test_a_character_map_reportlab_would_read_otherwise_is_refused(tmp_path, data, words):
    font = TTFont(EXAMPLE / "fonts" / "Vera.ttf")
    table = DefaultTable("cmap")
    table.data = data
    font["cmap"] = table
    font.save(tmp_path / "odd.ttf")
    assert words in font_tables.problem(str(tmp_path / "odd.ttf"))


def test_a_web_font_is_named_as_one(tmp_path):
    (tmp_path / "a.ttf").write_bytes(b"wOF2" + b"\0" * 100)
    assert font_tables.problem(str(tmp_path / "a.ttf")) == "is a WOFF2 web font; give the TrueType (.ttf) file it " \
                                                            "was made from"


@pytest.mark.parametrize("font", sorted([*EXAMPLE.glob("fonts/*.ttf"), *SHIPPED_FONT.parent.glob("*.ttf")]),
                         ids=lambda p: p.name)
def test_the_fonts_we_ship_pass(font):
    assert font_tables.problem(str(font)) is None
