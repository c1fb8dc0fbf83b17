"""Each game's web glue, found where its descriptor says (`Game.web`), and the computing pages by endpoint: the
scoring and setup pages every game has, and the pages of their own that games declare (`GamePages.own`).

No Flask here: the server routes these views (web/play/scoring.py, web/play/setup.py) and the static site's phones
draw the same ones in their own Python (web/site/browser.py). Every registered game's glue is loaded when this module
is, so a glue module that is missing, misnamed or declares no `PAGES` stops the app from starting, naming it."""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import MappingProxyType

from ... import games
from ..play import views
from ..play.forms import MultiDict
from . import GENERIC, GamePages, Page, View, request_fields


class GlueError(LookupError):
    """A registered game whose web glue cannot be found where its descriptor says."""


def _load(rules: games.Game) -> GamePages:
    if rules.web is None:
        raise GlueError(f"game {rules.id!r} has rules of its own but names no web glue: give its Game a "
                        f"web=\"companion.web.games.<module>\" whose module declares PAGES = GamePages(...)")
    try:
        module = importlib.import_module(rules.web)
    except ModuleNotFoundError as e:
        if e.name != rules.web:
            raise
        raise GlueError(f"game {rules.id!r}: its web glue {rules.web!r} (Game.web) is not a module") from None
    glue = getattr(module, "PAGES", None)
    if not isinstance(glue, GamePages):
        raise GlueError(f"game {rules.id!r}: its web glue {rules.web} declares no PAGES = GamePages(...)")
    return glue


_GLUE: Mapping[str, GamePages] = MappingProxyType({game: _load(rules) for game, rules in games.GAMES.items()})


def pages(game_id: str) -> GamePages:
    """The web glue of a game: a registered game's own, else (a designer's data-only game) the generic pages."""
    return _GLUE.get(game_id, GENERIC)


def as_fields(game_id: str) -> Callable[[Mapping], list[tuple[str, str]]]:
    """A score request of this game → its scoring form's fields (`request_fields`): a saved round opened again."""
    glue = pages(game_id)
    return lambda request: request_fields(glue, request)


def taking_photos(game_id: str) -> GamePages | None:
    """The web glue of a game whose scoring page takes photos of the cards (a scoring page, and glue saying where a
    card goes: `targets` and `add`), else None: the server's photo page and the static site's phone ask alike."""
    glue = pages(game_id)
    if glue.targets is None or glue.add is None or not views.has_score_page(game_id):
        return None
    return glue


def _scoring(form: MultiDict, lang: str, game: str) -> views.View:
    return views.scoring(game, form, lang, pages(game))


def _setup(form: MultiDict, lang: str, game: str) -> views.View:
    return views.setup(game, form, lang, pages(game))


def _every_view() -> dict[str, View]:
    found: dict[str, View] = {"scoring.score": _scoring, "setup.setup": _setup}
    for game, glue in _GLUE.items():
        for endpoint, page in glue.own.items():
            if endpoint in found or "." not in endpoint:
                raise GlueError(f"game {game!r}: its page {endpoint!r} must be named <blueprint>.<name>, and by no "
                                f"other page")
            found[endpoint] = page.view
    return found


# The computing pages by endpoint: what the server routes and what the static site's phones render.
VIEWS: Mapping[str, View] = MappingProxyType(_every_view())
OWN: Mapping[str, Page] = MappingProxyType({endpoint: page for glue in _GLUE.values()
                                            for endpoint, page in glue.own.items()})  # the games' pages of their own
DRAWN_ON_THE_PHONE = (*VIEWS, views.PHONE_SHEETS)  # a static site's pages its phones draw in their own Python
