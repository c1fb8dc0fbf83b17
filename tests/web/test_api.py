"""The JSON API answers exactly what the command line answers; bad input is 400 naming the field, never 500."""
import json
from pathlib import Path

import pytest

from companion import service
from companion.cli import main
from helpers.games import GAME_IDS

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_healthz(client):
    assert client.get("/healthz").json == {"status": "ok", "database": "ok"}


@pytest.mark.parametrize("game", GAME_IDS)
def test_score_equals_the_command_line(client, capsys, game):
    path = EXAMPLES / f"{game}-score.json"
    response = client.post(f"/api/v1/{game}/score", data=path.read_bytes(), content_type="application/json")
    assert main(["score", game, str(path)]) == 0
    assert response.status_code == 200 and response.json == json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("game", GAME_IDS)
def test_setup_equals_the_command_line(client, capsys, game):
    response = client.get(f"/api/v1/{game}/setup?seed=table-3")
    assert main(["setup", game, "--seed", "table-3"]) == 0
    assert response.status_code == 200 and response.json == json.loads(capsys.readouterr().out)


def test_setup_passes_players_and_options(client):
    r = client.get("/api/v1/duquesa/setup?players=1&seed=s&expansions=rainbow")
    assert r.json == service.setup("duquesa", 1, "s", {"expansions": "rainbow"})
    assert r.json["players"] == 1 and r.json["expansions"] == ["rainbow"]


@pytest.mark.parametrize("path,body,field", [
    ("/api/v1/duquesa/score", '{"common": "DQ01", "players": [{"name": "A", "hand": ["DQ02", "DQ03", '
                              '{"stones": ["amber", "jet", "ruby", "pearl"], '
                              '"wish": {"stone": "ruby", "count": 5, "florins": 3}}, "DQ05"]}]}',
     "players[0].hand[2].wish.count"),
    ("/api/v1/duquesa/score", "{broken", ""),
    ("/api/v1/duquesa/score", "", ""),
    ("/api/v1/queens-necklace/score", '{"fashion": [], "players": []}', "fashion"),
    ("/api/v1/nobles/score", "[]", ""),
    ("/api/v1/duplicon/score", '{"rounds": "many"}', "rounds"),
])
def test_bad_requests_are_400_with_the_field(client, path, body, field):
    r = client.post(path, data=body, content_type="application/json")
    assert r.status_code == 400 and r.json["field"] == field and r.json["error"]


@pytest.mark.parametrize("query,field", [("players=9", "players"), ("players=two", "players"), ("seed=", "seed"),
                                         ("expansions=silver", "expansions[0]"), ("colour=red", "colour")])
def test_bad_setup_queries_are_400(client, query, field):
    r = client.get(f"/api/v1/duquesa/setup?{query}")
    assert r.status_code == 400 and r.json["field"] == field


def test_unknown_games_are_404(client):
    assert client.post("/api/v1/chess/score", data="{}").status_code == 404
    assert client.get("/api/v1/chess/setup").status_code == 404


def test_oversized_requests_are_refused_without_a_500(client):
    r = client.post("/api/v1/duquesa/score", data="x" * (300 * 1024), content_type="application/json")
    assert r.status_code == 413 and "too large" in r.json["error"]
