"""El Collar de la Duquesa: stones, wishes and the card checks shared by card data and score requests."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations_with_replacement, product
from random import Random

from ..components import ComponentType
from ..core.i18n import N_, _
from ..core.rng import randbelow, shuffled
from ..core.schema import Enum, InputError, Int, ListOf, Path, Problems, Record, Term, Word, problem
from ..look import Face
from .base import NAME, CardRef, check_copies, check_unique_names, checked, reference_items, top
from .descriptor import Entry, Game, Option

# (imported here: the phone's zip holds it)
from .duquesa_solo_florins import FLORINS as SOLO_FLORINS
from .duquesa_solo_florins import GAMES as SOLO_GAMES

STONES = ("amber", "jet", "amethyst", "pearl", "emerald", "ruby", "sapphire", "diamond")
RAINBOW, GOLD = "rainbow", "gold"
VOCABULARY = (*STONES, RAINBOW, GOLD)

WISH = Record(
    {"stone": Enum((*STONES, RAINBOW), "stone"), "count": Int(0, 99), "florins": Int(1, 60)},
    required=("stone", "count", "florins"),
)
CARD_FIELDS = {"stones": ListOf(Enum(VOCABULARY, "stone"), 1, 4), "wish": WISH}


def check_card(card: Mapping, path: Path, problems: Problems) -> None:
    """The shapes a Duquesa card can have: 4 stones and a wish; 1 rainbow stone and the rainbow
    wish; 3 stones and a gold ingot with no wish (the gold table is printed instead)."""
    stones, wish = card.get("stones", ()), card.get("wish")
    if RAINBOW in stones:
        if len(stones) != 1:
            problems.add((*path, "stones"), "a rainbow card has the rainbow stone alone")
    elif len(stones) != 4:
        problems.add((*path, "stones"), "must have 4 stones, has %(has)s", has=len(stones))
    if stones.count(GOLD) > 1:
        problems.add((*path, "stones"), "a card has at most one gold ingot")
    if GOLD in stones:
        if wish is not None:
            problems.add((*path, "wish"), "a gold card has no wish (it scores by the gold table)")
    elif wish is None:
        problems.add((*path, "wish"), "is missing")
    elif wish["stone"] == RAINBOW and wish["count"] != 1:
        problems.add((*path, "wish", "count"), "must be 1 for a rainbow wish")
    elif wish["stone"] != RAINBOW and wish["count"] not in (2, 3, 4):
        problems.add((*path, "wish", "count"), "must be 2, 3 or 4")


COMPONENT_TYPES = {
    "necklace": ComponentType("card", CARD_FIELDS, required=("stones",), validate=check_card),
    "reference": ComponentType("reference", texts=("name", "text")),
}


# --- Scoring -----------------------------------------------------------------------------------------


def gold_florins(ingots: int) -> int:
    """Gold by accumulation: each of G ingots is worth 2G+3 ([R] 1 → 5, 2 → 14; [A] 3 → 27, 4 → 44)."""
    return ingots * (2 * ingots + 3)


MAX_RAINBOW_CARDS, MAX_GOLD_CARDS = 2, 4  # what the expansions contain
HAND_SIZE = 4  # a player's necklace: four cards in hand and the common card
RANKS = (("aprendiz", 0), ("artista", 27), ("oficial", 31), ("magister", 34))  # [R] solo ranks, lowest florins

_BITS = 5  # each stone type counts in its own 5-bit field of one integer
SHIFT = {stone: _BITS * i for i, stone in enumerate(STONES)}
_MASK = (1 << _BITS) - 1
NO_WISH, RAINBOW_WISH = -1, -2
UNUSED, ITSELF = "unused", RAINBOW  # what a rainbow stone may do besides standing for a stone type

# A compiled card: (stone vector, wish shift or NO_WISH/RAINBOW_WISH, wish count, florins, has rainbow, ingots)
Compiled = tuple


def compile_card(card: Mapping) -> Compiled:
    """A necklace card's fields as a `Compiled` tuple, for the scoring's inner loops."""
    stones, wish = card["stones"], card.get("wish")
    vec = sum(1 << SHIFT[s] for s in stones if s in SHIFT)
    if wish is None:
        shift, count, florins = NO_WISH, 0, 0
    else:
        shift = RAINBOW_WISH if wish["stone"] == RAINBOW else SHIFT[wish["stone"]]
        count, florins = wish["count"], wish["florins"]
    return (vec, shift, count, florins, RAINBOW in stones, stones.count(GOLD))


def _evaluate(cards: Sequence[Compiled], vecs: Sequence[int], used: int) -> tuple[int, int]:
    total = sum(vecs)
    value = wishes = 0
    for (_vec, shift, count, florins, _rainbow, _gold), vec in zip(cards, vecs, strict=True):
        if shift >= 0:
            if ((total - vec) >> shift) & _MASK == count:
                value += florins
                wishes += 1
        elif shift == RAINBOW_WISH and used == 1:
            value += florins
            wishes += 1
    return value, wishes


def best_choice(cards: Sequence[Compiled]) -> tuple[int, int, dict[int, str]]:
    """The best necklace: (florins, wishes met, use of each rainbow stone by card index).

    Each rainbow stone is left unused, used as itself, or stands for a stone type; standing for a type that
    no other card wishes for is the same as using it as itself, so only wished types are tried."""
    gold = gold_florins(sum(c[5] for c in cards))
    rainbows = [i for i, c in enumerate(cards) if c[4]]
    base = [c[0] for c in cards]
    if not rainbows:
        value, wishes = _evaluate(cards, base, 0)
        return value + gold, wishes, {}
    options = []
    for i in rainbows:
        wished = sorted({c[1] for j, c in enumerate(cards) if j != i and c[1] >= 0})
        options.append([UNUSED, ITSELF, *wished])
    # Identical rainbow cards (the expansion's two) make (a, b) and (b, a) the same choice: try each once.
    if all(cards[i] == cards[rainbows[0]] for i in rainbows):
        combos = combinations_with_replacement(options[0], len(rainbows))
    else:
        combos = product(*options)
    best = None
    for combo in combos:
        vecs = list(base)
        for i, use in zip(rainbows, combo, strict=True):
            if isinstance(use, int):
                vecs[i] += 1 << use
        value, wishes = _evaluate(cards, vecs, sum(use != UNUSED for use in combo))
        if best is None or (value, wishes) > best[:2]:
            best = (value, wishes, combo)
    value, wishes, combo = best
    uses = {i: (STONES[use // _BITS] if isinstance(use, int) else use) for i, use in zip(rainbows, combo, strict=True)}
    return value + gold, wishes, uses


def necklace(cards: Sequence[Mapping]) -> dict:
    """Score one necklace of five cards (four in hand + the common card) and say why."""
    compiled = [compile_card(c) for c in cards]
    florins, wishes, uses = best_choice(compiled)
    vecs = [c[0] + (1 << SHIFT[uses[i]] if uses.get(i) in SHIFT else 0) for i, c in enumerate(compiled)]
    total, used = sum(vecs), sum(use != UNUSED for use in uses.values())
    details = []
    for i, (card, (_vec, shift, count, worth, _rainbow, _gold)) in enumerate(zip(cards, compiled, strict=True)):
        if shift == NO_WISH:
            continue
        have = used if shift == RAINBOW_WISH else ((total - vecs[i]) >> shift) & _MASK
        details.append({"card": i, "stone": card["wish"]["stone"], "count": count, "have": have,
                        "met": have == count, "florins": worth if have == count else 0})
    ingots = sum(c[5] for c in compiled)
    return {
        "florins": florins,
        "wishes": wishes,
        "wish_details": details,
        "rainbow": [{"card": i, "use": use} for i, use in sorted(uses.items())],
        "gold": {"ingots": ingots, "florins": gold_florins(ingots)},
    }


def solo_rank(florins: int) -> dict:
    """The solo rank for a necklace's value, and how many florins the next rank needs."""
    index = max(i for i, (_, low) in enumerate(RANKS) if florins >= low)
    out = {"florins": florins, "rank": RANKS[index][0]}
    if index + 1 < len(RANKS):
        out["next_rank"], low = RANKS[index + 1]
        out["florins_to_next"] = low - florins
    out["percentile"] = solo_percentile(florins)
    return out


