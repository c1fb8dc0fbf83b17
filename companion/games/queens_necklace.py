"""Queen's Necklace: gems, characters, tiles, and the component types its card data uses."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from random import Random

from ..components import ComponentType, check_descending
from ..core.i18n import N_, _
from ..core.rng import randbelow, shuffled
from ..core.schema import Enum, InputError, Int, ListOf, MapOf, Path, Problems, Record, Term, Word
from ..look import Face
from .base import NAME, add_duplicate_names, checked, reference_items, top
from .descriptor import FIRST_PLAYER, Entry, Game, Reroll

GEMS = ("diamond", "emerald", "ruby", "amber")  # the rulebook's column order
TRUE_GEMS = ("diamond", "emerald", "ruby")  # what the Alchemist may move
TILE_VALUES = (30, 20, 10, 0)
# Character → card colour: blue influence, purple special timing, grey played at a sale.
CHARACTERS = {
    "confessor": "blue", "courtier": "blue", "forger": "blue", "favorite": "blue", "thief": "blue",
    "alchemist": "purple", "astrologer": "purple", "cardinal": "purple", "musketeer": "purple",
    "queen": "purple", "king": "grey", "banker": "grey",
}
COLOURS = ("blue", "purple", "grey")
VOCABULARY = (*GEMS, *CHARACTERS, *COLOURS)

# [A] The rulebook does not list the price steps printed on each card; ours are in the data.
PRICES = {"prices": ListOf(Int(0, 20), 2, 6)}
TILE_VALUE = {"value": Int(0, 30, allowed=TILE_VALUES)}


def check_prices(card: Mapping, path: Path, problems: Problems) -> None:
    """A card's `prices`, when it has them, must go down step by step."""
    if "prices" in card:
        check_descending(card["prices"], (*path, "prices"), problems)


def check_gem_card(card: Mapping, path: Path, problems: Problems) -> None:
    """A gem card's prices go down step by step, and an amber card carries 1 gem."""
    check_prices(card, path, problems)
    if card.get("gem") == "amber" and card.get("gems") != 1:
        problems.add((*path, "gems"), "amber cards carry 1 gem")


COMPONENT_TYPES = {
    "gem": ComponentType("card", {**PRICES, "gem": Enum(GEMS, "gem"), "gems": Int(1, 3)},
                         required=("gem", "gems", "prices"), validate=check_gem_card),
    "ring": ComponentType("card", PRICES, required=("prices",), texts=("name", "text"), validate=check_prices),
    "necklace": ComponentType("card", PRICES, required=("prices",), texts=("name", "text"),
                              validate=check_prices),
    "character": ComponentType("card", {**PRICES, "character": Enum(CHARACTERS, "character")},
                               required=("character", "prices"), texts=("name", "text"), validate=check_prices),
    "merchant": ComponentType("card", texts=("name", "text")),
    "blank": ComponentType("card", {"colour": Enum(COLOURS, "colour")}, required=("colour",), texts=("name",)),
    "summary": ComponentType("reference", texts=("name", "text")),
    "gem-tile": ComponentType("tile", {"gem": Enum(GEMS, "gem")}, required=("gem",)),
    "fashion-tile": ComponentType("tile", TILE_VALUE, required=("value",)),
    "rarity-tile": ComponentType("tile", TILE_VALUE, required=("value",)),
    "price-marker": ComponentType("token", texts=("name",)),
}


# --- One jewel sale ---------------------------------------------------------------------------------------

TRIBUTE = 50  # [R] each King played against the Necklace pays its owner
BANKER_BONUS = 10  # [R] per Banker, added to each jewel sold; several Bankers add up [A]
MAX_PER_SALE = {"rings": 7, "bankers": 2, "kings": 3}  # copies in the deck

_PLAYER = Record(
    {
        "name": NAME,
        "shown": MapOf(Enum(GEMS, "gem"), ListOf(Int(1, 3), 0, 30)),
        "rings": MapOf(Enum(GEMS, "gem"), Int(0, 7)),
        "king": Enum(GEMS, "gem"),
        "necklace": Enum(GEMS, "gem"),
        "bankers": Int(0, 2),
        "alchemist": Record({"from": Enum(TRUE_GEMS, "gem"), "gems": Int(1, 3), "to": Enum(TRUE_GEMS, "gem")},
                            required=("from", "gems", "to")),
    },
    required=("name", "shown"),
)
SALE = Record({"fashion": ListOf(Enum(GEMS, "gem"), 4, 4), "players": ListOf(_PLAYER, 1, 4)},
              required=("fashion", "players"))


