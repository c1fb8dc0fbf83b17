"""Every registered game honours the same contract: data, score, setup, reproducibility."""
import dataclasses
import json
import os
from pathlib import Path

import pytest

from companion import cards, games, library, service
from companion.cli import main
from companion.components import ComponentType
from companion.core import i18n
from companion.core.schema import InputError
from companion.games import Game, Option
from helpers.games import GAME_IDS

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("COMPANION_REGEN_GOLDEN") == "1"


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_descriptor_is_whole_and_agrees_with_its_card_data(game):
    rules, card_set = games.get(game), library.load_game(game)
    assert isinstance(rules, Game) and rules.id == game
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.id = "other"  # type: ignore[misc]
    low, high = card_set.players
    assert low <= rules.default_players <= high
    assert rules.component_types and all(isinstance(t, ComponentType) for t in rules.component_types.values())
    assert {c.type for c in card_set.components} <= {*rules.component_types, "back"}
    assert set(rules.terms) <= set(card_set.look.terms), "the card data must give every term the faces draw"
    assert rules.entry.kind and i18n._(rules.entry.words, "es") != rules.entry.words, "entry words in Spanish"
    for option in rules.options:
        assert isinstance(option, Option) and i18n._(option.label, "es") != option.label
        assert set(option.choices) <= set(card_set.sets), "a choice of an option is a set of the card data"
    for name in ("score", "setup", "sheet_points", "face", "scores"):
        assert callable(getattr(rules, name))
    assert all(callable(f) for f in (rules.solo, rules.simulate) if f is not None)
    for c in card_set.components:  # every front can be drawn, in both languages
        if c.kind != "back":
            assert all(rules.face(c, card_set, lang).title for lang in i18n.LANGS)


def test_the_registry_is_the_only_list_and_every_shipped_game_is_in_it():
    assert list(games.GAMES) == [g.id for g in games.GAMES.values()]
    assert set(games.GAMES) == set(cards.load_shipped())


@pytest.mark.parametrize("game", GAME_IDS)
def test_example_request_scores_the_same_on_the_command_line(game, capsys):
    path = ROOT / "docs" / "examples" / f"{game}-score.json"
    expected = service.score(game, json.loads(path.read_text()))
    assert main(["score", game, str(path)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == json.loads(json.dumps(expected)) and err == ""


@pytest.mark.parametrize("game", GAME_IDS)
def test_setup_for_every_player_count_uses_only_real_cards(game):
    low, high = library.load_game(game).players
    ids = {c.id for c in library.load_game(game).components}
    prefix = library.load_game(game).prefix

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for v in value.values():
                yield from strings(v)
        elif isinstance(value, list):
            for v in value:
                yield from strings(v)

    for players in sorted({low, high, (low + high) // 2}):
        result = service.setup(game, players, "contract")
        assert result["players"] == players and result["seed"] == "contract"
        dealt = [s for s in strings(result) if s.startswith(prefix)]
        assert dealt and set(dealt) <= ids


@pytest.mark.parametrize("game", GAME_IDS)
def test_setup_refuses_bad_player_counts_and_unknown_options(game):
    low, high = library.load_game(game).players
    for players in (low - 1, high + 1):
        with pytest.raises(InputError) as e:
            service.setup(game, players, "x")
        assert e.value.field == "players"
    with pytest.raises(InputError) as e:
        service.setup(game, None, "x", {"colour": "red"})
    assert e.value.field == "colour"


@pytest.mark.parametrize("game", GAME_IDS)
def test_same_seed_same_setup_and_different_seeds_differ(game):
    a, b = service.setup(game, None, "seed-a"), service.setup(game, None, "seed-a")
    assert a == b
    others = [service.setup(game, None, f"seed-{i}") for i in range(5)]
    assert any({k: v for k, v in o.items() if k != "seed"} != {k: v for k, v in a.items() if k != "seed"}
               for o in others)


@pytest.mark.parametrize("game", GAME_IDS)
def test_setup_matches_the_golden_file(game):
    """A seed must give the same deal on every machine and Python version; these files change only on purpose
    (COMPANION_REGEN_GOLDEN=1 rewrites them, and the diff belongs in the commit)."""
    path = GOLDEN / f"setup-{game}.json"
    result = service.setup(game, None, "golden-42")
    if REGEN:
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert path.exists(), f"missing {path.name}: run COMPANION_REGEN_GOLDEN=1 pytest {__file__}"
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(json.dumps(result))
