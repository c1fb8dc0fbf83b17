"""Saved-sheet pages without a script: start a sheet, add, edit (and a conflict), undo, finish, the history of
this phone's sheets with winners, saving a calculator result, importing a file; every form carries its token."""
import io
import re
from urllib.parse import urlencode

import pytest

from companion.sheets import storage
from companion.web import create_app
from companion.web.shell import csrf as form_tokens


@pytest.fixture
def app(database):
    """The web app on an empty database: SQLite, then a real PostgreSQL."""
    return create_app({"TESTING": True, "DATABASE_URL": database})


def csrf(page: str) -> str:
    return re.search(r'name="_csrf" value="([^"]+)"', page).group(1)


@pytest.fixture
def started(client):
    """A Gemas sheet started from the form: (client, edit path, form token)."""
    token = csrf(client.get("/sheets").get_data(as_text=True))
    r = client.post("/sheets", data={"_csrf": token, "game": "gemas", "title": "Domingo", "players.0": "Ana",
                                     "players.1": "Bruno", "players.2": "Carla"})
    assert r.status_code == 303
    return client, r.headers["Location"], token


def row_numbers(page: str) -> list[int]:
    """The numbers a sheet's grid gives its rows, top to bottom."""
    return [int(n) for n in re.findall(r'<span class="num">(\d+)</span>', page)]


def totals(page: str) -> dict:
    return {m[0]: int(m[1]) for m in re.findall(r'data-player="([^"]+)" data-total="(-?\d+)"', page)}


def test_start_add_edit_undo_and_finish(started):
    client, path, token = started
    page = client.get(path).get_data(as_text=True)
    assert "Domingo" in page and totals(page) == {"Ana": 0, "Bruno": 0, "Carla": 0}
    r = client.post(f"{path}/entries", data={"_csrf": token, "points.0": "12", "points.1": "", "points.2": "-2"})
    assert r.status_code == 303 and r.headers["Location"].endswith("#entry-1")
    client.post(f"{path}/entries", data={"_csrf": token, "points.1": "7", "note": "segunda"})
    page = client.get(path).get_data(as_text=True)
    assert totals(page) == {"Ana": 12, "Bruno": 7, "Carla": -2} and "segunda" in page
    edit = client.get(f"{path}/entries/1/edit").get_data(as_text=True)
    assert 'name="base" value="1"' in edit and 'value="12"' in edit
    client.post(f"{path}/entries/1/edit", data={"_csrf": token, "base": "1", "points.0": "10", "points.2": "0"})
    client.post(f"{path}/entries/2/undo", data={"_csrf": token, "base": "2"})
    page = client.get(path).get_data(as_text=True)
    assert totals(page) == {"Ana": 10, "Bruno": 0, "Carla": 0} and 'data-active="false"' in page
    client.post(f"{path}/finish", data={"_csrf": token})
    page = client.get(path).get_data(as_text=True)
    assert 'data-winners="Ana"' in page and "/entries/1/edit" not in page  # a finished sheet is reopened first
    log = client.get(f"{path}/log").get_data(as_text=True)
    assert re.findall(r'data-action="(\w+)"', log) == ["add", "add", "edit", "undo", "finish"]


def test_a_stale_edit_shows_both_and_lets_the_player_choose(started):
    client, path, token = started
    client.post(f"{path}/entries", data={"_csrf": token, "points.0": "5"})
    client.post(f"{path}/entries/1/edit", data={"_csrf": token, "base": "1", "points.0": "6"})  # another phone
    r = client.post(f"{path}/entries/1/edit", data={"_csrf": token, "base": "1", "points.0": "9"},
                    headers={"Accept-Language": "en"})
    page = r.get_data(as_text=True)
    assert r.status_code == 409 and "data-conflict" in page and "changed on another phone after you opened it" in page
    assert (re.search(r"<bdi>Ana</bdi> <strong>6</strong>", page)
            and re.search(r"<bdi>Ana</bdi> <strong>9</strong>", page))
    keep_mine = re.search(r'<form method="post" action="([^"]+)" class="inline">(.*?)</form>', page, re.S)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', keep_mine.group(2)))
    assert fields["base"] == "2"
    assert client.post(keep_mine.group(1), data=fields).status_code == 303
    assert totals(client.get(path).get_data(as_text=True))["Ana"] == 9


