"""The scoring forms' one inverse (issue 46, item 5): `forms.fields_of` says a score request as the form fields
whose request (`forms.request_from_form`) it is, for every game, so that a saved round opens again in its game's
calculator. Checked on each game's example request (docs/examples/<game>-score.json), on the request each game's
golden form makes (tests/web/forms/<game>.txt) said by that game's own glue, and on requests made at random."""
import json
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.web.games import glue, request_fields
from companion.web.play import forms
from helpers.games import GAME_IDS, examples

ROOT = Path(__file__).resolve().parents[2]


def example(game: str) -> dict:
    return json.loads((ROOT / "docs" / "examples" / f"{game}-score.json").read_text(encoding="utf-8"))


def golden(game: str) -> list[tuple[str, str]]:
    return parse_qsl((ROOT / "tests" / "web" / "forms" / f"{game}.txt").read_text(encoding="utf-8").strip(),
                     keep_blank_values=True)


def back(fields: list[tuple[str, str]]) -> dict:
    return forms.request_from_form(forms.Fields(fields))


@pytest.mark.parametrize("game", GAME_IDS)
def test_each_games_example_request_comes_back_from_its_fields(game):
    request = example(game)
    assert back(forms.fields_of(request)) == request


@pytest.mark.parametrize("game", GAME_IDS)
def test_each_games_golden_form_comes_back_as_the_same_request(game):
    """The golden form's request, and the request its page makes of it (the game's glue: names typed once, seats),
    said as fields and read back: the same, and by the page the same prepared request."""
    typed = golden(game)
    request = back(typed)
    assert back(forms.fields_of(request)) == request
    pages = glue.pages(game)
    prepared = pages.prepare(back(typed), forms.Fields(typed))
    said = request_fields(pages, prepared)
    assert said, "the game's form says its request"
    page_only = [(k, v) for k, v in typed if k.startswith("_")]  # (the names typed once, the player count)
    assert pages.prepare(back(said), forms.Fields(page_only + said)) == prepared


def test_lists_follow_the_forms_naming():
    """A hand of cards is one repeated field, dice one field of numbers, a row of chips a field a position."""
    said = forms.fields_of({"players": [{"hand": ["DQ02", "DQ07"], "dice": [4, 5], "order": ["a", "b"]}]},
                           by_position=("players.*.order",))
    assert said == [("players.0.hand:list", "DQ02"), ("players.0.hand:list", "DQ07"), ("players.0.dice:ints", "4 5"),
                    ("players.0.order.0", "a"), ("players.0.order.1", "b")]
    assert forms.fields_of({"a": {}, "b": " x ", "c": True, "d": {"1": 2}}) == [
        ("a:json", "{}"), ("b:json", '" x "'), ("c:bool", "1"), ("d:json", '{"1":2}')]
    for bad in ({"lang": "es"}, {"_n": 2}, {"a.b": 1}, ["x"]):
        with pytest.raises(ValueError):
            forms.fields_of(bad)


KEYS = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)
SCALARS = st.one_of(st.booleans(), st.integers(-10**12, 10**12), st.text(max_size=8), st.none(),
                    st.floats(allow_nan=False, allow_infinity=False))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(KEYS | st.text(max_size=4), inner, max_size=4)),
                      max_leaves=30)


@settings(max_examples=examples(400), deadline=None)
@given(st.dictionaries(KEYS.filter(lambda k: k not in forms.PAGE_ONLY), VALUES, max_size=5), st.lists(KEYS, max_size=2))
def test_any_request_comes_back_from_its_fields(request, positional):
    """Whatever a JSON request holds (texts blank or padded, empty lists, keys with dots or digits, floats, nulls),
    its fields give it back."""
    assert back(forms.fields_of(request, positional)) == request
