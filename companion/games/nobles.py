"""Nobles en duelo: a French deck read as nobles and number cards, and the component types it prints."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from random import Random

from ..components import ComponentType
from ..core.i18n import N_, _
from ..core.rng import make_rng, randbelow, roll, shuffled
from ..core.schema import Bool, Either, Enum, InputError, Int, ListOf, Name, Problems, Record, Str, Term, Word
from ..look import Face
from .base import checked, reference_items
from .descriptor import Entry, Game, Option

SUITS = ("hearts", "diamonds", "clubs", "spades")
NOBLE_RANKS = {11: "jack", 12: "queen", 13: "king"}
VOCABULARY = (*SUITS, *NOBLE_RANKS.values(), "joker")

SUIT = {"suit": Enum(SUITS, "suit")}

COMPONENT_TYPES = {
    "number": ComponentType("card", {**SUIT, "rank": Int(1, 10)}, required=("suit", "rank")),
    "noble": ComponentType("card", {**SUIT, "rank": Int(11, 13)}, required=("suit", "rank")),
    "joker": ComponentType("card", texts=("name",)),
    "reference": ComponentType("reference", texts=("name", "text")),
    "resource": ComponentType("token", texts=("name",)),
    "wound": ComponentType("token", texts=("name",)),
}


# --- One duel ---------------------------------------------------------------------------------------------

NOBLES = ("jack", "queen", "king", "joker")
BASE = {"jack": 11, "queen": 12, "king": 13, "joker": 0}  # [R] strength
WOUNDS = {"jack": 2, "queen": 2, "king": 3, "joker": 1}  # [R] wounds that kill
DICE = {("king", 1): 2}  # [R] v1 kings roll two dice; everyone else one (v2 king: one [A])
CARDS_PLAYED = {("jack", 1): 2}  # [R] a v1 jack may play two number cards; everyone else one
WEAPONS = {("jack", 2): (0, 2, 3, 4, 5)}  # [R] v2 jacks also take 4s and 5s; everyone else 2 or 3
SUIT_BONUS = {("jack", 2): 4}  # [R] instead of +2
ACE = 1
COURT_MOST = 28  # every noble of a double deck with its four Jokers
REDIRECT = 2  # [R] resources the defender pays to change the target (a Joker takes an attack for free)

# [A] a number card's suit only gives the suit bonus: a card given without one gets none (an ace, an off-suit card)
_CARD = Record({"rank": Int(1, 10), "suit": Enum(SUITS, "suit")}, required=("rank",))
_NOBLE = Record(
    {"noble": Enum(NOBLES, "noble"), "version": Int(1, 2), "suit": Enum(SUITS, "suit"), "weapon": Int(0, 5),
     "dice": ListOf(Int(1, 6), 1, 2), "cards": ListOf(_CARD, 0, 2), "court": Int(1, COURT_MOST), "hand": Int(0, 60),
     "resources": Int(0, 200), "wounds": Int(0, 2)},
    required=("noble",),
)
_VARIANTS = Record({"suit_only": Bool(), "poker": Enum(("attacker", "defender", "none"), "side")})
_DUEL = Record({"attacker": _NOBLE, "defender": _NOBLE, "variants": _VARIANTS, "seed": Str(max_len=64)},
               required=("attacker", "defender"))


def _key(noble: Mapping) -> tuple[str, int]:
    return noble["noble"], noble.get("version", 1)


def _check_side(noble: Mapping, side: str, variants: Mapping, problems: Problems, at=None) -> None:
    """A duel side's problems; `at` says where a part of the noble was given (its court row in a game tracked at
    court), by default in the side's own record."""
    at = at or (lambda part: (side, part))
    key = _key(noble)
    if noble["noble"] == "joker":  # [A] a Joker has no suit, no version and no weapon
        for part, word in (("suit", Word("suit")), ("version", Word("version")), ("weapon", Word("weapon"))):
            if noble.get(part):
                problems.add(at(part), "a Joker has no %(part)s", part=word)
    elif "suit" not in noble:
        problems.add(at("suit"), "is missing")
    if noble.get("weapon", 0) not in WEAPONS.get(key, (0, 2, 3)):
        problems.add(at("weapon"), "must be %(weapons)s", weapons=Either(WEAPONS.get(key, (0, 2, 3))))
    dice = DICE.get(key, 1)
    who = {"noble": Term(noble["noble"]), "version": key[1]}
    if "dice" in noble and len(noble["dice"]) != dice:
        if dice == 1:
            problems.add((side, "dice"), "a %(noble)s v%(version)s rolls %(n)s die", n=dice, **who)
        else:
            problems.add((side, "dice"), "a %(noble)s v%(version)s rolls %(n)s dice", n=dice, **who)
    played = noble.get("cards", ())
    if len(played) > CARDS_PLAYED.get(key, 1):
        problems.add((side, "cards"), "a %(noble)s v%(version)s plays at most %(n)s card", n=CARDS_PLAYED.get(key, 1),
                     **who)
    if noble.get("wounds", 0) >= WOUNDS[noble["noble"]]:
        problems.add(at("wounds"), "a %(noble)s dies at %(n)s wounds", noble=who["noble"],
                     n=WOUNDS[noble["noble"]])
    if variants.get("suit_only"):
        for i, card in enumerate(played):  # (a card without its suit is taken as one of those that may be played)
            if card.get("suit", noble.get("suit")) != noble.get("suit"):
                problems.add((side, "cards", i, "suit"),
                             "with the suit-only variant, cards must match the noble's suit")


