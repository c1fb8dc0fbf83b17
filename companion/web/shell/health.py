"""`/healthz`: what a load balancer asks: 200 when the app and its database answer and take writes, 503 naming
what is wrong."""
from __future__ import annotations

from flask import Flask, jsonify

from . import instance


def healthz():
    """200 when the app and its database answer and take writes; 503 naming what is wrong: the database does not
    answer, or cannot write (a write transaction cannot start: a read-only file or replica; or the last write failed
    for want of room, less than a minute ago, and none succeeded since)."""
    try:
        store = instance.store()
        store.ping()
    except Exception:  # noqa: BLE001 (whatever the driver raises, the answer is the same)
        return jsonify(status="error", database="unavailable"), 503
    try:
        store.check_writable()
    except Exception:  # noqa: BLE001 (whatever the driver raises, the answer is the same)
        return jsonify(status="error", database="cannot write"), 503
    if store.write_trouble():
        return jsonify(status="error", database="cannot write"), 503
    return jsonify(status="ok", database="ok")


def init_app(app: Flask) -> None:
    app.add_url_rule("/healthz", "healthz", healthz, methods=["GET"])
