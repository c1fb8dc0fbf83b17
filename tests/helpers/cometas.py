"""The example game of rounds to a target (docs/example-game/cometas.yaml) played in three rounds by two players: the
hands, each round's request and the totals and winners its rules give."""
from __future__ import annotations

from pathlib import Path

from companion import cards
from companion.games import generic

GAME = Path(__file__).parents[2] / "docs" / "example-game" / "cometas.yaml"



TARGET = 40  # the file's rounds: {target: "40"}



NAMES = ["Ana", "Bea"]



def kites(colour: str, *numbers: int) -> dict[str, int]:
    return {f"KT-{colour}-{n}": 1 for n in numbers}



# Each round: (Ana's kites, her knots, Bea's kites, her knots). 20-20, then 14-14 (34 each, under 40), then 19-19 with
# three knots for Ana: 53 each, tied; the last round's knots break it (Bea none), though Ana flew more kites.
ROUNDS = [
    ({**kites("RED", 1, 2, 3, 4, 5), **kites("YELLOW", 9)}, 0,
     {**kites("BLUE", 1, 2, 3, 4), **kites("GREEN", 7, 8, 9)}, 1),
    ({**kites("YELLOW", 1, 2, 3), **kites("BLUE", 9)}, 0, {**kites("GREEN", 1, 2, 3), **kites("RED", 9)}, 0),
    ({**kites("RED", 6, 7), **kites("YELLOW", 4, 5, 6), **kites("BLUE", 5), **kites("GREEN", 4, 5)}, 3,
     {**kites("BLUE", 6, 7, 8), **kites("GREEN", 6), **kites("YELLOW", 7), **kites("RED", 8)}, 0),
]



def request_of(k: int) -> dict:
    """Round k + 1's score request, as the scoring page makes it from the hands typed in."""
    ana, ana_knots, bea, bea_knots = ROUNDS[k]
    return {"round": k + 1, "players": [{"name": "Ana", "cards": ana, "counters": {"knots": ana_knots}},
                                        {"name": "Bea", "cards": bea, "counters": {"knots": bea_knots}}]}



def expected() -> tuple[list[dict[str, int]], list[str]]:
    """The totals after each round (each round scored by generic.score on the same hands) and the winner as the
    rules' text says: rounds until someone has 40; the most points; tied, fewer knots, then more kites (in the last
    round)."""
    card_set = cards.load_file(GAME)
    totals, after = dict.fromkeys(NAMES, 0), []
    for k in range(len(ROUNDS)):
        for p in generic.score(request_of(k), card_set)["players"]:
            totals[p["name"]] += p["points"]
        after.append(dict(totals))
    last = request_of(len(ROUNDS) - 1)["players"]
    best = max(totals.values())
    tied = [p for p in last if totals[p["name"]] == best]
    key = [(-p["counters"]["knots"], sum(p["cards"].values())) for p in tied]
    return after, [p["name"] for p, k in zip(tied, key, strict=True) if k == max(key)]



AFTER, WINNERS = expected()
