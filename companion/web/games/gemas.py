"""Gemas on the phone: an end-of-game tally (each player's gems, and who ran out of band-aids with no heart left),
and, for who wants it, a turn tracker (gems held, band-aids and hearts, and a set laid down this turn)."""
from __future__ import annotations

import re
from urllib.parse import parse_qsl

from ...cards import Component
from ...core.i18n import N_
from ...core.schema import InputError, problem
from ...games.gemas import ACTIONS, COLOURS, EXCHANGE, reserve_size, uses_heart
from ..play import forms
from ..play.forms import Fields, MultiDict
from ..play.plain import Words
from . import GamePages

SEAT = re.compile(r"#(\d{1,2})")  # a seat of the form ("#0" is the first row), whatever its name says now
TURNS = "_turns"  # the page's mode: "1" follows the game turn by turn, "0" is the end-of-game tally (the default)
ENDED = "ended_by"  # the tally's one tap for the game's end: the seat that ran out of band-aids with no heart left
MOST_SEATS = 10
NEXT = "_next"  # the seat whose turn it is (the tracker's "Who" shows it picked): the setup's first player, then the
# seat after the one who last moved [R: play goes clockwise]
THREE_OF = {f"three-{c}": c for c in COLOURS}  # a set of three gem cards of one colour: one chip


def turn_by_turn(form: MultiDict) -> bool:
    """Whether the page follows the game turn by turn: as asked (`_turns`, its last value: the tracker's own
    hidden "1" comes before the button that leaves it), else when the form describes a set laid down."""
    asked = form.getlist(TURNS)
    if asked:
        return asked[-1] == "1"
    return any(name.startswith("lay_down.") and any(form.getlist(name)) for name in form)


def _seat(value, rows) -> int | None:
    """The row a seat value ("#1") names, if the form has that row."""
    seat = SEAT.fullmatch(str(value or ""))
    ok = seat and isinstance(rows, list) and int(seat[1]) < len(rows) and isinstance(rows[int(seat[1])], dict)
    return int(seat[1]) if ok else None


def prepare(req: dict, form: MultiDict) -> dict:
    """Blank rows are left out and a player with no gems typed holds none. The tally's end (`ended_by`, a seat)
    is that player out of band-aids with no heart left. A lay-down is the tracker's only: dropped from the tally,
    and without its player or set; the seats it names ("#0") become those rows' names."""
    rows = req.get("players", [])
    if ENDED in req:
        at = _seat(req[ENDED], rows)
        if at is None:
            raise InputError([problem((ENDED,), "names no player at this table: %(got)s", got=req[ENDED])])
        rows[at].update({"bandaids": 0, "heart": False})
        del req[ENDED]
    req["players"] = forms.filled(rows)
    for p in req["players"]:
        if isinstance(p, dict):
            p.setdefault("gems", {})  # no gem typed in: none held
    move = req.get("lay_down")
    if isinstance(move, dict) and move.get("set") in THREE_OF:  # three gem cards of one colour, in one tap
        move.update(set="gems", cards=[THREE_OF[move["set"]]] * 3)
    if isinstance(move, dict) and move.get("set") != EXCHANGE:
        for key in ("give", "take"):  # (an exchange's rows, hidden once another set is tapped)
            move.pop(key, None)
    if isinstance(move, dict) and not (turn_by_turn(form) and move.get("player") and move.get("set")):
        del req["lay_down"]  # nothing laid down this turn
    elif isinstance(move, dict):
        # "Who" and "Against" name a seat, so a name typed after the page was drawn still matches its row.
        for key in ("player", "target"):
            at = _seat(move.get(key), rows)
            if at is not None:
                move[key] = rows[at].get("name", move[key])
    return req


def seated(req: dict) -> dict:
    """A request as the form says it (`GamePages.as_form`): the lay-down's "Who" and "Against" as the seats their
    names sit in ("#0"), as `prepare` reads them back."""
    move, rows = req.get("lay_down"), req.get("players")
    if not isinstance(move, dict) or not isinstance(rows, list):
        return req
    names = [p.get("name") if isinstance(p, dict) else None for p in rows]
    return {**req, "lay_down": {k: f"#{names.index(v)}" if k in ("player", "target") and v in names else v
                                for k, v in move.items()}}


def _out_of_play(form: MultiDict, i: int) -> bool:
    """Whether seat i is at no band-aid and no heart on this form (the tracker's way to say the game's end)."""
    at = f"players.{i}."
    return form.get(at + "bandaids:int") == "0" and form.get(at + "heart:bool") == "0"


def _fields(form: MultiDict, drop=lambda _name: False, changes: dict | None = None) -> Fields:
    """This form's fields with `changes` (forms.carried's), as a form the page can show."""
    return Fields(parse_qsl(forms.carried(form, drop, changes), keep_blank_values=True))


