"""A data-only game with a `scoring:` section on its scoring page (issue 36): each player's cards by copies grouped
by the first `each` field, its counters and the round in the form; each rule's points per player and who wins, as
generic.score computes them for the same form; a problem said beside the field it names; a file without scoring:
as before. The game is the contract's example (/tmp/sc/game.yaml, kept here as GAME), served as a designer's file."""
import re
import shutil
from pathlib import Path
from urllib.parse import urlencode

import pytest

from companion import cards
from companion.games import generic
from companion.web import create_app
from helpers import http
from helpers.http import BUDGET, PHONE_ACCEPTS, assets

GAME = Path(__file__).with_name("data_scoring_game.yaml")
# Ana: a red expedition with two wagers and 3 chips; Bea: a blue card and two puddings; Cai: five puddings (the most,
# counted in the last round) and a wager on red without a red card.
HANDS = [("Ana", {"LC-RED-5": 1, "LC-RED-6": 1, "LC-RED-W1": 2}, {"chips": 3}),
         ("Bea", {"LC-BLUE-9": 1, "LC-PUD": 2}, {"chips": 0}),
         ("Cai", {"LC-PUD": 5, "LC-RED-W1": 1}, {"chips": 12})]


def served(tmp_path: Path, text: str | None = None):
    """A test client of an app serving the game (as written in tmp_path, optionally changed)."""
    path = tmp_path / "game.yaml"
    if text is None:
        shutil.copy(GAME, path)
    else:
        path.write_text(text, encoding="utf-8")
    app = create_app({"TESTING": True, "CARD_FILES": [str(path)], "INSTANCE_PATH": str(tmp_path / "instance")})
    return app.test_client(), path


def form_of(hands, round_: int | None = None) -> str:
    fields = [("_n", len(hands)), ("lang", "en")]
    if round_ is not None:
        fields.append(("round:int", round_))
    for i, (name, held, counters) in enumerate(hands):
        fields.append((f"players.{i}.name", name))
        fields += [(f"players.{i}.cards.{card}:int", n) for card, n in held.items()]
        fields += [(f"players.{i}.counters.{key}:int", n) for key, n in counters.items()]
    return urlencode(fields)


def request_of(hands, round_: int = 1) -> dict:
    return {"round": round_, "players": [{"name": n, "cards": h, "counters": c} for n, h, c in hands]}


def rules_table(page: str) -> dict[str, list[int]]:
    """The page's table of points: each rule's row (and the totals) as numbers, player by player."""
    table = re.search(r'<table class="rules-points">(.*?)</table>', page, re.S)[1]
    rows = {rule: [int(v) for v in re.findall(r"<td>(-?\d+)</td>", row)]
            for rule, row in re.findall(r'<tr data-rule="([a-z_]+)">(.*?)</tr>', table, re.S)}
    rows["total"] = [int(v) for v in re.findall(r'data-points="(-?\d+)"', table)]
    return rows


@pytest.mark.parametrize("round_", [1, 3])
def test_each_rule_s_points_are_generic_score_s_for_the_same_form(tmp_path, round_):
    client, path = served(tmp_path)
    r = client.get(f"/score/lost?{form_of(HANDS, round_)}")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    expected = generic.score(request_of(HANDS, round_), cards.load_file(path))
    table = rules_table(page)
    for rule in ("expeditions", "chips", "pudding"):
        assert table[rule] == [p["rules"][rule] for p in expected["players"]], rule
    assert table["total"] == [p["points"] for p in expected["players"]]
    winners = re.search(r'<p class="winner">Most points: (.*?)</p>', page)[1]
    assert re.findall(r"<bdi>(.*?)</bdi>", winners) == expected["winners"]
    # the counters and the round reached the request: chips cost a point each; pudding counts only in round 3 (the
    # most puddings earn 6, the fewest lose 6 at three players)
    assert table["chips"] == [-3, 0, -12]
    assert table["pudding"] == ([-6, 0, 6] if round_ == 3 else [0, 0, 0])
    assert f"Round {round_} of 3" in page


def test_the_hand_is_grouped_by_the_first_each_field_with_the_file_s_labels(tmp_path):
    text = GAME.read_text(encoding="utf-8").replace(
        "fields:", "labels:\n  red: {es: Rojas, en: Reds}\n  white: {es: Blancas, en: Whites}\nfields:", 1)
    client, _ = served(tmp_path, text)
    for lang, (red, white) in (("en", ("Reds", "Whites")), ("es", ("Rojas", "Blancas"))):
        page = client.get(f"/score/lost?lang={lang}&_n=2").get_data(as_text=True)
        first = page[page.index('<fieldset class="hand">'):page.index("</fieldset>")]
        # the colour's declared order (red, blue, green, white, yellow); choices nobody can hold have no heading
        assert re.findall(r'<h2 class="group">(.*?)</h2>', first) == [red, "blue", white]
        held = re.findall(r'name="players\.0\.cards\.([A-Z0-9-]+):int" value="" min="0" max="(\d+)"', first)
        assert held == [("LC-RED-5", "1"), ("LC-RED-6", "1"), ("LC-RED-W1", "3"), ("LC-BLUE-9", "1"),
                        ("LC-PUD", "10")]
        assert 'name="players.0.counters.chips:int" value="" min="0" max="60"' in first
        assert ('Pudding' if lang == "en" else "Postre") in first and ("Chips" if lang == "en" else "Fichas") in first
        assert 'name="round:int" value="1" min="1" max="3"' in page


