"""Refresh the catalogues: extract every translatable text (templates and Python) and merge it into each .po file.

Run with `make messages`; new texts appear with an empty translation, which `tests/test_i18n.py` reports.
"""
from __future__ import annotations

from functools import cache
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "_l": None, "N_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None}
METHODS = [("companion/**.py", "python"), ("templates/**.html", "jinja2")]
# What a problem in a player's input says (companion.core.schema): the template of Problems.add, problem and Problem
# (their second argument), an Enum's name for its values (its second) and a Word (its first). Not read where
# only a card designer meets the problems (card data, looks, the PDF, site building): those stay English.
PROBLEM_KEYWORDS = {"add": (2,), "problem": (2,), "Problem": (2,), "Enum": (2,), "Word": None}
DESIGNERS_ONLY = ("companion/cards/**", "companion/look.py", "companion/scoring/**", "companion/pnp/**",
                  "companion/web/site/browser.py", "companion/web/site/build.py", "companion/web/site/python.py",
                  "companion/translations/**")
PROBLEM_METHODS = [*((path, "ignore") for path in DESIGNERS_ONLY), ("companion/**.py", "python")]
PRINTED_FROM = ("companion/pnp/", "companion/games/")  # texts of the PDF code and the games' faces are printed


def _found(methods, keywords) -> list:
    """Every message the methods find, read once a process (the tests and `make messages` ask several times)."""
    return _extracted(tuple(methods), tuple(keywords.items()))


@cache
def _extracted(methods: tuple, keywords: tuple) -> list:
    return list(extract_from_dir(str(ROOT), list(methods), keywords=dict(keywords), comment_tags=("TRANSLATORS:",)))


def template() -> Catalog:
    """Every message the code and templates use."""
    pot = Catalog()
    for methods, keywords in ((METHODS, KEYWORDS), (PROBLEM_METHODS, PROBLEM_KEYWORDS)):
        for filename, lineno, message, comments, context in _found(methods, keywords):
            pot.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return pot


def problem_places() -> set[tuple[str, int, str]]:
    """Where a problem's message is written (file, line, message): said on screens, never printed."""
    return {(filename, lineno, message) for filename, lineno, message, *_ in _found(PROBLEM_METHODS, PROBLEM_KEYWORDS)}


def update(lang: str) -> Catalog:
    """`lang`'s catalogue merged with every message in use, the printed ones marked "printed" (nothing is written)."""
    path = Path(__file__).parent / f"{lang}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    catalog.update(template(), no_fuzzy_matching=True)
    problems = problem_places()
    for message in catalog:  # printed texts must be in the embedded font
        if any(filename.startswith(PRINTED_FROM) and (filename, lineno, message.id) not in problems
               for filename, lineno in message.locations):
            message.auto_comments = ["printed"]
    return catalog


def rendered(lang: str) -> bytes:
    """`lang`'s catalogue as `make messages` writes it: merged with every message in use, without locations or
    obsolete messages; its creation date kept where nothing else in it changes, so that the command is a no-op on
    a tree whose catalogue is current (a contributor's diff holds their own words, nothing more)."""
    path = Path(__file__).parent / f"{lang}.po"
    with path.open("rb") as f:
        kept = read_po(f, locale=lang).creation_date
    catalog = update(lang)
    stamp = catalog.creation_date
    catalog.creation_date = kept
    out = _written(catalog)
    if out != path.read_bytes():  # something changed: the catalogue is dated now
        catalog.creation_date = stamp
        out = _written(catalog)
    return out


def _written(catalog: Catalog) -> bytes:
    buffer = BytesIO()
    write_po(buffer, catalog, omit_header=False, no_location=True, sort_output=False, ignore_obsolete=True)
    return buffer.getvalue()


def main() -> None:
    """Write each catalogue (es) as `rendered` gives it, only where it changes."""
    for lang in ("es",):
        path = Path(__file__).parent / f"{lang}.po"
        out = rendered(lang)
        if out != path.read_bytes():
            path.write_bytes(out)


if __name__ == "__main__":
    main()
