"""A designer's game of rounds to a target on a saved sheet's pages (issue 36), without a browser: the scoring page
opened from the sheet starts at the sheet's next round; the sheet says the round and the target, and once the target
is reached that the game is over and who won by the rules' `winner:` and `ties:`, in English and Spanish, on its
page, in its API state and in this phone's list of sheets. The game is docs/example-game/cometas.yaml (majorities
per colour, runs, knots, first to 40); the hands are those the browser test plays (test_browser_data_sheet.py)."""
import re
import shutil

import pytest

from companion.web import create_app
from helpers.cometas import AFTER, GAME, NAMES, ROUNDS, TARGET, WINNERS, request_of


def test_the_hands_reach_the_target_in_the_last_round_tied_and_the_knots_break_the_tie():
    assert [max(t.values()) >= TARGET for t in AFTER] == [False] * (len(ROUNDS) - 1) + [True]
    assert AFTER[-1]["Ana"] == AFTER[-1]["Bea"] and WINNERS == ["Bea"]


@pytest.fixture
def client(tmp_path):
    shutil.copy(GAME, tmp_path / "cometas.yaml")
    app = create_app({"TESTING": True, "CARD_FILES": [str(tmp_path / "cometas.yaml")],
                      "INSTANCE_PATH": str(tmp_path / "instance")})
    return app.test_client()


def csrf(page: str) -> str:
    return re.search(r'name="_csrf" value="([^"]+)"', page).group(1)


def new_sheet(client) -> tuple[str, str, dict]:
    """A cometas sheet started from the sheets page: (its page, the form token, the API's header)."""
    token = csrf(client.get("/sheets").get_data(as_text=True))
    path = client.post("/sheets", data={"_csrf": token, "game": "cometas", "players.0": "Ana",
                                        "players.1": "Bea"}).headers["Location"]
    return path, token, {"X-CSRF-Token": token}


def play(client, path: str, header: dict, k: int) -> dict:
    """Round k + 1 saved as a scored request naming no round (the sheet gives it its next one); the API's state."""
    request = {key: v for key, v in request_of(k).items() if key != "round"}
    api = f"/api/v1/sheets/{path.rsplit('/', 1)[1]}"
    assert client.post(f"{api}/entries", json={"request": request}, headers=header).status_code == 201
    return client.get(api).get_json()


def lines(page: str) -> list[str]:
    """The sheet's lines of where the game stands: who leads or won, and the round."""
    return [re.sub(r"<[^>]+>", "", line) for line in re.findall(
        r'<p class="(?:winner[^"]*|meta round)"[^>]*>(.*?)</p>', page.split('id="live"')[1].split("<h2>")[0])]


def test_the_calculator_opens_at_the_sheets_next_round_and_the_sheet_says_it(client):
    path, token, header = new_sheet(client)
    assert lines(client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)) == [
        f"Round 1 · played to {TARGET} points"]
    for k in range(len(ROUNDS) - 1):
        state = play(client, path, header, k)
        assert state["end"]["round"] == k + 2 and not state["end"]["over"] and not state["finished"]
        opened = client.post(f"{path}/calculator", data={"_csrf": token}).headers["Location"]
        page = client.get(opened).get_data(as_text=True)
        assert re.findall(r'name="round:int" value="(\d+)"', page) == [str(k + 2)]
        assert re.findall(r'name="players\.\d\.name" value="([^"]*)"', page) == NAMES
        assert 'class="problems"' not in page
        sheet = client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
        assert f'data-round="{k + 2}"' in sheet and lines(sheet)[-1] == f"Round {k + 2} · played to {TARGET} points"
    sheet = client.get(path, headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert lines(sheet)[-1] == f"Ronda {len(ROUNDS)} · se juega a {TARGET} puntos"


def test_the_round_that_reaches_the_target_ends_the_sheet_with_the_rules_winner(client):
    path, _, header = new_sheet(client)
    for k in range(len(ROUNDS)):
        state = play(client, path, header, k)
        assert state["totals"] == AFTER[k]
    # over: finished by itself, and the tie on totals broken by the last round's knots, not shared
    assert state["finished"] and state["end"]["over"] and state["winners"] == WINNERS == state["end"]["winners"]
    assert [e["request"]["round"] for e in state["entries"]] == [1, 2, 3]
    english = client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert lines(english) == [f"Game over after round {len(ROUNDS)}. Won by {', '.join(WINNERS)}"]
    assert f'data-winners="{",".join(WINNERS)}"' in english
    spanish = client.get(path, headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert lines(spanish) == [f"Partida terminada tras la ronda {len(ROUNDS)}. Gana {', '.join(WINNERS)}"]
    listed = client.get("/sheets", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert f'data-winners="{",".join(WINNERS)}"' in listed