def solo_percentile(florins: int) -> dict:
    """Where a solo result stands among the reference games the turn helper's strategy played (generated once by
    `duquesa_sim`): how many of them ended on fewer florins (`below`, what "better than" counts) and on the same
    (`same`: a tie is neither better nor worse), and the share better than, in whole percent rounded down so the
    claim is never more than true."""
    below = sum(n for value, n in SOLO_FLORINS.items() if value < florins)
    return {"games": SOLO_GAMES, "below": below, "same": SOLO_FLORINS.get(florins, 0),
            "better_than": 100 * below // SOLO_GAMES}


# --- Requests ------------------------------------------------------------------------------------------

SETS = ("base", "rainbow", "gold")


def score(request: Mapping, card_set) -> dict:
    """A score request (see interfaces.md): one or two necklaces, or `{"florins": n}` for a solo rank."""
    if isinstance(request, Mapping) and "florins" in request:
        return solo_rank(checked(Record({"florins": Int(0, 500)}, required=("florins",)), request)["florins"])
    card = CardRef(card_set.catalogue(), Record(CARD_FIELDS, required=("stones",)), check_card)
    player = Record({"name": NAME, "hand": ListOf(card, HAND_SIZE, HAND_SIZE)}, required=("name", "hand"))
    req = checked(Record({"common": card, "players": ListOf(player, 1, 2)}, required=("common", "players")), request)
    check_unique_names(req["players"])
    placed = [(("common",), req["common"])] + [
        (("players", i, "hand", j), c) for i, p in enumerate(req["players"]) for j, c in enumerate(p["hand"])]
    check_copies(placed, card_set.copies())
    problems = Problems()
    for i, p in enumerate(req["players"]):
        necklace_cards = [*p["hand"], req["common"]]
        if sum(RAINBOW in c["stones"] for c in necklace_cards) > MAX_RAINBOW_CARDS:
            problems.add(("players", i, "hand"), "a necklace holds at most %(most)s rainbow cards",
                         most=MAX_RAINBOW_CARDS)
        if sum(GOLD in c["stones"] for c in necklace_cards) > MAX_GOLD_CARDS:
            problems.add(("players", i, "hand"), "a necklace holds at most %(most)s gold cards", most=MAX_GOLD_CARDS)
    if not problems:  # and in the whole game, cards typed out count too: the expansions hold 2 and 4
        for kind, most in ((RAINBOW, MAX_RAINBOW_CARDS), (GOLD, MAX_GOLD_CARDS)):
            seen = 0
            for path, c in placed:
                seen += kind in c["stones"]
                if kind in c["stones"] and seen > most:
                    problems.add(path, "the game has %(most)s %(kind)s cards; this is one more", most=most,
                                 kind=Term(kind))
    if problems:
        raise InputError(problems)
    players = []
    for p in req["players"]:
        result = {"name": p["name"], **necklace([*p["hand"], req["common"]])}
        result["cards"] = [c.get("id") for c in (*p["hand"], req["common"])]
        players.append(result)
    out = {"players": players, "winners": top(players, lambda p: (p["florins"], p["wishes"]))}
    if len(players) == 1:
        rank = solo_rank(players[0]["florins"])
        players[0].update({k: v for k, v in rank.items() if k != "florins"})
        # [A] the rulebook's solo mode uses the base deck only; with expansion cards the rank is unofficial.
        players[0]["official_rank"] = all(RAINBOW not in c["stones"] and GOLD not in c["stones"]
                                          for c in (*req["players"][0]["hand"], req["common"]))
    return out


def sheet_points(result: Mapping) -> list[tuple[str, int]]:
    """What one scored hand adds to a saved sheet, seat by seat: the florins (a solo game: its florins)."""
    if "players" not in result:
        return [("solo", result["florins"])]
    return [(p["name"], p["florins"]) for p in result["players"]]


def setup(card_set, rng: Random, players: int, options: Mapping) -> dict:
    """A shuffled deal: out-of-play cards, the common card, hands and the draw pile by card id."""
    sets = ("base", *options.get("expansions", ()))
    deck = shuffled([c.id for c in card_set.deck(sets=sets)], rng)
    out = {"players": players, "expansions": list(sets[1:]), "out_of_play": deck[:3], "common": deck[3]}
    if players == 1:
        rest = deck[8:]
        out.update(hand=deck[4:8], turns=[rest[i:i + 2] for i in range(0, 10, 2)], spare=rest[10:])
    else:
        out.update(hands=[deck[4:8], deck[8:12]], draw_pile=deck[12:], first_player=randbelow(rng, 2))
    return out


# --- Solo play: a hint for each turn, and a simulator for tuning the deck -------------------------------


def _best_keep(hand: Sequence[Compiled], common: Compiled, extra: Compiled) -> tuple[int, int]:
    """Best necklace value after adding `extra` to the hand and discarding one: (value, index discarded)."""
    five = [*hand, extra]
    best = (-1, 0)
    for drop in range(5):
        kept = [c for i, c in enumerate(five) if i != drop]
        value = best_choice([*kept, common])[0]
        if value > best[0]:
            best = (value, drop)
    return best


def solo_hint(hand: Sequence[Compiled], common: Compiled, seen: Compiled, unseen_pool: Sequence[Compiled]) -> dict:
    """Keep the card turned up, or the one left face down? Expected florins of each choice, now."""
    seen_value, seen_drop = _best_keep(hand, common, seen)
    unseen_value = sum(_best_keep(hand, common, c)[0] for c in unseen_pool) / len(unseen_pool)
    keep = "seen" if seen_value >= unseen_value else "unseen"
    return {"keep": keep, "expected_seen": seen_value, "expected_unseen": round(unseen_value, 2),
            "discard_if_seen": seen_drop}


def compiled_catalogue(card_set) -> dict[str, Compiled]:
    """Every card of the game by id, compiled once for the solo helpers."""
    return {i: compile_card(card) for i, card in card_set.catalogue().items()}


SOLO_TURNS = 5  # [R] the solo game's turns: two cards each from the ten left after the deal


def solo_turn(request: Mapping, card_set) -> dict:
    """The hint for one solo turn from card ids: the hand, the common card, the card turned up and the cards
    already seen and gone (discarded, or turned up and not kept). The unseen pool is the base deck minus all of
    those. With `drawn` (the hidden card, once taken) also the card to discard then. Each way the turn can go
    (`after_seen`: the card turned up kept; `after_drawn`: the hidden one taken) gives the next turn's hand and
    cards gone, so a page can carry the game on; `turn` counts the turns (1 to SOLO_TURNS)."""
    ids = tuple(c.id for c in card_set.deck(sets=("base",)))
    card_id = Enum(sorted(set(ids)), "base-game card id")
    req = checked(Record({"hand": ListOf(card_id, HAND_SIZE, HAND_SIZE), "common": card_id, "seen": card_id,
                          "gone": ListOf(card_id, 0, len(ids)), "drawn": card_id, "turn": Int(1, SOLO_TURNS)},
                         required=("hand", "common", "seen")), request)
    placed = [(("hand", i), c) for i, c in enumerate(req["hand"])] + [(("common",), req["common"]),
                                                                      (("seen",), req["seen"])]
    placed += [(("gone", i), c) for i, c in enumerate(req.get("gone", ()))]
    placed += [(("drawn",), req["drawn"])] if "drawn" in req else []
    printed = Counter(ids)
    unseen = Counter(printed)
    problems = Problems()
    for path, c in placed:
        unseen[c] -= 1
        if unseen[c] < 0:
            problems.add(path, "%(card)s: the deck has only %(n)s of this card", card=c, n=printed[c])
    if problems:
        raise InputError(problems)
    if "drawn" in req:  # the hidden card was in the pool when the choice was made
        unseen[req["drawn"]] += 1
    if sum(unseen.values()) == 0:
        raise InputError([problem(("gone",), "leaves no card unseen")])
    compiled = compiled_catalogue(card_set)
    hand, common, gone = list(req["hand"]), compiled[req["common"]], list(req.get("gone", ()))
    hint = solo_hint([compiled[c] for c in hand], common, compiled[req["seen"]],
                     [compiled[i] for i, n in unseen.items() for _ in range(n)])

    def after(taken: str, drop: int, also_gone: tuple[str, ...]) -> dict:
        five = [*hand, taken]
        return {"discard": five[drop], "hand": five[:drop] + five[drop + 1:], "gone": [*gone, *also_gone, five[drop]]}

    turn = req.get("turn", 1)
    out = {**hint, "turn": turn, "turns": SOLO_TURNS, "last": turn == SOLO_TURNS, "unseen": sum(unseen.values()),
           "after_seen": after(req["seen"], hint["discard_if_seen"], ())}
    out["discard_if_seen"] = out["after_seen"]["discard"]
    if "drawn" in req:
        _, drop = _best_keep([compiled[c] for c in hand], common, compiled[req["drawn"]])
        out["drawn"] = req["drawn"]
        out["after_drawn"] = after(req["drawn"], drop, (req["seen"],))
    return out


def play_solo(deck_ids: Sequence[str], compiled: Mapping[str, Compiled], rng: Random) -> int:
    """One solo game with the hint strategy; returns the final necklace's florins."""
    deck = shuffled(deck_ids, rng)
    common, hand, rest = deck[3], list(deck[4:8]), deck[8:]
    unseen = Counter(deck_ids)  # what the player has not seen yet: every copy, minus what they have seen
    for card_id in (common, *hand):
        unseen[card_id] -= 1
    for turn in range(SOLO_TURNS):
        seen_id, hidden_id = rest[2 * turn], rest[2 * turn + 1]
        unseen[seen_id] -= 1
        pool = [compiled[i] for i, n in unseen.items() for _ in range(n)]
        in_hand = [compiled[i] for i in hand]
        hint = solo_hint(in_hand, compiled[common], compiled[seen_id], pool)
        if hint["keep"] == "seen":
            taken, drop = seen_id, hint["discard_if_seen"]
        else:
            taken = hidden_id
            unseen[hidden_id] -= 1
            _, drop = _best_keep(in_hand, compiled[common], compiled[hidden_id])
        five = [*hand, taken]
        hand = five[:drop] + five[drop + 1:]
    return best_choice([compiled[i] for i in (*hand, common)])[0]


def simulate(card_set, rng: Random, games: int) -> dict:
    """Play the solo mode `games` times and report how often each rank is reached."""
    deck_ids = [c.id for c in card_set.deck(sets=("base",))]
    compiled = compiled_catalogue(card_set)
    results = [play_solo(deck_ids, compiled, rng) for _ in range(games)]
    ranks = Counter(solo_rank(v)["rank"] for v in results)
    return {
        "games": games,
        "ranks": {name: ranks.get(name, 0) for name, _ in RANKS},
        "share": {name: round(ranks.get(name, 0) / games, 4) for name, _ in RANKS},
        "mean_florins": round(sum(results) / games, 2),
        "florins": dict(sorted(Counter(results).items())),
    }


# --- The printed faces ---------------------------------------------------------------------------------------

GOLD_TABLE = N_("Gold by accumulation, in florins. 1 ingot: 5 · 2: 14 · 3: 27 · 4: 44")


def face(c, s, lang: str) -> Face:
    """A necklace card: its stones, and the wish (or the gold table) below; a reference card: its text."""
    look = s.look
    if c.type != "necklace":
        return Face(c.name_in(lang, c.id), look.accent, text=c.text_in(lang))
    stones = c.data["stones"]
    icons = tuple(look.icon(x) for x in stones)
    captions = tuple(s.label(x, lang) for x in stones)
    wish = c.data.get("wish")
    if wish is None:  # a gold card: the gold table replaces the wish
        return Face(s.label(GOLD, lang), look.accent, icons, captions, text=_(GOLD_TABLE, lang))
    title = s.label(wish["stone"], lang)
    return Face(
        f"{wish['count']} × {title}" if wish["stone"] != RAINBOW else title, look.accent, icons, captions,
        lower_label=_("The Duchess wishes", lang),
        lower_icons=tuple(look.icon(wish["stone"]) for _i in range(wish["count"])),
        lower_value=str(wish["florins"]), lower_unit=_("florins", lang),
        text=_("Rainbow stone: wild or itself", lang) if RAINBOW in stones else None,
    )


def face_values(c, s, lang: str) -> dict:
    """What the card data's layouts print that the rules derive (cards/duquesa.yaml, `layouts:`): a wish's
    `wish_stone`, `wish_count` and `florins` with the words around them (`wish_label`, `florins_word`); a rainbow
    card's `rainbow_note`; a gold card's table (`gold_ingots`: a line of ingots for 1 to 4, `gold_florins`: what
    each count is worth); a reference card's text as a list (`items`, its last item apart in `items_end`)."""
    out: dict = {}
    if c.type == "necklace":
        stones, wish = c.data["stones"], c.data.get("wish")
        if wish is not None:
            out.update(wish_stone=wish["stone"], wish_count=wish["count"], florins=wish["florins"],
                       wish_label=_("The Duchess wishes", lang), florins_word=_("florins", lang))
        if RAINBOW in stones:
            out["rainbow_note"] = _("Rainbow stone: wild or itself", lang)
        if GOLD in stones:
            counts = range(1, MAX_GOLD_CARDS + 1)
            out.update(gold_title=s.label(GOLD, lang), florins_word=_("florins", lang),
                       gold_ingots="\n".join("{icon:gold}" * n for n in counts),
                       gold_florins="\n".join(f"**{gold_florins(n)}**" for n in counts))
    elif c.type == "reference" and c.text is not None:
        items = reference_items(c.text_in(lang), bold_lead=True)  # (its lead word, "Oro:", "Solo:", in bold)
        out["items"], out["items_end"] = "\n".join(items[:-1]), items[-1]
    return out


FACE_FIELDS = ("wish_stone", "wish_count", "florins", "wish_label", "florins_word", "rainbow_note", "gold_title",
               "gold_ingots", "gold_florins", "items", "items_end")

GAME = Game(
    id="duquesa", component_types=COMPONENT_TYPES, vocabulary=VOCABULARY, default_players=2, score=score,
    setup=setup, entry=Entry(Word("hand"), N_("a hand")), sheet_points=sheet_points, face=face, terms=VOCABULARY,
    face_values=face_values, face_fields=FACE_FIELDS,
    options=(Option("expansions", N_("Expansions"), SETS[1:], Word("expansion")),), solo=solo_turn, simulate=simulate,
    web="companion.web.games.duquesa",
)
