"""The headers every answer of the app carries: that it is the companion's own, what the page may load (CSP), no
cache for anything that holds an edit link and a revalidation for every other page, what chose the page's language
(`Vary`); and every answer a browser takes compressed sent gzipped."""
from __future__ import annotations

import gzip

from flask import Flask, g, request

from . import assets

# No inline scripts or styles, nothing from another origin: pages must work at a table without signal.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def headers(response):
    """Every answer of this app says so: the page script takes an answer as the server's own (an entry written, or
    refused for good) only with this header and a JSON body. A captive portal's page, a proxy's 408, 429 or 502, or
    a redirect elsewhere has no such header, so the phone keeps the entry and sends it again."""
    response.headers["X-Companion"] = "1"
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    if request.path.startswith(("/api/", "/s/", "/sheets/")) or request.path == "/sheets" or g.get("holds_edit_link"):
        # an edit link in a page is a key: no cache keeps it (the service worker's offline copies are the phone's
        # own, and a sheet's page offers to forget them)
        response.headers["Cache-Control"] = "no-store"
    html = response.mimetype == "text/html"
    if html:
        response.headers.setdefault("Cache-Control", "no-cache")  # kept, but asked again before it is shown
        if g.get("lang_negotiated"):
            _vary(response, "Accept-Language", "Cookie")
    return compressed(response)


COMPRESSED = ("text/html", "application/json", "text/css", "text/javascript", "application/javascript",
              "image/svg+xml", "application/manifest+json", "text/plain", "text/csv")
LEAST = 500  # bytes: a smaller answer costs more to compress than it saves


def compressed(response):
    """The answer gzipped when the browser takes it and it is worth it (text of 500 bytes or more, not yet encoded,
    not streamed), with `Vary: Accept-Encoding` whenever it could be. Not a page that holds an edit link (BREACH: a
    page also echoes what a request sent); the form token every page holds is masked afresh each time (csrf.py)."""
    if response.mimetype not in COMPRESSED or response.direct_passthrough or response.is_streamed \
            or request.endpoint in assets.SENT_HERE:  # (the stylesheets and scripts: gzipped once a version there)
        return response
    if response.headers.get("Cache-Control") == "no-store" and response.mimetype == "text/html":
        return response  # a page holding an edit link: its compressed length beside echoed input would leak it
    _vary(response, "Accept-Encoding")
    if "gzip" not in request.accept_encodings or "Content-Encoding" in response.headers \
            or response.status_code in (204, 304) or response.status_code < 200:
        return response
    body = response.get_data()
    if len(body) < LEAST:
        return response
    response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    return response


def _vary(response, *names: str) -> None:
    have = [v.strip() for v in response.headers.get("Vary", "").split(",") if v.strip()]
    response.headers["Vary"] = ", ".join([*have, *(n for n in names if n not in have)])


def init_app(app: Flask) -> None:
    app.after_request(headers)
