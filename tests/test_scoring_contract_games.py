"""Games written only to the scoring contract (docs/card-data.md), from published card games' scoring: each file's
`scoring:` section, on random tables (hypothesis) scored through generic.score, gives the points of an independent
plain-Python reading of the same published rule. Set collection (Sushi Go!), per-suit formulas (Lost Cities), runs
(a poker hand's straights; No Thanks!'s runs counting their lowest card), fewest points wins and rounds to a target
(Hearts, shooting the moon included)."""
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cards
from companion.games import generic
from helpers.games import examples

PROPERTY = settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def load(game: str, body: str, components: list[str], players=(2, 5)):
    """A card data file of `components` (YAML flow mappings, ids starting with the game's two first letters) and
    the rest of its `body` (fields, scoring)."""
    text = (f"game: {game}\ntitle: {{es: {game}, en: {game}}}\nprefix: {components[0][5:7]}\n"
            f"players: [{players[0]}, {players[1]}]\n{body}\ncomponents:\n"
            + "".join(f"  - {c}\n" for c in components))
    card_set, errors = cards.check_text(text, f"{game}.yaml")
    assert not errors, errors
    return card_set


def card(card_id: str, qty: int = 1, **fields) -> str:
    extra = "".join(f", {k}: {v}" for k, v in fields.items())
    return f"{{id: {card_id}, type: card, qty: {qty}{extra}, name: {{es: {card_id}, en: {card_id}}}}}"


@st.composite
def dealt(draw, deck: dict[str, int], players=(2, 5)):
    """Each printed copy of `deck` ({id: copies}) held by one of 2 to 5 players, or by nobody."""
    n = draw(st.integers(*players))
    copies = [card_id for card_id, qty in deck.items() for _ in range(qty)]
    owners = draw(st.lists(st.integers(-1, n - 1), min_size=len(copies), max_size=len(copies)))
    hands = [Counter() for _ in range(n)]
    for card_id, owner in zip(copies, owners, strict=True):
        if owner >= 0:
            hands[owner][card_id] += 1
    return hands


def scored(card_set, hands, counters=None, round_=1) -> dict:
    request = {"round": round_, "players": [{"name": f"P{i}", "cards": dict(h), **(
        {"counters": counters[i]} if counters else {})} for i, h in enumerate(hands)]}
    return generic.score(request, card_set)


def points(result) -> list[int]:
    return [p["points"] for p in result["players"]]


def split_places(values: list[int], prizes: list[int], highest: bool = True) -> list[int]:
    """The published majority rule, as a player reads it: the best value earns the first prize, tied players share
    it (rounded down) and the next prize goes to the next best value only when the first was not shared."""
    out = [0] * len(values)
    ordered = sorted(set(values), reverse=highest)
    taken = 0
    for value in ordered:
        if taken >= len(prizes):
            break
        tied = [i for i, v in enumerate(values) if v == value]
        for i in tied:
            out[i] = prizes[taken] // len(tied)
        taken += len(tied)
    return out


# --- Sushi Go!: maki majority, tempura pairs, sashimi triples, dumplings, nigiri, pudding at the last round ----------

SUSHI_DECK = {"SG-MAKI1": (6, "maki", 1, 0), "SG-MAKI2": (12, "maki", 2, 0), "SG-MAKI3": (8, "maki", 3, 0),
              "SG-TEMPURA": (14, "tempura", 0, 0), "SG-SASHIMI": (14, "sashimi", 0, 0),
              "SG-DUMPLING": (14, "dumpling", 0, 0), "SG-EGG": (5, "nigiri", 0, 1), "SG-SALMON": (10, "nigiri", 0, 2),
              "SG-SQUID": (5, "nigiri", 0, 3), "SG-PUDDING": (10, "pudding", 0, 0)}
