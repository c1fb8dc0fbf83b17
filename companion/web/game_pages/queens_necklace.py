"""Queen's Necklace on the phone: names typed once for the sale columns, the three-sale game, scanned gem cards."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from ...cards import Component
from .. import forms, scan
from . import GamePages


def prepare(req: dict, form: MultiDict) -> dict:
    names = forms.typed_names(form)
    if "sales" in req:  # the three-sale game: a sale in which nobody showed a gem was not played (yet)
        sales = []
        for s in forms.filled(req["sales"]):
            if isinstance(s, dict):
                s["players"] = forms.named_rows(names, s.get("players"), shown={})
                if any(p["shown"] for p in s["players"]):
                    sales.append(s)
        return {"sales": sales}
    req["players"] = forms.named_rows(names, req.get("players"), shown={})
    return req


def targets(c: Component, form: MultiDict) -> list[tuple[str, str]]:
    if c.type != "gem" or form.get("_mode") == "game":  # cards go into a single sale's columns
        return []
    return [(f"players.{i}.shown.{c.data['gem']}:ints", name) for i, name in scan.players(form)]


def add(c: Component, form: MultiDict, target: str) -> None:
    form.setlist(target, [f"{form.get(target, '')} {c.data.get('gems', 1)}".strip()])


PAGES = GamePages(
    template="score/queens-necklace.html", prepare=prepare, targets=targets, add=add,
    setup_words={"fashion": _l("Fashion tiles, +30 to 0"), "market": _l("Market"),
                 "merchant_positions": _l("Merchants at deck positions")},
)