def test_bad_form_input_is_shown_on_the_page(started):
    client, path, token = started
    r = client.post(f"{path}/entries", data={"_csrf": token, "points.0": "doce"})
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", re.search(r'<div class="problems".*?</div>',
                                                                r.get_data(as_text=True), re.S)[0]))
    assert r.status_code == 400 and "Puntos · Ana: debe ser un número entero" in said and "points.Ana" not in said
    r = client.post("/sheets", data={"_csrf": token, "game": "gemas", "players.0": "Ana"})
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", re.search(r'<div class="problems".*?</div>',
                                                                r.get_data(as_text=True), re.S)[0]))
    assert r.status_code == 400 and "Número de jugadores: 1; gemas se juega con 2 a 10" in said
    r = client.post(f"{path}/entries", data={"_csrf": token, "points.0": "1"},
                    headers={"Accept": "application/json"})  # the page's script asks for JSON
    assert r.status_code == 201 and r.get_json()["change"]["seq"] == 1


def test_the_read_only_page_has_no_forms_and_refuses_writes(started, app):
    client, path, token = started
    view = storage.view_token(path.rsplit("/", 1)[1])
    page = client.get(f"/s/{view}").get_data(as_text=True)
    assert 'data-mode="view"' in page and "<form" not in page.split('id="share"')[0].split("</header>")[1]
    assert client.post(f"/s/{view}/entries", data={"_csrf": token, "points.0": "1"}).status_code == 403
    assert client.get(f"/s/{view}/entries/1/edit").status_code == 403


def test_the_page_shows_both_links_as_qr_codes(started):
    client, path, _token = started
    page = client.get(path).get_data(as_text=True)
    links = dict(re.findall(r'href="([^"]+)" data-link="(\w+)"', page))
    assert set(links.values()) == {"edit", "view"} and len(re.findall(r'src="data:image/svg\+xml;base64,', page)) == 2


def test_this_phones_sheets_list_winners(started):
    client, path, token = started
    client.post(f"{path}/entries", data={"_csrf": token, "points.1": "4"})
    client.post(f"{path}/finish", data={"_csrf": token})
    page = client.get("/sheets", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Domingo" in page and 'data-winners="Bruno"' in page and "Won by <bdi>Bruno</bdi>" in page


def test_a_calculator_result_is_saved_to_the_sheet_it_was_opened_from(client):
    token = csrf(client.get("/sheets").get_data(as_text=True))
    path = client.post("/sheets", data={"_csrf": token, "game": "duquesa", "players.0": "Bruno",
                                        "players.1": "Ana"}).headers["Location"]
    assert client.get(f"{path}/calculator").status_code == 405  # a GET changes nothing (issue 15, item 8)
    assert client.post(f"{path}/calculator").status_code == 400  # nor a POST without this session's token
    opened = client.post(f"{path}/calculator", data={"_csrf": token}).headers["Location"]
    assert opened.startswith("/score/duquesa?")
    # the sheet's players, in its seat order, name the calculator's rows (issue 13: it said Player 1 and 2)
    page = client.get(opened).get_data(as_text=True)
    assert re.findall(r'name="players\.\d\.name" value="([^"]*)"', page) == ["Bruno", "Ana"]
    assert 'class="problems"' not in page
    query = {"common": "DQ01", "players.0.name": "Ana", "players.0.hand:list": ["DQ02", "DQ07", "DQ12", "DQ16"],
             "players.1.name": "Bruno", "players.1.hand:list": ["DQ03", "DQ05", "DQ19", "DQ14"]}
    page = client.get("/score/duquesa?" + urlencode(query, doseq=True)).get_data(as_text=True)
    florins = {name: int(n)
               for name, n in re.findall(r'<h2><bdi>(\w+)</bdi> <span class="total" data-florins="(\d+)"', page)}
    assert set(florins) == {"Ana", "Bruno"}
    form = re.search(r'<section class="save".*?<form method="post" action="([^"]+)"(.*?)</form>', page, re.S)
    assert form, "the save box is on the result"
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(2)))
    seats = re.findall(r'<select name="(seats\.\d)"[^>]*>.*?<option value="(\w+)" selected', form.group(2), re.S)
    assert seats == [("seats.0", "Ana"), ("seats.1", "Bruno")]  # matched by name, not by order
    fields.update(dict(seats))
    fields["request"] = fields["request"].replace("&#34;", '"')
    assert client.post(form.group(1), data=fields).status_code == 303
    state = client.get(f"/api/v1/sheets/{path.rsplit('/', 1)[1]}").get_json()
    entry = state["entries"][0]
    assert entry["request"]["common"] == "DQ01" and entry["seats"] == ["Ana", "Bruno"]
    assert entry["points"] == florins


