"""Addresses on a static site (`companion site`): pages are folders, and what needs the server leads to the companion
or to a page that says so. The frozen app's templates call this as their `url_for`."""
from __future__ import annotations

from flask import current_app, request, url_for

from ..games import glue
from ..play import views

SITE_PAGES = {"pages.index", "pages.rules", "pages.card", "pages.card_from_qr", "offline.offline",
              "pages.companion_needed"}
SITE_FILES = {"static", "pages.icon_styles", "pages.card_art", "pages.card_font", "offline.manifest",
              "offline.service_worker"}


def site_url_for(endpoint: str, **values) -> str:
    """url_for on a static site: pages end with "/" (a folder with index.html, which any static host serves), and
    pages that need the server lead to the companion (`COMPANION_URL`) or to a page that says so."""
    if endpoint in SITE_FILES:
        return url_for(endpoint, **values)
    scoring = current_app.config.get("SITE_SCORING")
    if scoring and endpoint == "sheet_pages.index":
        endpoint = views.PHONE_SHEETS  # the site's own sheets, kept on the phone
    if endpoint in SITE_PAGES or (scoring and endpoint in glue.DRAWN_ON_THE_PHONE):
        url = url_for(endpoint, **values)
        path, hash_, fragment = url.partition("#")
        return (path if path.endswith("/") else path + "/") + hash_ + fragment
    companion = current_app.config.get("COMPANION_URL")
    if companion:
        values.pop("lang", None)
        return companion.rstrip("/") + url_for(endpoint, **values)[len(request.script_root):]
    return site_url_for("pages.companion_needed")
