"""The preview page (`/preview/<game>`): every component of a game drawn as its card page draws it (fronts, then the
backs), in a grid linking to each card's page. For a file served with `companion serve --cards`, the page shows
the errors of the file as it is now at the top when it is broken (the last good version is drawn meanwhile), and
what `companion validate` says of its art and fonts; its script asks `/preview/<game>/version` every second and
reloads the page when the files changed (companion/library.py reads them again)."""
from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template, url_for

from ... import library
from ..shell import locale
from . import face_svg
from .pages import _art_url

bp = Blueprint("preview", __name__)


@bp.get("/preview/<game>")
def preview(game: str):
    """Each component of a game drawn, fronts then backs; for a file served with --cards, its errors and print check."""
    known = library.current()
    card_set = known.get(game.lower())
    if card_set is None:
        abort(404)
    entry = known.added(card_set.game)
    lang, art_url = locale.current(), _art_url(card_set)
    fronts = [(c, face_svg.face(card_set, c, lang, art_url, f"f{i}-"))
              for i, c in enumerate(c for c in card_set.components if c.kind != "back")]
    backs = [(b, face_svg.back(card_set, b, lang, art_url, f"b{i}-"))
             for i, b in enumerate(c for c in card_set.components if c.kind == "back")]
    problems, warnings = _print_check(entry) if entry is not None and not entry.errors else ((), ())
    return render_template("preview.html", card_set=card_set, fronts=fronts, backs=backs,
                           errors=entry.errors if entry else (), problems=problems, warnings=warnings,
                           version=entry.version if entry else None,
                           version_url=url_for("preview.version", game=card_set.game) if entry else None)


@bp.get("/preview/<game>/version")
def version(game: str):
    """What the preview's script compares: it changes whenever one of the files of the game does."""
    entry = library.current().added(game.lower())
    if entry is None:
        abort(404)
    response = jsonify(game=entry.game, version=entry.version, errors=len(entry.errors))
    response.headers["Cache-Control"] = "no-store"
    return response


def _print_check(entry: library.Added) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What `companion validate` adds to loading the file (its art files read, its fonts and text fitting checked):
    errors and warnings, worked out once for each version of the files."""
    kept = entry.print_check
    if kept is not None and kept[0] == entry.version:
        return kept[1]
    from ...pnp.design_check import check_art, check_design

    version, card_set = entry.version, entry.card_set
    errors, warnings = check_art(card_set)
    if not errors:
        errors, more = check_design(card_set)
        warnings = [*warnings, *more]
    entry.print_check = (version, (tuple(errors), tuple(warnings)))
    return entry.print_check[1]
