"""The companion on the web: the app (`create_app`), the package the rest of the code imports.

Its rooms (docs/code-map.md): `shell/` (what every answer goes through), `play/` (scoring, setup, rules and card
pages, the JSON API), `games/` (each game's web glue), `sheets/` (saved sheets), `photos/` (a photo fills a form),
`site/` (the static site and the Python its phones run)."""
from __future__ import annotations

from ..core.faces import lazy
from .app import create_app

# What the command line starts besides the app, imported when first asked for: the server (waitress), the instance's
# checks (SQLAlchemy) and the static site's build (Frozen-Flask). The phone's Python imports this package's rooms
# (the forms, the glue, the renderer) and none of these.
__getattr__ = lazy(__name__, {"serve": ".shell.serving:serve", "InstanceError": ".shell.instance:InstanceError",
                              "check_database": ".shell.instance:check_database",
                              "shown_database": ".shell.instance:shown_database", "build_site": ".site.build:build"})

__all__ = ["create_app", "serve", "InstanceError", "check_database", "shown_database", "build_site"]
