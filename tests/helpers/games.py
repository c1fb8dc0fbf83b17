"""The shipped games as the tests parametrise over them, and how many examples a property runs."""
from __future__ import annotations

import pytest
from hypothesis import settings

from companion import games

GAME_IDS = sorted(games.GAMES)



def examples(full: int) -> int:
    """A property's number of examples: `full` in `make test`, a tenth of it (at least 10) in the fast lane."""
    return max(10, full // 10) if settings.get_current_profile_name() == "fast" else full



# The per-game measurements of the printed files run on every game in `make test`; in the fast lane on this one
# (cards, tokens of another size and a reference card: 15 pieces, the quickest to build and measure).
FAST_GAME = "gemas"



GAMES_ONE_FAST = [pytest.param(g, marks=() if g == FAST_GAME else pytest.mark.slow) for g in GAME_IDS]

