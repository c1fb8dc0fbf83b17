"""Safe zone: `validate` and `build --service` warn of text, code or icon ink within 1/8 inch of the cut (or the
file's `safe_margin:`), naming the element and the first cards; silent on the example files as designed."""
import shutil
from pathlib import Path

import pytest

from companion import cards
from companion.cli import main
from companion.pnp.design_check import safe_zone

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "example-game"
ID_LINE = '    id:     {text: "{id}", at: [24, 83, 26, 3], size: 6, colour: "#77706a"}'


@pytest.fixture
def moved(tmp_path):
    """cosecha with its printed id moved down to 0.9 mm above the bottom edge."""
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLES, folder)
    data = folder / "cosecha.yaml"
    text = data.read_text(encoding="utf-8")
    assert ID_LINE in text
    data.write_text(text.replace(ID_LINE, ID_LINE.replace("[24, 83, 26, 3]", "[24, 85.9, 26, 3]")),
                    encoding="utf-8")
    return data, text.splitlines().index(ID_LINE) + 1


def test_silent_on_every_example_and_shipped_file_as_designed():
    for path in [*sorted(EXAMPLES.glob("*.yaml")), *cards.shipped_files()]:
        assert safe_zone(cards.load_file(path)) == [], path


def test_validate_names_the_element_moved_near_the_cut_and_its_first_cards(moved, capsys):
    data, line = moved
    assert main(["validate", str(data)]) == 0
    err = capsys.readouterr().err
    warned = [w for w in err.splitlines() if "safe margin" in w]
    assert len(warned) == 1
    assert warned[0].startswith(f"{data}:{line}: fruit: id: warning: its ink comes 0.") and "3.175 mm" in warned[0]
    assert "on HV-APPLE-1, HV-APPLE-3, HV-PEAR-5 and 3 more" in warned[0]


def test_build_for_a_service_says_it_too_and_safe_margin_sets_another(moved, tmp_path, capsys):
    data, _ = moved
    assert main(["build", str(data), "--service", "thegamecrafter", "--out", str(tmp_path / "out"),
                 "--base-url", "http://192.168.1.20:5000"]) == 0
    assert "fruit: id: warning: its ink comes" in capsys.readouterr().err
    text = data.read_text(encoding="utf-8")
    data.write_text(text.replace("card_size: poker\n", "card_size: poker\nsafe_margin: 0.2\n"), encoding="utf-8")
    assert safe_zone(cards.load_file(data)) == []
    data.write_text(text.replace("card_size: poker\n", "card_size: poker\nsafe_margin: 5\n"), encoding="utf-8")
    warned = safe_zone(cards.load_file(data))
    assert any(": code: warning:" in w for w in warned) and all("5 mm safe margin" in w for w in warned)
