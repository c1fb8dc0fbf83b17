"""The shipped card data against the rulebooks: every printed component, in the right numbers."""
import dataclasses
import re
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from companion import cards, games
from companion.cards import ID_PATTERN
from companion.core.resources import cards_dir
from helpers.games import GAME_IDS

QR_ALPHANUMERIC = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")


def test_every_registered_game_has_card_data_and_no_data_is_orphaned(shipped):
    assert sorted(shipped) == GAME_IDS
    # the ids interfaces.md promises
    assert {"duquesa", "queens-necklace", "gemas", "nobles", "duplicon"} <= set(GAME_IDS)


@pytest.mark.parametrize("game", GAME_IDS)
def test_ids_fit_qr_alphanumeric_mode_and_start_with_prefix(shipped, game):
    card_set = shipped[game]
    for c in card_set.components:
        assert set(c.id) <= QR_ALPHANUMERIC and c.id.startswith(card_set.prefix), c.id


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_card_has_a_back_and_every_label_is_given(shipped, game):
    card_set = shipped[game]
    vocabulary = set(games.get(game).vocabulary)
    for c in card_set.components:
        if c.kind in ("card", "reference"):
            assert card_set.component(c.back).kind == "back", c.id
        used = {v for value in c.data.values() for v in (value if isinstance(value, tuple) else (value,))
                if isinstance(v, str)}
        used |= {v for value in c.data.values() if hasattr(value, "values") for v in value.values()
                 if isinstance(v, str)}
        missing = (used & vocabulary) - set(card_set.labels)
        assert not missing, f"{c.id}: no es/en label for {missing}"


@pytest.mark.parametrize("game", GAME_IDS)
def test_texts_exist_in_both_languages(shipped, game):
    for c in shipped[game].components:
        for texts in (c.name, c.text):
            if texts:
                assert texts.es.strip() and texts.en.strip() and texts.es != "" and texts.en != ""
        if c.kind == "reference":
            assert c.name and c.text, f"{c.id}: a reference card needs a name and a text"


def test_duquesa_base_deck_is_72_stones_9_of_each(shipped):
    dq = shipped["duquesa"]
    base = dq.deck(sets=["base"])
    assert len(base) == 18
    stones = Counter(s for c in base for s in c.data["stones"])
    assert sum(stones.values()) == 72
    assert stones == {s: 9 for s in games.duquesa.STONES}
    for c in base:
        assert len(set(c.data["stones"])) == 4, f"{c.id} repeats a stone"
        assert c.data["wish"]["count"] in (2, 3, 4)
        assert c.data["wish"]["stone"] not in c.data["stones"], f"{c.id} wishes for its own stone"
    pairs = Counter(pair for c in base for pair in combinations(sorted(c.data["stones"]), 2))
    assert len(pairs) == 28 and set(pairs.values()) <= {3, 4}  # stones spread evenly (docs/duquesa-deck.md)
    # Florins are about 3 per wished stone, with variations (the worked example reaches 28 with 3 wishes of 3).
    florins = sum(c.data["wish"]["florins"] for c in base)
    wished = sum(c.data["wish"]["count"] for c in base)
    assert 2.7 <= florins / wished <= 3.5
    assert len({c.data["wish"]["florins"] / c.data["wish"]["count"] for c in base}) > 3


def test_duquesa_includes_the_rulebook_card_and_expansions(shipped):
    dq = shipped["duquesa"]
    shown = dq.component("DQ01")
    assert sorted(shown.data["stones"]) == sorted(["amber", "amethyst", "ruby", "pearl"])
    assert dict(shown.data["wish"]) == {"stone": "emerald", "count": 4, "florins": 12}
    assert not shown.reconstructed
    assert all(c.reconstructed for c in dq.deck(sets=["base"]) if c.id != "DQ01")
    rainbow = dq.deck(sets=["rainbow"])
    assert len(rainbow) == 2 and all(c.data["stones"] == ("rainbow",) for c in rainbow)
    assert all(c.data["wish"]["stone"] == "rainbow" and c.data["wish"]["count"] == 1 for c in rainbow)
    gold = dq.deck(sets=["gold"])
    assert len(gold) == 4
    for c in gold:
        assert c.data["stones"].count("gold") == 1 and len(c.data["stones"]) == 4 and "wish" not in c.data
    assert len(dq.deck()) == 24  # 18 + 2 + 4, as the rulebook counts


