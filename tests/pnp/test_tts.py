"""`companion export tts`: a Tabletop Simulator deck (sheets of faces, a back, a DeckCustom saved object) whose every
card, read back from its tile on its sheet, is the card the saved object names at that place: its QR code opens
that card's page."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import zxingcpp
from PIL import Image

from companion import cards, library
from companion.cli import main
from companion.pnp import tts
from companion.pnp.document import BuildSettings, card_url

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example-game" / "cosecha.yaml"
LOCAL = "http://127.0.0.1:5000"  # build's default: what the codes open without --base-url
SUITS = {"apple": ("Manzana", "Apple"), "pear": ("Pera", "Pear"), "grape": ("Uva", "Grape"),
         "plum": ("Ciruela", "Plum")}


def big_game(folder: Path, count: int, night: int = 0, bare: bool = False) -> Path:
    """The example game with `count` numbered fruit cards (all unique), the first `night` of them on a second back,
    the last one printed without a back if `bare`."""
    shutil.copytree(EXAMPLE.parent, folder, dirs_exist_ok=True)
    text = EXAMPLE.read_text(encoding="utf-8")
    lines = ["components:"]
    for n in range(count):
        suit = list(SUITS)[n % 4]
        es, en = SUITS[suit]
        back = ", back: HV-NIGHT" if n < night else ", back: none" if bare and n == count - 1 else ""
        lines.append(f"  - {{id: HV-{suit[:2].upper()}-{n + 1}, type: card, layout: fruit, suit: {suit}, "
                     f"rank: {n % 10 + 1}{back}, name: {{es: {es} {n + 1}, en: {en} {n + 1}}}}}")
    lines.append("  - {id: HV-DAY, type: back, for: [card], name: {es: Día, en: Day}}")
    if night:
        lines.append("  - {id: HV-NIGHT, type: back, for: [card], layout: night, name: {es: Noche, en: Night}}")
        text = text.replace("layouts:\n", "layouts:\n  night:\n    sky: {rect: [0, 0, 63.5, 88.9], fill: \"#101840\", "
                                          "bleed: true}\n", 1)
    (folder / "cosecha.yaml").write_text(text[:text.index("components:")] + "\n".join(lines) + "\n", encoding="utf-8")
    return folder / "cosecha.yaml"


def local_file(url: str, folder: Path, base: str | None) -> Path:
    """The file an image URL names: a file:// path, or a file of the export under --image-base-url."""
    if base:
        assert url.startswith(base.rstrip("/") + "/")
        return folder / unquote(url[len(base.rstrip("/")) + 1:])
    parts = urlsplit(url)
    assert parts.scheme == "file"
    return Path(unquote(parts.path))


