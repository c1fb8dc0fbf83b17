"""POST /api/v1/<game>/score for a game scored from its data (scoring:): each player's points with the points of
every rule and the winners, as the command line answers; a bad request is a 400 naming its path."""
import json
import shutil
from pathlib import Path

import pytest

from companion import cards
from companion.games import generic
from companion.web import create_app

GAME = Path(__file__).resolve().parents[1] / "data" / "lost.yaml"


@pytest.fixture
def client(tmp_path):
    shutil.copy(GAME, tmp_path / "lost.yaml")
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance"),
                      "CARD_FILES": [str(tmp_path / "lost.yaml")]})
    return app.test_client()


REQUEST = {"round": 3, "players": [
    {"name": "Ana", "cards": {"LC-RED-5": 1, "LC-RED-W1": 1, "LC-PUD": 2}, "counters": {"chips": 4}},
    {"name": "Bo", "cards": ["LC-BLUE-9"]}, {"name": "Cy", "cards": {"LC-PUD": 1}}]}


def test_the_api_answers_every_rules_points_and_the_winners(client):
    answer = client.post("/api/v1/lost/score", json=REQUEST)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    result = answer.get_json()
    by_name = {p["name"]: p for p in result["players"]}
    # Ana: red (5 - 20) * 2 = -30, white puddings (0 - 20) = -20; chips -4; most puddings 6, and with three at the
    # table the fewest (Bo, 0) loses 6
    assert by_name["Ana"]["rules"] == {"expeditions": -50, "chips": -4, "pudding": 6}
    assert by_name["Bo"]["rules"] == {"expeditions": -11, "chips": 0, "pudding": -6}
    assert by_name["Cy"]["rules"] == {"expeditions": -20, "chips": 0, "pudding": 0}
    assert [p["points"] for p in result["players"]] == [-48, -17, -20] and result["winners"] == ["Bo"]
    assert result == generic.score(REQUEST, cards.load_file(GAME))


@pytest.mark.parametrize("change, field", [
    (lambda r: r["players"][0]["counters"].update(chipz=1), "players[0].counters.chipz"),
    (lambda r: r["players"][0]["counters"].update(chips=61), "players[0].counters.chips"),
    (lambda r: r["players"][0]["counters"].update(chips="4"), "players[0].counters.chips"),
    (lambda r: r["players"][1].update(cards={"LC-RED-5": 1}), "players[1].cards.LC-RED-5"),
    (lambda r: r["players"][0]["cards"].update({"LC-NOPE": 1}), "players[0].cards.LC-NOPE"),
    (lambda r: r["players"][0]["cards"].update({"LC-PUD": 501}), "players[0].cards.LC-PUD"),
    (lambda r: r.update(round=4), "round"),
    (lambda r: r.update(round="1"), "round"),
])
def test_a_bad_request_is_a_400_naming_its_path(client, change, field):
    request = json.loads(json.dumps(REQUEST))
    change(request)
    answer = client.post("/api/v1/lost/score", json=request)
    assert answer.status_code == 400
    assert answer.get_json()["field"] == field
