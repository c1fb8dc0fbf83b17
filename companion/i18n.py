"""One translation catalogue (gettext .po files) for printed card words and web pages, es and en.

Message ids are the English texts, so English needs no catalogue. `companion/translations/<lang>.po` is compiled
in memory the first time a language is used; the web app reads the same catalogues through Flask-Babel.
"""
from __future__ import annotations

from functools import cache
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING

from .schema import LANGS

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

DEFAULT_LANG = "es"
CATALOGUE_DIR = Path(__file__).parent / "translations"
PRINTED = "printed"  # the auto-comment marking texts printed on cards (they must be in the embedded font)


def po_path(lang: str) -> Path:
    return CATALOGUE_DIR / f"{lang}.po"


@cache
def catalog(lang: str) -> Catalog:
    """The parsed .po catalogue of `lang` (an empty one for English, the language of the message ids)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    path = po_path(lang)
    if not path.exists():
        return Catalog(locale=lang)
    with path.open("rb") as f:
        return read_po(f, locale=lang)


@cache
def translations(lang: str) -> NullTranslations:
    """gettext translations for `lang`, compiled in memory from its .po file (Babel is imported only here: the
    rules import this module, and the static site's browser runtime carries no Babel)."""
    if lang not in LANGS or not po_path(lang).exists():
        try:  # Babel's kind where it is installed (Flask-Babel calls its extra methods), else the standard one
            from babel.support import NullTranslations
        except ImportError:
            from gettext import NullTranslations
        return NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.support import Translations

    buffer = BytesIO()
    write_mo(buffer, catalog(lang))
    buffer.seek(0)
    return Translations(buffer)


def N_(text: str) -> str:
    """Marks a text kept in a constant for extraction (`make messages`); translated where it is used."""
    return text


def _(text: str, lang: str, **values) -> str:
    """`text` (English) in `lang`, with %(placeholders)s filled in."""
    out = translations(lang).gettext(text)
    return out % values if values else out