SUSHI = load("sushi", """fields:
  dish: {choices: [maki, tempura, sashimi, dumpling, nigiri, pudding]}
  rolls: {number: [1, 3], optional: true}
  worth: {number: [1, 3], optional: true}
scoring:
  values:
    makis: "sum(rolls)"
    puddings: "count(dish == 'pudding')"
    all_tied: "most(puddings, [1000]) > 0 and fewest(puddings, [1000]) > 0"
  rules:
    - {id: maki, name: {es: Maki, en: Maki}, points: "most(makis, [6, 3]) if makis else 0"}
    - {id: tempura, name: {es: Tempura, en: Tempura}, points: "count(dish == 'tempura') // 2 * 5"}
    - {id: sashimi, name: {es: Sashimi, en: Sashimi}, points: "count(dish == 'sashimi') // 3 * 10"}
    - {id: dumplings, name: {es: Empanadillas, en: Dumplings},
       points: "table(count(dish == 'dumpling'), [0, 1, 3, 6, 10, 15])"}
    - {id: nigiri, name: {es: Nigiri, en: Nigiri}, points: "sum(worth)"}
    - id: pudding
      name: {es: Postre, en: Pudding}
      when: last
      points: "0 if all_tied else most(puddings, [6]) - (fewest(puddings, [6]) if players > 2 else 0)"
  rounds: 3
  ties: ["puddings"]""", [card(i, q, dish=d, **({"rolls": r} if r else {}), **({"worth": w} if w else {}))
                          for i, (q, d, r, w) in SUSHI_DECK.items()])


def sushi_reference(hands: list[Counter], last: bool) -> list[int]:
    """Sushi Go!'s published end-of-round scoring (without wasabi and chopsticks, which depend on play order)."""
    n = len(hands)
    kinds = [Counter() for _ in hands]
    for k, hand in zip(kinds, hands, strict=True):
        for card_id, copies in hand.items():
            _qty, dish, rolls, worth = SUSHI_DECK[card_id]
            k[dish] += copies
            k["rolls"] += rolls * copies
            k["nigiri points"] += worth * copies
    out = [k["tempura"] // 2 * 5 + k["sashimi"] // 3 * 10 + [0, 1, 3, 6, 10, 15][min(k["dumpling"], 5)]
           + k["nigiri points"] for k in kinds]
    rolls = [k["rolls"] for k in kinds]
    maki = split_places(rolls, [6, 3])
    for i in range(n):
        out[i] += maki[i] if rolls[i] else 0  # no maki, no majority points
    puddings = [k["pudding"] for k in kinds]
    if last and len(set(puddings)) > 1:  # all tied: nobody scores puddings
        most, fewest = split_places(puddings, [6]), split_places(puddings, [6], highest=False)
        for i in range(n):
            out[i] += most[i] - (fewest[i] if n > 2 else 0)
    return out


@PROPERTY
@given(hands=dealt({i: q for i, (q, *_rest) in SUSHI_DECK.items()}), round_=st.integers(1, 3))
def test_sushi_go_set_collection(hands, round_):
    result = scored(SUSHI, hands, round_=round_)
    expected = sushi_reference(hands, round_ == 3)
    assert points(result) == expected
    puddings = [h["SG-PUDDING"] for h in hands]
    best = max(zip(expected, puddings, strict=True))
    assert result["winners"] == [f"P{i}" for i, key in enumerate(zip(expected, puddings, strict=True)) if key == best]


# --- Lost Cities: each expedition (sum - 20) × (1 + wagers), 20 more with eight cards --------------------------------

COLOURS = ("red", "blue", "green", "white", "yellow")
LOST_DECK = {**{f"LC-{c.upper()}-{n}": 1 for c in COLOURS for n in range(2, 11)},
             **{f"LC-{c.upper()}-W": 3 for c in COLOURS}}
LOST = load("lost", """fields:
  colour: {choices: [red, blue, green, white, yellow]}
  number: {number: [2, 10], optional: true}
  sort: {choices: [expedition, wager]}
scoring:
  rules:
    - id: expeditions
      name: {es: Expediciones, en: Expeditions}
      each: colour
      points: "0 if count() == 0 else (sum(number) - 20) * (1 + count(sort == 'wager')) + (20 if count() >= 8 else 0)"
""", [card(i, q, colour=i.split("-")[1].lower(),
           **({"sort": "wager"} if i.endswith("-W") else {"sort": "expedition", "number": int(i.split("-")[2])}))
      for i, q in LOST_DECK.items()])


