"""A designer's file in any language (issue 39, item 6): `languages: [en]` and plain strings validate; the build,
the Tabletop Simulator export and the served pages speak the file's first language by default; a long reference
text passes where its card holds it (the fit check decides, not a fixed 400 characters)."""
import json
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml

from companion import cards
from companion.cli import main
from companion.web import create_app

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "example-game" / "especias.yaml"
HOW_TO_PLAY = ("On your turn draw two cards, then sell one set of matching spices: each card is worth its value in "
               "coins, a full three of saffron double. Or trade a cinnamon for two market peppers. A pickpocket "
               "takes a random card from a rival. Refill the market at the end of each turn. Coins are kept face "
               "up. The first to reach 30 coins wins at once; if the deck runs out, the richest player wins. Hands "
               "stay hidden.")


def _english(value):
    """The example's data with each {es, en} text as its plain English string."""
    if isinstance(value, dict):
        if set(value) == {"es", "en"}:
            return value["en"]
        return {k: _english(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_english(v) for v in value]
    return value


@pytest.fixture
def english(tmp_path) -> Path:
    """The example game as a designer writing only English would: `languages: [en]`, every text a plain string,
    and a how-to-play card longer than 400 characters."""
    data = _english(yaml.safe_load(EXAMPLE.read_text(encoding="utf-8")))
    data = {"languages": ["en"], **data, "game": "spices"}
    help_card = next(c for c in data["components"] if c["id"] == "SP-HELP")
    help_card["text"] = HOW_TO_PLAY
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE.parent / "art", folder / "art")
    path = folder / "spices.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert " es:" not in path.read_text(encoding="utf-8") and len(HOW_TO_PLAY) > 400
    return path


def test_an_english_file_validates_with_plain_strings(english, capsys):
    assert main(["validate", str(english)]) == 0, capsys.readouterr().err
    card_set = cards.load_file(str(english))
    assert card_set.languages == ("en",)
    assert card_set.title.get("en") == "Spice Market" and card_set.title.get("es") == "Spice Market"
    assert card_set.component("SP-HELP").text_in("en") == HOW_TO_PLAY


def test_a_spanish_text_in_an_english_only_file_is_named(english, capsys):
    text = english.read_text(encoding="utf-8").replace("title: Spice Market", "title: {es: Mercado, en: Spice Market}")
    english.write_text(text, encoding="utf-8")
    assert main(["validate", str(english)]) == 2
    err = capsys.readouterr().err
    assert "title.es: unknown key; expected one of: en" in err and "Traceback" not in err


def test_the_languages_must_be_codes_each_once(english, capsys):
    text = english.read_text(encoding="utf-8").replace("- en\n", "- en\n- en\n", 1)
    english.write_text(text, encoding="utf-8")
    assert main(["validate", str(english)]) == 2
    assert "languages: names a language twice" in capsys.readouterr().err


def test_a_text_too_long_for_its_card_is_the_fit_checks_error(english, capsys):
    data = yaml.safe_load(english.read_text(encoding="utf-8"))
    next(c for c in data["components"] if c["id"] == "SP-HELP")["text"] = HOW_TO_PLAY * 4
    english.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert main(["validate", str(english)]) == 2
    err = capsys.readouterr().err
    assert "the en text of SP-HELP cannot fit" in err and "characters long" not in err


def _page_texts(pdf: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(pdf))
    return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]


def test_the_build_speaks_the_files_first_language(english, tmp_path, capsys):
    assert main(["build", str(english), "--out", str(tmp_path / "out")]) == 0, capsys.readouterr().err
    pages = _page_texts(tmp_path / "out" / "spices.pdf")
    cover = pages[0]
    assert "Spice Market" in cover and "In the box" in cover and "Print at 100" in cover
    assert "En la caja" not in cover
    fronts = "\n".join(pages[1:])
    assert "Pickpocket" in fronts and "Saffron" in fronts
    assert "richest player wins" in fronts.replace("\r\n", " ").replace("\n", " ")  # the long text, printed whole


def test_the_tts_export_speaks_the_files_first_language(english, tmp_path, capsys):
    assert main(["export", "tts", str(english), "--out", str(tmp_path / "tts")]) == 0, capsys.readouterr().err
    saved = json.loads((tmp_path / "tts" / "spices.json").read_text(encoding="utf-8"))
    deck = saved["ObjectStates"][0]
    assert deck["Nickname"] == "Spice Market"
    assert {"Saffron", "Pickpocket"} <= {card["Nickname"] for card in deck["ContainedObjects"]}


def test_its_pages_are_served_in_english(english, tmp_path):
    client = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance"),
                         "CARD_FILES": [str(english)]}).test_client()
    for url in ("/rules/spices", "/c/spices/SP-HELP", "/setup/spices?players=3&seed=s"):
        for headers in ({}, {"Accept-Language": "es-ES,es;q=0.9"}):
            page = client.get(url, headers=headers)
            html = page.get_data(as_text=True)
            assert page.status_code == 200 and '<html lang="en"' in html, (url, headers)
    card = client.get("/c/spices/SP-HELP").get_data(as_text=True)
    assert "How to play" in card
    assert '<html lang="es"' in client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
