"""A designer's whole game (issue 44): a trick-taking game with bids written to the scoring contract alone
(tests/data/tricks.yaml: before(), game(), dealt, table_sum, checks:, rounds: {target, max}, a hand size by player
count, scoring.cards, tie-breakers over the whole game). Random whole games score exactly as the rules say through
the CLI (each round with its `earlier` ones), the API and a saved sheet, which ends at the target or the round limit
and names the winner by the whole game's tie-breakers; a table whose tricks do not add up is refused by name."""
import contextlib
import io
import json
import random
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cards, cli
from companion.core.schema import InputError
from companion.games import generic
from companion.scoring import dealt
from helpers.games import examples
from helpers.plain_scoring import PlainError, score_game

GAME = Path(__file__).parent / "data" / "tricks.yaml"
DATA = yaml.safe_load(GAME.read_text(encoding="utf-8"))
SECTION = DATA["scoring"]
FIELDS = {c["id"]: {"suit": c["suit"], "rank": c["rank"], "kind": c["kind"], "id": c["id"], "type": "card",
                    "set": "base"} for c in DATA["components"]}
CHOICES = {"suit": ["sun", "moon", "star", "wave"], "kind": ["plain", "kraken", "mermaid"], "rank": None,
           "id": None, "type": None, "set": None}
HAND = DATA["setup"]["hand_size"]


def deal_round(rng: random.Random, names: list[str]) -> dict:
    """One round as a table plays it: each player bids (the bids may not add up to the cards dealt), takes tricks
    that do (each trick is a card from every player), and captures those tricks' cards; fouls now and then."""
    n, hand = len(names), HAND[len(names)]
    cuts = sorted(rng.randint(0, hand) for _ in range(n - 1))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, hand], strict=True)]
    while True:  # good players: most bids are made
        bids = [t if rng.random() < 0.7 else rng.randint(0, hand) for t in tricks]
        if sum(bids) != hand:
            break
    deck = list(FIELDS)
    rng.shuffle(deck)
    pool = deck[:hand * n]
    players = []
    for name, bid, took in zip(names, bids, tricks, strict=True):
        captured, pool = pool[:took * n], pool[took * n:]
        players.append({"name": name, "cards": {c: 1 for c in captured},
                        "counters": {"bid": bid, "tricks": took, "fouls": rng.choice([0, 0, 0, 1, 2])}})
    return {"players": players}


def whole_game(seed: int, n: int) -> list[dict]:
    """Rounds until the game ends by its rules (60 points, or 7 rounds), by the plain evaluator."""
    rng = random.Random(seed)
    names = ["Ana", "Beto", "Caro", "Dani", "Eva"][:n]
    rounds: list[dict] = []
    while True:
        rounds.append(deal_round(rng, names))
        if plain(rounds)["over"]:
            return rounds


def plain(rounds: list[dict]) -> dict:
    return score_game(SECTION, CHOICES, rounds, FIELDS, lambda n, r: HAND[n])


def request_of(rounds: list[dict]) -> dict:
    """The score request of the last round, carrying the earlier ones."""
    return {"round": len(rounds), "earlier": rounds[:-1], "players": rounds[-1]["players"]}


def test_the_game_validates_without_a_word(capsys):
    assert cli.main(["validate", str(GAME)]) == 0
    out = capsys.readouterr()
    assert "warning" not in out.err and "ok" in out.out, out.err


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), n=st.integers(3, 5))
def test_every_round_of_a_whole_game_scores_as_the_rules_say_with_its_earlier_rounds(seed, n):
    card_set = cards.load_file(GAME)
    rounds = whole_game(seed, n)
    for k in range(1, len(rounds) + 1):
        expected = plain(rounds[:k])
        answer = generic.score(request_of(rounds[:k]), card_set)
        last = expected["rounds"][-1]["players"]
        assert [(p["name"], p["points"], p["rules"]) for p in answer["players"]] == \
            [(p["name"], p["points"], p["rules"]) for p in last]
        assert {p["name"]: p["game"] for p in answer["players"]} == expected["game"]
        assert answer["over"] == expected["over"] == (k == len(rounds))
        assert answer["winners"] == expected["winners"]
    assert len(rounds) <= 7 and (len(rounds) == 7 or max(expected["game"].values()) >= 60)


