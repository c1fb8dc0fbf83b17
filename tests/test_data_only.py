"""A designer's data-only game gets the whole companion with no code of its own: the example game
(docs/example-game/especias.yaml) is validated, printed, served (rules and card pages), dealt, scored by its
cards' values and kept on a shared sheet, given by path or dropped into cards/."""
import io
import json
import random
import shutil
from collections import Counter
from pathlib import Path
from urllib.parse import parse_qs

import pytest
import yaml

from companion import cards, library, service
from companion.cli import main
from companion.core import resources
from companion.games import generic
from companion.web import create_app
from table import faces, table_photo

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "example-game" / "especias.yaml"
DATA = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
VALUES = {c["id"]: c["value"] for c in DATA["components"] if "value" in c}
QTY = {c["id"]: c.get("qty", 1) for c in DATA["components"]}


@pytest.fixture
def dropped(tmp_path, monkeypatch):
    """The example game dropped into a copy of cards/ beside the shipped games."""
    folder = tmp_path / "cards"
    shutil.copytree(resources.cards_dir(), folder)
    shutil.copy(EXAMPLE, folder / "especias.yaml")
    monkeypatch.setattr(resources, "cards_dir", lambda: folder)
    cards.load_shipped.cache_clear()
    yield folder
    cards.load_shipped.cache_clear()


@pytest.fixture
def client(dropped, tmp_path):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")}).test_client()


def test_validate_and_build_by_path(tmp_path, capsys):
    assert main(["validate", str(EXAMPLE)]) == 0
    assert main(["build", str(EXAMPLE), "--out", str(tmp_path)]) == 0
    assert (tmp_path / "especias.pdf").stat().st_size > 10_000
    assert "especias.pdf" in capsys.readouterr().out


def test_scored_by_path_on_the_command_line(capsys, monkeypatch):
    """Its scoring: section: each card its value, but each full three of saffron scores double."""
    request = {"players": [{"name": "Ana", "cards": ["SP-SAFFRON", "SP-SAFFRON", "SP-PEPPER"]},
                           {"name": "Bea", "cards": {"SP-CINNAMON": 3, "SP-COIN": 2}},
                           {"name": "Cai", "cards": {"SP-SAFFRON": 2, "SP-THIEF": 1}}]}
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(json.dumps(request)))
    assert main(["score", str(EXAMPLE)]) == 0
    result = json.loads(capsys.readouterr().out)
    expected = {"Ana": 2 * VALUES["SP-SAFFRON"] + VALUES["SP-PEPPER"],
                "Bea": 3 * VALUES["SP-CINNAMON"] + 2 * VALUES["SP-COIN"], "Cai": 2 * VALUES["SP-SAFFRON"]}
    assert {p["name"]: p["points"] for p in result["players"]} == expected
    assert result["winners"] == [max(expected, key=expected.get)]
    for saffron in range(QTY["SP-SAFFRON"] + 1):
        request = {"players": [{"name": "Ana", "cards": {"SP-SAFFRON": saffron, "SP-PEPPER": 1}}, {"name": "Bea"}]}
        scored = generic.score(request, cards.load_file(EXAMPLE))["players"][0]
        doubled = saffron // 3 * 3 * VALUES["SP-SAFFRON"] * 2 + saffron % 3 * VALUES["SP-SAFFRON"]
        assert scored["rules"] == {"spices": VALUES["SP-PEPPER"], "saffron": doubled}


def test_scoring_refuses_more_copies_than_printed_and_cards_no_player_holds(dropped):
    too_many = {"players": [{"name": "A", "cards": {"SP-SAFFRON": QTY["SP-SAFFRON"]}},
                            {"name": "B", "cards": ["SP-SAFFRON"]}]}
    with pytest.raises(service.InputError) as e:
        service.score("especias", too_many)
    assert e.value.field == "players[1].cards.SP-SAFFRON"
    with pytest.raises(service.InputError) as e:  # a help card is nobody's to hold
        service.score("especias", {"players": [{"name": "A", "cards": ["SP-HELP"]}, {"name": "B"}]})
    assert e.value.field == "players[0].cards[0]"
    # with a scoring: section a player may hold any card, tile or token; the thief has no value and scores none
    assert service.score("especias", {"players": [{"name": "A", "cards": ["SP-THIEF"]}, {"name": "B"}]}
                         )["players"][0]["points"] == 0
    with pytest.raises(service.InputError) as e:  # fewer players than the game is for: a table never proved
        service.score("especias", {"players": [{"name": "A", "cards": ["SP-THIEF"]}]})
    assert e.value.field == "players"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_hands_and_a_market_from_the_data(dropped, players):
    result = service.setup("especias", players, "deal")
    hand, market = DATA["setup"]["hand_size"], DATA["setup"]["market"]
    assert [len(h) for h in result["hands"]] == [hand] * players and len(result["market"]) == market
    dealt = [c for h in result["hands"] for c in h] + result["market"] + result["deck"]
    printed_cards = {c["id"]: c.get("qty", 1) for c in DATA["components"] if c["type"] == "card"}
    assert Counter(dealt) == Counter(printed_cards)
    assert [s["en"] for s in result["steps"]] == [s["en"] for s in DATA["setup"]["steps"]]
    assert 0 <= result["first_player"] < players
    assert service.setup("especias", players, "deal") == result


