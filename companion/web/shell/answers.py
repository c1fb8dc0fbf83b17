"""The headers every answer of the app carries: that it is the companion's own, what the page may load (CSP), and
no cache for anything that holds an edit link."""
from __future__ import annotations

from flask import Flask, g, request

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
    return response


def init_app(app: Flask) -> None:
    app.after_request(headers)
