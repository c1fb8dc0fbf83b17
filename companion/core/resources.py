"""Where the shipped card data and templates are, in a checkout or an installed wheel."""
from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # the `companion` package's folder
DATA_IN_WHEEL = "_data"  # where a wheel carries them inside the package (not `cards/`: that is the card data package)


def _data_dir(name: str) -> Path:
    # A wheel carries them inside the package (see pyproject's force-include); a checkout beside it.
    inside = PACKAGE_DIR / DATA_IN_WHEEL / name
    return inside if inside.is_dir() else PACKAGE_DIR.parent / name


def cards_dir() -> Path:
    return _data_dir("cards")


def templates_dir() -> Path:
    """The folder of the web app's page templates (Jinja): inside the package in a wheel, beside it in a checkout."""
    return _data_dir("templates")
