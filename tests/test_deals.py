"""Random deals (`companion simulate FILE --deals N`): tables dealt as the setup deals them and scored as a round;
the same seed gives the same figures, another seed others; the figures are those of the same tables scored through
the score request a phone sends."""
import json
import random
import statistics
from collections import Counter
from pathlib import Path

import pytest

from companion import library, service
from companion.cli import main
from companion.core.rng import shuffled
from companion.scoring import dealt as hand_size

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "example-game"


def simulated(capsys, *args) -> dict:
    assert main(["simulate", *map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_the_same_seed_gives_the_same_figures_and_another_seed_others(capsys):
    path = EXAMPLES / "cometas.yaml"
    one = simulated(capsys, path, "--deals", 300, "--players", 4, "--seed", "table")
    assert one == simulated(capsys, path, "--deals", 300, "--players", 4, "--seed", "table")
    other = simulated(capsys, path, "--deals", 300, "--players", 4, "--seed", "other")
    assert other["rules"] != one["rules"] and other["components"] != one["components"]
    assert (one["game"], one["players"], one["deals"]) == ("cometas", 4, 300)
    assert set(one["rules"]) == {"flocks", "tails", "rainbows", "highest", "knots"}
    assert set(one["margin"]) == {"mean", "min", "median", "max"}
    dealt = sum(c["dealt"] for c in one["components"].values())
    assert dealt == 300 * 4 * 3  # hand_size 3 each


def test_the_figures_are_those_of_the_same_tables_scored_as_requests(capsys):
    """The deals replayed here with the setup's own shuffle and scored through `service.score` (the request a
    phone sends) give the same rule points, margins and counts."""
    path, deals, players = EXAMPLES / "huerto.yaml", 60, 3
    got = simulated(capsys, path, "--deals", deals, "--players", players, "--seed", 9)
    with library.using(library.Library([path], eager=False)):
        card_set = service.card_set("huerto")
        ids = [c.id for c in card_set.deck()]
        hand = hand_size(card_set.setup["hand_size"], players)
        rng = random.Random("9")
        points, margins, dealt, winning = {}, [], Counter(), Counter()
        for _ in range(deals):
            cards = shuffled(ids, rng)[:hand * players]
            hands = [cards[hand * i:hand * i + hand] for i in range(players)]
            result = service.score("huerto", {"players": [{"name": f"P{i}", "cards": h}
                                                         for i, h in enumerate(hands)]})
            for p in result["players"]:
                for rule, value in p["rules"].items():
                    points.setdefault(rule, []).append(value)
            totals = sorted((p["points"] for p in result["players"]), reverse=True)
            margins.append(totals[0] - totals[1])
            for h in hands:
                dealt.update(h)
            for w in result["winners"]:
                winning.update(hands[int(w[1:])])
    for rule, values in points.items():
        assert got["rules"][rule]["mean"] == pytest.approx(statistics.fmean(values))
        assert got["rules"][rule]["median"] == statistics.median(values)
        assert (got["rules"][rule]["min"], got["rules"][rule]["max"]) == (min(values), max(values))
    assert got["margin"]["mean"] == pytest.approx(statistics.fmean(margins))
    base = sum(winning.values()) / sum(dealt.values())
    for card, n in dealt.items():
        assert got["components"][card]["dealt"] == n
        assert got["components"][card]["in_winning_hand"] == winning[card]
        assert got["components"][card]["lift"] == pytest.approx(winning[card] / n / base)


def test_a_game_whose_setup_deals_no_hands_says_so_exit_2(tmp_path, capsys):
    text = (EXAMPLES / "cometas.yaml").read_text(encoding="utf-8").replace("  hand_size: 3\n", "")
    (tmp_path / "cometas.yaml").write_text(text, encoding="utf-8")
    assert main(["simulate", str(tmp_path / "cometas.yaml"), "--deals", "10"]) == 2
    assert "setup.hand_size" in capsys.readouterr().err
    assert main(["simulate", str(EXAMPLES / "cosecha.yaml"), "--deals", "10"]) == 2  # no scoring: at all
    assert "scoring" in capsys.readouterr().err


def test_the_text_summary_and_the_old_solo_simulator_still_work(capsys):
    assert main(["simulate", str(EXAMPLES / "especias.yaml"), "--deals", "50", "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "especias: 50 tables of 2 dealt (seed 1)" in out and "lift" in out
    assert main(["simulate", "duquesa", "--games", "20", "--seed", "2026"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "duquesa"
    assert main(["simulate", str(EXAMPLES / "especias.yaml"), "--deals", "5", "--players", "9"]) == 2
