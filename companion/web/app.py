"""The companion web app: `create_app(config)` with one blueprint per concern over the same service as the CLI."""
from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def create_app(config: dict | None = None) -> Flask:
    """The app; `config` may set INSTANCE_PATH (else COMPANION_INSTANCE_PATH, else Flask's instance folder),
    DATABASE_URL (else COMPANION_DATABASE_URL, else SQLite in the instance folder) and CARD_FILES (card data files
    outside cards/ to serve beside the shipped games, each read again when it changes: see companion.library; the
    app's games are `app.extensions["companion.library"]`, current in its app contexts). Broken card data is a
    DataError before anything is served. Each concern is set up by its own module's `init_app` (as flaskr does)."""
    # Imported here, not above: the form glue in this package (play.forms, games) is also what the static site's
    # phones run in their own Python, where there is no Flask.
    from flask import Flask

    from .. import settings
    from ..core import resources
    from .shell import answers, assets, csrf, errors, head, health, instance, limits, locale

    config = dict(config or {})
    env = settings.environment()  # every COMPANION_* variable, read once; the config's own keys win over them
    known = _games(config)
    app = Flask(__package__, template_folder=str(resources.templates_dir()), static_folder="static",
                instance_path=instance.instance_path(config, env))
    _serve_games(app, known)
    _configure(app, config, env)
    instance.init_app(app, env)
    assets.init_app(app)
    head.init_app(app)
    locale.init_app(app)
    csrf.init_app(app)
    try:
        limits.init_app(app, env)
    except limits.LimitError as e:
        raise instance.InstanceError(str(e)) from None
    errors.init_app(app)
    _templates(app)
    _blueprints(app)
    health.init_app(app)
    answers.init_app(app)
    return app


def _games(config: dict):
    """This app's games, and no other app's: the shipped ones and its CARD_FILES, an added file's art and fonts
    checked as validate checks them (reportlab and fontTools, a layer above the library)."""
    from .. import library
    from ..pnp import design_check

    return library.Library(config.get("CARD_FILES", ()), check_files=design_check.check_files)


def _serve_games(app: Flask, known) -> None:
    """The app's games current in its app contexts, and a designer's changed file read again before a request."""
    from flask import appcontext_pushed, g

    from .. import library

    app.extensions[library.EXTENSION] = known
    appcontext_pushed.connect(_bind_library)  # (once: connecting the same function again changes nothing)

    @app.teardown_appcontext
    def unbind_library(_error):
        for token in reversed(g.pop("_library_tokens", [])):
            library.unbind(token)

    @app.before_request
    def files_as_they_are_now():
        known.refresh()  # a designer's file changed since the last request is read again (a stat per file)


def _configure(app: Flask, config: dict, env) -> None:
    """The app's settings: ours, then the config's own. The session cookie is sent only by an answer that changes
    it: re-sent with every answer, one to a request already on its way (the service worker's, a live redraw's) put
    back the session it was sent with, undoing a newer change (the calculator's link to its sheet). Not refreshed by
    visits, it lasts a year from its last change."""
    from .sheets import saved

    app.config.update(BASE_URL=env["BASE_URL"], MAX_CONTENT_LENGTH=256 * 1024,
                      SEND_FILE_MAX_AGE_DEFAULT=3600, SESSION_COOKIE_SAMESITE="Lax", SESSION_REFRESH_EACH_REQUEST=False,
                      PERMANENT_SESSION_LIFETIME=timedelta(days=365), SHEET_POLL_SECONDS=3)
    app.config.update(config)
    if (app.config.get("BASE_URL") or "").lower().startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True  # served over https: the session never travels in clear
    if app.config.get("STATIC_SITE"):  # frozen by `companion site`: pages are folders, so "/rules/x/" must match
        app.url_map.strict_slashes = False
    app.url_map.converters["token"] = saved.TokenConverter
    app.json.ensure_ascii = False
    app.json.sort_keys = False  # answers keep the order the rules give them, as on the command line


def _templates(app: Flask) -> None:
    """The templates' settings, filters and globals (the static site's url_for writes its own addresses)."""
    from .play import icons, scoring
    from .shell import locale, offline, render

    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True
    render.configure(app.jinja_env, scoring.has_score_page, locale.current)
    app.jinja_env.bytecode_cache = render.compiled_templates()  # compiled once per process, not once per app
    app.jinja_env.globals["icon_svg_tag"] = icons.inline_svg
    app.context_processor(offline.page_context)
    if app.config.get("STATIC_SITE"):
        from .site.urls import site_url_for

        app.jinja_env.globals["url_for"] = site_url_for


def _blueprints(app: Flask) -> None:
    """One blueprint per concern, then the games' pages of their own (and, on a static site that scores, the
    sheets kept on the phone itself)."""
    from .photos import pages as photo_pages
    from .play import api, pages, preview, scan, scoring
    from .play import setup as setup_page
    from .sheets import api as sheets_api
    from .sheets import pages as sheet_pages
    from .sheets import playtest
    from .shell import offline

    own = scoring.own_blueprints()
    if app.config.get("STATIC_SITE") and app.config.get("SITE_SCORING"):
        from .site import phone_sheets

        own.append(phone_sheets.bp)
    if not app.config.get("STATIC_SITE"):  # (the figures of the sheets kept on a server)
        own.append(playtest.bp)
    for blueprint in (api.bp, pages.bp, preview.bp, scoring.bp, setup_page.bp, scan.bp, sheets_api.bp, sheet_pages.bp,
                      offline.bp, photo_pages.bp, *own):
        app.register_blueprint(blueprint)


def _bind_library(app, **_extra) -> None:
    """While an app context of a companion app is pushed (every request, and any `with app.app_context()`), its
    games are `companion.library.current()`; the app's teardown unbinds them."""
    from flask import g

    from .. import library

    own = app.extensions.get(library.EXTENSION)
    if own is not None:
        g.setdefault("_library_tokens", []).append(library.bind(own))
