"""What the faces say: every character printed exists in the embedded font; never colour alone."""
from dataclasses import astuple, replace
from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFont

from companion import cards, games, library
from companion.core import i18n
from companion.pnp import draw, faces
from helpers.games import GAME_IDS

GLYPHS = {name: set(TTFont(name, str(draw.FONT_DIR / file)).face.charToGlyph) for name, file in draw.FONT_FILES.items()}
COVERED = set.intersection(*GLYPHS.values())
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example-game" / "especias.yaml"


def printed_strings(card_set, lang):
    for c in card_set.components:
        if c.kind == "back":
            yield c.id, faces.back(c, card_set, lang).title
            continue
        face = replace(faces.face(c, card_set, lang), art=None)  # a file's path, not printed
        for value in astuple(face):
            for item in (value if isinstance(value, tuple) else (value,)):
                if isinstance(item, str) and not item.startswith("#"):
                    yield c.id, item
    for note in card_set.notes:
        yield "notes", note.get(lang)
    yield "title", card_set.title.get(lang)


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("game", [*GAME_IDS, "example"])
def test_every_printed_character_is_in_the_embedded_font(game, lang):
    card_set = cards.load_file(EXAMPLE) if game == "example" else library.load_game(game)
    missing = {(where, ch) for where, text in printed_strings(card_set, lang) for ch in text
               if ord(ch) not in COVERED and not ch.isspace()}
    assert not missing, f"glyphs the font lacks (they would print as empty boxes): {sorted(missing)[:10]}"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_catalogue_texts_are_in_the_font(lang):
    printed = [m for m in i18n.catalog("es") if m.id and i18n.PRINTED in m.auto_comments]
    assert len(printed) >= 20
    for message in printed:
        text = i18n._(message.id, lang)
        bad = {ch for ch in text if ord(ch) not in COVERED and not ch.isspace()}
        assert not bad, (message.id, bad)


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_two_kinds_share_a_shape(game):
    # The rainbow stone is told apart by its pattern (concentric rings), every other kind by its shape.
    look, vocabulary = library.load_game(game).look, games.get(game).vocabulary
    shapes = [t.shape for name, t in look.terms.items() if name in vocabulary and t.shape and t.colour != "rainbow"]
    assert len(shapes) == len(set(shapes)), "a shape must tell the kinds apart without their colours"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_qn_card_colours_carry_a_letter_too(lang):
    """Blue, purple and grey character cards are told apart by a letter as well: one letter per colour."""
    from companion.games.queens_necklace import CHARACTERS

    qn = library.load_game("queens-necklace")
    tags = {}
    for c in qn.components:
        if c.type == "character":
            tags.setdefault(CHARACTERS[c.data["character"]], set()).add(faces.face(c, qn, lang).tag)
    assert set(tags) == {"blue", "purple", "grey"}
    assert all(len(letters) == 1 for letters in tags.values())
    assert len({next(iter(letters)) for letters in tags.values()}) == 3