def test_importing_a_file_from_the_form(started):
    client, path, token = started
    client.post(f"{path}/entries", data={"_csrf": token, "points.2": "3"})
    exported = client.get(f"/api/v1/sheets/{path.rsplit('/', 1)[1]}/export.csv").get_data()
    r = client.post("/sheets/import", data={"_csrf": token, "file": (io.BytesIO(exported), "domingo.csv")},
                    content_type="multipart/form-data")
    assert r.status_code == 303 and r.headers["Location"] != path
    assert totals(client.get(r.headers["Location"]).get_data(as_text=True))["Carla"] == 3
    bad = client.post("/sheets/import", data={"_csrf": token, "file": (io.BytesIO(b"\xff\xfe"), "x.json")},
                      content_type="multipart/form-data")
    assert bad.status_code == 400 and "UTF-8" in bad.get_data(as_text=True)
    bad = client.post("/sheets/import", data={"_csrf": token, "file": (io.BytesIO(b'{"format": 1}'), "x.json")},
                      content_type="multipart/form-data")
    assert bad.status_code == 400 and "format" in bad.get_data(as_text=True)


def test_every_form_on_the_sheet_pages_carries_the_token(started):
    client, path, token = started
    client.post(f"{path}/entries", data={"_csrf": token, "points.0": "1"})
    with client.session_transaction() as session:
        secret = session["csrf"]
    for page_path in ("/sheets", path, f"{path}/entries/1/edit"):
        page = client.get(page_path).get_data(as_text=True)
        forms = re.findall(r'<form method="post".*?</form>', page, re.S)
        sent = [re.search(r'name="_csrf" value="([^"]+)"', f) for f in forms]
        assert forms and all(sent), page_path  # each form its own masking of the session's token (csrf.py)
        assert all(form_tokens._unmasked(m.group(1), secret) == secret.encode() for m in sent), page_path


def test_refusals_are_pages_in_the_readers_language_and_json_under_the_api(started):
    client, path, token = started
    view = storage.view_token(path.rsplit("/", 1)[1])
    r = client.post(f"/s/{view}/finish", data={"_csrf": token}, headers={"Accept-Language": "es"})
    assert r.status_code == 403 and "Enlace de solo lectura" in r.get_data(as_text=True)
    r = client.get("/s/" + "A" * 22 + "/log", headers={"Accept-Language": "en"})
    assert r.status_code == 404 and "There is nothing at this address" in r.get_data(as_text=True)
    r = client.get("/s/nope?x=1", headers={"Accept-Language": "es"})
    assert r.status_code == 404 and 'href="/s/nope?x=1&amp;lang=en"' in r.get_data(as_text=True)
    r = client.get("/api/v1/sheets/nope")
    assert r.status_code == 404 and r.is_json and r.get_json()["error"]
    assert client.delete(f"/api/v1/sheets/{view}").status_code == 405


def test_the_page_scripts_answers_are_recognisably_the_servers(started):
    """Every answer carries X-Companion (so the page script tells the server's own JSON from a portal's or a proxy's);
    a refusal to the script also says why in the reader's language, beside the English `error`."""
    client, path, token = started
    ask = {"Accept": "application/json", "Accept-Language": "es"}
    r = client.post(f"{path}/entries", data={"_csrf": token, "points.0": "3", "client_id": "a1" * 12}, headers=ask)
    assert r.status_code == 201 and r.headers["X-Companion"] == "1" and r.is_json
    assert r.get_json()["change"]["client_id"] == "a1" * 12 and r.get_json()["replayed"] is False
    client.post(f"{path}/finish", data={"_csrf": token})
    r = client.post(f"{path}/entries", data={"_csrf": token, "points.0": "3", "client_id": "b2" * 12}, headers=ask)
    assert r.status_code == 409 and r.headers["X-Companion"] == "1"
    assert (r.get_json()["kind"] == "finished"
            and r.get_json()["message"].startswith("La partida se terminó en otro móvil"))
    r = client.post(f"{path}/entries", data={"_csrf": token, "points.0": "3", "client_id": "a1" * 12}, headers=ask)
    assert r.status_code == 200 and r.get_json()["replayed"] is True  # a replay is answered even when finished
    r = client.post(f"{path}/entries", data={"_csrf": "stale", "points.0": "3"}, headers=ask)
    assert r.status_code == 400 and r.get_json()["field"] == "csrf" and r.headers["X-Companion"] == "1"
    assert client.get("/s/" + "x" * 22).headers["X-Companion"] == "1"  # a page, and a 404 page, too
    r = client.get("/api/v1/sheets/" + "x" * 22)
    assert r.status_code == 404 and r.headers["X-Companion"] == "1" and "message" not in r.get_json()