def _check_sale(sale: Mapping, path: Path) -> None:
    """What a sale may not contain [R]: Rings, Kings and the Necklace without gems of their type, two
    Necklaces, more Rings, Kings or Bankers than the deck has, an Alchemist that moves nothing or to amber."""
    problems = Problems()
    if len(set(sale["fashion"])) != 4:
        problems.add((*path, "fashion"), "must name each of the four gems once")
    players = sale["players"]
    if len(players) < 2:  # a sale is between the players of a game: 2 to 4 [R]
        problems.add((*path, "players"), "a sale has 2 to 4 players, got %(got)s", got=len(players))
    add_duplicate_names(players, (*path, "players"), problems)
    for i, p in enumerate(players):
        _check_player(p, (*path, "players", i), problems)
    _check_counts(players, path, problems)
    if problems:
        raise InputError(problems)


def _check_player(p: Mapping, at: Path, problems: Problems) -> None:
    """One player's cards of a sale: amber with 1 gem, characters played with gems of their type, an Alchemist's
    move from a card they show to another gem."""
    shown = p["shown"]
    if any(n != 1 for n in shown.get("amber", ())):
        problems.add((*at, "shown", "amber"), "amber cards carry 1 gem each")
    for gem, n in p.get("rings", {}).items():
        if n and not shown.get(gem):
            problems.add((*at, "rings", gem), "a Ring must be played with at least one %(gem)s card", gem=Term(gem))
    if p.get("king") and not shown.get(p["king"]):
        problems.add((*at, "king"), "the King must be played with at least one %(gem)s card", gem=Term(p["king"]))
    if p.get("necklace") and not shown.get(p["necklace"]):
        problems.add((*at, "necklace"), "the Necklace must be played with at least one %(gem)s card",
                     gem=Term(p["necklace"]))
    if p.get("bankers") and not any(shown.values()):
        problems.add((*at, "bankers"), "a Banker needs at least one gem card shown")  # [A]
    move = p.get("alchemist")
    if move:
        if move["to"] == move["from"]:
            problems.add((*at, "alchemist", "to"), "must be another gem than 'from'")
        if move["gems"] not in shown.get(move["from"], ()):
            problems.add((*at, "alchemist"), "moves a %(n)s-gem %(gem)s card this player does not show",
                         n=move["gems"], gem=Term(move["from"]))


def _check_counts(players: list[Mapping], path: Path, problems: Problems) -> None:
    """No more Rings, Bankers or Kings in one sale than the deck has, one Necklace, one Alchemist: each said at the
    last player who played one."""
    def last(card: str) -> Path:
        held = [i for i, p in enumerate(players) if p.get(card)]
        return (*path, "players", held[-1], card) if held else (*path, "players")

    totals = {"rings": sum(sum(p.get("rings", {}).values()) for p in players),
              "bankers": sum(p.get("bankers", 0) for p in players),
              "kings": sum("king" in p for p in players)}
    if totals["rings"] > MAX_PER_SALE["rings"]:
        problems.add(last("rings"), "%(n)s rings in one sale; the deck has %(most)s", n=totals["rings"],
                     most=MAX_PER_SALE["rings"])
    if totals["bankers"] > MAX_PER_SALE["bankers"]:
        problems.add(last("bankers"), "%(n)s bankers in one sale; the deck has %(most)s", n=totals["bankers"],
                     most=MAX_PER_SALE["bankers"])
    if totals["kings"] > MAX_PER_SALE["kings"]:
        problems.add(last("king"), "%(n)s kings in one sale; the deck has %(most)s", n=totals["kings"],
                     most=MAX_PER_SALE["kings"])
    if sum("necklace" in p for p in players) > 1:
        problems.add(last("necklace"), "only one player can hold the Necklace")
    if sum("alchemist" in p for p in players) > 1:
        problems.add(last("alchemist"), "the deck has one Alchemist")


