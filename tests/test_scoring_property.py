"""The promise of validate, as a property (issue 43): over random designer files drawn from the scoring contract's
grammar (helpers/designer_files.py) and random legal tables, what `validate` calls ok scores every table, through
the service, the command line and the API, with the same answers as a second evaluator written apart
(helpers/plain_scoring.py); a file validate calls ok without a warning never fails at a table; it builds; and a
saved sheet of it plays to its end as the rules say. 2,000 files in `make test`, a tenth in the fast lane."""
import json
import zlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cards, cli
from companion.core.schema import InputError
from companion.games import generic
from helpers.designer_files import games, tables
from helpers.games import examples
from helpers.plain_scoring import PlainError, score, target_of

FILES = 2000 if examples(2000) == 2000 else 60  # the fast lane: 60 files (make test: 2000)
FULL = FILES >= 1000  # (make test: every part as often as below; the fast lane samples its slower parts less)
THROUGH_CLI_AND_API, BUILT_AND_SHEET = (8, 40) if FULL else (20, 100)
PROPERTY = settings(max_examples=FILES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large])


def plain(game, request):
    try:
        return score(game.section, game.choices, request, game.cards)
    except PlainError as e:
        return e


def companion_answer(card_set, request):
    try:
        return generic.score(request, card_set)
    except InputError as e:
        return e


def same(answer, expected) -> None:
    """The companion's answer is the plain evaluator's: every player's points and rules, and the winners."""
    assert [(p["name"], p["points"], p["rules"]) for p in answer["players"]] == \
        [(p["name"], p["points"], p["rules"]) for p in expected["players"]]
    assert answer["winners"] == expected["winners"]


def sampled(game, every: int) -> bool:
    """One file in `every`, the same on every run of the same file (its text's checksum)."""
    return zlib.crc32(game.text.encode()) % every == 0


@PROPERTY
@given(game=games(), data=st.data())
def test_what_validate_calls_ok_scores_every_table_as_the_rules_say(game, data, tmp_path_factory):
    card_set, errors = cards.check_text(game.text, "probe.yaml")
    if errors:
        assert card_set is None  # (what validate refuses is another test's: every error names a line)
        return
    proved = not card_set.warnings
    for _ in range(data.draw(st.integers(3, 8))):
        request = data.draw(tables(game))
        expected, answer = plain(game, request), companion_answer(card_set, request)
        if isinstance(answer, InputError):
            assert not proved, (game.text, request, answer.problems)  # proved: no legal table fails
            assert isinstance(expected, PlainError), (game.text, request, answer.problems)
            continue
        assert not isinstance(expected, PlainError), (game.text, request, expected)
        same(answer, expected)
    folder = None
    if sampled(game, THROUGH_CLI_AND_API):  # the command line and the API give the service's answer
        folder = tmp_path_factory.mktemp("probe")
        path = folder / "probe.yaml"
        path.write_text(game.text, encoding="utf-8")
        through_cli_and_api(path, game, data.draw(tables(game)))
    if sampled(game, BUILT_AND_SHEET):  # it builds, and a saved sheet of it plays to its end
        folder = folder or tmp_path_factory.mktemp("probe")
        path = folder / "probe.yaml"
        path.write_text(game.text, encoding="utf-8")
        assert cli.main(["build", str(path), "--out", str(folder / "out")]) == 0
        if proved:
            played_to_its_end(path, game, data)


def through_cli_and_api(path, game, request) -> None:
    from companion.web import create_app

    expected = plain(game, request)
    (path.parent / "request.json").write_text(json.dumps(request), encoding="utf-8")
    app = create_app({"TESTING": True, "CARD_FILES": [str(path)], "INSTANCE_PATH": str(path.parent / "instance")})
    answer = app.test_client().post("/api/v1/probe/score", json=request)
    if isinstance(expected, PlainError):
        assert answer.status_code == 400, answer.get_json()
        assert cli.main(["score", str(path), str(path.parent / "request.json")]) == 2
        return
    assert answer.status_code == 200, answer.get_json()
    same(answer.get_json(), expected)
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["score", str(path), str(path.parent / "request.json")]) == 0
    same(json.loads(out.getvalue()), expected)


def played_to_its_end(path, game, data) -> None:
    """A sheet through the API: rounds added (each naming none: the sheet gives its next) until the game's end by
    its rules (its last round, or a total reaching the target), then finished by itself with the rules' winners."""
    from companion.web import create_app

    app = create_app({"TESTING": True, "CARD_FILES": [str(path)], "INSTANCE_PATH": str(path.parent / "instance")})
    phone = app.test_client()
    header = {"X-CSRF-Token": phone.get("/api/v1/csrf").get_json()["csrf"]}
    n = data.draw(st.integers(*game.players))
    names = [f"P{i + 1}" for i in range(n)]
    made = phone.post("/api/v1/sheets", json={"game": "probe", "players": names}, headers=header)
    assert made.status_code == 201, made.get_json()
    token = made.get_json()["token"]
    rounds = game.section.get("rounds", 1)
    totals = dict.fromkeys(names, 0)
    for played in range(1, 31):
        request = data.draw(tables(game, played))
        while len(request["players"]) != n:
            request = data.draw(tables(game, played))
        expected = plain(game, request)
        del request["round"]
        added = phone.post(f"/api/v1/sheets/{token}/entries", json={"request": request}, headers=header)
        assert added.status_code == 201, added.get_json()
        for p in expected["players"]:
            totals[p["name"]] += p["points"]
        state = phone.get(f"/api/v1/sheets/{token}").get_json()
        assert state["totals"] == totals
        if isinstance(rounds, dict):
            counters = {k: min(max(0, c["number"][0]), c["number"][1])
                        for k, c in (game.section.get("counters") or {}).items()}
            targets = target_of(game.section, game.choices, n, played, counters)
            over = any(totals[name] >= t for name, t in zip(names, targets, strict=True))
        else:
            over = played >= rounds
        assert state["finished"] == over, (state, totals)
        if over:
            assert state["winners"] == expected_winners(game, totals, expected), (state, totals)
            refused = phone.post(f"/api/v1/sheets/{token}/entries", json={"request": request}, headers=header)
            assert refused.status_code == 409  # no round after the end
            return


def expected_winners(game, totals, last) -> list[str]:
    """The rules' winners of a whole game: the best total (fewest or most), then the last round's tie-breakers."""
    sign = -1 if game.section.get("winner") == "fewest" else 1
    keys = {name: (sign * t, *last["ties"][name]) for name, t in totals.items()}
    return [name for name, key in keys.items() if key == max(keys.values())]