def lost_reference(hand: Counter) -> int:
    total = 0
    for colour in COLOURS:
        held = [(card_id, k) for card_id, k in hand.items() if card_id.split("-")[1] == colour.upper()]
        if not held:
            continue
        wagers = sum(k for card_id, k in held if card_id.endswith("-W"))
        numbers = sum(int(card_id.split("-")[2]) * k for card_id, k in held if not card_id.endswith("-W"))
        total += (numbers - 20) * (1 + wagers) + (20 if sum(k for _, k in held) >= 8 else 0)
    return total


@PROPERTY
@given(hands=dealt(LOST_DECK, players=(2, 2)))
def test_lost_cities_expeditions(hands):
    assert points(scored(LOST, hands)) == [lost_reference(h) for h in hands]


# --- Poker: a five-card hand's category, straights (the ace low too) found as runs ------------------------------

SUITS = ("clubs", "diamonds", "hearts", "spades")
FIFTY_TWO = [(s, r) for s in SUITS for r in range(2, 15)]
POKER_FIELDS = """fields:
  suit: {choices: [clubs, diamonds, hearts, spades]}
  rank: {number: [2, 14]}"""
POKER = load("poker", POKER_FIELDS + """
scoring:
  values:
    kinds: "each(rank, count())"
    flush: "distinct(suit) == 1"
    straight: "distinct(rank) == 5 and (highest(run_lengths(rank)) == 5 or run_lows(rank) == [2, 14] and
               run_lengths(rank) == [4, 1])"
  rules:
    - id: hand
      name: {es: Jugada, en: Hand}
      points: "8 if straight and flush else 7 if top(2, kinds) == [4, 1] else 6 if top(2, kinds) == [3, 2] else
               5 if flush else 4 if straight else 3 if highest(kinds) == 3 else 2 if top(2, kinds) == [2, 2] else
               1 if highest(kinds) == 2 else 0\"""",
             [card(f"PK-{s[0].upper()}-{r}", suit=s, rank=r) for s, r in FIFTY_TWO])


def poker_reference(hand: list[tuple[str, int]]) -> int:
    """Straight flush 8, four of a kind 7, full house 6, flush 5, straight 4, three 3, two pairs 2, a pair 1."""
    ranks = sorted(r for _, r in hand)
    shape = sorted(Counter(ranks).values(), reverse=True)
    flush = len({s for s, _ in hand}) == 1
    straight = len(set(ranks)) == 5 and (ranks[-1] - ranks[0] == 4 or ranks == [2, 3, 4, 5, 14])
    if straight and flush:
        return 8
    for category, wanted in ((7, [4, 1]), (6, [3, 2])):
        if shape == wanted:
            return category
    if flush:
        return 5
    if straight:
        return 4
    return {3: 3, 2: 2 if shape[:2] == [2, 2] else 1}.get(shape[0], 0)


STRAIGHTS = [[(SUITS[(low + i) % 4 if k else 0], 14 if low + i == 1 else low + i) for i in range(5)]
             for low in range(1, 11) for k in (0, 1)]  # every straight, flush and not, so each is met


@PROPERTY
@given(deck=st.permutations(FIFTY_TWO), n=st.integers(2, 5), straight=st.sampled_from([None, *STRAIGHTS]))
def test_poker_hands_straights_as_runs(deck, n, straight):
    hands = [deck[5 * i:5 * i + 5] for i in range(n)]
    if straight is not None:  # random hands seldom hold a straight: the first player is dealt one
        hands = [straight] + [[c for c in deck if c not in straight][5 * i:5 * i + 5] for i in range(n - 1)]
    counted = [Counter(f"PK-{s[0].upper()}-{r}" for s, r in hand) for hand in hands]
    assert points(scored(POKER, counted)) == [poker_reference(hand) for hand in hands]


# --- No Thanks!: each run of numbers counts only its lowest card, each chip takes a point off; fewest wins -------

