"""Phone scoring pages: a form per game whose fields name the score request they fill (see forms.py); the
answer comes from the same service as the API and the command line, and the page shows why. What a page shows
is worked out in `views` (no Flask there: the static site's phones render the same views); the games' pages of their
own (`glue.OWN`) are served here too, each game's in a blueprint of the name its endpoints give."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template, request

from ..games import glue
from ..sheets import pages as sheet_pages
from ..shell import locale
from . import scan, views

bp = Blueprint("scoring", __name__)
has_score_page = views.has_score_page


def respond(view: views.View, game: str | None = None):
    """A view's page; with `game`, a scoring page kept open on this phone (for scanned cards) that offers to save
    its result to the sheet it was opened from."""
    template, context, status = view
    if game:
        context["save"] = sheet_pages.save_box(game, context["request_made"], context["result"])
    html = render_template(template, **context)
    return (scan.keep_open(html, game, request.full_path) if game else html), status


def show(endpoint: str, **values):
    """The server's page for one of `glue.VIEWS`, or 404."""
    try:
        view = glue.VIEWS[endpoint](request.args, locale.current(), **values)
    except views.NotFound:
        abort(404)
    kept = endpoint == "scoring.score" and not current_app.config.get("STATIC_SITE")  # a static page: no cookies
    return respond(view, values.get("game") if kept else None)


@bp.get("/score/<game>")
def score(game: str):
    """A game's scoring page: its form, and once sent the score and why (404 for an unknown game or one without it)."""
    return show("scoring.score", game=game)


def own_blueprints() -> list[Blueprint]:
    """The games' pages of their own, one blueprint for each name their endpoints start with."""
    made: dict[str, Blueprint] = {}
    for endpoint, page in glue.OWN.items():
        name, _, view_name = endpoint.partition(".")
        blueprint = made.setdefault(name, Blueprint(name, __name__))
        blueprint.add_url_rule(page.rule, view_name, lambda endpoint=endpoint: show(endpoint))
    return list(made.values())
