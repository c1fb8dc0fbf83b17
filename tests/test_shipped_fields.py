"""The shipped games declare their own card fields in their data (`fields:`), as a designer's game does, and the
declarations tell the truth: every field the rules read, on the types that carry it, accepting every printed value."""
import pytest
import yaml

from companion import cards, games, layouts
from companion.core.schema import Enum, Problems
from helpers.games import GAME_IDS


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_field_the_rules_read_is_declared_on_its_types(game):
    card_set = cards.load_shipped()[game]
    declared = yaml.safe_load(open(card_set.path, encoding="utf-8"))["fields"]
    read: dict[str, set[str]] = {}
    for type_name, ctype in games.component_types(game).items():
        for name in ctype.fields:
            read.setdefault(name, set()).add(type_name)
    assert read, game
    for name, types in read.items():
        assert name in declared, f"{game}: the rules read {name!r}; declare it in fields:"
        assert set(declared[name]["types"]) == types, name


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_declarations_accept_every_printed_value_and_name_the_rules_choices(game):
    card_set = cards.load_shipped()[game]
    data = yaml.safe_load(open(card_set.path, encoding="utf-8"))
    declared = data["fields"]
    checked = 0
    for raw in data["components"]:  # as written, before the rules' own checks
        for name, value in raw.items():
            if name not in declared or raw["type"] not in declared[name]["types"]:
                continue
            problems = Problems()
            layouts.declared_field(declared[name]).check(value, (name,), problems)
            assert not problems, f"{raw['id']}: {[str(p) for p in problems]}"
            checked += 1
    assert checked >= len([c for c in card_set.components if c.data and c.kind != "back"])
    for type_name, ctype in games.component_types(game).items():
        for name, field in ctype.fields.items():
            if isinstance(field, Enum):
                assert tuple(declared[name]["choices"]) == field.values, (type_name, name)


def test_a_mistyped_field_on_a_shipped_card_is_named_with_the_declared_one(tmp_path):
    text = open(cards.load_shipped()["nobles"].path, encoding="utf-8").read()
    first = text.index("suit: ", text.index("\ncomponents:"))
    broken = text[:first] + "sut: " + text[first + len("suit: "):]
    path = tmp_path / "nobles.yaml"
    path.write_text(broken, encoding="utf-8")
    _, errors = cards.check_file(path)
    assert any("sut: unknown key; did you mean 'suit'?" in line for line in errors), errors


def test_a_designer_field_goes_on_the_types_it_names(tmp_path):
    text = open("docs/example-game/especias.yaml", encoding="utf-8").read()
    path = tmp_path / "especias.yaml"
    assert "\ncomponents:" in text
    extra = "fields:\n  heat: {number: [0, 5], types: [card]}\n  mood: {choices: [calm], types: [nothing]}\n"
    path.write_text(text.replace("\ncomponents:", "\n" + extra + "components:", 1), encoding="utf-8")
    _, errors = cards.check_file(path)
    assert any("fields.mood.types: 'nothing': no such component type" in line for line in errors), errors
    assert any("heat: is missing" in line for line in errors), errors