def test_pages_rules_cards_setup_score_and_icons_answer(client):
    assert "Spice Market" in client.get("/?lang=en").get_data(as_text=True)
    rules = client.get("/rules/especias?lang=en")
    assert rules.status_code == 200 and "SP-SAFFRON" in rules.get_data(as_text=True)
    card = client.get("/C/ESPECIAS/SP-SAFFRON", follow_redirects=True)
    assert card.status_code == 200 and "Saffron" in card.get_data(as_text=True)
    setup = client.get("/setup/especias?seed=s&players=3&lang=en")
    assert setup.status_code == 200 and DATA["setup"]["steps"][0]["en"] in setup.get_data(as_text=True)
    css = client.get("/icons/especias.css").get_data(as_text=True)
    assert DATA["look"]["accent"] in css and ".i-star" in css
    form = "_n=2&players.0.name=Ana&players.0.cards.SP-SAFFRON:int=2&players.1.name=Bea&players.1.cards.SP-PEPPER:int=1"
    page = client.get(f"/score/especias?{form}&lang=en")
    assert page.status_code == 200 and f'data-points="{2 * VALUES["SP-SAFFRON"]}"' in page.get_data(as_text=True)
    api = client.get("/api/v1/especias/setup?players=3&seed=s")
    assert api.status_code == 200 and api.get_json() == service.setup("especias", 3, "s")


def test_a_shared_sheet_keeps_typed_and_scored_points(client):
    csrf = client.get("/api/v1/csrf").get_json()["csrf"]
    head = {"X-CSRF-Token": csrf}
    made = client.post("/api/v1/sheets", json={"game": "especias", "players": ["Ana", "Bea"]}, headers=head)
    assert made.status_code == 201
    token = made.get_json()["token"]
    assert client.post(f"/api/v1/sheets/{token}/entries", json={"points": {"Ana": 7, "Bea": 3}},
                       headers=head).status_code == 201
    scored = {"request": {"players": [{"name": "Ana", "cards": ["SP-SAFFRON"]}, {"name": "Bea", "cards": []}]}}
    assert client.post(f"/api/v1/sheets/{token}/entries", json=scored, headers=head).status_code == 201
    state = client.get(f"/api/v1/sheets/{token}").get_json()
    assert state["totals"] == {"Ana": 7 + VALUES["SP-SAFFRON"], "Bea": 3}
    assert client.get(f"/s/{token}?lang=en").status_code == 200


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_no_route_answers_500_for_any_game(client, dropped):
    app = client.application
    ids = list(library.load_all())
    assert "especias" in ids
    for rule in app.url_map.iter_rules():
        if "game" not in rule.arguments or "GET" not in rule.methods:
            continue
        for game in ids:
            args = {a: {"game": game, "card_id": library.load_all()[game].components[0].id}.get(a, "x")
                    for a in rule.arguments}
            path = rule.rule
            for name, value in args.items():
                path = path.replace(f"<{name}>", value)
            for query in ("", "?seed=s", "?seed=s&players=99", "?_n=abc&x=1"):
                r = client.get(path + query)
                assert r.status_code < 500, (path + query, r.status_code)


def test_a_photo_of_the_cards_a_player_holds_counts_them(client):
    """A data-only game's scoring page takes a photo for each player (issue 28: "a data-only game: the cards a player
    names"): each card found is one more copy among that player's cards, up to the copies printed: with a scoring:
    section, every card counts (the pickpocket has no value and is added too). The page then scores them."""

    card_set, _problems = cards.check_file(EXAMPLE)  # printed from beside its art
    valued = ["SP-SAFFRON", "SP-PEPPER"]  # cards with a value (4 and 8 printed); the thief has none, and is held
    ids = [valued[0], valued[0], valued[1], "SP-THIEF"]
    drawn = faces(card_set, dpi=200, only=tuple(sorted(set(ids))))
    data, _ = table_photo("especias", ids, random.Random("especias"), size=(2000, 1500), sigma=0.8, fill=0.85,
                          tilt=25, dpi=200, drawn=drawn)
    page = client.get("/score/especias?_n=2&lang=en").get_data(as_text=True)
    assert page.count('class="photo-scan"') == 2 and "Photo of the cards" in page
    r = client.post("/score/especias/photo?lang=en", headers={"Accept": "application/json"},
                    content_type="multipart/form-data",
                    data={"_n": "2", "players.0.name": "Ana", "players.1.name": "Bea", "_to": "players.1",
                          "_photo": (io.BytesIO(data), "t.jpg", "image/jpeg")})
    assert r.status_code == 200, r.get_json()
    found = r.get_json()["cards"]
    assert sorted(c["id"] for c in found) == sorted(ids)
    assert sorted(c["id"] for c in found if c["added"]) == sorted(ids)
    query = parse_qs(r.get_json()["query"])
    assert query[f"players.1.cards.{valued[0]}:int"] == ["2"] and query[f"players.1.cards.{valued[1]}:int"] == ["1"]
    assert query["players.1.cards.SP-THIEF:int"] == ["1"]
    scored = client.get("/score/especias?lang=en&" + r.get_json()["query"]).get_data(as_text=True)
    assert f'data-points="{2 * VALUES[valued[0]] + VALUES[valued[1]]}"' in scored
