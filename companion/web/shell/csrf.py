"""CSRF protection for every request that changes something: a per-session token in each form (`_csrf`) or in
the `X-CSRF-Token` header (the page's script and API clients, which read it from GET /api/v1/csrf).

The token a page carries is masked afresh in every answer (a random mask, then the session's secret XOR the mask),
so that a compressed page never repeats it byte for byte: the length of a gzipped answer that also echoes what a
request sent cannot spell it out (BREACH). Any masking of the session's secret is accepted, and the secret itself."""
from __future__ import annotations

import base64
import hmac
import secrets

from flask import Flask, jsonify, render_template, request, session
from flask_babel import gettext as _

FIELD = "_csrf"
HEADER = "X-CSRF-Token"
SAFE = ("GET", "HEAD", "OPTIONS")
EXEMPT = {"api.score", "api.scan",  # compute an answer from the body alone: nothing stored, no cookie read
          "photo_pages.fill"}  # a scoring page filled from its form and photo: nothing stored either


def token() -> str:
    """This session's token, masked afresh (the secret made on first use; the session then lasts a month, an
    evening's game and more)."""
    value = session.get("csrf")
    if not value:
        value = session["csrf"] = secrets.token_urlsafe(32)
        session.permanent = True
    secret = value.encode()
    mask = secrets.token_bytes(len(secret))
    return base64.urlsafe_b64encode(mask + bytes(a ^ b for a, b in zip(secret, mask, strict=True))).decode()


def _unmasked(sent: str, expected: str) -> bytes:
    """The secret a sent token carries: unmasked when it is a masking of one as long as the session's, else as
    sent (a page from before masking, kept in a phone's queue)."""
    try:
        raw = base64.urlsafe_b64decode(sent.encode())
    except (ValueError, TypeError):
        return sent.encode()
    half = len(expected.encode())
    if len(raw) != 2 * half:
        return sent.encode()
    return bytes(a ^ b for a, b in zip(raw[half:], raw[:half], strict=True))


def init_app(app: Flask) -> None:
    """Templates get `csrf_token()`; a change (not GET, HEAD, OPTIONS, api.score) without the session's token: 400."""
    app.jinja_env.globals["csrf_token"] = token
    app.before_request(_protect)


def _protect():
    if request.method in SAFE or request.endpoint in EXEMPT or request.endpoint is None:
        return None
    sent = request.headers.get(HEADER) or request.form.get(FIELD, "")
    expected = session.get("csrf", "")
    if sent and expected and (hmac.compare_digest(_unmasked(sent, expected), expected.encode())
                               or hmac.compare_digest(sent.encode(), expected.encode())):
        return None
    message = _("The form's security token is missing or out of date. Reload the page and try again.")
    if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
        return jsonify(error=message, field="csrf"), 400
    return render_template("message.html", title=_("Not saved"), message=message), 400
