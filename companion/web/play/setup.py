"""The setup helper: players and options in, a seeded setup out; the seed stays in the URL, so the same link
deals the same game on another phone, and "reroll" keeps everything but the seed. The form comes from the game's
declared options; the words of its answer from the game's page glue; what the page shows from `views.setup`."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for

from ... import library
from ..games import glue
from ..sheets.saved import absolute
from ..shell import locale
from ..shell.locale import with_query
from . import views

bp = Blueprint("setup", __name__)


@bp.get("/setup/<game>")
def setup(game: str):
    """A game's setup page; a server first redirects a request without a seed to the same address with a fresh one."""
    args = request.args
    fresh = not args.get("seed") and not current_app.config.get("STATIC_SITE")  # (a static page's script adds one)
    if game in library.current() and fresh:  # the seed goes in the URL first, so the link can be shared
        return redirect(with_query(url_for("setup.setup", game=game), {**args.to_dict(flat=False),
                                                                       "seed": views.new_seed()}))
    try:
        template, context, status = views.setup(game, args, locale.current(), glue.pages(game))
    except views.NotFound:
        abort(404)
    here = url_for("setup.setup", game=game)
    views.with_links(context, here, absolute(here))
    return render_template(template, **context), status
