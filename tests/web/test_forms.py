"""The one naming scheme that turns every game's form fields into a score request."""
from werkzeug.datastructures import MultiDict

from companion.web.play.forms import filled, is_submitted, request_from_form


def test_paths_types_and_lists():
    form = MultiDict([("players.0.name", "Ana"), ("players.0.hand:list", "DQ01"), ("players.0.hand:list", "DQ02"),
                      ("players.1.name", "Bruno"), ("attacker.weapon:int", "3"), ("attacker.dice:ints", "4, 5"),
                      ("variants.suit_only:bool", "1"), ("lang", "en"), ("_n", "2")])
    assert request_from_form(form) == {
        "players": [{"name": "Ana", "hand": ["DQ01", "DQ02"]}, {"name": "Bruno"}],
        "attacker": {"weapon": 3, "dice": [4, 5]}, "variants": {"suit_only": True}}


def test_blank_fields_are_left_out_and_gaps_are_none():
    form = MultiDict([("rounds.0.0.won:int", "3"), ("rounds.2.1.won:int", "4"), ("rounds.1.0.won:int", ""),
                      ("x:list", "")])
    req = request_from_form(form)
    assert req == {"rounds": [[{"won": 3}], None, [None, {"won": 4}]]}
    assert filled(req["rounds"]) == [[{"won": 3}], [None, {"won": 4}]]


def test_values_of_the_wrong_kind_pass_through_for_the_rules_to_name():
    req = request_from_form(MultiDict([("a:int", "seven"), ("b:ints", "1 x"), ("c:int", "99999999999")]))
    assert req == {"a": "seven", "b": [1, "x"], "c": "99999999999"}


def test_page_fields_do_not_count_as_a_submission():
    assert not is_submitted(MultiDict([("lang", "es"), ("_n", "3")]))
    assert is_submitted(MultiDict([("common", "DQ01")]))


def test_conflicting_shapes_do_not_crash():
    req = request_from_form(MultiDict([("a", "1"), ("a.b", "2"), ("c.d", "1"), ("c", "2")]))
    assert req["a"] == "1" and isinstance(req, dict)
