"""Random deals of a designer's game (`companion simulate FILE --deals N`): tables dealt as its setup deals them
(`setup.hand_size` cards a player, for that many players, from the deck as printed, shuffled by our own
Fisher–Yates) and each scored as one round by its `scoring:`: each rule's points per player, the winner's margin,
and for each component how often it is in a winning hand against how often it is dealt (its lift). The same seed
deals the same tables."""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..core.rng import make_rng, shuffled
from ..core.schema import InputError, problem
from ..core.stats import four, six
from ..scoring import FormulaError, card_fields, dealt

MAX_DEALS = 1_000_000


def simulate_deals(card_set, deals: int, players: int | None = None, seed: Any = None) -> dict:
    """`deals` tables of `players` (default: the fewest the game takes) dealt and scored; InputError (exit 2) for a
    game without `scoring:`, whose setup deals no hands, or a table its deck cannot deal."""
    scoring = card_set.scoring
    if scoring is None:
        raise InputError([problem(("scoring",), "%(game)s has no scoring: section to score the deals by",
                                  game=card_set.game)])
    low, high = card_set.players
    players = low if players is None else players
    if not low <= players <= high:
        raise InputError([problem(("players",), "must be from %(lo)s to %(hi)s", lo=low, hi=high)])
    try:
        hand = dealt(card_set.setup.get("hand_size"), players, 1)  # (a number, by player count or a formula)
    except FormulaError as e:
        raise InputError([problem(("setup", "hand_size"), "cannot be computed for %(players)s players: %(why)s",
                                  players=players, why=str(e))]) from None
    if not hand:
        raise InputError([problem(("setup", "hand_size"), "%(game)s's setup deals no hands: give it "
                                  "setup.hand_size to deal random tables", game=card_set.game)])
    if not 1 <= deals <= MAX_DEALS:
        raise InputError([problem(("deals",), "must be from 1 to %(most)s", most=MAX_DEALS)])
    deck = card_set.deck()
    if hand * players > len(deck):
        raise InputError([problem(("players",), "%(players)s players need %(need)s cards; the deck has %(has)s",
                                  players=players, need=hand * players, has=len(deck))])
    rng, seed_text = make_rng(seed)
    return {"game": card_set.game, "players": players, "deals": deals, "seed": seed_text,
            **_Tally(card_set, scoring, players, hand).run(deck, deals, rng)}


class _Tally:
    """What the deals add up to, table by table."""

    def __init__(self, card_set, scoring, players: int, hand: int):
        self.scoring, self.players, self.hand = scoring, players, hand
        self.names = [str(i) for i in range(players)]
        self.counters = [{c.key: c.default for c in scoring.counters} for _ in range(players)]
        self.rule_points: dict[str, list[int]] = {r.id: [] for r in scoring.rules}
        self.rule_won = Counter()
        self.won_total = 0
        self.margins: list[int] = []
        self.dealt = Counter()
        self.in_winning = Counter()
        self.fields = {}

    def run(self, deck, deals: int, rng) -> dict:
        ids = [c.id for c in deck]
        for c in deck:
            self.fields.setdefault(c.id, card_fields(c))
        for _ in range(deals):
            self.table(shuffled(ids, rng)[:self.hand * self.players])  # as generic.setup shuffles and deals
        return self.figures()

    def table(self, cards: list[str]) -> None:
        """One table: hands dealt in turn from the top of the shuffled deck (as the setup deals), scored as a round."""
        hand, fields = self.hand, self.fields
        hands_ids = [cards[hand * i:hand * i + hand] for i in range(self.players)]
        hands = [[(fields[c], n) for c, n in Counter(ids).items()] for ids in hands_ids]
        scored = self.scoring.score(hands, self.counters, 1)
        points = [s["points"] for s in scored]
        best = (min if self.scoring.fewest_wins else max)(points)
        tied = [i for i, p in enumerate(points) if p == best]
        if len(tied) > 1 and self.scoring.ties:
            winners = [int(n) for n in self.scoring.winners(self.names, points,
                                                              self.scoring.tie_breaks(hands, self.counters, 1))]
        else:
            winners = tied
        for rule, values in self.rule_points.items():
            values.extend(s["rules"][rule] for s in scored)
            self.rule_won[rule] += sum(scored[w]["rules"][rule] for w in winners)
        self.won_total += sum(points[w] for w in winners)
        ordered = sorted(points, reverse=not self.scoring.fewest_wins)
        if len(ordered) > 1:
            self.margins.append(abs(ordered[0] - ordered[1]))
        for ids in hands_ids:
            self.dealt.update(ids)
        for w in winners:
            self.in_winning.update(hands_ids[w])

    def figures(self) -> dict:
        base = sum(self.in_winning.values()) / max(1, sum(self.dealt.values()))  # a card's chance, were all equal
        return {
            "rules": {rule: {**six(values), "share": self.rule_won[rule] / self.won_total if self.won_total else None}
                      for rule, values in self.rule_points.items()},
            "margin": four(self.margins),
            "components": {c: {"dealt": n, "in_winning_hand": self.in_winning[c],
                               "lift": (self.in_winning[c] / n) / base if base else None}
                           for c, n in sorted(self.dealt.items())},
        }
