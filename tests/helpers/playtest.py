"""Finished games of the example game as a playtest reads them: twelve random games and the figures they must give."""
from __future__ import annotations

import random
import statistics
from datetime import datetime, timedelta
from pathlib import Path

from companion import library, service

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example-game" / "cometas.yaml"



NAMES = ["Ana", "Bea", "Ciro", "Dani"]



START = datetime(2025, 3, 1, 18, 0, 0)



def stamp(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")



def one_game(rng: random.Random, players: list[str], start: datetime, minutes_a_round: int):
    """A game of cometas to 40 played with random hands: its export (log with times) and what the test knows of it:
    totals, each player's points per rule, rounds, minutes. None when the top totals tie (the test keeps games
    whose winner the totals alone say)."""
    deck = [c.id for c in service.card_set("cometas").components if c.kind == "card"]
    totals = dict.fromkeys(players, 0)
    rules: dict[str, dict[str, int]] = {p: {} for p in players}
    log, t = [], start
    while max(totals.values()) < 40:
        cards = rng.sample(deck, 6 * len(players))
        request = {"round": len(log) + 1, "players": [
            {"name": p, "cards": cards[6 * i:6 * i + 6], "counters": {"knots": rng.randrange(3)}}
            for i, p in enumerate(players)]}
        result = service.score("cometas", request)
        for p, scored in zip(players, result["players"], strict=True):
            totals[p] += scored["points"]
            for rule, value in scored["rules"].items():
                rules[p][rule] = rules[p].get(rule, 0) + value
        log.append({"seq": len(log) + 1, "action": "add", "at": stamp(t), "body": {"request": request}})
        t += timedelta(minutes=minutes_a_round)
    log.append({"seq": len(log) + 1, "action": "finish", "at": stamp(t)})
    best = sorted(totals.values(), reverse=True)
    if best[0] == best[1]:
        return None
    export = {"format": "companion-sheet", "version": 1, "game": "cometas", "players": players, "log": log}
    rounds = len(log) - 1
    return export, {"totals": totals, "rules": rules, "rounds": rounds, "minutes": (rounds - 1) * minutes_a_round,
                    "margin": best[0] - best[1], "winner": max(totals, key=totals.get), "players": players}



def twelve_games(seed: int = 45):
    rng = random.Random(seed)
    made = []
    with library.using(library.Library([EXAMPLE], eager=False)):
        while len(made) < 12:
            count = (2, 3, 4)[len(made) % 3]
            game = one_game(rng, NAMES[:count], START + timedelta(days=len(made)), 3 + len(made) % 4)
            if game is not None:
                made.append(game)
    return made



def quartiles(values):
    return statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else [values[0]] * 3



def expected(games):
    """The figures, recomputed from the games the test played."""
    counts = sorted({len(g["players"]) for g in games})
    seats = []
    for seat in range(max(counts)):
        sat = [g for g in games if len(g["players"]) > seat]
        seats.append(sum(g["winner"] == g["players"][seat] for g in sat) / len(sat))
    rules = {}
    for rule in games[0]["rules"][games[0]["players"][0]]:
        samples = [g["rules"][p][rule] for g in games for p in g["players"]]
        q1, median, q3 = quartiles(samples)
        share = sum(g["rules"][g["winner"]][rule] for g in games) / sum(g["totals"][g["winner"]] for g in games)
        rules[rule] = {"mean": statistics.fmean(samples), "min": min(samples), "q1": q1, "median": median,
                       "q3": q3, "max": max(samples), "share": share}

    def spread(values):
        return {"mean": statistics.fmean(values), "min": min(values), "median": statistics.median(values),
                "max": max(values)}

    return {"plays": len(games), "players": {str(n): sum(len(g["players"]) == n for g in games) for n in counts},
            "seats": seats, "rules": rules, "rounds": spread([g["rounds"] for g in games]),
            "minutes": spread([g["minutes"] for g in games]), "margin": spread([g["margin"] for g in games])}

