"""Proof of reach: the end scoring of two shipped games, written only as `scoring:` sections of card data (the
contract, docs/card-data.md), gives on thousands of random tables the very points their rules modules
give, player by player: Gemas (each gem its colour's points; the most gems break a tie) and Duplicon (a round's
cards won, in hand and in the zone; rounds until someone reaches 100)."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cards
from companion.core.schema import InputError
from companion.games import duplicon, gemas, generic
from helpers.games import examples

GEMAS_DATA = """
game: gemasdata
title: {es: Gemas en datos, en: Gems as data}
prefix: GD
players: [2, 7]
fields:
  colour: {choices: [green, blue, violet, orange], types: [token]}
components:
  - {id: GD-GREEN, type: token, colour: green, qty: 4, name: {es: Verde, en: Green}}
  - {id: GD-BLUE, type: token, colour: blue, qty: 5, name: {es: Azul, en: Blue}}
  - {id: GD-VIOLET, type: token, colour: violet, qty: 5, name: {es: Violeta, en: Violet}}
  - {id: GD-ORANGE, type: token, colour: orange, qty: 6, name: {es: Naranja, en: Orange}}
scoring:
  rules:
    - id: gems
      name: {es: Gemas, en: Gems}
      points: "sum(4 if colour == 'green' else 3 if colour == 'blue' else 2 if colour == 'violet' else 1)"
  ties: ["count()"]
"""

DUPLICON_DATA = """
game: duplicondata
title: {es: Duplicon en datos, en: Duplicon as data}
prefix: DD
players: [2, 4]
components:
  - {id: DD-CARD, type: card, qty: 96, name: {es: Carta, en: Card}}
scoring:
  counters:
    won: {name: {es: Ganadas, en: Won}, number: [0, 96]}
    hand: {name: {es: En la mano, en: In hand}, number: [0, 96]}
    zone: {name: {es: En la zona, en: In the zone}, number: [0, 96]}
  rules:
    - id: round
      name: {es: Ronda, en: Round}
      points: "won - 2 * hand - 3 * zone"
  rounds: {target: "100"}
"""


def load(text: str, name: str):
    card_set, errors = cards.check_text(text, name)
    assert not errors, errors
    return card_set


GEMAS = load(GEMAS_DATA, "gemasdata.yaml")
DUPLICON = load(DUPLICON_DATA, "duplicondata.yaml")
COLOUR_IDS = {"green": "GD-GREEN", "blue": "GD-BLUE", "violet": "GD-VIOLET", "orange": "GD-ORANGE"}


@st.composite
def gem_tables(draw):
    """A Gemas table of 2 to 7 players, each colour's gems shared among them within that table's reserve."""
    n = draw(st.integers(2, 7))
    reserve = gemas.reserve_size(n)
    gems = [dict.fromkeys(gemas.COLOURS, 0) for _ in range(n)]
    for colour in gemas.COLOURS:
        for _ in range(draw(st.integers(0, reserve[colour]))):
            gems[draw(st.integers(0, n - 1))][colour] += 1
    return gems


@settings(max_examples=examples(2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=gem_tables())
def test_gemas_points_and_leaders_from_data_equal_the_rules_module(table):
    names = [f"P{i}" for i in range(len(table))]
    rules = gemas.score({"players": [{"name": n, "gems": g} for n, g in zip(names, table, strict=True)]})
    data = generic.score({"players": [{"name": n, "cards": {COLOUR_IDS[c]: k for c, k in g.items()}}
                                      for n, g in zip(names, table, strict=True)]}, GEMAS)
    assert [p["points"] for p in data["players"]] == [p["points"] for p in rules["players"]]
    if not any(sum(g.values()) for g in table):  # nobody leads a table where nobody holds a gem (issue 46)
        assert rules["leaders"] == []
    elif not any(p["complete_set"] for p in rules["players"]):  # a complete set wins at once: no points say that
        assert data["winners"] == rules["leaders"]


@st.composite
def duplicon_games(draw):
    """2 to 4 players and up to 8 rounds, each within the deck: cards won in pairs, in hand, in the zone."""
    n = draw(st.integers(2, 4))
    rounds = []
    for _ in range(draw(st.integers(1, 8))):
        left, entries = duplicon.DECK_SIZE, []
        for i in range(n):
            won = 2 * draw(st.integers(0, left // 2))
            hand = draw(st.integers(0, min(left - won, 12)))
            zone = draw(st.integers(0, min(left - won - hand, 12)))
            left -= won + hand + zone
            entries.append({"name": f"P{i}", "won": won, "hand": hand, "zone": zone})
        rounds.append(entries)
    return rounds


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds=duplicon_games())
def test_duplicon_rounds_to_the_target_from_data_equal_the_rules_module(rounds):
    """Round by round the data's points are the module's; the data's target ends the game after the same round
    (the module accepts every round up to there and no round after), with the same totals and winners."""
    scoring = generic.scoring_of(DUPLICON)
    names = [e["name"] for e in rounds[0]]
    totals, played = dict.fromkeys(names, 0), []
    for k, entries in enumerate(rounds, start=1):
        request = {"round": k, "players": [{"name": e["name"], "counters": {c: e[c] for c in ("won", "hand", "zone")}}
                                           for e in entries]}
        data = generic.score(request, DUPLICON)
        played.append((entries, data))
        for p in data["players"]:
            totals[p["name"]] += p["points"]
        target = scoring.target_of([[]] * len(names), [p["counters"] for p in data["players"]], k)
        if any(totals[n] >= t for n, t in zip(names, target, strict=True)):
            break
    result = duplicon.score({"rounds": [entries for entries, _ in played]})
    for (_, data), module_round in zip(played, result["rounds"], strict=True):
        assert {p["name"]: p["points"] for p in data["players"]} == module_round
    assert totals == result["totals"]
    finished = any(t >= 100 for t in totals.values())
    assert result["finished"] == finished
    if finished:
        assert scoring.winners(names, [totals[n] for n in names]) == result["winners"]
    if len(played) < len(rounds):  # a round after the data's end: the module refuses it too
        try:
            duplicon.score({"rounds": [entries for entries, _ in played] + [rounds[len(played)]]})
        except InputError as e:
            assert any("ended" in p.message for p in e.problems)
        else:
            raise AssertionError("the rules module played on after the data's target")
