"""One translation catalogue (gettext .po files) for printed card words and web pages, es and en.

Message ids are the English texts, so English needs no catalogue. `companion/translations/<lang>.po` is compiled
in memory the first time a language is used; the web app reads the same catalogues through Flask-Babel.
"""
from __future__ import annotations

from functools import cache
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gettext import NullTranslations

    from babel.messages.catalog import Catalog

LANGS = ("es", "en")  # every text a player reads comes in each of these
DEFAULT_LANG = "es"
CATALOGUE_DIR = Path(__file__).parent.parent / "translations"
DECIMAL_MARK = {"es": ","}  # how a language writes 17.75 (English's "." where not listed)
PRINTED = "printed"  # the auto-comment marking texts printed on cards (they must be in the embedded font)


def po_path(lang: str) -> Path:
    """The catalogue file of `lang` (companion/translations/<lang>.po); it may not exist (English has none)."""
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


def mo_path(lang: str) -> Path:
    """A catalogue compiled ahead of time: only the static site's zip has one (its phones carry no Babel)."""
    return CATALOGUE_DIR / f"{lang}.mo"


def compiled(lang: str) -> bytes:
    """`lang`'s catalogue as a .mo file (written into the static site's zip when it is built)."""
    from babel.messages.mofile import write_mo

    buffer = BytesIO()
    write_mo(buffer, catalog(lang))
    return buffer.getvalue()


@cache
def translations(lang: str) -> NullTranslations:
    """gettext translations for `lang`: from a compiled .mo beside the .po where there is one (the phone's Python),
    else compiled in memory from the .po with Babel (imported only here: the rules import this module)."""
    if lang in LANGS and mo_path(lang).exists():
        from gettext import GNUTranslations

        with mo_path(lang).open("rb") as f:
            return GNUTranslations(f)
    if lang not in LANGS or not po_path(lang).exists():
        try:  # Babel's kind where it is installed (Flask-Babel calls its extra methods), else the standard one
            from babel.support import NullTranslations
        except ImportError:
            from gettext import NullTranslations
        return NullTranslations()
    from babel.support import Translations

    return Translations(BytesIO(compiled(lang)))


def N_(text: str) -> str:
    """Marks a text kept in a constant for extraction (`make messages`); translated where it is used."""
    return text


def _(text: str, lang: str, **values) -> str:
    """`text` (English) in `lang`, with %(placeholders)s filled in."""
    out = translations(lang).gettext(text)
    return out % values if values else out
