"""Names that spoof scores are refused and names that look alike are one player (issue 15, item 6): NFC, trimmed,
no direction marks or zero-width characters."""
import pytest

from companion import service, sheets
from companion.core.schema import InputError

GEMS = {"green": 1, "blue": 0, "violet": 0, "orange": 0}


@pytest.mark.parametrize("name", ["Ana\u202e", "\u2067Ana", "Ana\u200b", "A\u200dna", "\ufeffAna"])
def test_hidden_direction_marks_and_zero_width_characters_are_refused(name):
    with pytest.raises(InputError) as e:
        sheets.new_sheet({"game": "gemas", "players": [name, "Bruno"]})
    assert e.value.field == "players[0]"


@pytest.mark.parametrize("a,b", [("Ana", " Ana"), ("Jos\u00e9", "Jose\u0301"), ("Ana ", "Ana")])
def test_names_equal_after_normalising_are_the_same_player(a, b):
    with pytest.raises(InputError) as e:
        sheets.new_sheet({"game": "gemas", "players": [a, b]})
    assert "already player 1" in str(e.value)
    with pytest.raises(InputError):
        service.score("gemas", {"players": [{"name": a, "gems": GEMS}, {"name": b, "gems": GEMS}]})


def test_points_typed_for_a_name_match_its_normalised_player():
    body = sheets.entry_body("gemas", ["José", "Bruno"], {"points": {"Jose\u0301 ": 3}})
    assert body["points"] == {"José": 3, "Bruno": 0}