def test_a_long_sheet_shows_its_newest_entries_and_pages_back(started):
    client, path, token = started
    for n in range(1, 56):
        assert client.post(f"{path}/entries", data={"_csrf": token, "points.0": str(n)}).status_code == 303
    page = client.get(path).get_data(as_text=True)
    shown = [int(s) for s in re.findall(r'<tbody id="entry-(\d+)"', page)]  # the grid: oldest shown first
    assert shown == list(range(6, 56)) and totals(page)["Ana"] == sum(range(1, 56))
    assert row_numbers(page) == list(range(6, 56))
    earlier = re.search(r'href="([^"]+before=6)[^"]*"', page).group(1).replace("&amp;", "&")
    older = client.get(earlier).get_data(as_text=True)
    assert [int(s) for s in re.findall(r'<tbody id="entry-(\d+)"', older)] == [1, 2, 3, 4, 5]
    assert row_numbers(older) == [1, 2, 3, 4, 5] and totals(older)["Ana"] == sum(range(1, 56))
    for bad in ("x", "0", "99999", "%C2%B2"):
        assert client.get(f"{path}?before={bad}").status_code == 200  # a bad page number shows the newest


def test_a_sheet_finished_with_nothing_that_counts_says_finished_and_names_nobody(started):
    """Finished with no entry, or every entry undone: no "Won by" with an empty name (issue 13)."""
    client, path, token = started
    client.post(f"{path}/entries", data={"_csrf": token, "points.0": "4"})
    client.post(f"{path}/entries/1/undo", data={"_csrf": token, "base": "1"})
    client.post(f"{path}/finish", data={"_csrf": token})
    for page in (client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True),
                 client.get("/sheets", headers={"Accept-Language": "en"}).get_data(as_text=True)):
        assert "Finished." in page and "Won by" not in page and "data-winners" not in page


def test_entries_are_numbered_once_and_an_undone_change_says_undone(started):
    """Issue 13: entries read "2. #2" (the list's number and the entry's), and "changed once · undone". (On the
    grid, an entry is its <tbody>: its row and the line under it.)"""
    client, path, token = started
    for points in ("3", "5"):
        client.post(f"{path}/entries", data={"_csrf": token, "points.0": points})
    rev = re.search(r'id="entry-2" data-seq="2" data-rev="(\d+)"', client.get(path).get_data(as_text=True))[1]
    assert client.post(f"{path}/entries/2/edit", data={"_csrf": token, "points.0": "6", "base": rev}).status_code == 303
    page = client.get(path + "?lang=en").get_data(as_text=True)
    assert "changed once" in re.search(r'<tbody id="entry-2".*?</tbody>', page, re.S)[0]
    rev = re.search(r'id="entry-2" data-seq="2" data-rev="(\d+)"', page)[1]
    client.post(f"{path}/entries/2/undo", data={"_csrf": token, "base": rev})
    page = client.get(path + "?lang=en").get_data(as_text=True)
    entry = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.search(r'<tbody id="entry-2".*?</tbody>', page, re.S)[0]))
    assert "#2" not in entry and "undone" in entry and "changed" not in entry
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT[^"]+" data-local="time">\d\d:\d\d UTC</time>', page)


def test_a_game_for_one_count_of_players_says_so(client):
    """Issue 13: "2–2 jugadores"."""
    page = client.get("/?lang=es").get_data(as_text=True)
    assert "2–2 jugadores" not in page and "2 jugadores" in page and "2–4 jugadores" in page


def test_a_request_already_on_its_way_does_not_undo_the_calculators_link_to_the_sheet(client):
    """A page's background requests (the service worker fetching "/" as it installs, a live redraw) carry the
    cookie they were sent with. When the session was re-sent on every answer, one that came back after the
    calculator's answer put the old session back, and the scoring page no longer offered to save to the sheet
    (a flaky browser test in CI). Only an answer that changes the session may now set it."""
    token = csrf(client.get("/sheets").get_data(as_text=True))
    path = client.post("/sheets", data={"_csrf": token, "game": "gemas", "players.0": "Ana",
                                        "players.1": "Bruno"}).headers["Location"]
    client.get(path)
    before = client.get_cookie("session").value  # what a request sent now carries
    opened = client.post(f"{path}/calculator", data={"_csrf": token}).headers["Location"]
    after = client.get_cookie("session").value
    assert after != before
    for late in ("/", "/offline", "/static/companion.js", opened):  # sent before, answered after the calculator
        client.set_cookie("session", before)
        answer = client.get(late)
        assert "session=" not in answer.headers.get("Set-Cookie", ""), late
        client.set_cookie("session", after)  # the browser keeps what it had: no cookie came with the answer
    query = "_n=2&players.0.name=Ana&players.1.name=Bruno&players.0.gems.green:int=1"
    page = client.get(f"/score/gemas?{query}").get_data(as_text=True)
    assert "data-queue" in page, "the save box is on the result"