def strength(noble: Mapping, dice: Sequence[int], defending: bool, variants: Mapping) -> dict:
    """The parts of a noble's duel strength [R]: base + weapon + dice + number cards (+ suit bonus) + modifiers."""
    key = _key(noble)
    played = noble.get("cards", ())
    bonus = 0 if variants.get("suit_only") else SUIT_BONUS.get(key, 2)
    parts = {
        "base": BASE[noble["noble"]],
        "weapon": noble.get("weapon", 0),
        "dice": sum(dice),
        "cards": sum(c["rank"] for c in played),
        "suit_bonus": sum(bonus for c in played if "suit" in c and c["suit"] == noble.get("suit")),
        "court": 3 * (noble.get("court", 1) - 1) if key == ("queen", 1) else 0,
        "hand": noble.get("hand", 0) if key == ("queen", 2) else 0,
        "defending": 1 if key == ("queen", 2) and defending else 0,
        "resources": 2 * noble.get("resources", 0) if key == ("king", 2) else 0,
    }
    return {"parts": parts, "total": sum(parts.values())}


def score(request: Mapping, card_set=None) -> dict:
    """One duel: each side's strength and its parts, the winner, wounds and resources gained. A request with
    `courts` is a duel of a game tracked at court (`court_duel`): the same answer, and both courts after it."""
    if isinstance(request, Mapping) and "courts" in request:
        return court_duel(request)
    req = checked(_DUEL, request)
    variants = req.get("variants", {})
    problems = Problems()
    for side in ("attacker", "defender"):
        _check_side(req[side], side, variants, problems)
    if problems:
        raise InputError(problems)
    return _duel(req)


def _duel(req: Mapping) -> dict:
    """A checked duel's answer."""
    variants = req.get("variants", {})
    rng, seed = make_rng(req.get("seed"))
    sides = {}
    for side in ("attacker", "defender"):
        noble = req[side]
        dice = list(noble["dice"]) if "dice" in noble else roll(rng, DICE.get(_key(noble), 1))
        sides[side] = {"noble": noble["noble"], "version": noble.get("version", 1), "dice": dice,
                       "rolled": "dice" not in noble, **strength(noble, dice, side == "defender", variants)}
    out = {"attacker": sides["attacker"], "defender": sides["defender"]}
    if any(s["rolled"] for s in sides.values()):
        out["seed"] = seed
    aces = {side: any(c["rank"] == ACE for c in req[side].get("cards", ())) for side in sides}
    if req["defender"]["noble"] == "joker" and sides["defender"]["dice"][0] <= 3:
        # [R] a defending Joker whose die shows 1-3 cancels the attack: no wounds, no resources
        return {**out, "winner": "none", "cancelled": True, "decided_by": "joker", "wounds": {}, "resources": {}}
    poker = variants.get("poker", "none")
    if poker != "none" and not any(aces.values()):
        sides[poker]["parts"]["poker"] = 2  # [R] best poker hand +2, not when an ace was played
        sides[poker]["total"] += 2
    if aces["attacker"] and aces["defender"]:  # [R] two aces: a tie, both wounded
        winner, decided_by = "tie", "aces"
    elif aces["attacker"] or aces["defender"]:  # [R] an ace wins outright
        winner, decided_by = ("attacker" if aces["attacker"] else "defender"), "ace"
    else:
        a, d = sides["attacker"]["total"], sides["defender"]["total"]
        winner, decided_by = ("tie" if a == d else "attacker" if a > d else "defender"), "strength"
    losers = ("attacker", "defender") if winner == "tie" else (("defender",) if winner == "attacker" else ("attacker",))
    wounds = {}
    for side in losers:
        now = req[side].get("wounds", 0) + 1
        wounds[side] = {"wounds": now, "dies": now >= WOUNDS[req[side]["noble"]]}
    return {**out, "winner": winner, "cancelled": False, "decided_by": decided_by, "wounds": wounds,
            "resources": {} if winner == "tie" else {winner: 1}}