def _check_deck(sales: list[Mapping], paths: list[Path], card_set) -> None:
    """Shown cards are discarded and never reshuffled [R]: over one sale, and over a whole game of sales, no gem
    card, Ring, King, Banker or Alchemist is played more often than the deck prints it."""
    printed: Counter = Counter()
    for c in card_set.components:
        if c.type == "gem":
            printed[(c.data["gem"], c.data["gems"])] += c.qty
        elif c.type == "ring" or c.data.get("character") in ("king", "banker", "alchemist"):
            printed[c.data.get("character", "ring")] += c.qty
    used: Counter = Counter()
    problems = Problems()

    def over(key, n: int) -> bool:
        """Whether `n` more of `key` are more than the deck prints (counted over the whole game)."""
        used[key] += n
        return bool(n) and used[key] > printed[key]

    for path, sale_ in zip(paths, sales, strict=True):
        for i, p in enumerate(sale_["players"]):
            at = (*path, "players", i)
            for gem, gem_cards in p["shown"].items():
                for j, n in enumerate(gem_cards):
                    if over((gem, n), 1):
                        problems.add((*at, "shown", gem, j), "a %(n)s-gem %(gem)s card: the deck has %(printed)s, and "
                                     "this is one more than that in the game", n=n, gem=Term(gem),
                                     printed=printed[(gem, n)])
            if over("ring", sum(p.get("rings", {}).values())):
                problems.add((*at, "rings"), "Rings: the deck has %(printed)s, and this is one more than that in the "
                             "game", printed=printed["ring"])
            if over("banker", p.get("bankers", 0)):
                problems.add((*at, "bankers"), "Bankers: the deck has %(printed)s, and this is one more than that in "
                             "the game", printed=printed["banker"])
            if over("king", int("king" in p)):
                problems.add((*at, "king"), "Kings: the deck has %(printed)s, and this is one more than that in the "
                             "game", printed=printed["king"])
            if over("alchemist", int("alchemist" in p)):
                problems.add((*at, "alchemist"), "the Alchemist: the deck has %(printed)s, and this is one more than "
                             "that in the game", printed=printed["alchemist"])
    if problems:
        raise InputError(problems)


def sale(request: Mapping) -> dict:
    """Score one jewel sale given as a request; see the spec for each step."""
    return _score_sale(checked(SALE, request), ())


def _score_sale(req: Mapping, path: Path) -> dict:
    """Score one sale whose fields are already checked; problems are named below `path`."""
    _check_sale(req, path)
    fashion_value = dict(zip(req["fashion"], TILE_VALUES, strict=True))
    shown = {p["name"]: {gem: list(req_cards) for gem, req_cards in p["shown"].items()} for p in req["players"]}
    for p in req["players"]:  # the Alchemist moves one card before rarity is counted [R]
        move = p.get("alchemist")
        if move:
            cards_of = shown[p["name"]]
            cards_of[move["from"]].remove(move["gems"])
            cards_of.setdefault(move["to"], []).append(move["gems"])
    gems = {name: {gem: sum(cards_of.get(gem, ())) for gem in GEMS} for name, cards_of in shown.items()}
    totals = {gem: sum(g[gem] for g in gems.values()) for gem in GEMS}
    # Rarest first: fewest gems shown; on a tie the more fashionable type counts as rarer [R].
    order = sorted(GEMS, key=lambda gem: (totals[gem], req["fashion"].index(gem)))
    rarity = dict(zip(order, TILE_VALUES, strict=True))
    prices = {gem: fashion_value[gem] + rarity[gem] for gem in GEMS}
    necklace_on = {p.get("necklace"): p["name"] for p in req["players"] if p.get("necklace")}
    earned = {p["name"]: 0 for p in req["players"]}
    lines = {p["name"]: [] for p in req["players"]}
    tributes = []
    for gem in GEMS:
        most = max(g[gem] for g in gems.values())
        if most == 0:
            continue
        sellers = [name for name, g in gems.items() if g[gem] == most]
        kings = [p["name"] for p in req["players"] if p.get("king") == gem]
        owner = necklace_on.get(gem)
        if kings and owner:
            for king in kings:
                if king != owner:  # [A] no tribute from the owner to itself
                    earned[king] -= TRIBUTE
                    earned[owner] += TRIBUTE
                    tributes.append({"gem": gem, "from": king, "to": owner, "pounds": TRIBUTE})
        cancelled = bool(kings) and not owner
        for p in req["players"]:
            if p["name"] not in sellers:
                continue
            jewels = 1 + p.get("rings", {}).get(gem, 0)
            each = prices[gem] + BANKER_BONUS * p.get("bankers", 0)
            amount = 0 if cancelled else jewels * each
            earned[p["name"]] += amount
            lines[p["name"]].append({"gem": gem, "gems": most, "jewels": jewels, "price": each,
                                     "earned": amount, "cancelled_by_king": cancelled})
    return {
        "fashion": {gem: fashion_value[gem] for gem in req["fashion"]},
        "totals": totals,
        "rarity": rarity,
        "prices": prices,
        "tributes": tributes,
        "players": [{"name": name, "earned": earned[name], "gems": gems[name], "sales": lines[name]}
                    for name in earned],
    }


