"""Rules pages: one per game and one per printed card (the target of every card's QR code), and each game's look
(its accent colour and icons) as a small stylesheet."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, send_file, url_for
from flask_babel import gettext as _

from ... import games, library, rulebook, service
from ...pnp import faces
from ..games.glue import pages
from ..shell import assets, locale
from ..site.urls import site_url_for
from . import face_svg, icons, scan, views

bp = Blueprint("pages", __name__)


def _card_set(game: str):
    card_set = library.current().get(game.lower())
    if card_set is None:
        abort(404)
    return card_set


@bp.get("/")
def index():
    """The home page: every known game, with links to its pages."""
    return render_template("index.html", games=[(s, pages(s.game)) for s in service.catalogue()],
                           live={a.game for a in library.current().added()})


@bp.get("/rules/<game>")
def rules(game: str):
    """A game's rules page: its rules sections and what the game holds (404 for an unknown game)."""
    card_set = _card_set(game)
    shown = [c for c in card_set.components if c.kind != "back"]
    return render_template("rules.html", card_set=card_set, components=shown,
                           inventory=rulebook.inventory(card_set, locale.current()),
                           live=library.current().added(card_set.game) is not None)


@bp.get("/c/<game>/<card_id>")
def card(game: str, card_id: str):
    """A card's page, its QR code's target: its face, its rules, where the open scoring page takes it; 404: a back."""
    card_set = _card_set(game)
    try:
        component = card_set.component(card_id.upper())
    except KeyError:
        abort(404)
    if component.kind == "back":
        abort(404)
    face = faces.face(component, card_set, locale.current())
    drawn = face_svg.face(card_set, component, locale.current(), _art_url(card_set))
    return render_template("card.html", card_set=card_set, c=component, face=face, drawn=drawn,
                           sections=rulebook.sections_for(card_set, component),
                           targets=scan.targets(card_set.game, component))


@bp.get("/C/<card_id>")
def card_from_qr(card_id: str):
    """A printed QR code: `BASE/C/<printed id>` (ids are unique across games) → that card's page."""
    found = library.current().find_component(card_id.upper())
    if found is None or found[1].kind == "back":
        abort(404)
    if current_app.config.get("STATIC_SITE"):  # a static host cannot redirect: a small page that moves on
        card_set, c = found
        return render_template("moved.html", card_set=card_set, c=c, face=faces.face(c, card_set, locale.current()),
                               target=site_url_for("pages.card", game=card_set.game, card_id=c.id))
    return redirect(_kept_query(url_for("pages.card", game=found[0].game, card_id=found[1].id)), code=301)


@bp.get("/companion-needed")
def companion_needed():
    """On a static site: scoring, setup and sheets need the companion running."""
    return render_template("message.html", title=_("This needs the companion"), message=_(
        "Scoring, setup and saved sheets run on the companion: start it at the table with make run (phones on the "
        "same Wi-Fi open the address it prints), or use a hosted companion. The rules and every card work here."))


@bp.get("/C/<game>/<card_id>")
def card_from_old_qr(game: str, card_id: str):
    """The codes printed before short codes (`BASE/C/<GAME>/<id>`) keep working."""
    return redirect(_kept_query(url_for("pages.card", game=game.lower(), card_id=card_id.upper())), code=301)


def _kept_query(url: str) -> str:
    """A redirect's target with the query the code's address carried (`?lang=en`: the card in that language)."""
    return locale.with_query(url, request.args.to_dict(flat=False)) if request.args else url


def _art_url(card_set):
    """An art file's address on the phone (None for a file no component, term or layout of the game names)."""
    shown = {path: name for name, path in face_svg.art_files(card_set).items()}
    return lambda path: url_for("pages.card_art", game=card_set.game, name=shown[path]) if path in shown else None


@bp.get("/art/<game>/<path:name>")
def card_art(game: str, name: str):
    """A picture the game's card data names (only those: never another file of its folder)."""
    path = face_svg.art_files(_card_set(game)).get(name)
    if path is None or not os.path.isfile(path):
        abort(404)
    return _live(game, send_file(path, mimetype=face_svg.ART_TYPES[os.path.splitext(path)[1].lower()],
                                 max_age=24 * 3600))


@bp.get("/fonts/<game>/<name>")
def card_font(game: str, name: str):
    """A font file the game's `fonts:` declares, for its card faces on the phone."""
    path = face_svg.font_files(_card_set(game)).get(name)
    if path is None or not os.path.isfile(path):
        abort(404)
    return _live(game, send_file(path, mimetype="font/ttf" if path.lower().endswith(".ttf") else "font/otf",
                                 max_age=24 * 3600))


def game_css(game: str) -> str:
    """A registered game's own look for its pages (the classes its templates use that no other game's do): the
    stylesheet beside its web glue (`web/games/<module>.css`), as sent; "" for a game without one, and for a
    designer's data-only game. It goes out with the game's look (`/icons/<game>.css`), on its pages only."""
    rules = games.GAMES.get(game)
    spec = importlib.util.find_spec(rules.web) if rules is not None and rules.web else None
    path = Path(spec.origin).with_suffix(".css") if spec is not None and spec.origin else None
    return assets.as_sent(path) if path is not None and path.is_file() else ""


def icon_css(game: str) -> str | None:
    """A game's look as CSS (accent, icon classes, fonts, and its rules' own stylesheet); None for a game not
    known."""
    card_set = library.current().get(game.lower())
    if card_set is None:
        return None
    fonts = face_svg.font_faces(card_set, lambda name: url_for("pages.card_font", game=card_set.game, name=name))
    return (icons.stylesheet(card_set.look) + icons.face_rules(views.face_icons(card_set)) + fonts
            + game_css(card_set.game))


assets.SENDS["pages.icon_styles"] = lambda values: icon_css(values.get("game", ""))  # (for its versioned address)


@bp.get("/icons/<game>.css")
def icon_styles(game: str):
    """A game's look as CSS, checked at each use for a game served live; compressed, tagged and kept (a year at
    its versioned address) by companion.web.shell.assets."""
    card_set = _card_set(game)
    return _live(card_set.game, Response(icon_css(game), mimetype="text/css"))


def _live(game: str, response: Response) -> Response:
    """A game served from a designer's file that may change at any moment (`serve --cards`): its pictures, fonts and
    look are checked with the companion at each use (an unchanged one is a 304), not kept for a day."""
    if library.current().added(game.lower()) is not None:
        response.cache_control.max_age = 0
        response.cache_control.no_cache = True
        response.cache_control.public = False
    return response