NO_THANKS = load("nothanks", """fields:
  number: {number: [3, 35]}
scoring:
  counters:
    chips: {name: {es: Fichas, en: Chips}, number: [0, 55]}
  rules:
    - {id: cards, name: {es: Cartas, en: Cards}, points: "total(run_lows(number))"}
    - {id: chips, name: {es: Fichas, en: Chips}, points: "-chips"}
  winner: fewest""", [card(f"NT-{n}", number=n) for n in range(3, 36)])


@PROPERTY
@given(hands=dealt({f"NT-{n}": 1 for n in range(3, 36)}, players=(3, 5)), chips=st.lists(st.integers(0, 11), min_size=5,
                                                                                       max_size=5))
def test_no_thanks_runs_count_their_lowest_card_and_fewest_wins(hands, chips):
    counters = [{"chips": c} for c in chips[:len(hands)]]
    result = scored(NO_THANKS, hands, counters)
    held = [{int(card_id[3:]) for card_id in h} for h in hands]
    expected = [sum(n for n in numbers if n - 1 not in numbers) - c for numbers, c in zip(held, chips, strict=False)]
    assert points(result) == expected
    assert result["winners"] == [f"P{i}" for i, p in enumerate(expected) if p == min(expected)]


# --- Hearts: a heart 1, the queen of spades 13; taking all 26 gives the others 26; to 100, the fewest win ---------

HEARTS = load("hearts", POKER_FIELDS + """
scoring:
  values:
    taken: "count(suit == 'hearts') + 13 * count(suit == 'spades' and rank == 12)"
    moon: "taken == 26"
  rules:
    - id: penalty
      name: {es: Penalización, en: Penalty}
      points: "0 if moon else 26 if most(moon, [1000]) == 0 else taken"
  rounds: {target: "100"}
  winner: fewest""", [card(f"HE-{s[0].upper()}-{r}", suit=s, rank=r) for s, r in FIFTY_TWO], players=(3, 6))
POINT_CARDS = [f"HE-H-{r}" for r in range(2, 15)] + ["HE-S-12"]
OTHERS = ["HE-S-14", "HE-S-13", "HE-C-2", "HE-D-10"]


@st.composite
def hearts_games(draw):
    """3 to 6 players and up to 12 rounds of the cards each took (the point cards and a few others); some rounds
    one player takes every point card."""
    n = draw(st.integers(3, 6))
    rounds = []
    for _ in range(draw(st.integers(1, 12))):
        taken = [Counter() for _ in range(n)]
        moon = draw(st.one_of(st.none(), st.integers(0, n - 1)))
        for card_id in POINT_CARDS + OTHERS:
            owner = moon if moon is not None and card_id in POINT_CARDS else draw(st.integers(0, n - 1))
            taken[owner][card_id] += 1
        rounds.append(taken)
    return rounds


def hearts_round(taken: list[Counter]) -> list[int]:
    penalties = [sum(k for c, k in t.items() if c.startswith("HE-H-")) + 13 * t["HE-S-12"] for t in taken]
    if 26 in penalties:  # shooting the moon
        return [0 if p == 26 else 26 for p in penalties]
    return penalties


@PROPERTY
@given(rounds=hearts_games())
def test_hearts_penalties_rounds_to_100_and_the_fewest_win(rounds):
    scoring = generic.scoring_of(HEARTS)
    n = len(rounds[0])
    data_totals, ref_totals, ended = [0] * n, [0] * n, None
    for k, taken in enumerate(rounds, start=1):
        result = scored(HEARTS, taken, round_=k)
        assert result["last"]  # a target game: every round may be the last
        expected = hearts_round(taken)
        assert points(result) == expected
        data_totals = [t + p for t, p in zip(data_totals, points(result), strict=True)]
        ref_totals = [t + p for t, p in zip(ref_totals, expected, strict=True)]
        target = scoring.target_of(taken, [{}] * n, k)
        if any(t >= goal for t, goal in zip(data_totals, target, strict=True)):
            ended = k
            break
    assert (ended is not None) == any(t >= 100 for t in ref_totals)
    names = [f"P{i}" for i in range(n)]
    assert scoring.winners(names, data_totals) == [names[i] for i, t in enumerate(ref_totals) if t == min(ref_totals)]