GAME_OF_SALES = Record({"sales": ListOf(SALE, 1, 3)}, required=("sales",))


def score(request: Mapping, card_set=None) -> dict:
    """One sale, or `{"sales": [...]}`: up to three sales with running totals and the winners."""
    if not (isinstance(request, Mapping) and "sales" in request):
        result = sale(request)
        if card_set is not None:
            _check_deck([checked(SALE, request)], [()], card_set)
        return result
    req = checked(GAME_OF_SALES, request)
    results = [_score_sale(s, ("sales", i)) for i, s in enumerate(req["sales"])]
    if card_set is not None:
        _check_deck(list(req["sales"]), [("sales", i) for i in range(len(req["sales"]))], card_set)
    totals: dict[str, int] = {}
    for result in results:
        for p in result["players"]:
            totals[p["name"]] = totals.get(p["name"], 0) + p["earned"]
    board = [{"name": n, "total": t} for n, t in totals.items()]
    return {"sales": results, "totals": totals, "finished": len(results) == 3,
            "winners": top(board, lambda p: p["total"])}


def sheet_points(result: Mapping) -> list[tuple[str, int]]:
    """What a scored sale (or a tally of sales) adds to a saved sheet, seat by seat: the pounds earned."""
    if "sales" in result:
        return list(result["totals"].items())
    return [(p["name"], p["earned"]) for p in result["players"]]


# --- Setup --------------------------------------------------------------------------------------------------


