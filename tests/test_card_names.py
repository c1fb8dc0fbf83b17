"""Names and metadata (issue 39, item 8): a card's name written from its fields (`name: "{rank} {suit}"`, choices by
their `labels:` word) on the phone's setup and card pages and in Tabletop Simulator; the setup page shows a card's
picture; the PDFs carry the game's title and the file's `author:`; `{emblem}` on a face."""
import json
import re
from pathlib import Path

import pypdfium2 as pdfium

from companion import cards
from companion.pnp.build import build
from companion.pnp.document import BuildSettings
from companion.pnp.tts import export_tts
from companion.web import create_app

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#c0392b"/></svg>'

FILE = """game: shells
title: {es: Conchas, en: Shells}
author: Ana Pérez
prefix: SH
players: [2, 4]
look:
  emblem: [shell, star]
  terms:
    shell: {shape: circle, colour: "#2e6fd1"}
    star: {shape: star, colour: "#d4a000"}
fields:
  suit: {choices: [shell, star]}
  rank: {number: [1, 10]}
labels:
  shell: {es: Concha, en: Shell}
  star: {es: Estrella, en: Star}
layouts:
  base:
    title: {text: "{name}", at: [4, 3, 55.5, 8]}
    emblem: {icons: "{emblem}", at: [4, 14, 55.5, 10]}
    code: {qr: true, at: [2, 66.4, 21.5, 21.5]}
setup:
  hand_size: 1
components:
  - {id: SH-7, type: card, suit: shell, rank: 7, qty: 2, name: {es: "{label:suit} {rank}", en: "{rank} {suit}"}}
  - {id: SH-3, type: card, suit: star, rank: 3, qty: 2, name: {es: "{suit} {rank}", en: "{rank} {suit}"},
     art: art/star.svg}
"""


def game(folder: Path, text: str = FILE) -> Path:
    (folder / "art").mkdir(exist_ok=True)
    (folder / "art" / "star.svg").write_text(SVG)
    path = folder / "shells.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_name_is_filled_from_the_cards_fields_in_each_language(tmp_path):
    s = cards.load_file(str(game(tmp_path)))
    assert [(c.name_in("es"), c.name_in("en")) for c in s.components if c.kind == "card"] == [
        ("Concha 7", "7 Shell"), ("Estrella 3", "3 Star")]
    assert s.author == "Ana Pérez"


def test_a_name_naming_a_field_the_card_lacks_is_one_error_with_the_closest(tmp_path):
    _, errors = cards.check_text(FILE.replace('en: "{rank} {suit}"}}\n  - {id: SH-3', 'en: "{rnk} {suit}"}}\n'
                                              '  - {id: SH-3'), "shells.yaml")
    assert errors == ["shells.yaml:25: SH-7: name: names {rnk}, which this component does not have; did you mean "
                      "'rank'?"]


def test_tabletop_simulator_names_each_card_from_its_fields(tmp_path):
    done = export_tts(str(game(tmp_path)), tmp_path / "tts", BuildSettings(lang="en"))
    saved = json.loads(done.json.read_text())
    assert [o["Nickname"] for o in saved["ObjectStates"][0]["ContainedObjects"]] == ["7 Shell"] * 2 + ["3 Star"] * 2


def test_the_pdfs_carry_the_title_and_the_author(tmp_path):
    out = tmp_path / "out"
    build([str(game(tmp_path))], out, BuildSettings(lang="en"), png=True)
    for pdf, what in ((out / "shells.pdf", "print-and-play"), (out / "shells-png" / "cards.pdf", "cards")):
        meta = pdfium.PdfDocument(str(pdf)).get_metadata_dict()
        assert (meta["Title"], meta["Author"]) == (f"Shells — {what}", "Ana Pérez")
        assert meta["Creator"].startswith("companion")


def test_the_emblem_draws_on_a_face(tmp_path):
    from companion.web.play import face_svg

    s = cards.load_file(str(game(tmp_path)))
    svg = str(face_svg.face(s, s.component("SH-7"), "en", lambda p: None))
    assert svg.count('fill="#2e6fd1"') >= 1 and svg.count('fill="#d4a000"') >= 1  # the circle and the star


def test_the_phone_pages_name_the_card_and_the_setup_shows_its_picture(tmp_path):
    path = game(tmp_path)
    app = create_app({"TESTING": True, "CARD_FILES": [str(path)], "INSTANCE_PATH": str(tmp_path / "instance")})
    client = app.test_client()
    card = client.get("/c/shells/SH-7?lang=en").get_data(as_text=True)
    assert "7 Shell" in card
    page = client.get("/setup/shells?lang=en&players=2&seed=1a2b3c4d").get_data(as_text=True)
    assert "3 Star" in page and "7 Shell" in page
    pictures = re.findall(r'<img class="cid-art" src="([^"]+)"', page)
    assert pictures and all(p.endswith("/art/shells/art/star.svg") for p in pictures)
    assert client.get(pictures[0]).status_code == 200