def test_the_cli_and_the_api_answer_a_whole_game_alike(tmp_path, client_of):
    rounds = whole_game(20261202, 4)
    request = request_of(rounds)
    (tmp_path / "request.json").write_text(json.dumps(request), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["score", str(GAME), str(tmp_path / "request.json")]) == 0
    by_cli = json.loads(out.getvalue())
    by_api = client_of(GAME).post("/api/v1/tricks/score", json=request)
    assert by_api.status_code == 200, by_api.get_json()
    expected = plain(rounds)
    for answer in (by_cli, by_api.get_json()):
        assert {p["name"]: p["game"] for p in answer["players"]} == expected["game"]
        assert answer["over"] and answer["winners"] == expected["winners"]


@pytest.fixture
def client_of(tmp_path):
    from companion.web import create_app

    def make(path):
        app = create_app({"TESTING": True, "CARD_FILES": [str(path)], "INSTANCE_PATH": str(tmp_path / "instance")})
        return app.test_client()
    return make


@pytest.mark.parametrize("seed", range(4))
def test_a_saved_sheet_plays_the_whole_game_to_its_end_and_names_the_whole_games_winner(seed, client_of):
    rounds = whole_game(seed, 3 + seed % 3)
    names = [p["name"] for p in rounds[0]["players"]]
    phone = client_of(GAME)
    header = {"X-CSRF-Token": phone.get("/api/v1/csrf").get_json()["csrf"]}
    token = phone.post("/api/v1/sheets", json={"game": "tricks", "players": names}, headers=header).get_json()["token"]
    for k, round_ in enumerate(rounds, 1):
        added = phone.post(f"/api/v1/sheets/{token}/entries", json={"request": round_}, headers=header)
        assert added.status_code == 201, added.get_json()
        state = phone.get(f"/api/v1/sheets/{token}").get_json()
        expected = plain(rounds[:k])
        assert state["totals"] == expected["game"]
        assert state["finished"] == (k == len(rounds))
    assert state["winners"] == expected["winners"]
    more = phone.post(f"/api/v1/sheets/{token}/entries", json={"request": rounds[-1]}, headers=header)
    assert more.status_code == 409  # no round after the game's end


def test_correcting_an_earlier_round_moves_the_rounds_after_it(client_of):
    """The streak and the fouls read the rounds before: correcting round 1 (a bid made, now missed) changes the
    later rounds' points as the rules give them, and the sheet says so, as the plain evaluator does."""
    rounds = whole_game(7, 3)[:3]
    phone = client_of(GAME)
    header = {"X-CSRF-Token": phone.get("/api/v1/csrf").get_json()["csrf"]}
    names = [p["name"] for p in rounds[0]["players"]]
    token = phone.post("/api/v1/sheets", json={"game": "tricks", "players": names}, headers=header).get_json()["token"]
    for round_ in rounds:
        assert phone.post(f"/api/v1/sheets/{token}/entries", json={"request": round_},
                          headers=header).status_code == 201
    changed = json.loads(json.dumps(rounds))
    changed[0]["players"][0]["counters"]["fouls"] = 3
    entry = phone.get(f"/api/v1/sheets/{token}").get_json()["entries"][0]
    r = phone.put(f"/api/v1/sheets/{token}/entries/{entry['seq']}", json={"request": changed[0], "base": entry["rev"]},
                  headers=header)
    assert r.status_code == 200, r.get_json()
    state = phone.get(f"/api/v1/sheets/{token}").get_json()
    assert state["totals"] == plain(changed)["game"] != plain(rounds)["game"]


