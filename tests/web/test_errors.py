"""Errors become responses in one place: JSON under /api/ (with the field at fault), pages in the reader's language
everywhere else, and even an error nobody foresaw is a page, never a traceback."""
import pytest

from companion import games
from companion.web.games import GENERIC
from companion.web.games.glue import pages
from helpers.games import GAME_IDS


@pytest.mark.parametrize("path,code,field", [
    ("/api/v1/nope", 404, ""),
    ("/api/v1/chess/setup", 404, "game"),
    ("/api/v1/gemas/setup?players=99", 400, "players"),
    ("/api/v1/sheets/AAAAAAAAAAAAAAAAAAAAAA", 404, "token"),
])
def test_api_errors_are_json_naming_the_field(client, path, code, field):
    r = client.get(path)
    assert r.status_code == code and r.is_json and r.get_json()["field"] == field and r.get_json()["error"]


@pytest.mark.parametrize("lang,title", [("es", "No encontrado"), ("en", "Not found")])
def test_page_errors_are_pages_in_the_readers_language(client, lang, title):
    for path in ("/rules/chess", "/setup/chess", "/score/chess", "/c/gemas/NOPE", "/no/such/page"):
        r = client.get(f"{path}?lang={lang}")
        assert r.status_code == 404 and r.mimetype == "text/html" and title in r.get_data(as_text=True), path
    r = client.post(f"/rules/gemas?lang={lang}")
    assert r.status_code == 405 and r.mimetype == "text/html"


def test_an_unforeseen_error_is_a_page_not_a_traceback(app):
    @app.get("/boom")
    def boom():
        raise RuntimeError("a bug")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    r = app.test_client().get("/boom?lang=en")
    assert r.status_code == 500 and "Something went wrong" in r.get_data(as_text=True)
    assert "RuntimeError" not in r.get_data(as_text=True)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_game_with_rules_has_its_page_glue_and_template(app, game):
    glue = pages(game)
    assert glue is not GENERIC and glue.template != GENERIC.template
    assert app.jinja_env.get_template(glue.template)
    for endpoint, page in glue.own.items():  # its pages of its own are served at their addresses
        assert endpoint.partition(".")[0] in app.blueprints
        assert any(r.endpoint == endpoint and r.rule == page.rule for r in app.url_map.iter_rules())


@pytest.mark.parametrize("web, said", [
    ("companion.web.games.gema", "is not a module"),
    ("companion.web.play.forms", "declares no PAGES"),
    (None, "names no web glue"),
])
def test_a_game_whose_web_glue_is_not_where_its_descriptor_says_is_an_error_naming_it(web, said):
    from dataclasses import replace

    from companion.web.games import glue

    with pytest.raises(glue.GlueError, match=said) as raised:
        glue._load(replace(games.GAMES["gemas"], web=web))
    assert "'gemas'" in str(raised.value)


def test_a_data_only_game_gets_the_generic_pages_and_ids_never_reach_the_importer():
    assert pages("especias") is GENERIC
    assert pages("../../etc") is GENERIC and pages("os.path") is GENERIC
    assert set(GAME_IDS) == set(games.GAMES)
