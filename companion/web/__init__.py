"""The companion web app: `create_app(config)` with one blueprint per concern over the same service as the CLI."""
from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

# No inline scripts or styles, nothing from another origin: pages must work at a table without signal.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def create_app(config: dict | None = None) -> Flask:
    """The app; `config` may set INSTANCE_PATH (else COMPANION_INSTANCE_PATH, else Flask's instance folder),
    DATABASE_URL (else COMPANION_DATABASE_URL, else SQLite in the instance folder) and CARD_FILES (card data files
    outside cards/ to serve beside the shipped games, each read again when it changes: see companion.library; the
    app's games are `app.extensions["companion.library"]`, current in its app contexts). Broken card data is a
    DataError before anything is served."""
    # Imported here, not above: the form glue beside this package (forms, game_pages) is also what the static site's
    # phones run in their own Python, where there is no Flask.
    from flask import Flask, appcontext_pushed, g, jsonify, request

    from .. import library, resources, settings
    from ..pnp import design_check  # reportlab and fontTools: an added file's art and fonts checked as validate does
    from . import assets, csrf, errors, head, instance, limits, locale, saved

    config = dict(config or {})
    env = settings.environment()  # every COMPANION_* variable, read once; the config's own keys win over them
    # this app's games, and no other app's
    known = library.Library(config.get("CARD_FILES", ()), check_files=design_check.check_files)
    app = Flask(__name__, template_folder=str(resources.templates_dir()), static_folder="static",
                instance_path=instance.instance_path(config, env))
    app.extensions[library.EXTENSION] = known
    appcontext_pushed.connect(_bind_library)  # (once: connecting the same function again changes nothing)

    @app.teardown_appcontext
    def unbind_library(_error):
        for token in reversed(g.pop("_library_tokens", [])):
            library.unbind(token)

    @app.before_request
    def files_as_they_are_now():
        known.refresh()  # a designer's file changed since the last request is read again (a stat per file)
    # The session cookie is sent only by an answer that changes it: re-sent with every answer, one to a request
    # already on its way (the service worker's, a live redraw's) put back the session it was sent with, undoing a
    # newer change (the calculator's link to its sheet). Not refreshed by visits, it lasts a year from its last change.
    app.config.update(BASE_URL=env["BASE_URL"], MAX_CONTENT_LENGTH=256 * 1024,
                      SEND_FILE_MAX_AGE_DEFAULT=3600, SESSION_COOKIE_SAMESITE="Lax", SESSION_REFRESH_EACH_REQUEST=False,
                      PERMANENT_SESSION_LIFETIME=timedelta(days=365), SHEET_POLL_SECONDS=3)
    app.config.update(config)
    if (app.config.get("BASE_URL") or "").lower().startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True  # served over https: the session never travels in clear
    if app.config.get("STATIC_SITE"):  # frozen by `companion site`: pages are folders, so "/rules/x/" must match
        app.url_map.strict_slashes = False
    instance.init_app(app, env)
    app.url_map.converters["token"] = saved.TokenConverter
    app.json.ensure_ascii = False
    app.json.sort_keys = False  # answers keep the order the rules give them, as on the command line
    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True

    from . import (
        api,
        icons,
        offline,
        pages,
        photo_pages,
        preview,
        render,
        scan,
        scoring,
        setup_page,
        sheet_pages,
        sheets_api,
    )

    assets.init_app(app)
    head.init_app(app)
    locale.init_app(app)
    csrf.init_app(app)
    try:
        limits.init_app(app, env)
    except limits.LimitError as e:
        raise instance.InstanceError(str(e)) from None
    errors.init_app(app)
    render.configure(app.jinja_env, scoring.has_score_page, locale.current)
    app.jinja_env.bytecode_cache = render.compiled_templates()  # compiled once per process, not once per app
    app.jinja_env.globals["icon_svg_tag"] = icons.inline_svg
    app.context_processor(offline.page_context)
    if app.config.get("STATIC_SITE"):
        from .site_urls import site_url_for

        app.jinja_env.globals["url_for"] = site_url_for
    own = scoring.own_blueprints()  # the games' pages of their own
    if app.config.get("STATIC_SITE") and app.config.get("SITE_SCORING"):  # sheets kept on the phone itself
        from . import phone_sheets

        own.append(phone_sheets.bp)
    for blueprint in (api.bp, pages.bp, preview.bp, scoring.bp, setup_page.bp, scan.bp, sheets_api.bp, sheet_pages.bp,
                      offline.bp, photo_pages.bp, *own):
        app.register_blueprint(blueprint)

    @app.get("/healthz")
    def healthz():
        """200 when the app and its database answer and take writes; 503 naming what is wrong: the database does
        not answer, or cannot write (a write transaction cannot start: a read-only file or replica; or the last
        write failed for want of room, less than a minute ago, and none succeeded since)."""
        try:
            store = instance.store()
            store.ping()
        except Exception:  # noqa: BLE001 (whatever the driver raises, the answer is the same)
            return jsonify(status="error", database="unavailable"), 503
        try:
            store.check_writable()
        except Exception:  # noqa: BLE001
            return jsonify(status="error", database="cannot write"), 503
        if store.write_trouble():
            return jsonify(status="error", database="cannot write"), 503
        return jsonify(status="ok", database="ok")

    @app.after_request
    def headers(response):
        # Every answer of this app says so: the page script takes an answer as the server's own (an entry written,
        # or refused for good) only with this header and a JSON body. A captive portal's page, a proxy's 408, 429
        # or 502, or a redirect elsewhere has no such header, so the phone keeps the entry and sends it again.
        response.headers["X-Companion"] = "1"
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if request.path.startswith(("/api/", "/s/", "/sheets/")) or request.path == "/sheets" \
                or g.get("holds_edit_link"):
            # an edit link in a page is a key: no cache keeps it (the service worker's offline copies are the
            # phone's own, and a sheet's page offers to forget them)
            response.headers["Cache-Control"] = "no-store"
        return response

    return app


def _bind_library(app, **_extra) -> None:
    """While an app context of a companion app is pushed (every request, and any `with app.app_context()`), its
    games are `companion.library.current()`; the app's teardown unbinds them."""
    from flask import g

    from .. import library

    own = app.extensions.get(library.EXTENSION)
    if own is not None:
        g.setdefault("_library_tokens", []).append(library.bind(own))
