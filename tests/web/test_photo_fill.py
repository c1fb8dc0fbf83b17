"""The shared fill of a photo's cards (web/photos/fill.py, issue 28): the server's photo page and the static site's
phone (web/site/browser.py's `photo_fill` call) put the cards found where the game's glue puts them, by one code."""
import json
from pathlib import Path
from urllib.parse import parse_qs, parse_qsl

from werkzeug.datastructures import MultiDict

from companion import service
from companion.library import Library, current, using
from companion.web.games.glue import pages
from companion.web.photos.fill import Form, card_of, filled, said
from companion.web.site import browser

SQUARE = [[0, 0], [10, 0], [10, 10], [0, 10]]
FORM = [("players.0.name", "Ana"), ("players.1.name", "Bruno"), ("common", "DQ20"), ("_csrf", "x"),
        ("_seen", "DQ01"), ("_to", "players.0.hand:list")]


def found(game, ids):
    return [(card_of(current()[game], i), SQUARE) for i in ids]


def test_a_form_changes_as_werkzeugs_multidict_does():
    """The same changes give the same query on the phone (no werkzeug there) as on the server."""
    pairs = [("a", "1"), ("b", "2"), ("a", "3"), ("c", "4")]
    ours, theirs = Form(pairs), MultiDict(pairs)
    for form in (ours, theirs):
        form.setlist("a", ["9"])
        form.add("b", "5")
        form.add("d", "6")
        form.setlist("e", ["7", "8"])
        assert form.pop("c", "") == "4" and form.pop("zz", "none") == "none"
    assert list(ours.items(multi=True)) == list(theirs.items(multi=True))


def test_a_photo_of_a_hand_fills_that_hand_and_the_rules_score_it():
    answer = filled(pages("duquesa"), FORM, found("duquesa", ("DQ03", "DQ07", "DQ20", "DQ11", "DQ15", "DQ01")), "en")
    # DQ20 is the common card (a card is in one place only); DQ01 finds the hand full
    assert [(c["id"], c["added"]) for c in answer["cards"]] == [
        ("DQ03", True), ("DQ07", True), ("DQ20", False), ("DQ11", True), ("DQ15", True), ("DQ01", False)]
    query = parse_qs(answer["query"])
    assert query["players.0.hand:list"] == ["DQ03", "DQ07", "DQ11", "DQ15"] and query["common"] == ["DQ20"]
    assert "_to" not in query and "_csrf" not in query
    assert query["_seen"] == ["DQ03,DQ07,DQ20,DQ11,DQ15,DQ01"] and query["_took"] == ["DQ03,DQ07,DQ11,DQ15"]
    assert answer["said"] == ("Cards found in the photo: 6. Added: DQ03, DQ07, DQ11, DQ15. Not added (already in "
                              "place, no room, or a tap says where): DQ20, DQ01.")
    score = service.score("duquesa", {"common": "DQ20", "players": [{"name": "Ana", "hand": ["DQ03", "DQ07", "DQ11",
                                                                                               "DQ15"]}]})
    assert score["players"][0]["florins"] > 0


def test_two_copies_of_a_gem_card_add_two_numbers_to_the_sale_column():
    form = [("_n", "2"), ("_names", "Ana"), ("_names", "Bo"), ("_to", "players.1.")]
    answer = filled(pages("queens-necklace"), form, found("queens-necklace", ("QN-D3", "QN-D3", "QN-RING")), "es")
    assert [c["added"] for c in answer["cards"]] == [True, True, False]
    assert dict(parse_qsl(answer["query"]))["players.1.shown.diamond:ints"] == "3 3"
    assert answer["said"].startswith("Cartas encontradas en la foto: 3.")  # (in the page's language)
    assert answer["said"] == said(["QN-D3", "QN-D3", "QN-RING"], ["QN-D3", "QN-D3"], "es")


def test_a_back_or_another_games_card_names_no_card():
    duquesa = current()["duquesa"]
    backs = [c.id for c in duquesa.components if c.kind == "back"]
    assert backs and card_of(duquesa, backs[0]) is None
    assert card_of(duquesa, "QN-D3") is None and card_of(duquesa, None) is None
    assert card_of(duquesa, "DQ07").id == "DQ07"


def call(**args):
    return json.loads(browser.call("photo_fill", json.dumps(args)))


def test_the_phones_call_answers_as_the_servers_photo_page():
    cards = [{"id": i, "corners": SQUARE} for i in ("DQ03", "DQ07", "QN-D3", "DQ11", "DQ15")]
    answer = call(game="duquesa", lang="en", fields=[list(p) for p in FORM], cards=cards, size=[2000, 1500])
    expected = filled(pages("duquesa"), FORM, found("duquesa", ("DQ03", "DQ07", "DQ11", "DQ15")), "en")
    assert answer == {"result": {**expected, "size": [2000, 1500]}}  # (another game's card left out, as there)


def test_the_phones_call_names_what_is_wrong():
    fields = [list(p) for p in FORM]
    assert call(game="duquesa", lang="en", fields=fields, cards="DQ03", size=[1, 1])["field"] == "cards"
    assert call(game="duquesa", lang="en", fields=fields, cards=[{"id": "DQ03", "corners": [[0, 0]]}],
                size=[1, 1])["field"] == "cards"
    assert call(game="duquesa", lang="en", fields=fields, cards=[], size="big")["field"] == "size"
    assert call(game="duquesa", lang="en", fields="x", cards=[], size=[1, 1])["field"] == "fields"
    assert call(game="duplicon", lang="en", fields=fields, cards=[], size=[1, 1])["field"] == "game"
    assert call(game="nope", lang="en", fields=fields, cards=[], size=[1, 1])["field"] == "game"


def test_a_count_that_is_not_plain_digits_counts_as_none_and_never_fails():
    """A count a form carries ("²" passes str.isdigit() and fails int()): read as 0, so a crafted form is answered.
    Gemas' action cards already taken for the set, Queen's Necklace's Bankers and a data-only game's copies a player
    holds."""
    thieves = found("gemas", ("GM-THIEF",) * 4)
    for taken in ("²", "x", "-1", " "):
        answer = filled(pages("gemas"), [("_n", "2"), ("_turns", "1"), ("_lay_down.actions", taken),
                                         ("_to", "lay_down")], thieves, "en")
        assert [c["added"] for c in answer["cards"]] == [True, True, True, False]
        assert parse_qs(answer["query"])["_lay_down.actions"] == ["3"]
    banker = next(c.id for c in current()["queens-necklace"].components if c.data.get("character") == "banker")
    for held, after in (("²", "1"), ("1", "2"), ("123", "1")):  # (more than two digits: not a count of Bankers)
        answer = filled(pages("queens-necklace"), [("players.0.name", "Ana"), ("players.0.bankers:int", held),
                                                   ("_to", "players.0.")], found("queens-necklace", (banker,)), "en")
        assert answer["cards"][0]["added"] and parse_qs(answer["query"])["players.0.bankers:int"] == [after]
    generic = pages("a data-only game")
    with using(Library([Path(__file__).with_name("data_scoring_game.yaml")])):
        card = current()["lost"].component("LC-RED-W1")  # (3 printed)
        form = Form([("players.0.name", "Ana"), (f"players.0.cards.{card.id}:int", "²")])
        assert generic.targets(card, form) == [("players.0", "Ana")]
        generic.add(card, form, "players.0")
    assert form.get(f"players.0.cards.{card.id}:int") == "1"
