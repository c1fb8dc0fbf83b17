"""Any JSON at all, and the examples with one value broken: each game answers or names a field, never crashes."""
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import service
from companion.core.schema import InputError
from helpers.games import GAME_IDS, examples

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
leaves = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=12)
json_values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8),
                                                                                                 inner, max_size=5),
                           max_leaves=20)


def answers_or_names_a_field(game, request):
    try:
        result = service.score(game, request)
    except InputError as e:
        assert e.problems and all(p.message for p in e.problems)
    else:
        json.dumps(result)  # the answer is JSON


@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request=json_values)
def test_arbitrary_json(game, request):
    answers_or_names_a_field(game, request)


def paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, (*prefix, i))


def replaced(value, path, new):
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    return copy


@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_examples_with_one_value_broken(game, data):
    example = json.loads((EXAMPLES / f"{game}-score.json").read_text())
    path = data.draw(st.sampled_from(list(paths(example))))
    answers_or_names_a_field(game, replaced(example, path, data.draw(json_values)))