def test_a_table_whose_tricks_do_not_add_up_is_refused_by_name(tmp_path, client_of, capsys):
    rounds = whole_game(3, 4)
    bad = json.loads(json.dumps(rounds[0]))
    bad["players"][0]["counters"]["tricks"] += 1
    with pytest.raises(PlainError):
        plain([bad])
    with pytest.raises(InputError) as e:
        generic.score(bad, cards.load_file(GAME))
    assert e.value.field == "checks[0]"
    assert e.value.problems[0].say("es") == ("la mesa no cumple: Las bazas ganadas deben sumar las cartas "
                                             "repartidas a cada jugador")
    r = client_of(GAME).post("/api/v1/tricks/score", json=bad)
    assert r.status_code == 400 and r.get_json()["field"] == "checks[0]", r.get_json()
    assert "The tricks taken must add up to the cards dealt to each player" in r.get_json()["error"]
    (tmp_path / "bad.json").write_text(json.dumps({"earlier": [bad], "players": rounds[1]["players"]}))
    assert cli.main(["score", str(GAME), str(tmp_path / "bad.json")]) == 2
    assert "earlier[0].checks[0]" in capsys.readouterr().err


def test_the_setup_deals_by_the_player_count_and_formulas_see_it_as_dealt():
    card_set = cards.load_file(GAME)
    for n, size in HAND.items():
        deal = generic.setup(card_set, random.Random(1), n, {})
        assert [len(h) for h in deal["hands"]] == [size] * n
        assert dealt(card_set.setup["hand_size"], n) == size


def test_the_docs_example_of_a_whole_game_validates_and_plays(capsys):
    """docs/examples/bazas.yaml uses every name of the contract's "Across the game": it validates without a word
    and scores a whole game as tests/data/tricks.yaml does (the same rules, their own cards)."""
    example = Path(__file__).parents[1] / "docs" / "examples" / "bazas.yaml"
    assert cli.main(["validate", str(example)]) == 0
    assert "warning" not in capsys.readouterr().err
    text = example.read_text(encoding="utf-8")
    for name in ("before(", "game(", "dealt", "table_sum(", "checks:", "max: 7", "hand_size: {", "cards:", "ties:"):
        assert name in text, name


SMALL = """game: small
title: {es: Pequeño, en: Small}
prefix: SM
players: [2, 4]
%(setup)s
components:
  - {id: SM-A, type: card, qty: 40, name: {es: A, en: A}}
scoring:
  counters:
    k: {name: {es: K, en: K}, number: [0, 5]}
  rules:
    - {id: main, name: {es: Main, en: Main}, points: "%(points)s"}
  rounds: %(rounds)s
"""


@pytest.mark.parametrize("setup, points, rounds, says", [
    ("", "count()", '"players * 2"', None),
    ("", "count()", '"8 - players * 2"', "scoring.rounds: gives 0 rounds when players is 4; a game has 1 to 100"),
    ("", "game(main)", "3", "needs its own points of this round through game(): main → main"),
    ("", "before(main) + game(k)", "3", None),
    ("", "before(nothing)", "3", "before(): its argument must be a rule's id, a counter or a value"),
    ("setup:\n  hand_size: {2: 10, 3: 8}", "count()", "3", "setup.hand_size: says nothing of 4 players"),
    ("setup:\n  hand_size: \"12 - round * 4\"", "count()", "4",
     "setup.hand_size: deals -4 cards when players is 2 and the round is 4"),
    ("setup:\n  hand_size: \"12 - round * 4\"", "count()", "2", None),
    ("setup:\n  hand_size: \"60 // players\"", "count()", "3", "setup: 2 players need 60 cards; the deck has 40"),
    ("setup:\n  hand_size: \"10 // players\"", "dealt * 1000000000", "3", "is out of range when players is 2"),
])
def test_rounds_hand_sizes_and_the_game_so_far_are_checked_at_load(tmp_path, capsys, setup, points, rounds, says):
    path = tmp_path / "small.yaml"
    path.write_text(SMALL % {"setup": setup, "points": points, "rounds": rounds}, encoding="utf-8")
    code = cli.main(["validate", str(path)])
    err = capsys.readouterr().err
    if says is None:
        assert code == 0 and "warning" not in err, err
    else:
        assert code == 2 and says in err and "Traceback" not in err, err


def test_a_check_sees_the_table_not_a_player(tmp_path, capsys):
    text = (SMALL % {"setup": "", "points": "count()", "rounds": "3"}) + \
        '  checks:\n    - {test: "k > 0", message: {es: M, en: M}}\n'
    path = tmp_path / "small.yaml"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["validate", str(path)]) == 2
    assert "scoring.checks[0].test: 'k' is a player's: a check of the whole table sees players, round and dealt" \
        in capsys.readouterr().err
