"""A saved sheet as a rounds × players grid with totals (issue 13): one row per entry, numbered once, with its time
and its edit / undo buttons; one column per player; the totals row with the leader marked; an undone entry struck
through and said to be undone. Checked in HTML, then in Debian's chromium on a phone: 44 px buttons, nothing
scrolling sideways at 320 px with 40-character names, light and dark, axe, and other phones' entries live."""
import re

import pytest

from helpers.browser import PHONE, shot  # (and skips this module without playwright or chromium)
from helpers.server import Api

LONG = ["Bartolomé de las Casas y Fernández de Oviedo"[:40], "Ｗ" * 40,
        "María Auxiliadora Villanueva del Castillo"[:40]]


def grid(page: str) -> dict:
    """What the grid says: the players (header), each entry's number and points by seq, the totals, the leaders."""
    table = re.search(r'<table class="entries scores".*?</table>', page, re.S)[0]
    players = re.findall(r'<th scope="col"[^>]*title="([^"]+)"', table)
    rows = {}
    for seq, body in re.findall(r'<tbody id="entry-(\d+)".*?>(.*?)</tbody>', table, re.S):
        number = int(re.search(r'<span class="num">(\d+)</span>', body)[1])
        rows[int(seq)] = (number, [int(p) for p in re.findall(r'<td data-points="(-?\d+)"', body)])
    foot = re.search(r"<tfoot>.*?</tfoot>", table, re.S)[0]
    totals = {m[1]: int(m[2]) for m in re.finditer(r'<td data-player="([^"]+)" data-total="(-?\d+)"', foot)}
    leaders = re.findall(r'<td data-player="([^"]+)" data-total="-?\d+" class="lead"', foot)
    return {"players": players, "rows": rows, "totals": totals, "leaders": leaders}


@pytest.fixture
def sheet(client):
    client.get("/sheets")
    csrf = client.get("/api/v1/csrf").get_json()["csrf"]
    r = client.post("/sheets", data={"_csrf": csrf, "game": "gemas", "players.0": "Ana", "players.1": "Bruno",
                                     "players.2": "Carla"})
    return client, r.headers["Location"], csrf


def test_the_sheet_is_a_grid_of_rounds_and_players_with_a_totals_row(sheet):
    client, path, csrf = sheet
    for points in (("12", "7", "-2"), ("3", "15", "9"), ("20", "", "4")):
        client.post(f"{path}/entries", data={"_csrf": csrf, **{f"points.{i}": p for i, p in enumerate(points)},
                                              "note": "robo" if points[0] == "3" else ""})
    page = client.get(path + "?lang=en").get_data(as_text=True)
    seen = grid(page)
    assert seen["players"] == ["Ana", "Bruno", "Carla"]
    assert list(seen["rows"].values()) == [(1, [12, 7, -2]), (2, [3, 15, 9]), (3, [20, 0, 4])]  # oldest at the top
    assert seen["totals"] == {"Ana": 35, "Bruno": 22, "Carla": 11} and seen["leaders"] == ["Ana"]
    assert 'class="lead" title="Ana"' in page  # the leader's column is marked in the header too
    second = re.search(r'<tbody id="entry-2".*?</tbody>', page, re.S)[0]
    assert '<tr class="more">' in second and "robo" in second  # a note: on the line under its row
    assert '<tr class="more">' not in re.search(r'<tbody id="entry-1".*?</tbody>', page, re.S)[0]
    assert re.search(r'<time datetime="[^"]+" data-local="time">\d\d:\d\d UTC</time>', second)  # its time
    # each row: its edit link and its undo form
    assert f'href="{path}/entries/2/edit"' in second and f'action="{path}/entries/2/undo"' in second

    rev = re.search(r'id="entry-2" data-seq="2" data-rev="(\d+)"', page)[1]
    client.post(f"{path}/entries/2/undo", data={"_csrf": csrf, "base": rev})
    page = client.get(path + "?lang=en").get_data(as_text=True)
    seen = grid(page)
    assert seen["rows"][2] == (2, [3, 15, 9]) and seen["totals"] == {"Ana": 32, "Bruno": 7, "Carla": 2}
    undone = re.search(r'<tbody id="entry-2"[^>]*>.*?</tbody>', page, re.S)[0]
    assert 'class="undone"' in undone and undone.count("<s>") == 3 and "undone" in re.sub(r"<[^>]+>", "", undone)
    assert "/entries/2/edit" not in undone and f'action="{path}/entries/2/restore"' in undone
    es = client.get(path + "?lang=es").get_data(as_text=True)
    assert "deshecha" in re.sub(r"<[^>]+>", "", re.search(r'<tbody id="entry-2".*?</tbody>', es, re.S)[0])