def check_export(folder: Path, card_set: cards.CardSet, lang: str, base: str | None = None,
                 codes_open: str = LOCAL) -> dict:
    """Everything the saved object promises, checked against the card data and the pictures themselves."""
    saved = json.loads((folder / f"{card_set.game}.json").read_text(encoding="utf-8"))
    assert isinstance(saved["SaveName"], str) and saved["ObjectStates"] and "TabStates" in saved
    deck = saved["ObjectStates"][0]
    assert deck["Name"] == "DeckCustom"
    copies = card_set.deck(("card",))  # the cards, in data order, each qty times
    assert len(copies) == sum(c.qty for c in card_set.components if c.kind == "card")
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == len(copies)
    assert [o["Nickname"] for o in deck["ContainedObjects"]] == [c.name_in(lang) or c.id for c in copies]
    assert [o["CardID"] for o in deck["ContainedObjects"]] == deck["DeckIDs"]
    assert {o["Name"] for o in deck["ContainedObjects"]} == {"Card"}
    sheets: dict[str, tuple[Image.Image, int, int]] = {}
    for number, entry in deck["CustomDeck"].items():
        assert number.isdigit() and entry["Type"] == 0 and entry["BackIsHidden"] is True
        columns, rows = entry["NumWidth"], entry["NumHeight"]
        assert 1 <= columns <= 10 and 1 <= rows <= 7
        sheet = Image.open(local_file(entry["FaceURL"], folder, base)).convert("RGB")
        back = Image.open(local_file(entry["BackURL"], folder, base)).convert("RGB")
        tile_w, tile_h = back.size  # a card's picture: the back's size
        assert sheet.size == (columns * tile_w, rows * tile_h) and sheet.width <= 4096 and sheet.height <= 4096
        assert tile_w >= 400 or card_set.card_size != "poker"
        hidden = sheet.crop(((columns - 1) * tile_w, (rows - 1) * tile_h, columns * tile_w, rows * tile_h))
        assert hidden.tobytes() == back.tobytes()  # the last slot: the back, shown for a hidden card
        sheets[number] = (sheet, tile_w, tile_h)
    read: dict[int, str] = {}
    for position, (card_id, obj) in enumerate(zip(deck["DeckIDs"], deck["ContainedObjects"], strict=True)):
        number, slot = divmod(card_id, 100)
        assert obj["CustomDeck"] == {str(number): deck["CustomDeck"][str(number)]}  # its own sheet, as the deck has it
        if card_id not in read:  # each face read once from its tile, wherever its copies lie in the deck
            sheet, w, h = sheets[str(number)]
            columns = deck["CustomDeck"][str(number)]["NumWidth"]
            assert slot < columns * deck["CustomDeck"][str(number)]["NumHeight"] - 1  # never the hidden slot
            x, y = (slot % columns) * w, (slot // columns) * h
            tile = sheet.crop((x, y, x + w, y + h))
            (found,) = zxingcpp.read_barcodes(tile)
            read[card_id] = found.text
        expected = copies[position]
        assert read[card_id] == card_url(codes_open, expected.id) and read[card_id].endswith(f"/C/{expected.id}")
        assert obj["GMNotes"] == expected.id
    return saved


def test_a_shipped_game_is_a_deck_tts_loads_with_every_copy_on_its_sheet(tmp_path, capsys):
    assert main(["export", "tts", "duplicon", "--out", str(tmp_path / "tts")]) == 0
    folder = tmp_path / "tts"
    card_set = library.load_game("duplicon")
    saved = check_export(folder, card_set, "es")
    deck = saved["ObjectStates"][0]
    assert len(deck["DeckIDs"]) == 96 and len(deck["CustomDeck"]) == 1  # 8 faces × 12: the cards dealt alone
    entry = deck["CustomDeck"]["1"]
    assert entry["FaceURL"] == (folder / "duplicon-sheet-1.png").as_uri()
    assert entry["BackURL"] == (folder / "duplicon-back.png").as_uri()
    assert (entry["NumWidth"], entry["NumHeight"]) == (4, 3)  # 8 faces, the reference card's and the hidden slot
    assert Image.open(folder / "duplicon-sheet-1.png").size == (1600, 1680)  # 400 × 560 px a poker card
    reference = saved["ObjectStates"][1]  # the reference card's 3 copies: a deck of their own, on the same sheet
    assert [o["GMNotes"] for o in reference["ContainedObjects"]] == ["DP-TURN"] * 3
    assert reference["CustomDeck"] == {"1": entry}
    assert {p.name for p in folder.iterdir()} == {"duplicon.json", "duplicon-sheet-1.png", "duplicon-back.png",
                                                 ".companion-tts-duplicon"}
    out = capsys.readouterr()
    assert "duplicon.json" in out.out
    assert "127.0.0.1" in out.err  # codes that open this computer only are never silent


def test_the_example_game_in_english_with_its_images_on_a_web_server(tmp_path):
    base = "https://example.org/games/tts/"
    assert main(["export", "tts", str(EXAMPLE), "--out", str(tmp_path), "--lang", "en", "--image-base-url", base,
                 "--base-url", "https://you.github.io/deck"]) == 0
    saved = check_export(tmp_path, cards.load_file(EXAMPLE), "en", base, codes_open="https://you.github.io/deck")
    deck = saved["ObjectStates"][0]
    assert deck["CustomDeck"]["1"]["FaceURL"] == "https://example.org/games/tts/cosecha-sheet-1.png"
    assert deck["CustomDeck"]["1"]["BackURL"] == "https://example.org/games/tts/cosecha-back.png"
    assert deck["Nickname"] == saved["SaveName"] == "Harvest"
    grape = next(o for o in deck["ContainedObjects"] if o["GMNotes"] == "HV-GRAPE-7")
    assert grape["Nickname"] == "Grapes" and grape["Description"] == "[b]+2[/b] when selling grapes."


@pytest.mark.slow  # exports a large deck (about 6–12 s)
def test_a_large_deck_on_even_sheets_one_deck_each_back(tmp_path):
    data = big_game(tmp_path / "game", 75, night=4, bare=True)  # 4 faces on the night back, 70 on the day back:
    card_set = cards.load_file(data)  # more than a sheet's 69, so two sheets, evenly filled: 35 + 35; one bare
    result = tts.export_tts(str(data), tmp_path / "out", BuildSettings(lang="en"))
    saved = check_export(tmp_path / "out", card_set, "en")
    decks = saved["ObjectStates"][0]["CustomDeck"]
    grids = {n: (d["NumWidth"], d["NumHeight"]) for n, d in decks.items()}
    assert grids == {"1": (3, 2), "2": (8, 5), "3": (8, 5), "4": (2, 1)}  # the squarest holding the faces and
    assert decks["1"]["BackURL"].endswith("/cosecha-back.png")  # the hidden slot
    assert decks["2"]["BackURL"] == decks["3"]["BackURL"] and decks["2"]["BackURL"].endswith("/cosecha-back-2.png")
    assert decks["4"]["BackURL"].endswith("/cosecha-back-3.png")
    assert Image.open(result.backs[2]).convert("RGB").getextrema() == ((255, 255), (255, 255), (255, 255))  # plain
    assert [p.name for p in result.sheets] == [f"cosecha-sheet-{n}.png" for n in range(1, 5)]
    assert Image.open(result.sheets[1]).size == (8 * 400, 5 * 560) and result.cards == 75
    night = Image.open(result.backs[0]).convert("RGB").getpixel((200, 280))
    assert night == (0x10, 0x18, 0x40)  # the second back's own layout


@pytest.mark.slow  # three exports of a deck (about 6–15 s)
def test_a_re_export_replaces_its_own_files_keeps_the_others_and_refuses_a_stranger(tmp_path, capsys):
    out = tmp_path / "Saved Objects"
    out.mkdir()
    (out / "notes.txt").write_text("table for Friday")
    assert main(["export", "tts", str(big_game(tmp_path / "big", 140)), "--out", str(out)]) == 0
    assert (out / "cosecha-sheet-3.png").exists()
    assert main(["export", "tts", "gemas", "--out", str(out)]) == 0  # another game beside it
    # the same game, now two sheets: its cards', and its reference card's (no back: a sheet of its own)
    assert main(["export", "tts", str(EXAMPLE), "--out", str(out)]) == 0
    names = {p.name for p in out.iterdir()}
    assert {n for n in names if n.startswith("cosecha-sheet-")} == {"cosecha-sheet-1.png", "cosecha-sheet-2.png"}
    assert {"notes.txt", "gemas.json"} <= names
    assert (out / "notes.txt").read_text() == "table for Friday"
    check_export(out, cards.load_file(EXAMPLE), "es")
    check_export(out, library.load_game("gemas"), "es")
    capsys.readouterr()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "duplicon.json").write_text("{}")  # not made by an export
    assert main(["export", "tts", "duplicon", "--out", str(mine)]) == 2
    assert "duplicon.json" in capsys.readouterr().err
    assert sorted(p.name for p in mine.iterdir()) == ["duplicon.json"] and (mine / "duplicon.json").read_text() == "{}"