# --- A game at court: both courts tracked from duel to duel -------------------------------------------------

FALLEN = re.compile(r"(jack|queen|king):(hearts|diamonds|clubs|spades)|joker")
_COURT_NOBLE = Record({"noble": Enum(NOBLES, "noble"), "suit": Enum(SUITS, "suit"), "weapon": Int(0, 5),
                       "wounds": Int(0, 2)}, required=("noble",))
_COURT = Record({"name": Name(), "nobles": ListOf(_COURT_NOBLE, 0, COURT_MOST), "resources": Int(0, 200),
                 "fallen": ListOf(Str(FALLEN.pattern, max_len=20, hint="fallen noble"), 0, COURT_MOST)},
                required=("nobles",))
_PLAY = Record({"at": Int(0, COURT_MOST - 1), "dice": ListOf(Int(1, 6), 1, 2), "cards": ListOf(_CARD, 0, 2),
                "hand": Int(0, 60), "resources": Int(0, 200), "name": Name()}, required=("at",))
_VERSIONS = Record({kind: Int(1, 2) for kind in ("jack", "queen", "king")})
_COURT_DUEL = Record({"courts": ListOf(_COURT, 2, 2), "versions": _VERSIONS, "turn": Int(0, 1), "attacker": _PLAY,
                      "defender": _PLAY, "redirected": Bool(), "variants": _VARIANTS, "seed": Str(max_len=64)},
                     required=("courts", "attacker", "defender"))


def seats(turn: int) -> dict[str, int]:
    """Who attacks and who defends: the player whose turn it is attacks [R]."""
    return {"attacker": turn, "defender": 1 - turn}


def fallen_word(noble: Mapping) -> str:
    """A dead noble as its court's `fallen` list keeps it: "queen:hearts", "joker"."""
    return "joker" if noble["noble"] == "joker" else f"{noble['noble']}:{noble.get('suit', '')}"


def noble_word(card) -> str:
    """A card's noble as a court's chips and `fallen` list name it ("king:clubs", "joker"), from its data; "" for a
    card that is no noble."""
    if card.type == "joker":
        return fallen_word({"noble": "joker"})
    rank = card.data.get("rank")
    return fallen_word({"noble": NOBLE_RANKS[rank], "suit": card.data["suit"]}) if rank in NOBLE_RANKS else ""


def court_duel(request: Mapping) -> dict:
    """One duel of a game whose two courts are tracked: each court (every noble: kind, suit, weapon, wounds; its
    resources if they are followed: a page may leave them to the table's counters and give a v2 King's with the
    duel, `attacker.resources`), the game's versions (one a noble kind [R]), whose turn it is (`turn`: that player
    attacks), which noble attacks (`attacker.at`, a position in the attacking court) and which is the target
    (`defender.at`), the dice and number cards, and whether the defender paid to change the target (`redirected`).
    The answer is the duel's, with `courts` after it (`after_duel`), who fell, whether the game is over and who
    won it."""
    req = checked(_COURT_DUEL, request)
    courts, versions, turn = req["courts"], req.get("versions", {}), req.get("turn", 0)
    problems = Problems()
    for seat, court in enumerate(courts):
        if not court["nobles"]:
            problems.add(("courts", seat, "nobles"), "has no noble left: the game is over")
    if problems:
        raise InputError(problems)
    sides, rows = {}, {}
    for side, seat in seats(turn).items():
        play, court = req[side], courts[seat]
        if play["at"] >= len(court["nobles"]):
            problems.add((side, "at"), "there is no noble %(n)s in this court", n=play["at"] + 1)
            continue
        noble = court["nobles"][play["at"]]
        version = {} if noble["noble"] == "joker" else {"version": versions.get(noble["noble"], 1)}
        sides[side] = {**noble, **version, "court": len(court["nobles"]), "resources": court.get("resources", 0),
                       **{k: play[k] for k in ("dice", "cards", "hand", "resources") if k in play}}
        rows[side] = ("courts", seat, "nobles", play["at"])
    if problems:
        raise InputError(problems)
    paid = 0
    if req.get("redirected") and sides["defender"]["noble"] != "joker":  # [R] a Joker diverts an attack for free
        paid = REDIRECT
        known = "resources" in req["defender"] or "resources" in courts[1 - turn]  # (else the table's counters say)
        if known and sides["defender"]["resources"] < paid:
            problems.add(("redirected",), "changing the target costs %(n)s resources; %(name)s has %(has)s", n=paid,
                         name=courts[1 - turn].get("name") or Word("the defender"), has=sides["defender"]["resources"])
        sides["defender"]["resources"] = max(0, sides["defender"]["resources"] - paid)
    variants = req.get("variants", {})
    for side in sides:
        _check_side(sides[side], side, variants, problems,
                    lambda part, side=side: (("versions", sides[side]["noble"]) if part == "version"
                                             else (*rows[side], part)))
    if problems:
        raise InputError(problems)
    duel = _duel({**sides, "variants": variants, **({"seed": req["seed"]} if "seed" in req else {})})
    after = after_duel(courts, turn, req["attacker"]["at"], req["defender"]["at"], duel, paid)
    return {**duel, **after, "seats": seats(turn), "paid": paid}