def test_a_counter_out_of_its_range_is_a_problem_said_beside_it(tmp_path):
    client, _ = served(tmp_path)
    hands = [HANDS[0], ("Bea", {}, {"chips": 61})]
    r = client.get(f"/score/lost?{form_of(hands)}")
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    beside = re.search(r'name="players\.1\.counters\.chips:int"[^>]*></span></label></div>\s*'
                       r'<small class="said" role="alert">(.*?)</small>', page)
    assert beside and "Bea" in beside[1] and "61" in beside[1], page[page.index("<form"):][:3000]
    assert 'id="result"' not in page and page.count('class="said"') == 1
    too_many = [("Ana", {"LC-RED-5": 1}, {}), ("Bea", {"LC-RED-5": 1}, {})]  # one printed: named twice
    page = client.get(f"/score/lost?{form_of(too_many)}").get_data(as_text=True)
    assert re.search(r'name="players\.1\.cards\.LC-RED-5:int"[^>]*></span></label></div>\s*'
                     r'<small class="said" role="alert">[^<]*LC-RED-5[^<]*</small>', page)


def test_fewest_points_win_when_the_file_says_so(tmp_path):
    client, path = served(tmp_path, GAME.read_text(encoding="utf-8").replace("winner: most", "winner: fewest"))
    page = client.get(f"/score/lost?{form_of(HANDS)}").get_data(as_text=True)
    expected = generic.score(request_of(HANDS), cards.load_file(path))
    lowest = min(p["points"] for p in expected["players"])
    assert expected["winners"] == [p["name"] for p in expected["players"] if p["points"] == lowest]
    assert f"Fewest points: <bdi>{expected['winners'][0]}</bdi>" in page and "Most points" not in page


def test_a_file_without_scoring_is_the_sum_of_values_as_before(tmp_path):
    text = GAME.read_text(encoding="utf-8")
    text = text[:text.index("scoring:")].replace("sort: pudding,", "sort: pudding, value: 2,")
    client, _ = served(tmp_path, text)
    page = client.get("/score/lost?lang=en&_n=2&players.0.name=Ana&players.0.cards.LC-PUD:int=3"
                      "&players.1.name=Bea").get_data(as_text=True)
    assert 'data-points="6"' in page and 'data-points="0"' in page and "Most points: <bdi>Ana</bdi>" in page
    assert "rules-points" not in page and "round:int" not in page and "counters" not in page
    # only the cards with a value are held, shown with it
    assert re.findall(r'name="players\.0\.cards\.([A-Z0-9-]+):int"', page) == ["LC-PUD"] and "Pudding (2)" in page


def test_a_four_player_page_stays_within_the_budget(tmp_path):
    client, _ = served(tmp_path)
    sent = client.get("/score/lost?_n=4", headers=PHONE_ACCEPTS)
    total = len(sent.get_data()) + sum(len(client.get(a, headers=PHONE_ACCEPTS).get_data())
                                       for a in assets(http.body(sent).decode()))
    assert total < BUDGET, total


def test_the_static_site_s_phones_get_the_scoring_pickled_and_score_alike(tmp_path, monkeypatch):
    """The static site hands its phones the card sets pickled (site_runtime.shipped_cards): a designer's game dropped
    into cards/ goes with its scoring (formulas compiled again when read), and the modules that run it go in the
    phone's code."""
    import pickle

    from companion.core import resources
    from companion.web.site import python as site_runtime

    folder = tmp_path / "cards"
    shutil.copytree(resources.cards_dir(), folder)
    shutil.copy(GAME, folder / "lost.yaml")
    monkeypatch.setattr(resources, "cards_dir", lambda: folder)
    cards.load_shipped.cache_clear()
    try:
        phone = pickle.loads(pickle.loads(site_runtime.shipped_cards())["lost"])
        here = cards.load_shipped()["lost"]
    finally:
        cards.load_shipped.cache_clear()
    for round_ in (1, 3):
        request = request_of(HANDS, round_)
        assert generic.score(request, phone) == generic.score(request, here)
    assert {"companion.scoring.formula", "companion.scoring", "companion.games.generic"} <= set(site_runtime.modules())


def test_a_scanned_code_or_a_photo_adds_any_card_a_player_may_hold(tmp_path):
    """With scoring: every card, tile and token is held (generic.holdable), with a value or not: a scanned wager
    (no value) goes to each player holding fewer copies than are printed, and one more copy is added."""
    from werkzeug.datastructures import MultiDict

    from companion.web.games import cards_held, one_more

    client, path = served(tmp_path)
    wager = cards.load_file(path).component("LC-RED-W1")
    assert "value" not in wager.data
    form = MultiDict([("players.0.name", "Ana"), ("players.1.name", "Bea"), ("players.0.cards.LC-RED-W1:int", "3")])
    with client.application.app_context():
        assert cards_held(wager, form) == [("players.1", "Bea")]  # Ana holds the three printed
    one_more(wager, form, "players.1")
    assert form.getlist("players.1.cards.LC-RED-W1:int") == ["1"]


def test_a_target_game_takes_its_round_as_a_number(tmp_path):
    client, path = served(tmp_path, GAME.read_text(encoding="utf-8").replace("rounds: 3", 'rounds: {target: "100"}'))
    page = client.get(f"/score/lost?{form_of(HANDS, 7)}").get_data(as_text=True)
    assert 'name="round:int" value="7" min="1" max="100"' in page
    assert '<p class="meta" data-round="7">Round 7</p>' in page
    expected = generic.score(request_of(HANDS, 7), cards.load_file(path))
    assert expected["last"] and rules_table(page)["pudding"] == [p["rules"]["pudding"] for p in expected["players"]]
    assert rules_table(page)["pudding"] == [-6, 0, 6]  # a target game's every round is its last, as far as it knows
