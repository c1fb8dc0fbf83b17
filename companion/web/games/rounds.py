"""The phone pages of a game of rounds to a target (companion/games/rounds.py): its form's rounds, a row a player,
with the names typed once at the top; what its page shows beside the answer, each round's parts. A game of rounds'
glue takes these, and its scoring template the parts in templates/_rounds.html."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.i18n import N_
from ..play import forms
from ..play.forms import MultiDict
from ..play.plain import Words
from . import Extras, Prepare

# What the players of every game of rounds call its request's rounds ("Round 2 · Ana · ..."); a game adds its
# entries' fields (`WORDS | Words(fields=...)`).
WORDS = Words(fields={"rounds": ""}, counted={"rounds": N_("Round %(k)s")},
              count_of={"rounds": N_("number of rounds"), "rounds[]": N_("number of players")})


def prepare(**defaults: Any) -> Prepare:
    """A form → its request: each round that anyone filled in, a row a typed name, `defaults` where nothing was
    typed."""
    def prepared(req: dict, form: MultiDict) -> dict:
        names = forms.typed_names(form)
        rounds = [forms.named_rows(names, entries, **defaults) for entries in forms.filled(req.get("rounds", []))]
        return {**req, "rounds": rounds}
    return prepared


def parts(line: Callable[[dict], str | None]) -> Extras:
    """What the page shows beside the answer: each round's parts (`parts`: a round, a player's name → `line` of
    their entry, how its points are made; None when the entry does not say yet)."""
    def extras(req: dict | None, _result: dict | None, _form: MultiDict) -> dict:
        shown = []
        for entries in (req or {}).get("rounds", []):
            row = {}
            for e in entries:
                said = line(e)
                if said is not None:
                    row[e["name"]] = said
            shown.append(row)
        return {"parts": shown}
    return extras