def setup(card_set, rng: Random, players: int, options: Mapping) -> dict:
    """Gem tiles under the fashion tiles, hands of four (an Astrologer is replaced), Merchants placed in the
    deck at about 1/3, 2/3 and among the last five, five market cards, and the first player."""
    deck = shuffled([c.id for c in card_set.deck() if c.type in ("gem", "ring", "necklace", "character")], rng)
    merchants = [c.id for c in card_set.deck() if c.type == "merchant"]
    astrologers = {c.id for c in card_set.components if c.data.get("character") == "astrologer"}
    hands = [[] for _ in range(players)]
    for hand in hands:
        while len(hand) < 4:
            card = deck.pop(0)
            if card in astrologers:  # [R] replaced, and shuffled back into the deck
                deck.insert(randbelow(rng, len(deck) + 1), card)
            else:
                hand.append(card)
    market, deck = deck[:5], deck[5:]
    n = len(deck)
    # [A] "about" 1/3 and 2/3: within two cards of those points; the last one among the final five.
    spots = [n // 3 + randbelow(rng, 5) - 2, 2 * n // 3 + randbelow(rng, 5) - 2, n - randbelow(rng, 5)]
    for offset, (spot, merchant) in enumerate(zip(spots, merchants, strict=False)):
        deck.insert(spot + offset, merchant)
    return {
        "players": players,
        "fashion": shuffled(list(GEMS), rng),  # left to right under +30, +20, +10, 0
        "hands": hands,
        "market": market,
        "deck": deck,
        "merchant_positions": [i for i, c in enumerate(deck) if c in merchants],
        "first_player": randbelow(rng, players),
    }


def face(c, s, lang: str) -> Face:
    """Gem cards and tiles: their gems; fashion and rarity tiles: their value; characters and the rest: a band in
    their colour (tagged with the colour's initial), their text and their price track."""
    look = s.look
    track = tuple(str(p) for p in c.data.get("prices", ())) + (("×",) if c.data.get("prices") else ())
    if c.type in ("gem", "gem-tile"):
        gem, n = c.data["gem"], c.data.get("gems", 1)
        if c.type == "gem-tile":
            return Face(s.label(gem, lang), look.accent, (look.icon(gem),))
        # The count in the title and in the top corner, what shows of a card overlapped in a sale's column.
        return Face(f"{n} × {s.label(gem, lang)}", look.accent, tuple(look.icon(gem) for _i in range(n)), track=track,
                    corner=str(n), corner_icon=look.icon(gem))
    if c.type in ("fashion-tile", "rarity-tile"):  # told apart by their band's colour and shape, not only a word
        kind = "fashion" if c.type == "fashion-tile" else "rarity"
        label = _("Fashion", lang) if kind == "fashion" else _("Rarity", lang)
        return Face(label, look.colour(kind, look.accent), (look.icon(kind),),
                    big=f"+{c.data['value']}" if c.data["value"] else "0", big_colour=look.colour(kind))
    if c.type == "price-marker":  # a small piece in its colour, as big as one step of a price track
        return Face(c.name_in(lang, c.id), look.accent, background=look.colour("price-marker"))
    colour = CHARACTERS.get(c.data.get("character"), c.data.get("colour"))
    band = look.colour(colour, look.accent) if colour else look.accent
    tag = s.label(colour, lang)[0] if colour else None
    text = c.text_in(lang) if c.type != "blank" else _("Write your own card here", lang)
    return Face(c.name_in(lang, c.id), band, tag=tag, text=text, track=track,
                icons=(look.icon(c.type),) if c.type == "price-marker" else ())


TRACK_END = "×"  # the step after a card's last price: reached, the card is discarded
BLANK_STEPS = 4  # a blank card's track: empty steps for the price the players agree on


def face_values(c, s, lang: str) -> dict:
    """What the card data's layouts print that the rules derive (cards/queens-necklace.yaml, `layouts:`): a card's
    price track (`steps`: its prices, then ×; a blank card's are empty), a gem card's gems one by one (`gem_list`)
    and its gem's `tint`; a character's or blank card's `colour` (its band), `tag` (the colour's initial, so colour
    is never alone) and `colour_word`; a tile's `value_text` (+30, 0) and its kind (`tile_word`); a summary card's
    text as a list (`items`)."""
    out: dict = {}
    if "prices" in c.data:
        out["steps"] = [*map(str, c.data["prices"]), TRACK_END]
    if c.type in ("gem", "gem-tile"):
        out["tint"] = c.data["gem"]
        out["gem_list"] = [c.data["gem"]] * c.data.get("gems", 1)
    colour = CHARACTERS.get(c.data.get("character"), c.data.get("colour"))
    if colour is not None:
        out.update(colour=colour, tag=s.label(colour, lang)[0], colour_word=s.label(colour, lang))
    if c.type == "blank":
        out.update(steps=[""] * BLANK_STEPS + [TRACK_END], blank_text=_("Write your own card here", lang))
    if c.type in ("fashion-tile", "rarity-tile"):
        out["value_text"] = f"+{c.data['value']}" if c.data["value"] else "0"
        out["tile_word"] = _("Fashion", lang) if c.type == "fashion-tile" else _("Rarity", lang)
    if c.type == "summary" and c.text is not None:
        out["items"] = "\n".join(reference_items(c.text_in(lang), bold_lead=True))  # ("Turno:", "Venta:" in bold)
    return out


FACE_FIELDS = ("steps", "tint", "gem_list", "colour", "tag", "colour_word", "blank_text", "value_text", "tile_word",
               "items")

GAME = Game(
    id="queens-necklace", component_types=COMPONENT_TYPES, vocabulary=VOCABULARY, default_players=3, score=score,
    setup=setup, entry=Entry(Word("sale"), N_("a sale")), sheet_points=sheet_points, face=face,
    face_values=face_values, face_fields=FACE_FIELDS,
    terms=(*GEMS, *COLOURS, "price-marker", "fashion", "rarity"),
    # the fashion tiles are a shuffle of their own: dealt again, no card moves
    rerolls={"first_player": FIRST_PLAYER,
             "fashion": Reroll(lambda _deal, rng: {"fashion": shuffled(list(GEMS), rng)}, ("fashion",), N_("Fashion"))},
    web="companion.web.games.queens_necklace",
)