def after_duel(courts: Sequence[Mapping], turn: int, attack: int, target: int, duel: Mapping, paid: int = 0) -> dict:
    """Two courts after a duel (pure): where a court's resources are followed, the defender's less what changing
    the target cost (`paid`) and the winner's resource added [R]; each wounded noble's wounds; a noble at its wound
    limit dies and leaves its court (its weapon with it), kept by name in the court's `fallen` [R]. The game is over
    when a court is empty: the other player `champion`; both at once (a tie that kills both last nobles) is a draw
    [A]. `turn` is then the next duel's attacker: the players take turns [R]."""
    out = [{**court, "nobles": [dict(n) for n in court["nobles"]], "fallen": list(court.get("fallen", ()))}
           for court in courts]
    where = seats(turn)
    at = {"attacker": attack, "defender": target}
    if "resources" in out[where["defender"]]:
        out[where["defender"]]["resources"] = max(0, out[where["defender"]]["resources"] - paid)
    for side, gained in duel.get("resources", {}).items():
        if "resources" in out[where[side]]:
            out[where[side]]["resources"] += gained
    fallen = []
    for side, wounded in duel.get("wounds", {}).items():
        court = out[where[side]]
        noble = court["nobles"][at[side]]
        noble["wounds"] = wounded["wounds"]
        if wounded["wounds"] >= WOUNDS[noble["noble"]]:
            court["nobles"].pop(at[side])
            court["fallen"].append(fallen_word(noble))
            fallen.append({"seat": where[side], "side": side, **noble})
    empty = [seat for seat, court in enumerate(out) if not court["nobles"]]
    champion = 1 - empty[0] if len(empty) == 1 else None
    return {"courts": out, "fallen": fallen, "finished": bool(empty), "champion": champion, "turn": 1 - turn}


def sheet_points(result: Mapping) -> list[tuple[str, int]]:
    """What a duel adds to a saved sheet, seat by seat (attacker, defender): one duel won to its winner."""
    return [(side, int(result["winner"] == side)) for side in ("attacker", "defender")]


def setup(card_set, rng: Random, players: int, options: Mapping) -> dict:
    """Each player is dealt 6 nobles and keeps 3 (the rest go back shuffled), the number deck, 6 number
    cards each, and the first player. Options: jokers=yes adds the two Jokers; double=yes plays the 104-card
    variant, where [A] each player is dealt 12 nobles and keeps 6. The nobles a player does not keep are shuffled
    into `noble_deck` by the players at the table, so the deck listed here is the one before that."""
    copies = 2 if options.get("double") else 1
    sets = ("base", "joker") if options.get("jokers") else ("base",)
    all_cards = [c for c in card_set.deck(sets=sets) for _ in range(copies)]
    nobles = shuffled([c.id for c in all_cards if c.type in ("noble", "joker")], rng)
    numbers = shuffled([c.id for c in all_cards if c.type == "number"], rng)
    dealt = 6 * copies
    return {"players": 2, "keep": 3 * copies, "nobles_dealt": [nobles[:dealt], nobles[dealt:2 * dealt]],
            "noble_deck": nobles[2 * dealt:], "hands": [numbers[:6], numbers[6:12]], "number_deck": numbers[12:],
            "first_player": randbelow(rng, 2)}


ART = ("joker", "resource", "wound")  # the component types drawn as a picture
INDEX = {1: "A", 11: "J", 12: "Q", 13: "K"}


