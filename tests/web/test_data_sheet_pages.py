"""A designer's game of rounds to a target on a saved sheet's pages (issue 36), without a browser: the scoring page
opened from the sheet starts at the sheet's next round; the sheet says the round and the target, and once the target
is reached that the game is over and who won by the rules' `winner:` and `ties:`, in English and Spanish, on its
page, in its API state and in this phone's list of sheets. The game is docs/example-game/cometas.yaml (majorities
per colour, runs, knots, first to 40); the hands are those the browser test plays (test_browser_data_sheet.py)."""
import re
import shutil
from pathlib import Path

import pytest

from companion import cards
from companion.games import generic
from companion.web import create_app

GAME = Path(__file__).parents[2] / "docs" / "example-game" / "cometas.yaml"
TARGET = 40  # the file's rounds: {target: "40"}
NAMES = ["Ana", "Bea"]


def kites(colour: str, *numbers: int) -> dict[str, int]:
    return {f"KT-{colour}-{n}": 1 for n in numbers}


# Each round: (Ana's kites, her knots, Bea's kites, her knots). 20-20, then 14-14 (34 each, under 40), then 19-19 with
# three knots for Ana: 53 each, tied; the last round's knots break it (Bea none), though Ana flew more kites.
ROUNDS = [
    ({**kites("RED", 1, 2, 3, 4, 5), **kites("YELLOW", 9)}, 0,
     {**kites("BLUE", 1, 2, 3, 4), **kites("GREEN", 7, 8, 9)}, 1),
    ({**kites("YELLOW", 1, 2, 3), **kites("BLUE", 9)}, 0, {**kites("GREEN", 1, 2, 3), **kites("RED", 9)}, 0),
    ({**kites("RED", 6, 7), **kites("YELLOW", 4, 5, 6), **kites("BLUE", 5), **kites("GREEN", 4, 5)}, 3,
     {**kites("BLUE", 6, 7, 8), **kites("GREEN", 6), **kites("YELLOW", 7), **kites("RED", 8)}, 0),
]


def request_of(k: int) -> dict:
    """Round k + 1's score request, as the scoring page makes it from the hands typed in."""
    ana, ana_knots, bea, bea_knots = ROUNDS[k]
    return {"round": k + 1, "players": [{"name": "Ana", "cards": ana, "counters": {"knots": ana_knots}},
                                        {"name": "Bea", "cards": bea, "counters": {"knots": bea_knots}}]}


def expected() -> tuple[list[dict[str, int]], list[str]]:
    """The totals after each round (each round scored by generic.score on the same hands) and the winner as the
    rules' text says: rounds until someone has 40; the most points; tied, fewer knots, then more kites (in the last
    round)."""
    card_set = cards.load_file(GAME)
    totals, after = dict.fromkeys(NAMES, 0), []
    for k in range(len(ROUNDS)):
        for p in generic.score(request_of(k), card_set)["players"]:
            totals[p["name"]] += p["points"]
        after.append(dict(totals))
    last = request_of(len(ROUNDS) - 1)["players"]
    best = max(totals.values())
    tied = [p for p in last if totals[p["name"]] == best]
    key = [(-p["counters"]["knots"], sum(p["cards"].values())) for p in tied]
    return after, [p["name"] for p, k in zip(tied, key, strict=True) if k == max(key)]


AFTER, WINNERS = expected()


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
