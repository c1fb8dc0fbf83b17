"""`companion score`, `setup` and `simulate`: JSON out, exit 2 with a named field for bad input, no traceback."""
import io
import json
import subprocess
import sys

import pytest

from companion.cli import main


def run(capsys, monkeypatch, argv, stdin=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_score_reads_standard_input(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["score", "duquesa", "-"], '{"florins": 31}')
    assert code == 0 and json.loads(out)["rank"] == "oficial"


def test_score_reads_a_file(capsys, monkeypatch, tmp_path):
    path = tmp_path / "r.json"
    path.write_text('{"rounds": [[{"name": "A", "won": 28, "hand": 3, "zone": 1}, '
                    '{"name": "B", "won": 0, "hand": 0, "zone": 0}]]}')
    code, out, _ = run(capsys, monkeypatch, ["score", "duplicon", str(path)])
    assert code == 0 and json.loads(out)["totals"]["A"] == 19


@pytest.mark.parametrize("argv,stdin,words", [
    (["score", "duquesa"], '{"common": "DQ01", "players": [{"name": "A", "hand": ["DQ02", "DQ03", '
                           '{"stones": ["amber", "jet", "ruby", "pearl"], '
                           '"wish": {"stone": "ruby", "count": 5, "florins": 3}}, "DQ05"]}]}',
     "players[0].hand[2].wish.count: must be 2, 3 or 4"),
    (["score", "duquesa"], "{not json", "request: not valid JSON"),
    (["score", "duquesa"], "", "request: not valid JSON"),
    (["score", "duquesa"], '{"florins": 1, "florins": 2}', "appears twice"),
    (["score", "chess"], None, "unknown game 'chess'"),
    (["score", "duquesa", "/no/such/file.json"], None, "cannot read /no/such/file.json"),
    (["setup", "duquesa", "--players", "3"], None, "players: must be 1 or 2"),
    (["setup", "duquesa", "--option", "expansions=silver"], None, "expansions[0]: unknown expansion 'silver'"),
    (["setup", "duquesa", "--option", "nonsense"], None, "--option takes NAME=VALUE"),
    (["setup", "nobles", "--option", "jokers=maybe"], None, "jokers: must be true or false"),
    (["setup", "duquesa", "--part-seed", "first_player"], None, "--part-seed takes PART=SEED"),
    (["setup", "queens-necklace", "--part-seed", "teams=x"], None, "has no part teams to deal again alone"),
    (["setup", "gemas", "--players", "two"], None, "invalid int value"),
    (["simulate", "gemas", "--games", "10"], None, "only duquesa has one"),
    (["simulate", "duquesa", "--games", "0"], None, "--games must be from 1"),
])
def test_bad_input_exits_2_with_a_clear_message(capsys, monkeypatch, argv, stdin, words):
    code, out, err = run(capsys, monkeypatch, argv, stdin if stdin is not None else "")
    assert code == 2 and words in err and out == ""


def test_setup_prints_a_reproducible_json_setup(capsys, monkeypatch):
    _, first, _ = run(capsys, monkeypatch, ["setup", "queens-necklace", "--players", "4", "--seed", "table-7"])
    _, second, _ = run(capsys, monkeypatch, ["setup", "queens-necklace", "--players", "4", "--seed", "table-7"])
    assert first == second and json.loads(first)["seed"] == "table-7"


def test_setup_without_a_seed_reports_the_one_it_used(capsys, monkeypatch):
    _, out, _ = run(capsys, monkeypatch, ["setup", "duplicon"])
    seed = json.loads(out)["seed"]
    _, again, _ = run(capsys, monkeypatch, ["setup", "duplicon", "--seed", seed])
    assert json.loads(again) == json.loads(out)


def test_setup_deals_one_part_again_from_its_own_seed_as_the_page_does(capsys, monkeypatch, client):
    """--part-seed PART=SEED is the page's ↻ (its address's seed.PART): that part changes, the rest stays, and the
    same seeds give the same setup as the page and the API."""
    base = ["setup", "queens-necklace", "--players", "3", "--seed", "table-7"]
    whole = json.loads(run(capsys, monkeypatch, base)[1])
    changed = next(json.loads(run(capsys, monkeypatch, [*base, "--part-seed", f"fashion={k}"])[1])
                   for k in range(50) if json.loads(run(capsys, monkeypatch, [*base, "--part-seed", f"fashion={k}"])[1]
                                                    )["fashion"] != whole["fashion"])
    assert {k for k in whole if whole[k] != changed[k]} <= {"fashion", "seeds"}
    seed = next(k for k in range(50) if json.loads(run(capsys, monkeypatch, [*base, "--part-seed", f"fashion={k}"])[1])
                == changed)
    api = client.get(f"/api/v1/queens-necklace/setup?players=3&seed=table-7&seed.fashion={seed}").get_json()
    assert api == changed


def test_setup_piped_into_a_reader_that_stops_early_exits_quietly(capsys, monkeypatch):
    """`companion setup … | head -1`: the reader goes away; no traceback (was BrokenPipeError), exit 0."""
    class GoneReader(io.StringIO):
        def write(self, _text):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", GoneReader())
    assert main(["setup", "gemas", "--players", "10", "--seed", "s"]) == 0
    proc = subprocess.run(f"{sys.executable} -m companion.cli setup gemas --players 10 --seed s | head -c 1",
                          shell=True, capture_output=True, text=True, timeout=60)
    assert proc.stdout == "{" and "Traceback" not in proc.stderr


def test_simulate_reports_the_rank_distribution(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["simulate", "duquesa", "--games", "300", "--seed", "1"])
    result = json.loads(out)
    assert code == 0 and sum(result["ranks"].values()) == 300 and set(result["ranks"]) == {
        "aprendiz", "artista", "oficial", "magister"}


def test_console_script_bad_request_no_traceback():
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "score", "nobles"], input='{"attacker": 3}',
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "attacker: must be a mapping" in proc.stderr and "defender: is missing" in proc.stderr