def test_queens_necklace_110_cards_and_12_tiles(shipped):
    qn = shipped["queens-necklace"]
    assert len(qn.deck(kinds=["card", "reference"])) == 110
    by_type = Counter(c.type for c in qn.deck(kinds=["card", "reference"]))
    assert by_type == {"gem": 59, "ring": 7, "necklace": 1, "character": 33, "merchant": 3, "summary": 4, "blank": 3}
    gems = [c for c in qn.deck() if c.type == "gem"]
    for gem in ("ruby", "emerald", "diamond"):
        cards_of = Counter(c.data["gems"] for c in gems if c.data["gem"] == gem)
        assert cards_of == {3: 2, 2: 5, 1: 7}, gem
    assert Counter(c.data["gems"] for c in gems if c.data["gem"] == "amber") == {1: 17}
    characters = Counter(c.data["character"] for c in qn.deck() if c.type == "character")
    assert characters == {"confessor": 4, "courtier": 3, "forger": 3, "favorite": 3, "thief": 4, "alchemist": 1,
                          "astrologer": 3, "cardinal": 2, "musketeer": 4, "queen": 1, "king": 3, "banker": 2}
    colours = Counter(games.queens_necklace.CHARACTERS[name] for name in characters.elements())
    assert colours == {"blue": 17, "purple": 11, "grey": 5}
    tiles = qn.deck(kinds=["tile"])
    assert len(tiles) == 12 and Counter(c.type for c in tiles) == {"gem-tile": 4, "fashion-tile": 4, "rarity-tile": 4}
    assert (sorted(c.data["gem"] for c in tiles if c.type == "gem-tile")
            == sorted(["diamond", "emerald", "ruby", "amber"]))
    for kind in ("fashion-tile", "rarity-tile"):
        assert sorted(c.data["value"] for c in tiles if c.type == kind) == [0, 10, 20, 30]


def test_gemas_100_cards_and_tokens(shipped):
    gm = shipped["gemas"]
    assert len(gm.deck(kinds=["card", "reference"])) == 100
    gem_cards = Counter(c.data["colour"] for c in gm.deck() if c.type == "gem-card")
    assert gem_cards == {"green": 4, "blue": 6, "violet": 8, "orange": 8}
    assert Counter(c.type for c in gm.deck(kinds=["card", "reference"]) if c.type != "gem-card") == {
        "thief": 24, "chipote": 24, "healing": 24, "help": 2}
    tokens = gm.deck(kinds=["token"])
    assert Counter(c.data["colour"] for c in tokens if c.type == "gem-token") == {
        "green": 4, "blue": 5, "violet": 5, "orange": 6}
    assert Counter(c.type for c in tokens)["bandaid"] == 30  # 3 a player, 10 players (the largest table)
    assert Counter(c.type for c in tokens)["heart"] == 7


def test_nobles_is_a_french_deck_with_jokers_references_and_counters(shipped):
    nb = shipped["nobles"]
    deck = nb.deck(sets=["base"])
    assert len(deck) == 52
    assert {(c.data["rank"], c.data["suit"]) for c in deck} == {
        (r, s) for r in range(1, 14) for s in ("hearts", "diamonds", "clubs", "spades")}
    assert sum(c.type == "noble" for c in deck) == 12 and sum(c.type == "number" for c in deck) == 40
    assert [c.type for c in nb.deck(sets=["joker"])] == ["joker", "joker"]
    assert len(nb.deck(kinds=["reference"])) >= 2
    assert {c.type for c in nb.deck(kinds=["token"])} == {"resource", "wound"}


def test_duplicon_96_cards_12_per_type_each_type_its_own_shape_and_colour(shipped):
    dp = shipped["duplicon"]
    deck = dp.deck()
    assert len(deck) == 96
    types = Counter((c.data["shape"], c.data["colour"]) for c in deck)
    assert len(types) == 8 and set(types.values()) == {12}
    assert len({shape for shape, _ in types}) == 8 and len({colour for _, colour in types}) == 8
    assert len(dp.deck(kinds=["reference"])) == 3


def test_card_sets_are_frozen(shipped):
    c = shipped["duquesa"].component("DQ01")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.qty = 3
    with pytest.raises(TypeError):
        c.data["stones"] = ()


def test_id_pattern_is_short_and_upper_case():
    import re
    assert re.fullmatch(ID_PATTERN, "QN-THIEF") and re.fullmatch(ID_PATTERN, "DQ07")
    assert not re.fullmatch(ID_PATTERN, "qn-thief") and not re.fullmatch(ID_PATTERN, "QN--X")


def test_an_entry_whose_id_is_empty_is_named_by_its_place():
    """Found by tests/test_fuzz_cards.py: `id: !!str` (an empty text) left the error line without a name."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "example-game" / "especias.yaml").read_text(encoding="utf-8")
    text = text.replace("  - id: SP-PEPPER\n", "  - id: !!str\n", 1)
    _, errors = cards.check_text(text, "especias.yaml")
    assert any(re.match(r"especias\.yaml:\d+: components\[1\]: id: must be a non-empty text", e)
               for e in errors), errors


def test_a_rules_section_the_scoring_page_links_to_is_asked_for():
    """Duplicon's result links to its `round` section (`Game.linked_sections`): a file without it is warned of."""
    text = (cards_dir() / "duplicon.yaml").read_text(encoding="utf-8")
    assert text.count("  - id: round\n") == 1
    card_set, errors = cards.check_text(text.replace("  - id: round\n", "  - id: round-score\n"), "duplicon.yaml")
    assert not errors, errors
    assert any("no 'round' section; the game's scoring page links to it" in w for w in card_set.warnings)
    card_set, _ = cards.check_text(text, "duplicon.yaml")
    assert not any("'round' section" in w for w in card_set.warnings)
