"""Scoring from data, speed: a 5-player table of a designer's game with 10 rules (majorities per colour, each,
run_lengths and run_lows, table, values, a counter, pudding-like most/fewest at the last round) scored in CPython,
one table at a time: the mean and 95th percentile per table, for the compiled rules alone (Scoring.score) and for a
whole request (generic.score: the request checked, then scored). Target: at most 5 ms a table.
Run on demand: `.venv/bin/python benchmarks/bench_data_scoring.py [tables]`."""
from __future__ import annotations

import json
import platform
import random
import statistics
import sys
import time

from companion import cards
from companion.games import generic
from companion.scoring import card_fields

COLOURS = ("red", "yellow", "blue", "green", "white")
GAME = """game: benchscore
title: {es: Banco, en: Bench}
prefix: BS
players: [2, 5]
fields:
  colour: {choices: [red, yellow, blue, green, white]}
  number: {number: [1, 12]}
  sort: {choices: [kite, tail, pudding]}
scoring:
  counters:
    knots: {name: {es: Nudos, en: Knots}, number: [0, 12]}
  values:
    sky: "sum(number)"
    puddings: "count(sort == 'pudding')"
  rules:
    - {id: flocks, name: {es: Bandadas, en: Flocks}, each: colour, points: "most(count(), [5, 2]) if count() else 0"}
    - {id: tails, name: {es: Colas, en: Tails}, each: colour,
       points: "table(highest(run_lengths(number)), [0, 0, 0, 3, 6, 10])"}
    - {id: rainbows, name: {es: Arcoiris, en: Rainbows}, points: "4 * lowest(each(colour, count()))"}
    - {id: highest, name: {es: Cielo alto, en: High sky}, points: "most(sky, [3, 1]) if sky else 0"}
    - {id: lowest, name: {es: Cielo bajo, en: Low sky}, points: "-fewest(sky, [3])"}
    - {id: sorts, name: {es: Clases, en: Sorts}, points: "total(each(sort, table(count(), [0, 1, 3, 6, 10, 15])))"}
    - {id: starts, name: {es: Salidas, en: Starts}, points: "total(top(3, run_lows(number))) // 4"}
    - {id: values, name: {es: Valores, en: Values}, points: "sum(number, sort == 'kite') // 5"}
    - {id: knots, name: {es: Nudos, en: Knots}, points: "-2 * knots"}
    - {id: pudding, name: {es: Postre, en: Pudding}, when: last,
       points: "most(puddings, [6]) - (fewest(puddings, [6]) if players > 2 else 0)"}
  rounds: 3
  ties: ["-knots", "count()"]
components:
"""
SORTS = ("kite", "kite", "tail", "pudding")
CARDS = [(f"BS-{c.upper()}-{n}", c, n, SORTS[n % 4]) for c in COLOURS for n in range(1, 13)]


def card_set():
    lines = "".join(f"  - {{id: {i}, type: card, colour: {c}, number: {n}, sort: {s}, name: {{es: {i}, en: {i}}}}}\n"
                    for i, c, n, s in CARDS)
    loaded, errors = cards.check_text(GAME + lines, "benchscore.yaml")
    assert not errors, errors
    return loaded


def tables(count: int, rng: random.Random) -> list[dict]:
    """`count` score requests: 5 players, 10 cards each from the 60, knots 0-4, the last round."""
    out = []
    for _ in range(count):
        deck = [i for i, *_rest in CARDS]
        rng.shuffle(deck)
        out.append({"round": 3, "players": [{"name": f"P{p}", "cards": deck[10 * p:10 * p + 10],
                                             "counters": {"knots": rng.randrange(5)}} for p in range(5)]})
    return out


def timed(fn, items) -> dict:
    fn(items[0])  # warm-up
    times = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {"mean_ms": round(statistics.fmean(times), 3), "p95_ms": round(times[int(len(times) * 0.95)], 3),
            "max_ms": round(times[-1], 3)}


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    loaded = card_set()
    scoring = generic.scoring_of(loaded)
    requests = tables(count, random.Random("bench"))
    fields = {c.id: card_fields(c) for c in loaded.components}

    def rules_only(request):
        hands = [[(fields[i], 1) for i in p["cards"]] for p in request["players"]]
        counters = [p["counters"] for p in request["players"]]
        scoring.score(hands, counters, 3)

    figures = {"python": platform.python_version(), "tables": count, "players": 5, "rules": len(scoring.rules),
               "scoring_score": timed(rules_only, requests),
               "generic_score": timed(lambda r: generic.score(r, loaded), requests)}
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
