"""Refresh the catalogues: extract every translatable text (templates and Python) and merge it into each .po file.

Run with `make messages`; new texts appear with an empty translation, which `tests/test_i18n.py` reports.
"""
from __future__ import annotations

from io import BytesIO
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "_l": None, "N_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None}
METHODS = [("companion/**.py", "python"), ("templates/**.html", "jinja2")]


def template() -> Catalog:
    """Every message the code and templates use."""
    pot = Catalog()
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), METHODS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
        pot.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return pot


def update(lang: str) -> Catalog:
    path = Path(__file__).parent / f"{lang}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    catalog.update(template(), no_fuzzy_matching=True)
    for message in catalog:  # texts of the PDF code and the games' faces are printed: in the embedded font
        if any(filename.startswith(("companion/pnp/", "companion/games/")) for filename, _ in message.locations):
            message.auto_comments = ["printed"]
    return catalog


def main() -> None:
    for lang in ("es",):
        catalog = update(lang)
        buffer = BytesIO()
        write_po(buffer, catalog, omit_header=False, no_location=True, sort_output=False, ignore_obsolete=True)
        (Path(__file__).parent / f"{lang}.po").write_bytes(buffer.getvalue())


if __name__ == "__main__":
    main()
