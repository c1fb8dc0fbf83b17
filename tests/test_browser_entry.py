"""`web/site/browser.py`, the static site's Python entry (issue 16): the service calls a phone may make, and a score
sheet kept on the phone by the same sheet rules as the server's, whose export a hosted companion imports as is."""
import json

import pytest

from companion import service, sheets
from companion.sheets import files as sheet_files
from companion.sheets import service as sheet_service
from companion.sheets.storage import Store
from companion.web.site import browser


def call(name, **args):
    return json.loads(browser.call(name, json.dumps(args)))


def test_a_score_is_the_services_own_answer_and_a_refusal_names_the_field():
    request = {"players": [{"name": "Ana", "gems": {"green": 1}}, {"name": "Bo", "gems": {"blue": 2}}]}
    assert call("score", game="gemas", request=request) == {"result": json.loads(json.dumps(
        service.score("gemas", request)))}
    bad = call("score", game="gemas", request={"players": [{"name": "Ana", "gems": {"ruby": 1}}, {"name": "Bo"}]})
    assert bad["field"] == "players[0].gems.ruby" and bad["problems"]
    assert call("score", game="chess")["field"] == "game"
    assert call("nope", game="gemas")["error"].endswith("expected one of: " + ", ".join(browser.CALLS))
    assert browser.call("score", "{not json")[:10] == '{"error": '


def play(kept, action, **data):
    target = data.pop("target", None)
    answer = call("sheet_change", sheet=kept["sheet"], log=kept["log"], action=action, target=target, data=data)
    assert "result" in answer, answer
    return answer["result"]


def test_a_sheet_kept_on_the_phone_imports_into_a_hosted_companion_as_it_was(tmp_path):
    kept = call("sheet_new", sheet={"game": "duplicon", "title": "Viernes", "players": ["Ana", "Bruno"]})["result"]
    kept = play(kept, "add", points={"Ana": 3}, client_id="phone-entry-01")
    kept = play(kept, "add", points={"Ana": 3}, client_id="phone-entry-01")  # a double tap: kept once
    kept = play(kept, "add", points={"Bruno": 5}, note="ronda 2")
    kept = play(kept, "edit", target=1, base=1, points={"Ana": 4})
    kept = play(kept, "undo", target=2, base=2)
    kept = play(kept, "finish")
    assert [r["action"] for r in kept["log"]] == ["add", "add", "edit", "undo", "finish"]
    assert kept["state"]["totals"] == {"Ana": 4, "Bruno": 0} and kept["state"]["winners"] == ["Ana"]
    exported = call("sheet_export", sheet=kept["sheet"], log=kept["log"])["result"]
    store = Store(f"sqlite:///{tmp_path / 'hosted.sqlite'}")
    token = sheet_service.import_sheet(store, json.dumps(exported).encode())
    sheet, log = store.load(store.open(token).sheet_id)
    assert log == kept["log"] and sheet_files.export_json(sheet, log) == exported
    hosted = sheets.fold(sheet, log)
    assert (hosted["totals"], hosted["winners"]) == (kept["state"]["totals"], kept["state"]["winners"])


def test_the_phones_storage_is_checked_like_a_file():
    kept = call("sheet_new", sheet={"game": "gemas", "players": ["Ana", "Bruno"]})["result"]
    kept = play(kept, "add", points={"Ana": 2})
    forged = [{**kept["log"][0], "body": {"points": {"Ana": 2, "Mallory": 50}}}]
    answer = call("sheet_change", sheet=kept["sheet"], log=forged, action="finish")
    assert answer["field"] == "log[0].points.Mallory" and "result" not in answer
    stale = call("sheet_change", sheet=kept["sheet"], log=kept["log"], action="undo", target=1, data={"base": 7})
    assert stale["conflict"] == "changed"
    assert call("sheet_change", sheet=kept["sheet"], log=kept["log"], action="undo", target=5,
                data={"base": 1})["field"] == "target"
    for bad in ({"game": "gemas", "players": ["Ana"]}, {"game": "gemas", "players": ["Ana", "Ana"]}, "x"):
        assert "error" in call("sheet_new", sheet=bad)


@pytest.mark.parametrize("name", ["Ana\u202e", "Ana\x00"])
def test_a_phone_sheet_refuses_the_names_the_server_refuses(name):
    assert call("sheet_new", sheet={"game": "gemas", "players": [name, "Bruno"]})["field"] == "players[0]"


FORMS = __import__("pathlib").Path(__file__).parent / "web" / "forms"


@pytest.mark.parametrize("game", sorted(p.stem for p in FORMS.glob("*.txt")))
def test_a_scoring_form_is_read_on_the_phone_as_the_server_reads_it(game):
    """The example form of each game's page, sent as the page script sends it, gives the request and the score the
    server's page gets from the same query (werkzeug's MultiDict there, forms.Fields here)."""
    from urllib.parse import parse_qsl

    from werkzeug.datastructures import MultiDict

    from companion.web.games.glue import pages
    from companion.web.play import forms
    pairs = parse_qsl((FORMS / f"{game}.txt").read_text().strip(), keep_blank_values=True)
    on_server = MultiDict(pairs)
    request = pages(game).prepare(forms.request_from_form(on_server), on_server)
    answer = call("score_form", game=game, fields=[list(p) for p in pairs])
    assert answer == {"result": json.loads(json.dumps({"request": request, "result": service.score(game, request)}))}
    assert call("score_form", game=game, fields=[["x"]])["field"] == "fields"
    assert call("score_form", game="chess", fields=[])["field"] == "game"
