"""Working without signal: the web app manifest, the service worker (served from the root so it covers every
page, versioned by what it caches) and the page shown for a page never opened before."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from flask_babel import gettext as _

bp = Blueprint("offline", __name__)
STATIC = Path(__file__).resolve().parent.parent / "static"


@lru_cache(maxsize=1)
def _worker() -> str:
    digest = hashlib.sha256()
    for name in ("companion.js", "sheets.js", "theme.js", "companion.css", "sw.js", "icon.svg"):
        digest.update((STATIC / name).read_bytes())
    return (STATIC / "sw.js").read_text(encoding="utf-8").replace("__VERSION__", digest.hexdigest()[:12])


def page_context() -> dict:
    """Where a page's service worker is and what it covers: this server's, or a static site's (kept at its root)."""
    if current_app.config.get("STATIC_SITE"):
        from . import locale

        root = current_app.config.get("SITE_ROOT", "")
        # registered for the page's language: the phone keeps that language's pages (another language's page
        # registers it again, for its own)
        worker = {"url": f"{root}/sw.js?lang={locale.current()}", "scope": f"{root}/"}
        page = python_page(root, worker)
        # a page drawn by the phone's Python registers it itself once it has answered (site-python.js): at a first
        # visit the site's copy is not made while Python starts
        return {"service_worker": {"url": "", "scope": ""} if page else worker, "static_site": True,
                "python_page": page}
    return {"service_worker": {"url": url_for("offline.service_worker"), "scope": f"{request.script_root}/"},
            "static_site": False}


def python_page(root: str, service_worker: dict) -> dict | None:
    """On a static site with scoring, what a computing page's script needs to draw it in the phone's own Python:
    the page (endpoint and route values), its language, the worker, and the words it shows while Python loads (and
    once a tap waits for it: `kept`)."""
    from ..games import glue
    from . import locale

    if not current_app.config.get("SITE_SCORING") or request.endpoint not in glue.DRAWN_ON_THE_PHONE:
        return None
    return {"endpoint": request.endpoint, "values": request.view_args or {}, "lang": locale.current(),
            "worker": current_app.config.get("SITE_WORKER") or f"{root}/py/worker.js",
            "service_worker": service_worker, "words": {
                "download": _("Downloading the scoring and this site's pages to this phone: %(mb)s MB, once."),
                "ready": _("Getting the scoring ready…"), "failed": _("The scoring could not start on this phone:"),
                "kept": _("Getting the scoring ready… What you tapped is kept and done as soon as it is."),
                "unloaded": _("The scoring could not start on this phone: its files did not arrive. Open this page "
                              "again with a connection; once they have arrived, it works without one."),
                "offline": _("The scoring has not been downloaded to this phone yet: open this page once with a "
                             "connection.")}}


@bp.get("/sw.js")
def service_worker():
    """The service worker script, versioned by the files it caches, covering every page; checked again at each visit."""
    response = Response(_worker(), mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    response.cache_control.no_cache = True  # a new version is picked up on the next visit
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: name, start page, colours and icons, to install the companion on a phone."""
    response = jsonify(
        name="companion", short_name="companion", description=_("Scoring, setup and rules for your card games"),
        start_url=url_for("pages.index"), scope=f"{request.script_root}/", display="standalone",
        background_color="#fbf7ee", theme_color="#5b2a6e", icons=[
            {"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": url_for("static", filename="icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": url_for("static", filename="icon-512.png"), "sizes": "512x512", "type": "image/png"}])
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/offline")
def offline():
    """The page the service worker shows for a page never opened before the connection was lost."""
    return render_template("message.html", title=_("No connection"), message=_(
        "This page was not opened before the connection was lost, so there is no copy of it on this phone. Pages "
        "you have opened keep working; entries you add to a sheet are kept and sent when the connection returns."))
