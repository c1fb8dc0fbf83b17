"""The companion web app: `create_app(config)` with one blueprint per concern over the same service as the CLI."""
from __future__ import annotations

from datetime import timedelta

from flask import Flask, jsonify, render_template, request
from flask_babel import lazy_gettext as _l

from .. import resources
from . import csrf, instance, saved

# No inline scripts or styles, nothing from another origin: pages must work at a table without signal.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


ERRORS = {
    403: (_l("Read-only link"), _l("This link can only show the sheet. Ask for the edit link to change it.")),
    404: (_l("Not found"), _l("There is nothing at this address. Check the link, or start from the home page.")),
    405: (_l("Not allowed"), _l("This address does not take that kind of request.")),
}


def create_app(config: dict | None = None) -> Flask:
    """The app; `config` may set INSTANCE_PATH (else COMPANION_INSTANCE_PATH, else Flask's instance folder) and
    DATABASE_URL (else COMPANION_DATABASE_URL, else SQLite in the instance folder)."""
    config = dict(config or {})
    app = Flask(__name__, template_folder=str(resources.templates_dir()), static_folder="static",
                instance_path=instance.instance_path(config))
    app.config.update(MAX_CONTENT_LENGTH=256 * 1024, SEND_FILE_MAX_AGE_DEFAULT=3600, SESSION_COOKIE_SAMESITE="Lax",
                      PERMANENT_SESSION_LIFETIME=timedelta(days=31), SHEET_POLL_SECONDS=3)
    app.config.update(config)
    instance.init_app(app)
    app.url_map.converters["token"] = saved.TokenConverter
    app.json.ensure_ascii = False
    app.json.sort_keys = False  # answers keep the order the rules give them, as on the command line
    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True

    from . import api, icons, locale, offline, pages, scoring, setup_page, sheet, sheet_pages, sheets_api

    locale.init_app(app)
    csrf.init_app(app)
    app.jinja_env.filters["pair"] = lambda value: (value, value)  # a <select> choice shown as its own value
    app.jinja_env.filters["label_of"] = lambda key, card_set, lang: (key, card_set.label(key, lang))
    app.context_processor(lambda: {"icon_games": icons.ICON_SETS, "score_games": scoring.PAGES})
    for blueprint in (api.bp, pages.bp, scoring.bp, setup_page.bp, sheet.bp, sheets_api.bp, sheet_pages.bp, offline.bp):
        app.register_blueprint(blueprint)

    @app.get("/healthz")
    def healthz():
        return jsonify(status="ok")

    @app.errorhandler(413)
    def too_large(_error):
        return jsonify(error="the request is too large", field=""), 413

    @app.errorhandler(403)
    @app.errorhandler(404)
    @app.errorhandler(405)
    def refused(error):
        """JSON under /api/, else a page in the reader's language (not Flask's English one)."""
        if request.path.startswith("/api/"):
            return jsonify(error=error.description, field=""), error.code
        title, message = ERRORS[error.code]
        return render_template("message.html", title=title, message=message), error.code

    @app.after_request
    def headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app
