"""The companion web app: `create_app(config)` with one blueprint per concern over the same service as the CLI."""
from __future__ import annotations

from flask import Flask, jsonify

from .. import resources


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, template_folder=str(resources.templates_dir()), static_folder="static")
    app.config.update(MAX_CONTENT_LENGTH=256 * 1024)
    app.config.update(config or {})
    app.json.ensure_ascii = False
    app.json.sort_keys = False  # answers keep the order the rules give them, as on the command line

    from . import api, pages

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)

    @app.get("/healthz")
    def healthz():
        return jsonify(status="ok")

    @app.errorhandler(413)
    def too_large(_error):
        return jsonify(error="the request is too large", field=""), 413

    return app
