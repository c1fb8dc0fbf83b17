"""What a page's <head> tells search engines and link previews: one sentence on what the page is for, and the page
in each language at an absolute address (hreflang), with the address that follows the reader's own language as the
default (x-default)."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, request

from ...core import i18n
from ...core.i18n import N_
from . import locale

# what a page of a game is for, by its endpoint ("%(game)s" is the game's title in the page's language)
FOR_A_GAME = {
    "scoring.score": N_("%(game)s: count a game's points on the phone, each total with the reason for it."),
    "setup.setup": N_("%(game)s: deal the opening setup on the phone and share it with the table."),
    "pages.rules": N_("%(game)s: the rules, and every card with what it does."),
    "pages.card": N_("%(game)s: a printed card, its text and the rules it plays by."),
    "preview.preview": N_("%(game)s: the card faces as the print draws them, redrawn when their file changes."),
}
FOR_A_GAME["pages.card_from_qr"] = FOR_A_GAME["pages.card_from_old_qr"] = FOR_A_GAME["pages.card"]
A_GAMES_OWN_PAGE = N_("%(game)s at the table: scoring, setup and rules on the phone.")
SHEETS = N_("Score sheets the whole table follows and fills in from their own phones.")
ANY_PAGE = N_("Scoring, setup and rules for your card games, on the phone at the table.")


def description(card_set=None) -> str:
    """This page's sentence in its language: what it does for its game (`card_set`, when it has one), else what
    the sheets or the companion are for."""
    lang, endpoint = locale.current(), request.endpoint or ""
    if endpoint.startswith(("sheet_pages.", "phone_sheets.")):
        return i18n._(SHEETS, lang)
    if card_set is not None:
        return i18n._(FOR_A_GAME.get(endpoint, A_GAMES_OWN_PAGE), lang, game=card_set.title.get(lang))
    return i18n._(ANY_PAGE, lang)


def _origin() -> str:
    """Where absolute addresses start: the server's configured address (BASE_URL), else the request's; on a static
    site the address it is frozen for ('' when none is known: the links stay relative)."""
    if current_app.config.get("STATIC_SITE"):
        parts = urlsplit(current_app.config.get("FREEZER_BASE_URL") or "")
        return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""
    base = current_app.config.get("BASE_URL") or request.host_url
    parts = urlsplit(base)
    return f"{parts.scheme}://{parts.netloc}"


def alternates() -> list[tuple[str, str]]:
    """(hreflang, address) for this page in every language, itself included, then x-default: on the server the
    address without ?lang= (the reader's browser or cookie chooses), on a static site the default language's tree
    (whose script opens the reader's language)."""
    origin = _origin()
    out = [(lang, origin + locale.switch_url(lang)) for lang in i18n.LANGS]
    if current_app.config.get("STATIC_SITE"):
        default = locale.switch_url(locale.site_root_language())
    else:
        args = request.args.to_dict(flat=False)
        args.pop("lang", None)
        default = locale.with_query(locale.switch_url(i18n.DEFAULT_LANG).partition("?")[0], args)
    return [*out, ("x-default", origin + default)]


def init_app(app) -> None:
    """`page_description(card_set)` and `alternates()` for base.html's <head>."""
    app.jinja_env.globals.update(page_description=description, alternates=alternates)
