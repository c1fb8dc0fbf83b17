"""The rules reference is complete and for players: setup, a turn and the end in both languages for every game,
every printed type explained somewhere, no developer words, and the inventory counted from the card data."""
import re

import pytest

from companion import library, rulebook
from helpers.games import GAME_IDS

DEVELOPER_WORDS = re.compile(r"\.ya?ml\b|\byaml\b|cards/|reconstru|\brequest\b|companion/|\bjson\b", re.I)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_game_explains_setup_a_turn_and_the_end_in_both_languages(game):
    sections = {s["id"]: s for s in library.load_game(game).rules}
    for needed in rulebook.REQUIRED:
        assert needed in sections, f"{game} has no {needed!r} section"
        for lang in ("es", "en"):
            assert len(sections[needed]["text"].get(lang)) > 150, (game, needed, lang)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_printed_type_is_explained_by_a_section(game):
    card_set = library.load_game(game)
    for c in card_set.components:
        if c.kind != "back":
            assert rulebook.sections_for(card_set, c), f"no section applies to {c.id} ({c.type})"


@pytest.mark.parametrize("game", GAME_IDS)
def test_player_pages_carry_no_developer_words(client, game):
    card_set = library.load_game(game)
    for lang in ("es", "en"):
        text = " ".join([*(n.get(lang) for n in card_set.notes),
                         *(s["text"].get(lang) + s["title"].get(lang)
                           + (s["reading"].get(lang) if "reading" in s else "")
                           for s in card_set.rules)])
        assert not DEVELOPER_WORDS.search(text), (game, lang, DEVELOPER_WORDS.search(text).group(0))
        page = re.sub(r"<[^>]+>", " ", client.get(f"/rules/{game}?lang={lang}").get_data(as_text=True))
        assert not DEVELOPER_WORDS.search(page), (game, lang)


def test_blocks_split_paragraphs_and_lists():
    text = "First line\nstill first.\n\n- one\n- two\n\nLead in:\n- a\n- b"
    assert rulebook.blocks(text) == [("p", "First line still first."), ("ul", ["one", "two"]), ("p", "Lead in:"),
                                     ("ul", ["a", "b"])]


def test_the_inventory_counts_what_the_data_prints():
    card_set = library.load_game("gemas")
    (base,) = rulebook.inventory(card_set, "en")
    assert base["total"] == sum(c.qty for c in card_set.components if c.kind != "back")
