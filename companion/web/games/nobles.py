"""Nobles en duelo on the phone: a game tracked at court (both courts typed once, carried in the page's address
from duel to duel, the players taking turns to attack), and the one-duel calculator (`_mode=duel`, or a form that
gives the nobles themselves)."""
from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlencode

from ... import library
from ...cards import Component
from ...core.i18n import N_
from ...core.schema import whole_number
from ...games.nobles import (
    BASE,
    CARDS_PLAYED,
    COURT_MOST,
    DICE,
    FALLEN,
    GAME,
    NOBLES,
    SUIT_BONUS,
    SUITS,
    WOUNDS,
    fallen_word,
    noble_word,
    seats,
)
from ..play import forms
from ..play.forms import MultiDict
from ..play.plain import Words
from . import GamePages

KINDS = ("jack", "queen", "king")
SLOTS = 3  # [R] nobles each player keeps at the start (the double deck's 6 come from its setup)
PLAYED = ("dice", "cards", "hand")  # what a side brings to one duel besides its noble
KEEP, DEAL = "_keep", "_deal"  # a court tapped as chips (`_keep0`: "king:clubs"…) and the nobles dealt to pick from


def noble_of(word: str) -> dict:
    """A noble as a chip names it ("queen:hearts", "joker"); anything else as its kind, which the rules refuse."""
    match = FALLEN.fullmatch(word)
    if match is None:
        return {"noble": word}
    return {"noble": "joker"} if word == "joker" else {"noble": match[1], "suit": match[2]}


def at_court(form: MultiDict) -> bool:
    """Whether a form is a game at court: anything but the one-duel calculator (which names the nobles itself)."""
    return form.get("_mode") != "duel" and not any(f"{side}.noble" in form for side in ("attacker", "defender"))


def _courts(req: dict, form: MultiDict) -> tuple[list[dict], dict[int, dict[int, int]]]:
    """The two courts a form gives (rows nobody filled in left out, each court named by its player's typed name),
    and each court's form rows → their positions in it."""
    given = req.get("courts")
    given = given if isinstance(given, list) else []
    names = forms.typed_names(form)
    out, moved = [], {}
    for seat in range(2):
        court = given[seat] if seat < len(given) and isinstance(given[seat], dict) else {}
        rows = court.get("nobles")
        rows = rows if isinstance(rows, list) else []
        kept = [(i, row) for i, row in enumerate(rows) if row is not None]
        moved[seat] = {i: k for k, (i, _row) in enumerate(kept)}
        name = names[seat] if seat < len(names) and names[seat] else None
        tapped = [noble_of(w) for w in form.getlist(f"{KEEP}{seat}")[:COURT_MOST] if w]  # the court's chips
        out.append({**court, **({"name": name} if name else {}), "nobles": [row for _i, row in kept] + tapped})
    return out, moved


def prepare(req: dict, form: MultiDict) -> dict:
    """At court: the courts without their blank rows, named, the picked nobles' positions following; in the
    calculator the form always sends a version (a select has no blank), and a Joker has none, nor a suit or a
    weapon."""
    for side in ("attacker", "defender"):  # the dice as tapped, one field a die: those not tapped are left out
        if isinstance(req.get(side), dict) and any(k.startswith(f"{side}.dice.") for k in form):
            req[side]["dice"] = typed_dice(form, side)
            if not req[side]["dice"]:
                del req[side]["dice"]  # (none tapped: rolled here)
    if "courts" in req or at_court(form):
        req["courts"], moved = _courts(req, form)
        for side, seat in seats(req.get("turn") if req.get("turn") in (0, 1) else 0).items():
            play = req.setdefault(side, {})
            if isinstance(play, dict):
                play.setdefault("at", 0)  # the picker's first noble, as a phone shows it
                if req["courts"][seat].get("name"):
                    play["name"] = req["courts"][seat]["name"]  # a problem names the player, not the side
                if isinstance(play["at"], int):
                    play["at"] = moved[seat].get(play["at"], play["at"])
        return req
    for side in ("attacker", "defender"):
        noble = req.get(side)
        if isinstance(noble, dict) and noble.get("noble") == "joker":
            for part in ("version", "suit", "weapon"):
                noble.pop(part, None)
    return req


def ready(form: MultiDict) -> bool:
    """At court a duel is worked out once both dice are known, tapped, typed or rolled here (`_roll`, the Duel
    button): the page of the next duel shows the courts, not a duel nobody rolled yet."""
    if not at_court(form):
        return True
    return "_roll" in form or all(typed_dice(form, side) for side in ("attacker", "defender"))