def extras(_req: dict | None, result: dict | None, form: MultiDict) -> dict:
    """What each mode shows. `shown`: the form whose values the fields show. The tally: `ended`, the seat chosen
    as the game's end (or the tracker's player out of band-aids and heart), and `kept`, the tracker's band-aids and
    hearts it carries unseen. The tracker: the tally's end as that seat's band-aids and heart; while a colour is
    still to choose, one query per colour (`choices`: this form with that choice); once a set is laid down, the
    fields show the next turn (every player's gems, band-aids and heart after the move, nothing laid down), so one
    tap scores a turn and opens the next (`moved`)."""
    turns = turn_by_turn(form)
    out: dict = {"turns": turns, "shown": form, "choices": [], "moved": False, "undo": "", "ended": "", "kept": [],
                 "most_of": reserve_size}
    if not turns:
        out_of_play = [i for i in range(MOST_SEATS) if _out_of_play(form, i)]
        out["ended"] = form.get(ENDED, "") if ENDED in form else f"#{out_of_play[0]}" if out_of_play else ""
        out["kept"] = [(name, value) for name in form for value in form.getlist(name)[-1:]
                       if re.fullmatch(r"players\.(\d{1,2})\.(?:bandaids:int|heart:bool)", name)
                       and not _out_of_play(form, int(name.split(".")[1]))]
        return out
    ended = _seat(form.get(ENDED), [{}] * MOST_SEATS)
    if ended is not None:
        out["shown"] = _fields(form, lambda name: name == ENDED, {f"players.{ended}.bandaids:int": "0",
                                                                   f"players.{ended}.heart:bool": "0"})
    if result is None:
        return out
    pending = result.get("pending_choice")
    if pending:
        out["choices"] = [(c, forms.carried(form, changes={"lay_down.choice": c})) for c in pending["options"]]
        return out
    if not result["events"] or result["won_by"]:
        return out
    n = len(result["players"])
    mover = _seat(form.get(f"{SET}.player"), [{}] * n)
    table = {"_n": str(n), TURNS: "1", **({NEXT: str((mover + 1) % n)} if mover is not None else {})}
    for i, p in enumerate(result["players"]):
        at = f"players.{i}."
        table[at + "name"] = p["name"]
        table.update({f"{at}gems.{c}:int": str(p["gems"][c]) for c in COLOURS})
        table[at + "bandaids:int"] = str(p["bandaids"])
        if uses_heart(n):
            table[at + "heart:bool"] = "1" if p["heart"] else "0"
    # Rows come from the result (seat i is its i-th player), so no field of this turn's form is kept. `undo`: the
    # table before the move, its player picked again.
    out.update(shown=_fields(form, lambda _name: True, table), moved=True,
               undo=forms.carried(form, lambda name: name.startswith(f"{SET}.") or name == NEXT,
                                  {NEXT: str(mover)} if mover is not None else {}))
    return out


SET = "lay_down"  # where a photo of a set laid down goes (the tracker's set fieldset)
ACTIONS_TAKEN = f"_{SET}.actions"  # action cards a photo put in the set (page-only: a set of actions is 3 cards)


def targets(c: Component, form: MultiDict) -> list[tuple[str, str]]:
    """Where a scanned card can go: the set laid down this turn, in the turn tracker. A gem card while the set is
    gem cards (or not chosen) with a card's colour still blank; an action card while the set is that action (or
    not chosen), no gem card is chosen and fewer than 3 were taken. Whose: the player laying it down, once
    tapped."""
    if not turn_by_turn(form):
        return []
    kind = form.get(f"{SET}.set") or ""
    colours = [form.get(f"{SET}.cards.{k}") for k in range(3)]
    if c.type == "gem-card":
        fits = kind in ("", "gems") and not all(colours)
    else:
        fits = c.type in ACTIONS and kind in ("", c.type) and not any(colours) and forms.count(
            form.get(ACTIONS_TAKEN)) < 3
    if not fits:
        return []
    seat = _seat(form.get(f"{SET}.player"), [{}] * MOST_SEATS)
    return [(SET, form.get(f"players.{seat}.name") or str(seat + 1) if seat is not None else "—")]


def add(c: Component, form: MultiDict, target: str) -> None:
    """A gem card's colour in the set's first blank card (the set is gem cards); an action card names the set."""
    if c.type == "gem-card":
        form.setlist(f"{target}.set", ["gems"])
        blank = next(k for k in range(3) if not form.get(f"{target}.cards.{k}"))
        form.setlist(f"{target}.cards.{blank}", [c.data["colour"]])
    else:
        form.setlist(f"{target}.set", [c.type])
        form.setlist(ACTIONS_TAKEN, [str(forms.count(form.get(ACTIONS_TAKEN)) + 1)])


PAGES = GamePages(
    words=Words(fields={"gems": "", "bandaids": N_("band-aids"), "heart": N_("heart"),
                        "lay_down": N_("set laid down"), "player": N_("who"), "target": N_("against"),
                        "set": N_("set"), "cards": N_("cards"), "choice": N_("choice"),
                        "give": N_("gems given"), "take": N_("gem taken"),
                        ENDED: N_("out of band-aids with no heart")},
                count_of={"cards": N_("number of cards")}),
    template="score/gemas.html", prepare=prepare, extras=extras, targets=targets, add=add,
    to_score=lambda result: [(NEXT, str(result.get("first_player", 0)))],
    by_position=("lay_down.cards",), as_form=seated,  # (a set's gem cards, a colour each)
    setup_words={"reserve": N_("Gem reserve"), "bandaids_each": N_("Band-aids each"), "heart": N_("Hearts in play"),
                 "teams": N_("Teams")},
)