def face(c, s, lang: str) -> Face:
    """A number card: its pips in the traditional layout, its index in two corners and what it does in a duel; a
    noble: its court picture (the data's art) or else a big letter and its suit; a joker or token: its picture."""
    if c.type in ("number", "noble"):
        suit, rank = c.data["suit"], c.data["rank"]
        pip = s.look.icon(suit)
        index = INDEX.get(rank, str(rank))
        corners = dict(corner=index, corner_icon=pip, corner_twice=True)
        if c.type == "number":
            text = (_("Critical hit: wins the duel", lang) if rank == ACE
                    else _("Permanent weapon +%(n)s", lang, n=rank) if rank in (2, 3)
                    else _("Adds %(n)s in a duel", lang, n=rank))
            suit_name = s.label(suit, lang).lower()
            named = (_("Ace of %(suit)s", lang, suit=suit_name) if rank == ACE
                     else _("%(rank)s of %(suit)s", lang, rank=rank, suit=suit_name))
            return Face(s.label(suit, lang), s.look.accent, (pip,) * rank, text=text, pips=True, named=named,
                        **corners)
        kind = NOBLE_RANKS[rank]
        title = f"{s.label(kind, lang)} · {s.label(suit, lang)}"
        text = _("Strength %(s)s · %(w)s wounds", lang, s=BASE[kind], w=WOUNDS[kind])
        if c.art is not None:  # the court's picture; its letter stays in the two indices
            return Face(title, s.look.accent, text=text, art=c.art.path, **corners)
        return Face(title, s.look.accent, (pip,), big=index, text=text, big_colour=pip.fill, **corners)
    art = (s.look.icon(c.type),) if c.type in ART and c.art is None else ()
    text = c.text_in(lang)
    if c.type == "joker":  # what the rules give it, on the card
        text = _("Strength %(s)s · %(w)s wound · defending, a die of 1–3 cancels the attack", lang,
                 s=BASE["joker"], w=WOUNDS["joker"])
    return Face(c.name_in(lang, c.id), s.look.accent, art, text=text)


def _parts(sentence: str, n: int) -> list[str]:
    """A translated sentence's `n` parts between its " · " (the last ones empty where a translation has fewer)."""
    parts = sentence.split(" · ", n - 1)
    return parts + [""] * (n - len(parts))


def face_values(c, s, lang: str) -> dict:
    """What the card data's layouts print that the rules derive (cards/nobles.yaml, `layouts:`): a card's `index`
    (A, 2-10, J, Q, K), a noble's `noble` (jack, queen, king: its `{label:noble}`), a number card's `duel` (what it
    does in a duel), a noble's or Joker's `stats` (strength and the wounds that kill it), the Joker's `defence`
    (its die that cancels an attack), `plain` on a noble drawn without its picture (its big letter and suit
    instead), a reference card's `items` (its text as a list). Sentences are the catalogue's, as `face` says them."""
    out: dict = {}
    if c.type in ("number", "noble"):
        rank = c.data["rank"]
        out["index"] = INDEX.get(rank, str(rank))
    if c.type == "number":
        rank = c.data["rank"]
        out["duel"] = (_("Critical hit: wins the duel", lang) if rank == ACE
                       else _("Permanent weapon +%(n)s", lang, n=rank) if rank in (2, 3)
                       else _("Adds %(n)s in a duel", lang, n=rank))
    elif c.type == "noble":
        kind = NOBLE_RANKS[c.data["rank"]]
        out["noble"] = kind
        strength, wounds = _parts(_("Strength %(s)s · %(w)s wounds", lang, s=BASE[kind], w=WOUNDS[kind]), 2)
        out["stats"] = f"**{strength}**\n{wounds}".strip()
        if c.art is None:
            out["plain"] = "yes"
    elif c.type == "joker":
        strength, wound, defending = _parts(_("Strength %(s)s · %(w)s wound · defending, a die of 1–3 cancels the "
                                              "attack", lang, s=BASE["joker"], w=WOUNDS["joker"]), 3)
        out["stats"] = f"**{strength}**\n{wound}".strip()
        out["defence"] = defending[:1].upper() + defending[1:]
    elif c.type == "reference" and c.text is not None:
        out["items"] = "\n".join(reference_items(c.text_in(lang)))
    return out


GAME = Game(
    id="nobles", component_types=COMPONENT_TYPES, vocabulary=VOCABULARY, default_players=2, score=score,
    setup=setup, entry=Entry(Word("duel"), N_("a duel")), sheet_points=sheet_points, face=face, terms=(*SUITS, *ART),
    face_values=face_values, face_fields=("index", "noble", "duel", "stats", "defence", "plain", "items"),
    options=(Option("jokers", N_("Add the two Jokers")), Option("double", N_("Double deck (104 cards)"))),
    web="companion.web.games.nobles",
)