def typed_dice(form: MultiDict, side: str) -> list[int]:
    """The dice a form gives a side: tapped one die at a time (`attacker.dice.0:int`…), two dice by their total
    (`attacker.dice.total:int`: the rules only add them, so a total of 9 is given as 5 and 4) or, in older links,
    typed as one list (`attacker.dice:ints`); a die not given is left out."""
    total = whole_number((form.get(f"{side}.dice.total:int") or "").strip(), signed=False, digits=2)
    if total is not None:  # (a total two dice cannot show is passed on as one die, which the rules refuse)
        return [(total + 1) // 2, total // 2] if 2 <= total <= 12 else [total]
    tapped = sorted(k for k in form if k.startswith(f"{side}.dice.") and k.endswith(":int") and ".total" not in k)
    words = [form.get(k) or "" for k in tapped] or (form.get(f"{side}.dice:ints") or "").replace(",", " ").split()
    return [n for n in (whole_number(w.strip(), signed=False, digits=1) for w in words) if n is not None]


def _fighters(form: MultiDict, courts: list[dict] | None, turn: int, versions: dict[str, int]) -> dict[str, tuple]:
    """(noble, version, suit) each side brings to the duel as the form stands: at court the picked noble of each
    court, in the calculator the noble named; the first of each picker when none is picked yet."""
    out = {}
    for side, seat in seats(turn).items():
        if courts is not None:
            nobles = courts[seat]["nobles"]
            at = whole_number(form.get(f"{side}.at:int") or "0", signed=False, digits=2) or 0
            noble = nobles[at] if 0 <= at < len(nobles) and isinstance(nobles[at], dict) else {}
            kind, suit = noble.get("noble"), noble.get("suit")
            version = versions.get(kind, 1)
        else:
            kind, suit = form.get(f"{side}.noble") or NOBLES[0], form.get(f"{side}.suit")
            version = whole_number(form.get(f"{side}.version:int") or "1", signed=False, digits=1) or 1
        out[side] = (kind, version, suit)
    return out


def played(form: MultiDict, result: dict | None, fighters: dict[str, tuple]) -> dict[str, dict]:
    """What the duel form asks of each side: how many dice its noble rolls (one row of faces, or of totals for two
    dice) and what they show (tapped, or rolled here: `shown`), how many number cards it may play (the second
    card's row only for a noble that plays two, or one the form already fills), and the noble's suit with the
    bonus a card of that suit gives (its chip says so)."""
    out = {}
    suit_only = bool(form.get("variants.suit_only:bool"))
    for side, (kind, version, suit) in fighters.items():
        dice = typed_dice(form, side)
        if not dice and result and isinstance(result.get(side), dict):
            dice = list(result[side].get("dice", ()))
        count = DICE.get((kind, version), 1)
        cards = max(CARDS_PLAYED.get((kind, version), 1), 2 if form.get(f"{side}.cards.1.rank:int") else 1)
        out[side] = {"dice": count, "shown": sum(dice) if len(dice) == count else None, "cards": cards,
                     "suit": suit, "bonus": 0 if suit_only else SUIT_BONUS.get((kind, version), 2)}
    return out


def _slots(form: MultiDict) -> int:
    """How many nobles each player keeps from a deal: the setup's `_slots`, else SLOTS (1 to 12)."""
    return min(max(forms.count(form.get("_slots")) or SLOTS, 1), 12)


def court_fields(courts: list[dict], names: list[str], form: MultiDict, turn: int) -> list[tuple[str, Any]]:
    """The fields that carry a game at court to its next duel: names, versions, variants, whose turn, each court."""
    out: list[tuple[str, Any]] = [("_names", name) for name in names]
    out += [(k, v) for k in form for v in form.getlist(k) if k.startswith(("versions.", "variants."))]
    out.append(("turn:int", turn))
    for seat, court in enumerate(courts):
        at = f"courts.{seat}."
        for i, noble in enumerate(court["nobles"]):
            for part, kind in (("noble", ""), ("suit", ""), ("weapon", ":int"), ("wounds", ":int")):
                if noble.get(part):
                    out.append((f"{at}nobles.{i}.{part}{kind}", noble[part]))
        out += [(f"{at}fallen:list", word) for word in court.get("fallen", ())]
    return out


def extras(req: dict | None, result: dict | None, form: MultiDict) -> dict:
    """Blank dice are rolled with a fresh seed (the result's URL keeps the one used). At court: the courts as
    the form gives them (`courts`: the pickers and the court summary), whose turn it is, how many rows to type at
    the start, and the next duel (`next_query`: the courts after this duel, the other player attacking). In the
    calculator the next duel keeps both nobles, their weapons and suits, adds the wounds and resources this duel
    gave, and clears the dice and cards."""
    out: dict[str, Any] = {"fresh_seed": secrets.token_hex(4), "next_query": None, "at_court": at_court(form),
                           "base": BASE, "wound_limit": WOUNDS, "kinds": NOBLES, "suits": SUITS}
    if out["at_court"]:
        courts, _moved = _courts(forms.request_from_form(form), form)  # (the form's, not the prepared ones)
        turn = whole_number(form.get("turn:int") or "0", signed=False, digits=1)
        out.update(courts=courts, turn=turn if turn in (0, 1) else 0,
                   slots=_slots(form),
                   started=all(c["nobles"] for c in courts) or bool(result),
                   # the nobles dealt to each player (chips to keep), each court's nobles as its chips name them
                   deal=[[w for w in form.getlist(f"{DEAL}{seat}")[:2 * COURT_MOST] if FALLEN.fullmatch(w)]
                         for seat in range(2)],
                   kept=[[fallen_word(n) for n in c["nobles"] if isinstance(n, dict)] for c in courts],
                   kinds_suits=[f"{k}:{s}" for k in KINDS for s in SUITS],
                   versions={k: forms.count(form.get(f"versions.{k}:int")) or 1 for k in KINDS})
        out["played"] = played(form, result, _fighters(form, courts, out["turn"], out["versions"]))
        out["new_game"] = urlencode([("_names", name) for name in forms.typed_names(form)])
        # the duel as it was before its dice and cards were tapped (a game it ended, corrected)
        out["again"] = forms.carried(form, lambda k: ".dice" in k or ".cards." in k or k in ("seed", "_roll"))
        if result is not None and not result.get("finished"):
            names = [c.get("name") or "" for c in result["courts"]]
            out["next_query"] = urlencode(court_fields(result["courts"], forms.typed_names(form) or names, form,
                                                       result["turn"]))
        return out
    out["played"] = played(form, result, _fighters(form, None, 0, {}))
    if result is None:
        return out
    changes = {}
    for side in ("attacker", "defender"):
        wounds = result["wounds"].get(side)
        if wounds:
            changes[f"{side}.wounds:int"] = str(wounds["wounds"])
        gained = result["resources"].get(side)
        if gained:
            changes[f"{side}.resources:int"] = str(forms.count(form.get(f"{side}.resources:int")) + gained)
    out["next_query"] = forms.carried(form, lambda k: ".dice" in k or ".cards." in k or k == "seed", changes)
    return out


def to_score(result: dict) -> list[tuple[str, str]]:
    """A setup carries who attacks first, how many nobles each player keeps and the nobles dealt to each (chips to
    keep: "king:clubs", "joker")."""
    card_set = library.current().get(GAME.id)
    dealt = [(f"{DEAL}{seat}", dealt_word(card_set, card_id)) for seat, ids in enumerate(result.get("nobles_dealt", ()))
             for card_id in ids]
    return [("turn:int", str(result.get("first_player", 0))), ("_slots", str(result.get("keep", SLOTS))),
            *[(k, w) for k, w in dealt if w]]


def dealt_word(card_set, card_id: str) -> str:
    """A dealt card's noble as a chip names it, from the card data; "" for one the data does not know."""
    try:
        return noble_word(card_set.component(card_id))
    except KeyError:
        return ""


def targets(c: Component, form: MultiDict) -> list[tuple[str, str]]:
    """Where a scanned noble or Joker can go: a court being tapped at the start of a game at court, not yet full.
    With a deal (from the setup) only a noble dealt to that player and not kept yet (a noble dealt twice: twice);
    without one, a noble neither court keeps, or a Joker the court has not (its chips: one of each noble, a Joker)."""
    word = noble_word(c)
    if not word or not at_court(form) or _started(form):
        return []
    names = dict(forms.players_of(form))
    out = []
    for seat in range(2):
        kept, dealt = form.getlist(f"{KEEP}{seat}"), form.getlist(f"{DEAL}{seat}")
        others = form.getlist(f"{KEEP}{1 - seat}")
        room = len(kept) < (_slots(form) if dealt else COURT_MOST)
        fits = (kept.count(word) < dealt.count(word) if dealt  # (a deck has two Jokers: one a court)
                else word not in kept and (word == "joker" or word not in others))
        if room and fits:
            out.append((f"{KEEP}{seat}", names.get(seat) or str(seat + 1)))
    return out


def _started(form: MultiDict) -> bool:
    """Whether the duels have started: both courts given as rows (the page then shows the duel, not the chips)."""
    return all(any(k.startswith(f"courts.{seat}.nobles.") and form.get(k) for k in form) for seat in range(2))


def add(c: Component, form: MultiDict, target: str) -> None:
    """The card's noble kept in that court, as its chip would be tapped."""
    form.add(target, noble_word(c))


PAGES = GamePages(
    words=Words(fields={"attacker": N_("attacker"), "defender": N_("defender"), "noble": N_("noble"),
                        "version": N_("version"), "suit": N_("suit"), "weapon": N_("weapon"), "dice": N_("dice"),
                        "wounds": N_("wounds"), "resources": N_("resources"), "courts": "", "nobles": "",
                        "at": N_("noble"), "versions": N_("versions"), "redirected": N_("change of target"),
                        "cards": N_("cards")},
                counted={"dice": N_("die %(k)s"), "nobles": N_("Noble %(k)s")},
                count_of={"dice": N_("number of dice"), "cards": N_("number of cards"),
                          "nobles": N_("number of nobles")}),
    template="score/nobles.html", prepare=prepare, extras=extras, ready=ready, to_score=to_score, targets=targets,
    add=add,
    score_label=N_("Duel"), per_player=("hands", "nobles_dealt"),
    hidden=("hands", "nobles_dealt", "noble_deck", "number_deck"),
    setup_words={"keep": N_("Nobles each player keeps"),
                 "nobles_dealt": N_("Nobles dealt (keep some, shuffle the rest into the noble deck)"),
                 "noble_deck": N_("Noble deck"), "number_deck": N_("Number deck")},
)
