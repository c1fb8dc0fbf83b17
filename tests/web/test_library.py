"""Each app owns its games (companion/library.py): a designer's file given to one app is never served by another in
the same process, whatever order their requests come in; the command line knows the files it names, for the
command it runs."""
import shutil
import threading
from pathlib import Path

import pytest

from companion import cards, library, service
from companion.core.resources import cards_dir
from companion.web import create_app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example-game"
DESIGNER_PAGES = ("/rules/cosecha", "/c/cosecha/HV-PEAR-5", "/C/HV-PEAR-5", "/setup/cosecha?seed=s",
                  "/score/cosecha", "/icons/cosecha.css", "/art/cosecha/art/pear.svg")
SCORE = {"players": [{"name": "Ana", "cards": ["HV-COIN"]}, {"name": "Bea", "cards": []}]}


@pytest.fixture
def game(tmp_path):
    """A copy of the example game's folder (its data file, art and fonts)."""
    shutil.copytree(EXAMPLE, tmp_path / "game")
    return tmp_path / "game" / "cosecha.yaml"


def test_two_apps_in_one_process_each_serve_their_own_games(game, tmp_path):
    designer = create_app({"TESTING": True, "CARD_FILES": [str(game)], "INSTANCE_PATH": str(tmp_path / "a")})
    plain = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "b")})
    with_file, without = designer.test_client(), plain.test_client()
    for _ in range(2):  # interleaved: each request sees its own app's games, whichever app answered last
        for path in DESIGNER_PAGES:
            assert with_file.get(path).status_code in (200, 301), path
            assert without.get(path).status_code == 404, path
        assert with_file.post("/api/v1/cosecha/score", json=SCORE).status_code == 200
        refused = without.post("/api/v1/cosecha/score", json=SCORE)
        assert refused.status_code == 404 and "unknown game 'cosecha'" in refused.get_json()["error"]
        assert "Harvest" in with_file.get("/?lang=en").get_data(as_text=True)
        assert "Harvest" not in without.get("/?lang=en").get_data(as_text=True)
        assert with_file.get("/rules/duquesa").status_code == without.get("/rules/duquesa").status_code == 200
    # outside any request, the shipped games alone
    assert "cosecha" not in library.load_all() and library.current() is library.shipped()
    assert designer.extensions[library.EXTENSION].get("cosecha").game == "cosecha"


def test_an_app_context_sees_its_own_app_and_gives_it_back(game, tmp_path):
    designer = create_app({"TESTING": True, "CARD_FILES": [str(game)], "INSTANCE_PATH": str(tmp_path / "a")})
    plain = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "b")})
    with designer.app_context():
        assert service.card_set("cosecha").game == "cosecha"
        with plain.app_context():
            with pytest.raises(service.UnknownGame):
                service.card_set("cosecha")
        assert service.card_set("cosecha").game == "cosecha"
    with pytest.raises(service.UnknownGame):
        service.card_set("cosecha")


def test_requests_of_two_apps_at_once_on_threads(game, tmp_path):
    """Threads serving both apps at once (as waitress does) each see the app they serve."""
    designer = create_app({"TESTING": True, "CARD_FILES": [str(game)], "INSTANCE_PATH": str(tmp_path / "a")})
    plain = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "b")})
    wrong = []

    def ask(app, expected):
        client = app.test_client()
        for _ in range(20):
            status = client.get("/rules/cosecha").status_code
            if status != expected:
                wrong.append((app, status))

    threads = [threading.Thread(target=ask, args=(app, status)) for app, status in
               [(designer, 200), (plain, 404)] * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong


def test_the_shipped_library_takes_no_file(game):
    with pytest.raises(RuntimeError, match="takes no files"):
        library.shipped().add(game)
    with library.using(library.Library([game])) as own:
        assert library.load_game("cosecha") is own.get("cosecha")
    assert "cosecha" not in library.current().all()


def test_an_added_game_may_not_take_a_shipped_or_added_id(game, tmp_path):
    own = library.Library([game])
    twin = tmp_path / "twin.yaml"
    twin.write_text(game.read_text(encoding="utf-8"), encoding="utf-8")
    shutil.copytree(game.parent / "art", tmp_path / "art")
    shutil.copytree(game.parent / "fonts", tmp_path / "fonts")
    with pytest.raises(cards.DataError, match="already the game of"):
        own.add(twin)
    duquesa = tmp_path / "duquesa.yaml"
    shutil.copy(cards_dir() / "duquesa.yaml", duquesa)
    with pytest.raises(cards.DataError, match="already a shipped game"):
        own.add(duquesa)
