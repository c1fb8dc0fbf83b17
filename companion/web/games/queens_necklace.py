"""Queen's Necklace on the phone: names typed once for the sale columns, the three-sale game, scanned gem cards."""
from __future__ import annotations

from ...cards import Component
from ...core.i18n import N_
from ..play import forms
from ..play.forms import MultiDict
from ..play.plain import Words
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


TOOK = "_took"  # the cards a photo just added, in the address of the page it filled (web/photos/pages.py)
MOST_BANKERS = 2  # [R] the deck's Bankers: a photo counts each one shown, up to these


def extras(_req: dict | None, result: dict | None, form: MultiDict) -> dict:
    """The three-sale game: each sale played with its answer (folded to its result line on the form), and the sale
    being entered, the only one open: the first not played (none once all three are), or the sale a photo has just
    filled (the others at that sale may still photograph their cards)."""
    if form.get("_mode") != "game":
        return {}
    done = played(form)
    answers = result["sales"] if result and len(result.get("sales", ())) == len(done) else [None] * len(done)
    return {"sale_answers": dict(zip(done, answers, strict=True)), "entering": entering(form, done)}


def entering(form: MultiDict, done: list[int]) -> int | None:
    """The three-sale game's sale being entered (see `extras`)."""
    if done and form.get(TOOK):
        return done[-1]
    return next((k for k in range(3) if k not in done), None)


def columns(form: MultiDict) -> list[tuple[str, str]]:
    """Each player's column of the sale being entered, as a prefix of its fields ("players.1.", "sales.0.players.1."),
    and whose it is. In the three-sale game the last sale played is open to more cards too (a photo of the first
    player's cards makes a sale played before the second player's is taken)."""
    players = forms.players_of(form)
    if form.get("_mode") != "game":
        return [(f"players.{i}.", name) for i, name in players]
    done = played(form)
    first = next((k for k in range(3) if k not in done), None)
    sales = [k for k in (first, done[-1] if done else None) if k is not None]
    return [(f"sales.{k}.players.{i}.", name if k == first else f"{name} · {k + 1}") for k in sales
            for i, name in players]


def targets(c: Component, form: MultiDict) -> list[tuple[str, str]]:
    """Where a scanned card can go: a player's column of the sale being entered, for a gem card (its gems go to its
    colour) or a Banker (counted, up to the deck's two). Rings, a King, the Necklace and the Alchemist are played on
    a colour the table does not show: they are tapped."""
    if c.type == "gem":
        return columns(form)
    if c.data.get("character") == "banker":
        return [(at, who) for at, who in columns(form) if _bankers(form, at) < MOST_BANKERS]
    return []


def _bankers(form: MultiDict, at: str) -> int:
    """The Bankers a column counts (a count of more than two digits, or none that can be read: 0)."""
    return forms.count((form.get(f"{at}bankers:int") or "").strip(), digits=2)


def add(c: Component, form: MultiDict, target: str) -> None:
    """A gem card adds its gems (1 unless its data says) as one more number in its colour's field of that column (two
    copies of a card: two numbers); a Banker one more Banker."""
    if c.type == "gem":
        field = f"{target}shown.{c.data['gem']}:ints"
        form.setlist(field, [f"{form.get(field, '')} {c.data.get('gems', 1)}".strip()])
    else:
        form.setlist(f"{target}bankers:int", [str(_bankers(form, target) + 1)])


PAGES = GamePages(
    words=Words(fields={"sales": "", "fashion": N_("fashion"), "shown": "", "rings": N_("Rings"),
                        "king": N_("King"), "necklace": N_("Necklace"), "bankers": N_("Bankers"),
                        "alchemist": N_("Alchemist"), "from": N_("from"), "gems": N_("card of"), "to": N_("to")},
                counted={"sales": N_("Sale %(k)s")},
                count_of={"sales": N_("number of sales"), "fashion": N_("gems in the fashion order")}),
    template="score/queens-necklace.html", prepare=prepare, extras=extras, targets=targets, add=add,
    by_position=("fashion", "sales.*.fashion"),  # (a row of colour chips a place of the fashion order)
    hidden=("hands", "deck", "merchant_positions"),
    to_score=lambda deal: [("_mode", "game")] + [(f"sales.0.fashion.{i}", gem)
                                                 for i, gem in enumerate(deal.get("fashion", []))],
    setup_words={"fashion": N_("Fashion tiles, +30 to 0"), "market": N_("Market"),
                 "merchant_positions": N_("Merchants at deck positions")},
)
