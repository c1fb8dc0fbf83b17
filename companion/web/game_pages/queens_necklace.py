"""Queen's Necklace on the phone: names typed once for the sale columns, the three-sale game, scanned gem cards."""
from __future__ import annotations

from ...cards import Component
from ...i18n import N_
from .. import forms
from ..forms import MultiDict
from ..plain import Words
from . import GamePages

GEMS = ("diamond", "emerald", "ruby", "amber")  # the sale form's order; an unchosen fashion shows it


def card_moved(player: dict) -> dict:
    """The Alchemist's card, when not said, is the player's only kind of card of the gem it moves from: the table
    shows it (a 2-gem ruby when every ruby shown is a 2)."""
    move, shown = player.get("alchemist"), player.get("shown")
    if isinstance(move, dict) and "gems" not in move and isinstance(shown, dict):
        kinds = set(shown.get(move.get("from"), ())) if isinstance(move.get("from"), str) else set()
        if len(kinds) == 1:
            move["gems"] = kinds.pop()
    return player


def players(names: list[str], rows) -> list[dict]:
    """A sale's rows, one per typed name, with the Alchemist's card filled in where the table shows it."""
    return [card_moved(p) for p in forms.named_rows(names, rows, shown={})]


def prepare(req: dict, form: MultiDict) -> dict:
    """Names typed once fill each sale's columns; a sale without a fashion chosen has the one its form shows (the
    sale before's in a three-sale game, else the gems' order), as a link made without those fields shows it."""
    names = forms.typed_names(form)
    if "sales" in req:  # the three-sale game: a sale in which nobody showed a gem was not played (yet)
        sales, fashion = [], list(GEMS)
        for s in forms.filled(req["sales"]):
            if isinstance(s, dict):
                s["players"] = players(names, s.get("players"))
                fashion = s.setdefault("fashion", fashion)
                if any(p["shown"] for p in s["players"]):
                    sales.append(s)
        return {"sales": sales}
    req["players"] = players(names, req.get("players"))
    req.setdefault("fashion", list(GEMS))
    return req


def played(form: MultiDict) -> list[int]:
    """The three-sale game's sales (their places on the form) in which a gem was shown: those scored, in order."""
    return [k for k in range(3) if any(name.startswith(f"sales.{k}.players.") and ".shown." in name and value.strip()
                                       for name, value in form.items(multi=True))]


def extras(_req: dict | None, result: dict | None, form: MultiDict) -> dict:
    """The three-sale game: each sale played with its answer (folded to its result line on the form), and the sale
    being entered, the only one open: the first not played (none once all three are)."""
    if form.get("_mode") != "game":
        return {}
    done = played(form)
    answers = result["sales"] if result and len(result.get("sales", ())) == len(done) else [None] * len(done)
    return {"sale_answers": dict(zip(done, answers, strict=True)),
            "entering": next((k for k in range(3) if k not in done), None)}


def targets(c: Component, form: MultiDict) -> list[tuple[str, str]]:
    """Where a scanned gem card can go: each player's shown gems of its colour (nowhere in the three-sale game)."""
    if c.type != "gem" or form.get("_mode") == "game":  # cards go into a single sale's columns
        return []
    return [(f"players.{i}.shown.{c.data['gem']}:ints", name) for i, name in forms.players_of(form)]


def add(c: Component, form: MultiDict, target: str) -> None:
    """Add the card's gems (1 unless its data says) as one more number in that field."""
    form.setlist(target, [f"{form.get(target, '')} {c.data.get('gems', 1)}".strip()])


PAGES = GamePages(
    words=Words(fields={"sales": "", "fashion": N_("fashion"), "shown": "", "rings": N_("Rings"),
                        "king": N_("King"), "necklace": N_("Necklace"), "bankers": N_("Bankers"),
                        "alchemist": N_("Alchemist"), "from": N_("from"), "gems": N_("card of"), "to": N_("to")},
                counted={"sales": N_("Sale %(k)s")},
                count_of={"sales": N_("number of sales"), "fashion": N_("gems in the fashion order")}),
    template="score/queens-necklace.html", prepare=prepare, extras=extras, targets=targets, add=add,
    hidden=("hands", "deck", "merchant_positions"),
    to_score=lambda deal: [("_mode", "game")] + [(f"sales.0.fashion.{i}", gem)
                                                 for i, gem in enumerate(deal.get("fashion", []))],
    setup_words={"fashion": N_("Fashion tiles, +30 to 0"), "market": N_("Market"),
                 "merchant_positions": N_("Merchants at deck positions")},
)