@pytest.mark.parametrize("args, message", [
    (["duplicon", "--image-base-url", "ftp://example.org/x"], "image-base-url: must be an http(s) address"),
    (["duplicon", "--image-base-url", "example.org/tts"], "image-base-url: must be an http(s) address"),
    (["nonesuch"], "unknown game 'nonesuch'"),
    (["missing.yaml"], "missing.yaml"),
    (["duplicon", "--lang", "fr"], "unknown language 'fr'"),
])
def test_bad_input_is_one_clear_message_and_exit_2(tmp_path, capsys, args, message):
    assert main(["export", "tts", *args, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_a_broken_data_file_is_named_and_nothing_is_written(tmp_path, capsys):
    broken = tmp_path / "cosecha.yaml"
    shutil.copytree(EXAMPLE.parent, tmp_path, dirs_exist_ok=True)
    broken.write_text(broken.read_text(encoding="utf-8").replace("rank: 7,", "rank: siete,"), encoding="utf-8")
    assert main(["export", "tts", str(broken), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "cosecha.yaml:" in err and "HV-GRAPE-7" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_every_grid_holds_its_faces_and_the_hidden_slot_within_10_by_7():
    for faces in range(1, tts.PER_SHEET + 1):
        columns, rows = tts.grid(faces, (400, 560))
        assert columns <= 10 and rows <= 7 and columns * rows >= faces + 1
        assert columns * 400 <= 4096 and rows * 560 <= 4096
    assert tts.grid(69, (400, 560)) == (10, 7)


COMETAS = ROOT / "docs" / "example-game" / "cometas.yaml"


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_every_component_goes_in_reference_cards_in_a_deck_of_their_own(tmp_path):
    """Issue 44, item 7: a reference card was left out of the export. Every component but the backs goes in: the
    cards in the deck, the reference cards (two copies of KT-HELP) in a deck of their own beside it, each read back
    from its tile on the sheets (its QR code opens its page)."""
    assert main(["export", "tts", str(COMETAS), "--out", str(tmp_path), "--lang", "en"]) == 0
    card_set = cards.load_file(COMETAS)
    saved = check_export(tmp_path, card_set, "en")  # (the cards' deck, first)
    assert [o["Name"] for o in saved["ObjectStates"]] == ["DeckCustom", "DeckCustom"]
    reference = saved["ObjectStates"][1]
    assert reference["Nickname"] == f"{card_set.title.get('en')} · Reference"
    assert [o["GMNotes"] for o in reference["ContainedObjects"]] == ["KT-HELP", "KT-HELP"]
    assert reference["Transform"]["posX"] != saved["ObjectStates"][0]["Transform"]["posX"]  # beside, not on it
    (card_id,) = set(reference["DeckIDs"])
    number, slot = divmod(card_id, 100)
    entry = reference["CustomDeck"][str(number)]
    sheet = Image.open(local_file(entry["FaceURL"], tmp_path, None)).convert("RGB")
    w, h = Image.open(local_file(entry["BackURL"], tmp_path, None)).size
    x, y = (slot % entry["NumWidth"]) * w, (slot // entry["NumWidth"]) * h
    (found,) = zxingcpp.read_barcodes(sheet.crop((x, y, x + w, y + h)))
    assert found.text == card_url(LOCAL, "KT-HELP")
    assert "KT-HELP" in {o["GMNotes"] for o in saved["ObjectStates"][1]["ContainedObjects"]}
    assert "KT-HELP" not in {o["GMNotes"] for o in saved["ObjectStates"][0]["ContainedObjects"]}  # never dealt