def test_a_read_only_or_finished_sheet_has_no_action_column(sheet, app):
    client, path, csrf = sheet
    client.post(f"{path}/entries", data={"_csrf": csrf, "points.0": "4"})
    view_url = re.search(r'href="([^"]+)" data-link="view"', client.get(path).get_data(as_text=True))[1]
    other = app.test_client().get(view_url.removeprefix("http://localhost")).get_data(as_text=True)
    assert grid(other)["rows"] == {1: (1, [4, 0, 0])} and 'class="act"' not in other
    client.post(f"{path}/finish", data={"_csrf": csrf})
    page = client.get(path + "?lang=en").get_data(as_text=True)
    assert 'class="act"' not in page and "🏆" in re.search(r"<tfoot>.*?</tfoot>", page, re.S)[0]


# --- In chromium ----------------------------------------------------------------------------------------------

def new_sheet(base: str, players: list[str], rounds: list[tuple], undo: int | None = None) -> tuple[Api, str]:
    api = Api(base)
    token = api.call("POST", "/api/v1/sheets", {"game": "gemas", "players": players})[1]["token"]
    for points in rounds:
        assert api.call("POST", f"/api/v1/sheets/{token}/entries",
                        {"points": dict(zip(players, points, strict=True))})[0] == 201
    if undo:
        entry = api.call("GET", f"/api/v1/sheets/{token}")[1]["entries"][undo - 1]
        assert api.call("POST", f"/api/v1/sheets/{token}/entries/{entry['seq']}/undo", {"base": entry["rev"]})[0] == 200
    return api, token


def test_on_a_phone_each_number_is_under_its_player_and_each_button_is_44_px(server, browser):
    api, token = new_sheet(server[0], ["Ana", "Bruno", "Carla"], [(12, 7, -2), (3, 15, 9), (20, 0, 4)], undo=2)
    for scheme in ("light", "dark"):
        context = browser.new_context(**PHONE, locale="en-GB", color_scheme=scheme)
        page = context.new_page()
        try:
            page.goto(f"{server[0]}/s/{token}")
            shot(page, f"grid-{scheme}")  # kept in COMPANION_SCREENSHOTS when it is set
            heads = page.locator(".scores thead th[title]").all()
            for row in page.locator(".scores tbody tr:first-child").all():
                cells = row.locator("td[data-points]").all()
                assert len(cells) == 3
                for head, cell in zip(heads, cells, strict=True):  # a number sits in its player's column
                    h, c = head.bounding_box(), cell.bounding_box()
                    assert abs(h["x"] - c["x"]) < 1 and abs(h["width"] - c["width"]) < 1
            for target in page.locator(".scores .icon-button").all():
                box = target.bounding_box()
                assert box["width"] >= 44 and box["height"] >= 44, target.inner_html()
                assert box["x"] + box["width"] <= PHONE["viewport"]["width"]
            assert page.locator(".scores .icon-button").count() == 3 + 2  # edit + undo twice, restore once
            struck = page.locator("#entry-2 td[data-points] s").first
            assert "line-through" in struck.evaluate("e => getComputedStyle(e).textDecorationLine")
            lead = page.locator('tfoot td[data-player="Ana"]')
            plain = page.locator('tfoot td[data-player="Bruno"]')
            assert lead.evaluate("e => getComputedStyle(e).backgroundColor") != \
                plain.evaluate("e => getComputedStyle(e).backgroundColor")  # the leader is marked
            if scheme == "dark":  # the grid's cells follow the dark theme: light text on a dark ground
                ink = page.locator("#entry-1 td[data-points]").first.evaluate("e => getComputedStyle(e).color")
                assert sum(map(int, re.findall(r"\d+", ink)[:3])) > 600, ink
        finally:
            context.close()


