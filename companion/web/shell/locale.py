"""Which language a page speaks: the visible switch (?lang=, then remembered in a cookie), else the browser's."""
from __future__ import annotations

from urllib.parse import quote, urlencode

import flask_babel
from flask import current_app, g, request, url_for

from ...core import i18n

COOKIE = "lang"
ONE_YEAR = 365 * 24 * 3600


def select() -> str:
    """This request's language: the static site's, else ?lang= (then remembered), the cookie, the browser's, default.
    A game's page speaks one of the languages its file writes, its first by default (where the companion has no
    words of its own in that language, they are English)."""
    fixed = current_app.config.get("STATIC_LANG")  # a static site has one tree a language
    if fixed:
        return fixed
    langs, default = offered()
    asked = request.args.get("lang")
    if asked in langs:
        g.remember_lang = asked
        return asked
    g.lang_negotiated = True  # the cookie or the browser's languages chose it: the answer says so (`Vary`)
    kept = request.cookies.get(COOKIE)
    if kept in langs:
        return kept
    return request.accept_languages.best_match(langs) or default


def offered() -> tuple[tuple[str, ...], str]:
    """(the languages this page may speak, its default): a game's page, its file's `languages:` and the first of
    them; any other page, ours (Spanish first)."""
    game = (request.view_args or {}).get("game") if request else None
    if isinstance(game, str):
        from ... import library

        card_set = library.current().get(game)
        if card_set is not None and card_set.languages != i18n.LANGS:
            return card_set.languages, card_set.languages[0]
    return i18n.LANGS, i18n.DEFAULT_LANG


def current() -> str:
    """The language of the page being answered ("es" or "en")."""
    return str(flask_babel.get_locale() or i18n.DEFAULT_LANG)


def remember(response):
    """After a request: a language chosen with ?lang= kept in a cookie for a year."""
    lang = g.get("remember_lang")
    if lang and request.cookies.get(COOKIE) != lang:
        response.set_cookie(COOKIE, lang, max_age=ONE_YEAR, samesite="Lax", httponly=True)
    return response


def site_root_language() -> str:
    """The language at a static site's root (`companion site --lang`, else its games' own first language when
    they agree, else Spanish)."""
    return current_app.config.get("SITE_ROOT_LANG") or i18n.DEFAULT_LANG


def switch_url(lang: str) -> str:
    """This page in another language (the query string is kept; on a static site, the other language's tree)."""
    if current_app.config.get("STATIC_SITE"):
        root = current_app.config.get("SITE_ROOT", "")
        return f"{root}{'' if lang == site_root_language() else '/' + lang}{request.path}"
    args = request.args.to_dict(flat=False)
    args["lang"] = [lang]
    if request.endpoint is None:  # an error page for an address no route matched: the same address
        return f"{quote(request.path)}?{urlencode(args, doseq=True)}"
    return with_query(url_for(request.endpoint, **(request.view_args or {})), args)


def with_query(url: str, args) -> str:
    """An address with a query string. Query keys never reach url_for, where `_anchor`, `_external` or a key named
    like a route's own part (`?game=x`) would change the address or fail."""
    query = urlencode(args, doseq=True)
    return f"{url}?{query}" if query else url


class CatalogueDomain(flask_babel.Domain):
    """Flask-Babel reads our in-memory-compiled catalogues (companion/core/i18n.py) instead of .mo files."""

    def get_translations(self):
        return i18n.translations(current())


def init_app(app) -> None:
    """Flask-Babel on our catalogues with `select`, the language cookie, and `lang`, `langs`, `switch_url` for pages."""
    babel = flask_babel.Babel(app, locale_selector=select, default_locale=i18n.DEFAULT_LANG)
    babel.domain_instance = CatalogueDomain()
    app.after_request(remember)
    app.context_processor(lambda: {"lang": current(), "langs": offered()[0], "switch_url": switch_url})
