"""Card data's model: the fields a data file may hold (its header, each component's common fields) and the frozen
objects it is read into (CardSet, Component), with DataError for a file that cannot be used."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import layouts
from .. import scoring as data_scoring
from ..components import CARD_SIZES, SIZES
from ..core.i18n import LANGS
from ..core.schema import (
    INVALID,
    LANG_CODE,
    Bool,
    Enum,
    Field,
    Int,
    ListOf,
    MapOf,
    Record,
    Str,
    Texts,
    TextsField,
)
from ..look import LOOK, Art, ArtPath, Look

ID_PATTERN = r"[A-Z0-9]+(?:-[A-Z0-9]+)*"
# A game with rules of its own explains at least these in its rules sections, each in more than SECTION_CHARS
# characters in every language (its rules tests require it; validate warns).
REQUIRED_SECTIONS = ("setup", "turn", "end")
SECTION_CHARS = 150
TEXT_MOST = 4000  # characters of a component's text: longer than any face holds; whether it fits is the fit check's
SLUG = Str(r"[a-z][a-z0-9-]*", max_len=40, hint="lower-case letters, digits and '-'")
# The fields every component may have, whatever its game and type.
COMMON_FIELDS: dict[str, Field] = {
    "id": Str(ID_PATTERN, max_len=14, hint="upper-case letters, digits and '-', at most 14 characters"),
    "type": Str(),
    "qty": Int(1, 500),
    "set": SLUG,
    "name": TextsField(max_len=60),
    "text": TextsField(max_len=TEXT_MOST),  # the fit check (validate) says what a layout's box holds
    "back": Str(rf"{ID_PATTERN}|none", max_len=14, hint="the id of a back component, or none"),
    "size": Enum(SIZES, "size"),
    "reconstructed": Bool(),
    "art": ArtPath(),  # a designer's picture for the face's art window
    "layout": layouts.LAYOUT_NAME,  # which of the file's `layouts:` draws its face (default: base, else the first)
}

class _OneOrMany(Field):
    """One value or a list of them (`rows: cards.csv`, or `rows: [cards.csv, tokens.csv]`), as a tuple."""

    def __init__(self, item: Field, most: int):
        self.item, self.many = item, ListOf(item, 1, most)

    def check(self, value, path, problems):
        if isinstance(value, list):
            return self.many.check(value, path, problems)
        checked = self.item.check(value, path, problems)
        return INVALID if checked is INVALID else (checked,)


ROWS = _OneOrMany(Str(r"[^\\:\0]+\.(csv|CSV|xlsx|XLSX|ods|ODS)(#.+)?", max_len=200,
                      hint="a .csv, .xlsx or .ods file beside the data file, e.g. cards.csv or cards.xlsx#Deck"), 10)

class _Languages(Field):
    """`languages: [en, fr]`: language codes, at least one, each once."""

    def check(self, value, path, problems):
        checked = ListOf(LANG_CODE, 1, 20).check(value, path, problems)
        if checked is not INVALID and len(set(checked)) != len(checked):
            return problems.add(path, "names a language twice")
        return checked


LANGUAGES = _Languages()


class _Version(Field):
    """`version: 3` or `version: "1.2-beta"`: a short text (a whole number is taken as its digits); a decimal number
    is refused, since YAML reads `1.10` as 1.1: written in quotes it stays as typed."""

    text = Str(r"[^\s]+(?: [^\s]+)*", max_len=40, hint="a short text such as 3 or \"1.2-beta\"")

    def check(self, value, path, problems):
        if isinstance(value, bool):
            return problems.add(path, "must be a short text such as 3 or \"1.2-beta\", got %(got)s", got=repr(value))
        if isinstance(value, int):
            value = str(value)
        elif isinstance(value, float):
            return problems.add(path, "%(got)s is read as a decimal number: write it in quotes (version: \"%(got)s\") "
                                      "so that it stays as you typed it", got=repr(value))
        return self.text.check(value, path, problems)


VERSION = _Version()
SAFE_MARGIN_MM = 25.4 / 8  # what print services ask: no text, code or icon within 1/8 inch of the cut
HEADER = Record(
    {
        "game": SLUG,
        "title": TextsField(max_len=60),
        "author": Str(max_len=200),  # who made the game: the PDFs' metadata
        "version": VERSION,  # the card data's version, which each saved sheet records (default: the file's digest)
        "safe_margin": layouts.Num(0, 20),  # mm from the cut kept clear of text, codes and icons (default 1/8 inch)
        "languages": LANGUAGES,  # the languages its texts are written in, the first the default (es, en if none)
        "prefix": Str(r"[A-Z]{2,4}", max_len=4, hint="2 to 4 upper-case letters"),
        "players": ListOf(Int(1, 20), 2, 2),
        "card_size": Enum(CARD_SIZES, "card size"),
        "sets": MapOf(SLUG, TextsField(max_len=60)),
        "labels": MapOf(SLUG, TextsField(max_len=60)),
        "notes": ListOf(TextsField(max_len=600)),
        "needs": ListOf(TextsField(max_len=200), 1, 8),  # what else the table needs (dice, counters, a pencil)
        # the rules reference, in sections the web app links to (/rules/<game>#<id>)
        # text: paragraphs separated by a blank line, lines starting with "- " are a list; reading: our reading of
        # a gap in the rulebook, shown marked as ours; cards: the component types or ids the section applies to
        "rules": ListOf(Record({"id": SLUG, "title": TextsField(max_len=80), "text": TextsField(max_len=4000),
                                "reading": TextsField(max_len=1200), "cards": ListOf(Str(max_len=40), 1, 80)},
                               required=("id", "title", "text"))),
        "look": LOOK,  # accent colour, back emblem, and the shape and colour of each term
        # how a data-only game is dealt (a game with rules deals by its own code)
        "setup": Record({"hand_size": data_scoring.HandSize(), "market": Int(1, 60),
                         "steps": ListOf(TextsField(max_len=300), 1, 12)}),
        **layouts.SECTIONS,  # fields, colours, fonts, layouts, back: faces as data (companion/layouts/)
        "rows": ROWS,  # spreadsheets beside the file, one component a row
        "scoring": data_scoring.SECTION,  # a data-only game's scoring rules (companion/scoring/__init__.py)
    },
    required=("game", "title", "prefix", "players"),
)  # plus `components`, a list checked entry by entry against the game's component types


@dataclass(frozen=True)
class Component:
    """One unique printed thing (printed `qty` times): a card, tile, token, reference card or back."""

    game: str
    id: str
    type: str
    kind: str
    qty: int
    set: str
    size: str
    name: Texts | None
    text: Texts | None
    back: str | None  # id of its back component, None for no back
    reconstructed: bool
    data: Mapping[str, Any]  # the game's own fields (a suit, a rank, a value, a mapping of counts...)
    line: int
    art: Art | None = None  # a designer's picture (SVG, PNG or JPEG) for its face
    layout: str | None = None  # the layout that draws its face (None: the file's default)
    source: str = ""  # the spreadsheet it was read from (its `line` is the row there); "" for the data file

    def where(self, card_set_path: str) -> str:
        """`file:line` of its entry: in its spreadsheet, or in the data file."""
        return f"{self.source or card_set_path}:{self.line}"

    def name_in(self, lang: str, default: str | None = None) -> str | None:
        """Its name in `lang` (English for a language we do not ship), or `default` when it has none."""
        return self.name.get(lang) if self.name else default

    def text_in(self, lang: str) -> str | None:
        """Its text in `lang` (English for a language we do not ship), or None when it has none."""
        return self.text.get(lang) if self.text else None


@dataclass(frozen=True)
class CardSet:
    """Everything one data file says about a game's printed components."""

    game: str
    path: str
    title: Texts
    prefix: str
    players: tuple[int, int]
    card_size: str
    sets: Mapping[str, Texts]
    labels: Mapping[str, Texts]
    notes: tuple[Texts, ...]
    rules: tuple[Mapping, ...]
    components: tuple[Component, ...]
    look: Look = Look()
    needs: tuple[Texts, ...] = ()
    setup: Mapping[str, Any] = field(default_factory=dict)  # a data-only game's deal: hand_size, market, steps
    warnings: tuple[str, ...] = ()  # `file:line: card id: field: warning: ...` lines that do not stop a build
    design: layouts.Design = layouts.Design()  # faces from layouts: none for a file without `layouts:`
    sources: tuple[str, ...] = ()  # the files its components were read from: the data file, then its `rows:`
    scoring: data_scoring.Scoring | None = None  # a data-only game's `scoring:`, compiled (None: none declared)
    author: str = ""  # the file's `author:`, written in its PDFs' metadata
    languages: tuple[str, ...] = LANGS  # the languages its texts are written in (`languages:`), the default first
    version: str = ""  # the card data's version: its `version:`, else the first 12 hex digits of its file's SHA-256
    safe_margin: float = SAFE_MARGIN_MM  # mm inside the cut kept clear of text, codes and icons (`safe_margin:`)

    def component(self, component_id: str) -> Component:
        """The component with this printed id; KeyError if the file has none."""
        for c in self.components:
            if c.id == component_id:
                return c
        raise KeyError(component_id)

    def select(self, kinds: Iterable[str] | None = None, sets: Iterable[str] | None = None) -> list[Component]:
        """Its components of these kinds and sets, in data order (None or empty: every kind, every set)."""
        kinds, sets = (set(kinds) if kinds else None), (set(sets) if sets else None)
        return [c for c in self.components if (not kinds or c.kind in kinds) and (not sets or c.set in sets)]

    def deck(self, kinds: Iterable[str] = ("card",), sets: Iterable[str] | None = None) -> list[Component]:
        """Every physical copy, in data order: each unique entry repeated `qty` times."""
        return [c for c in self.select(kinds, sets) for _ in range(c.qty)]

    def catalogue(self, kinds: Iterable[str] = ("card",)) -> dict[str, dict]:
        """Card id → its game fields, for rules code that accepts cards by id."""
        return {c.id: dict(c.data) for c in self.select(kinds)}

    def copies(self) -> dict[str, int]:
        """Each component's id → how many copies are printed (its `qty`)."""
        return {c.id: c.qty for c in self.components}

    def label(self, key: str, lang: str) -> str:
        """The file's label `key` in `lang`, or `key` itself when `labels:` does not name it."""
        texts = self.labels.get(key)
        return texts.get(lang) if texts else key


class DataError(Exception):
    """Card data that cannot be used; `errors` holds every `file:line: card id: field: problem` line."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("\n".join(errors))
