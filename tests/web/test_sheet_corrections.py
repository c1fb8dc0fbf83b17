"""A round scored with the calculator is corrected in it, for every game (issue 46, item 5), without a browser: a
sheet made, a round typed as points, then one saved from a score request (the one its game's golden form makes,
tests/web/forms/<game>.txt; Gemas' without its move: the end-of-game tally); the entry's edit page offers to correct
it in the calculator, whose link's fields make that very request, whose page's form sent as drawn scores the same
points, and whose save changes that entry (no new one). The calculator on a sheet says the sheet's round:
Duplicon's rows "Round 3", its problems too, and Queen's Necklace's "Sale 3"."""
import html
import json
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from companion import service, sheets
from companion.web.games import glue
from companion.web.play import forms
from helpers.games import GAME_IDS
from helpers.scoring_form import form_sent

FORMS = Path(__file__).parent / "forms"


def csrf(page: str) -> str:
    return re.search(r'name="_csrf" value="([^"]+)"', page).group(1)


def stored_request(game: str) -> tuple[dict, list[str]]:
    """What the calculator saves of the game's golden form (its request as the page prepares it), and its players."""
    typed = parse_qsl((FORMS / f"{game}.txt").read_text(encoding="utf-8").strip(), keep_blank_values=True)
    if game == "gemas":  # a sheet's Gemas round is the end-of-game tally (the golden form's move wins the game at once,
        typed = [(k, v) for k, v in typed if not k.startswith("lay_down.")]  # and a page over offers no move)
    form = forms.Fields(typed)
    request = glue.pages(game).prepare(forms.request_from_form(form), form)
    labels = sheets.seat_points(game, service.score(game, request))[0]
    players = labels if game != "nobles" else ["Ana", "Bea"]  # (a duel's seats are its sides)
    return request, players


def new_sheet(client, game: str, players: list[str]) -> tuple[str, str, str]:
    """A sheet started from the form: its page, the form token, its API address."""
    token = csrf(client.get("/sheets").get_data(as_text=True))
    path = client.post("/sheets", data={"_csrf": token, "game": game,
                                        **{f"players.{i}": n for i, n in enumerate(players)}}).headers["Location"]
    return path, token, f"/api/v1/sheets/{path.rsplit('/', 1)[1]}"


def points_of(game: str, request: dict) -> list[int]:
    return sheets.seat_points(game, service.score(game, request))[1]


@pytest.mark.parametrize("game", GAME_IDS)
def test_an_entry_scored_with_the_calculator_is_corrected_in_it(client, game):
    request, players = stored_request(game)
    path, token, api = new_sheet(client, game, players)
    header = {"X-CSRF-Token": token}
    assert client.post(f"{api}/entries", json={"points": {players[0]: 1}}, headers=header).status_code == 201
    assert client.post(f"{api}/entries", json={"request": request, "seats": players[:len(points_of(game, request))]},
                       headers=header).status_code == 201
    entry = client.get(api).get_json()["entries"][1]
    edit = client.get(f"{path}/entries/2/edit?lang=en").get_data(as_text=True)
    assert f'action="{path}/entries/2/calculator"' in edit and "Correct it in the calculator" in edit
    opened = client.post(f"{path}/entries/2/calculator", data={"_csrf": token})
    assert opened.status_code == 303
    link = parse_qsl(urlsplit(opened.headers["Location"]).query, keep_blank_values=True)
    assert urlsplit(opened.headers["Location"]).path == f"/score/{game}"
    # the link's fields make the entry's request, as the page prepares a form
    form = forms.Fields(link)
    assert glue.pages(game).prepare(forms.request_from_form(form), form) == entry["request"] == request
    assert ("_edit", "2") in link and ("_sheet_round", "2") in link
    page = client.get(opened.headers["Location"]).get_data(as_text=True)
    assert 'class="problems"' not in page
    # the page's form, sent as drawn (a player changing nothing), scores the same points and still corrects entry 2
    sent = forms.Fields(form_sent(page))
    again = glue.pages(game).prepare(forms.request_from_form(sent), sent)
    assert points_of(game, again) == points_of(game, request)
    assert sent.get("_edit") == "2" and sent.get("_base") == str(entry["rev"]) and sent.get("_sheet_round") == "2"
    # its save box changes entry 2, from its revision, with its seats
    box = re.search(r'<section class="save".*?<form method="post" action="([^"]+)"(.*?)</form>', page, re.S)
    assert box and box.group(1) == f"{path}/entries/2/edit"
    fields = {k: html.unescape(v) for k, v in re.findall(r'name="([^"]+)" value="([^"]*)"', box.group(2))}
    fields.update(re.findall(r'<select name="(seats\.\d)"[^>]*>.*?<option value="([^"]*)" selected', box.group(2),
                             re.S))
    assert json.loads(fields["request"]) == request
    assert client.post(box.group(1), data=fields).status_code == 303
    state = client.get(api).get_json()
    assert len(state["entries"]) == 2 and state["entries"][1]["rev"] > entry["rev"]
    assert state["entries"][1]["seats"] == entry["seats"] and state["entries"][1]["points"] == entry["points"]


def test_duplicons_calculator_on_a_sheet_is_on_the_sheets_round(client):
    """Two rounds on the sheet: the calculator's row is "Round 3", the result's line and a problem name round 3;
    correcting round 2 says "Round 2"."""
    path, token, api = new_sheet(client, "duplicon", ["A", "B"])
    header = {"X-CSRF-Token": token}
    for won in (28, 30):
        round_ = [{"name": "A", "won": won, "hand": 0, "zone": 0}, {"name": "B", "won": 10, "hand": 1, "zone": 0}]
        client.post(f"{api}/entries", json={"request": {"rounds": [round_]}}, headers=header)
    opened = client.post(f"{path}/calculator", data={"_csrf": token}).headers["Location"]
    page = client.get(opened + "&lang=en").get_data(as_text=True)
    assert re.findall(r"<legend>(Round \d+)</legend>", page) == ["Round 3"]
    scored = client.get(opened + "&lang=en&rounds.0.0.won:int=20").get_data(as_text=True)
    assert "<td>Round 3</td>" in scored and "<li>Round 3 · <bdi>A</bdi>: 20 − 2×0 − 3×0 = 20</li>" in scored
    wrong = client.get(opened.replace("_from=sheet&", "") + "&lang=en&rounds.0.0.won:int=-4")  # (sent again)
    assert wrong.status_code == 400 and re.search(r"Round 3 · A · cards won", wrong.get_data(as_text=True))
    fixed = client.post(f"{path}/entries/2/calculator", data={"_csrf": token}).headers["Location"]
    assert re.findall(r"<legend>(Round \d+)</legend>", client.get(fixed + "&lang=en").get_data(as_text=True)) == [
        "Round 2"]


def test_queens_necklaces_calculator_on_a_sheet_says_the_sale(client):
    path, token, api = new_sheet(client, "queens-necklace", ["Alice", "Bob"])
    header = {"X-CSRF-Token": token}
    request, _ = stored_request("queens-necklace")
    for _sale in range(2):
        client.post(f"{api}/entries", json={"request": request}, headers=header)
    opened = client.post(f"{path}/calculator", data={"_csrf": token}).headers["Location"]
    for lang, word in (("en", "Sale"), ("es", "Venta")):
        page = client.get(f"{opened}&lang={lang}").get_data(as_text=True)
        assert re.findall(r'<p class="meta round" data-round="3"><strong>([^<]+)</strong>', page) == [f"{word} 3"]