def test_at_320_px_with_40_character_names_nothing_scrolls_sideways(server, browser):
    _api, long = new_sheet(server[0], LONG, [(120, 75, -20), (30, 150, 90)])
    _api, many = new_sheet(server[0], ["Ana", "Bruno", "Carla", "Dani", "Eva", "Fran", "Gus", "Hugo"],
                           [tuple(range(100, 900, 100))])
    context = browser.new_context(viewport={"width": 320, "height": 700}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2, locale="es-ES")
    page = context.new_page()
    try:
        for token in (long, many):
            page.goto(f"{server[0]}/s/{token}")
            shot(page, f"grid-320-{'long' if token == long else 'many'}")
            assert page.evaluate("document.documentElement.scrollWidth") <= 320, token
            first = page.locator(".scores tbody th.n").first.bounding_box()
            assert first["x"] >= 0 and first["x"] + first["width"] <= 320  # the row numbers stay on screen
            for target in page.locator(".scores .icon-button").all():
                box = target.bounding_box()
                assert box["width"] >= 44 and box["height"] >= 44
                assert box["x"] + box["width"] <= 320  # the actions stay on screen, even when the grid scrolls
        page.goto(f"{server[0]}/s/{long}")
        for i, name in enumerate(LONG):  # a long name wraps (or is cut) in the header; the whole name is kept
            head = page.locator(".scores thead th[title]").nth(i)
            assert head.get_attribute("title") == name and head.locator("bdi").text_content() == name
            assert head.bounding_box()["height"] < 80  # three lines at most
    finally:
        context.close()


def test_another_phones_entry_appears_in_the_grid(server, browser):
    api, token = new_sheet(server[0], ["Ana", "Bruno"], [(1, 2)])
    context = browser.new_context(**PHONE, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{server[0]}/s/{token}")
        assert page.locator(".scores tbody").count() == 1
        assert api.call("POST", f"/api/v1/sheets/{token}/entries", {"points": {"Ana": 5, "Bruno": 0}})[0] == 201
        page.wait_for_selector('tfoot [data-player="Ana"][data-total="6"]', timeout=10_000)
        assert page.locator(".scores tbody").count() == 2
        assert page.locator(".scores tbody").nth(1).locator(".num").inner_text() == "2"
        page.locator(".scores tbody").nth(1).locator("button.icon-button").tap()  # undo it here
        page.wait_for_selector('tfoot [data-player="Ana"][data-total="1"]', timeout=10_000)
        assert page.locator(".scores tbody.undone").count() == 1
    finally:
        context.close()


def test_axe_finds_nothing_serious_on_the_grid(server, browser):
    axe_api = pytest.importorskip("axe_playwright_python.sync_playwright")
    _api, token = new_sheet(server[0], LONG, [(120, 75, -20), (30, 150, 90)], undo=1)
    found = []
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme, bypass_csp=True)
        page = context.new_page()
        try:
            for lang in ("es", "en"):
                page.goto(f"{server[0]}/s/{token}?lang={lang}")
                found += [(scheme, lang, v["id"], [n["target"] for n in v["nodes"]][:3])
                          for v in axe_api.Axe().run(page).response["violations"]
                          if v["impact"] in ("serious", "critical")]
        finally:
            context.close()
    assert not found, found
