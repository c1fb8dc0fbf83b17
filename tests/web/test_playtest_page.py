"""The playtest page (`/playtest/<game>`) of a running `companion serve --cards FILE`: twelve finished sheets of a
designer's game drawn as SVG charts with their numbers beside them, a choice of version and player count, the CSV;
a link to it from the game's sheets; readable on a 390 px phone."""
import csv
import io
import os
import shutil
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion import library
from companion.sheets import files as sheet_files
from companion.sheets.storage import Store
from helpers.browser import PHONE
from helpers.playtest import EXAMPLE, expected, twelve_games
from helpers.server import Api, serving_cards

SVG = "{http://www.w3.org/2000/svg}"
SHOTS = Path(os.environ["COMPANION_SCREENSHOTS"]) if os.environ.get("COMPANION_SCREENSHOTS") else None


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The server with twelve finished games of cometas (version "7") in its store: (base URL, what was played)."""
    folder = tmp_path_factory.mktemp("playtest")
    data = folder / "cometas.yaml"
    shutil.copy(EXAMPLE, data)
    instance = folder / "instance"
    instance.mkdir()
    games = twelve_games()
    with library.using(library.Library([data], eager=False)):
        store = Store(f"sqlite:///{instance / 'companion.sqlite'}")
        for export, _known in games:
            store.create(*sheet_files.import_json({**export, "card_version": "7"}))
        store.close()
    with serving_cards(data, instance) as base:
        yield base, [known for _, known in games]


def fetch(url: str) -> tuple[str, str, dict]:
    with urllib.request.urlopen(url, timeout=15) as r:
        return r.headers.get_content_type(), r.read().decode("utf-8"), dict(r.headers)


def test_the_page_draws_each_figure_with_its_numbers(served):
    base, games = served
    kind, html, _ = fetch(f"{base}/playtest/cometas?lang=en")
    assert kind == "text/html" and "12 finished games" in html
    want = expected(games)
    for chart in ("plays", "seats", "rules", "share", "rounds", "minutes", "margin"):
        assert f"/playtest/cometas/{chart}.svg?version=7&amp;players=all" in html
    assert f"<td>{want['rounds']['max']}</td>" in html  # the numbers beside the charts
    for share in want["seats"]:
        assert f"{share * 100:.0f} %" in html
    assert 'name="version"' in html and 'name="players"' in html and "<script>" not in html


def test_each_chart_is_an_svg_holding_its_numbers_and_no_script(served):
    base, games = served
    want = expected(games)
    kind, text, headers = fetch(f"{base}/playtest/cometas/seats.svg?version=7")
    assert kind == "image/svg+xml"
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg" and root.get("viewBox")
    assert not list(root.iter(f"{SVG}script")) and "script" not in text
    words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for share in want["seats"]:
        assert f"{share:.0%}" in words
    _, text, _ = fetch(f"{base}/playtest/cometas/plays.svg?version=7")
    words = " ".join(t.text or "" for t in ET.fromstring(text).iter(f"{SVG}text"))
    assert all(str(n) in words for n in want["players"].values())


def test_a_player_count_is_chosen_and_the_csv_holds_every_figure(served):
    base, games = served
    _, html, _ = fetch(f"{base}/playtest/cometas?lang=en&version=7&players=3")
    assert "4 finished games" in html
    kind, text, headers = fetch(f"{base}/playtest/cometas.csv")
    assert kind == "text/csv" and "attachment" in headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:4] == ["version", "players", "figure", "part"]
    plays = {(r[0], r[1]): r[-1] for r in rows if r[2] == "plays"}
    assert plays[("7", "all")] == "12" and plays[("7", "3")] == "4"
    flocks = next(r for r in rows if r[:4] == ["7", "all", "rule points", "flocks"])
    assert float(flocks[4]) == pytest.approx(expected(games)["rules"]["flocks"]["mean"])


def test_a_sheet_of_the_game_links_to_it(served):
    base, _ = served
    api = Api(base)
    status, made = api.call("POST", "/api/v1/sheets", {"game": "cometas", "players": ["Ana", "Bea"]})
    assert status == 201
    _, html, _ = fetch(made["links"]["edit"].replace("http://127.0.0.1:5000", base) + "?lang=en")
    assert 'href="/playtest/cometas"' in html and "Playtest figures" in html


def test_readable_on_a_390_px_phone(served, browser):
    base, _ = served
    context = browser.new_context(**PHONE, locale="es-ES")
    try:
        page = context.new_page()
        page.goto(f"{base}/playtest/cometas")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        widths = page.locator(".figure img").evaluate_all("els => els.map(e => [e.naturalWidth, e.clientWidth])")
        assert len(widths) == 7 and all(n > 0 and 300 <= w <= 390 for n, w in widths), widths
        assert "Partidas" in page.content() or "partidas" in page.content()
        if SHOTS:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "playtest-phone.png"), full_page=True)
    finally:
        context.close()


def test_no_serious_accessibility_violation_and_44_px_targets_on_a_phone_and_a_laptop(served, browser):
    """axe-core in both themes, every link, button and menu at least 44 × 44 px, and the charts at most 36 rem
    wide on a laptop (read at their drawn size, not stretched across the screen)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright",
                              reason="the axe-playwright-python package is missing: make test installs it")
    base, _ = served
    found = []
    for viewport in ({"width": 390, "height": 844}, {"width": 1280, "height": 900}):
        context = browser.new_context(viewport=viewport, bypass_csp=True)
        context.add_init_script(path=str(Path(axe.__file__).with_name("axe.min.js")))
        try:
            page = context.new_page()
            page.goto(f"{base}/playtest/cometas?lang=en")
            page.wait_for_load_state("networkidle")
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                for v in page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")["violations"]:
                    if v["impact"] in ("serious", "critical"):
                        found.append((viewport["width"], scheme, v["id"], [n["target"] for n in v["nodes"]][:3]))
            small = page.locator("main a, main button, main select").evaluate_all(
                "els => els.map(e => e.getBoundingClientRect()).filter(r => r.width < 44 || r.height < 44).length")
            assert small == 0
            widths = page.locator(".figure img").evaluate_all("els => els.map(e => e.clientWidth)")
            assert all(w <= 36 * 16 for w in widths), widths
        finally:
            context.close()
    assert not found, found
