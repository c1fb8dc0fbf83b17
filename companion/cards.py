"""Card data: one loader and one schema for every game's `cards/<game>.yaml`, with errors as file:line."""
from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path as FsPath
from types import MappingProxyType
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from . import data_scoring, games, layouts, names, resources
from .components import BACK, CARD_SIZES, DEFAULT_SIZE, SIZES, ComponentType
from .i18n import LANGS
from .look import DRAWN_SHAPES, LOOK, Art, ArtPath, Look, build_look
from .schema import (
    INVALID,
    LANG_CODE,
    WRITTEN,
    Bool,
    Enum,
    Field,
    Int,
    ListOf,
    MapOf,
    Path,
    Problem,
    Problems,
    Record,
    Str,
    Texts,
    TextsField,
    closest,
    fmt_path,
    whole_number,
    written_in,
)

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
HEADER = Record(
    {
        "game": SLUG,
        "title": TextsField(max_len=60),
        "author": Str(max_len=200),  # who made the game: the PDFs' metadata
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
        "setup": Record({"hand_size": Int(1, 60), "market": Int(1, 60),
                         "steps": ListOf(TextsField(max_len=300), 1, 12)}),
        **layouts.SECTIONS,  # fields, colours, fonts, layouts, back: faces as data (companion/layouts.py)
        "rows": ROWS,  # spreadsheets beside the file, one component a row
        "scoring": data_scoring.SECTION,  # a data-only game's scoring rules (companion/data_scoring.py)
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
    data: Mapping[str, Any]  # the game's own fields (stones, wish, gem, suit, rank...)
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


# --- YAML with a line for every field -------------------------------------------------------------

_constructor = SafeConstructor()


class YamlProblem(Exception):
    def __init__(self, line: int, message: str):
        self.line, self.message = line, message


# What card data never needs, refused before PyYAML builds anything (its composer recurses once per level, and an
# alias repeats a whole subtree: a 1 KB file of nested aliases stands for gigabytes). The largest shipped file has
# 1,700 values nested 6 levels deep; a 1 MB file of values takes PyYAML 300 MB and half a minute to compose.
MAX_DEPTH = 50
MAX_VALUES = 50_000
MAX_DATA_BYTES = 2**20  # a card data file (the largest shipped one is 46 KB)
MAX_COPIES = 5000  # printed copies a file asks for, qty over all its components (the most a shipped one prints: 158)
# libyaml's parser where PyYAML has it (ten times faster: half of a designer deck's build was reading its YAML);
# the same events, nodes and marks. The phone's Python (Pyodide) has only the pure one.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _refused(event, values: int, depth: int) -> None:
    """YamlProblem for an event card data never needs: an anchor or alias, the value past MAX_VALUES, a collection
    nested past MAX_DEPTH (`depth` counts the collection this event opens)."""
    line = event.start_mark.line + 1
    if isinstance(event, yaml.AliasEvent):
        raise YamlProblem(line, f"*{event.anchor}: aliases are not allowed in card data; write the value out")
    if event.anchor is not None:
        raise YamlProblem(line, f"&{event.anchor}: anchors are not allowed in card data; write the value out "
                                f"where it is used")
    if values > MAX_VALUES:
        raise YamlProblem(line, f"more than {MAX_VALUES} values; card data is far smaller")
    if depth > MAX_DEPTH:
        raise YamlProblem(line, f"nested more than {MAX_DEPTH} levels deep")


def _refuse_what_card_data_never_needs(text: str) -> None:
    """YamlProblem at the first anchor or alias, the first value nested more than MAX_DEPTH levels deep, or the value
    past MAX_VALUES: found in libyaml's stream of events, which never recurses, before its composer runs."""
    depth = values = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if not isinstance(event, yaml.NodeEvent):
            if isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            continue
        values += 1
        depth += isinstance(event, yaml.CollectionStartEvent)
        _refused(event, values, depth)


class _CheckingLoader(yaml.SafeLoader):
    """PyYAML's pure loader refusing, as it composes, what card data never needs: the same checks in one pass
    (the phone's Python has no libyaml, and reading every file twice there cost seconds). The depth is checked
    before the composer recurses into a collection."""

    def __init__(self, stream):
        super().__init__(stream)
        self.values = self.depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.NodeEvent):
            self.values += 1
            opens = isinstance(event, yaml.CollectionStartEvent)
            _refused(event, self.values, self.depth + opens)
            if opens:
                self.depth += 1
                try:
                    return super().compose_node(parent, index)
                finally:
                    self.depth -= 1
        return super().compose_node(parent, index)


def read_yaml(text: str) -> tuple[Any, dict[Path, int]]:
    """Plain data from YAML text, plus the 1-based line of every field path; YamlProblem on bad YAML (and on what
    card data never needs: anchors and aliases, nesting past MAX_DEPTH, more than MAX_VALUES values)."""
    try:
        if _LOADER is yaml.SafeLoader:
            root = yaml.compose(text, Loader=_CheckingLoader)
        else:
            _refuse_what_card_data_never_needs(text)
            root = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        message = ", ".join(part for part in (e.context, e.problem) if part)
        if "maximum nesting depth" in message:  # libyaml's scanner meets its own limit before ours
            message = f"nested more than {MAX_DEPTH} levels deep"
        raise YamlProblem(mark.line + 1 if mark else 1, message) from None
    except yaml.YAMLError as e:
        raise YamlProblem(1, str(e)) from None
    if root is None:
        raise YamlProblem(1, "the file is empty")
    lines: dict[Path, int] = {}

    def build(node: yaml.Node, path: Path) -> Any:
        lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = build(key_node, (*path, "<key>"))
                if not isinstance(key, str):
                    raise YamlProblem(key_node.start_mark.line + 1, f"{fmt_path(path) or 'top'}: keys must be text")
                if key in out:
                    raise YamlProblem(key_node.start_mark.line + 1, f"{fmt_path((*path, key))}: key appears twice")
                lines[(*path, key)] = key_node.start_mark.line + 1
                out[key] = build(value_node, (*path, key))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [build(child, (*path, i)) for i, child in enumerate(node.value)]
        try:
            return _constructor.construct_object(node, deep=True)
        except ConstructorError as e:
            raise YamlProblem(node.start_mark.line + 1, str(e.problem)) from None
        except (ValueError, OverflowError, IndexError) as e:  # 2001-13-45, an int of 5000 digits, !!int abc, !!int ''
            raise YamlProblem(node.start_mark.line + 1, f"{node.value!r} cannot be read as {_tag_name(node)}: {e}"
                              ) from None

    return build(root, ()), lines


def _tag_name(node: yaml.Node) -> str:
    """A scalar's YAML type in words: "a timestamp" for tag:yaml.org,2002:timestamp."""
    name = node.tag.rpartition(":")[2] or node.tag
    return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"


def line_of(lines: Mapping[Path, int], path: Path) -> int:
    """The line of a path, or of its nearest enclosing field that has one."""
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path, 1)


# --- Checking one file ---------------------------------------------------------------------------


def _component_types(game_id: str) -> Mapping[str, ComponentType]:
    return {**games.component_types(game_id), "back": BACK}


def check_text(text: str, filename: str) -> tuple[CardSet | None, list[str]]:
    """Check one data file's text; return the card set (None if any error) and every error line. The checks run in
    this order, which is the order of the error lines: the YAML; the header; the look; the layouts and declared
    fields; each component, from the file, then from its spreadsheets (`rows:`); the copies they print; the backs;
    the cards the rules sections name; each component against its layout; what the setup deals. (Warnings, which do
    not stop it: what a game with rules of its own lacks that its tests require, see `_FileCheck.rules_game`.)"""
    try:
        doc, lines = read_yaml(text)
    except YamlProblem as e:
        return None, [f"{filename}:{e.line}: -: yaml: {e.message}"]
    if not isinstance(doc, dict):
        return None, [f"{filename}:1: -: -: the file must be a mapping with game, title, prefix and components"]
    with written_in(_languages(doc)):  # its texts are checked in the languages it declares
        return _checked(doc, lines, filename)


def _languages(doc: Mapping) -> tuple[str, ...]:
    """The languages a file writes, as its `languages:` declares them (LANGS, Spanish and English, where it does
    not, or declares them wrongly: the header's check says how)."""
    given = doc.get("languages")
    problems = Problems()
    checked = LANGUAGES.check(given, ("languages",), problems) if given is not None else INVALID
    return LANGS if checked is INVALID else checked


def _checked(doc: Mapping, lines: Mapping[Path, int], filename: str) -> tuple[CardSet | None, list[str]]:
    """`check_text` of a file read, its texts checked in its languages."""
    check = _FileCheck(filename, lines)
    header, raw_components = check.header(doc)
    if header is None:
        return None, check.errors
    look = check.look(header)
    problems = Problems()
    design = layouts.build_design(header, check.folder, check.line, problems)
    types = _declared_types(_component_types(header["game"]), header.get("fields") or {}, problems)
    _report_layout_problems(problems, check.report)
    sets = dict(header.get("sets") or {"base": Texts("Juego básico", "Base game")})
    entries, sources = check.entries(doc, header, raw_components, types)
    components = check.components(entries, types, sets, header)
    components = names.fill(components, header, header.get("languages", LANGS), check.errors, filename)
    check.markup(entries, components, look)
    check.copies(components)
    backs = check.backs(components, design, header)
    check.rule_cards(header, components)
    if design.layouts:
        check.component_layouts(design, components, types, look, header["game"])
    check.setup(header, components)
    scoring = check.scoring(header, types, sets, components)
    if check.errors:
        return None, check.errors
    check.rules_game(header, components, design)
    components = [replace(c, back=_resolve_back(c, backs)) for c in components]
    return CardSet(
        game=header["game"], path=filename, title=header["title"], prefix=header["prefix"],
        languages=header.get("languages", LANGS),
        players=tuple(header["players"]), card_size=header.get("card_size", "poker"), sets=MappingProxyType(sets),
        labels=header.get("labels", MappingProxyType({})), notes=tuple(header.get("notes", ())),
        rules=tuple(header.get("rules", ())), components=tuple(components), look=look,
        needs=tuple(header.get("needs", ())),
        setup=header.get("setup", MappingProxyType({})), design=design, sources=tuple(sources),
        warnings=tuple(check.warnings), scoring=scoring, author=header.get("author", ""),
    ), []


class _FileCheck:
    """The checks of one data file (`check_text`), step by step, each adding its error lines to `errors` as
    `file:line: card id: field: problem` (`-` where no card or field is at fault)."""

    def __init__(self, filename: str, lines: Mapping[Path, int]):
        self.filename, self.lines = filename, lines
        self.folder = os.path.abspath(os.path.dirname(filename) or ".")
        self.errors: list[str] = []
        self.warnings: list[str] = []

    def line(self, path: Path) -> int:
        """The line of a field path in this file, or of its nearest enclosing field (`line_of`)."""
        return line_of(self.lines, path)

    def report(self, problem: Problem, label: str = "-", base: Path = ()) -> None:
        """Add `problem` to `errors` as `file:line: label: field: message`, its line found at its path under `base`."""
        line = self.line((*base, *problem.path))
        self.errors.append(f"{self.filename}:{line}: {label}: {fmt_path(problem.path) or '-'}: {problem.message}")

    def header(self, doc: Mapping) -> tuple[Mapping | None, list | None]:
        """The checked header and the components as written (None, None when either cannot be read on); the
        player counts' order and the rules sections' ids are checked here too."""
        problems = Problems()
        header = HEADER.check({k: v for k, v in doc.items() if k != "components"}, (), problems)
        raw_components = doc.get("components", [] if "rows" in doc else None)  # rows: may give them all
        if not isinstance(raw_components, list):
            problems.add(("components",), "must be a list of components" if "components" in doc else
                         "is missing (list them here, or give a spreadsheet with rows:)")
        for p in problems:
            self.report(p)
        if header is INVALID or not isinstance(raw_components, list):
            return None, None
        if "players" in header and header["players"][0] > header["players"][1]:
            self.report(Problem(("players",), "must be [fewest, most]"))
        seen_rules: set[str] = set()
        for i, section in enumerate(header.get("rules", ())):
            if section["id"] in seen_rules:
                self.report(Problem(("rules", i, "id"), f"{section['id']!r} is used by an earlier section"))
            seen_rules.add(section["id"])
        return header, raw_components

    def look(self, header: Mapping) -> Look:
        """The game's look, its terms drawn as pictures given their files."""
        problems = Problems()
        look = build_look(header.get("look"), ("look",), problems, games.for_data(header["game"]).terms)
        for p in problems:
            self.report(p)
        raw_terms = (header.get("look") or {}).get("terms", {})
        pictured = {name: replace(term, art=Art(given, os.path.join(self.folder, given),
                                                self.line(("look", "terms", name, "art"))))
                    for name, term in look.terms.items()
                    if "art" in raw_terms.get(name, {}) for given in (raw_terms[name]["art"],)}
        if pictured:  # a term drawn as a picture: its icon everywhere on the faces (the backs' emblem keeps shapes)
            look = replace(look, terms=MappingProxyType({**look.terms, **pictured}))
        return look

    def entries(self, doc: Mapping, header: Mapping, raw_components: list,
                types: Mapping[str, ComponentType]) -> tuple[list[_Entry], list[str]]:
        """Every component as written: the file's own, then each spreadsheet's rows; and the files they come from."""
        filename = self.filename
        entries = [_Entry(raw, "", self.line(("components", i)), f"components[{i}]",
                          lambda path, i=i: self.line(("components", i, *path)))
                   for i, raw in enumerate(raw_components)]
        sources = [filename]
        for i, given in enumerate(header.get("rows", ())):
            shown_as = os.path.join(os.path.dirname(filename), given.partition("#")[0])
            sources.append(shown_as)
            given_at = f"{filename}:{self.line(('rows', i) if isinstance(doc['rows'], list) else ('rows',))}"
            entries += _row_entries(given, self.folder, shown_as, given_at, types, self.errors)
        if not entries and not self.errors:
            self.report(Problem(("components",), "lists no component"))
        return entries, sources

    def components(self, entries: list[_Entry], types: Mapping[str, ComponentType], sets: Mapping,
                   header: Mapping) -> list[Component]:
        """Each entry checked into a component, an id used twice named at its second use."""
        components: list[Component] = []
        seen: dict[str, tuple[str, int]] = {}
        for entry in entries:
            raw = entry.raw
            label = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) and raw["id"].strip() \
                else entry.label  # an id that is not text, or empty, cannot name the entry
            problems = Problems()
            component = _check_component(raw, types, sets, header, entry.line, problems)
            if isinstance(component, Component):
                component = replace(component, source=entry.source)
            if isinstance(component, Component) and "art" in raw and not problems:
                path = os.path.join(self.folder, posixpath.normpath(raw["art"]))
                component = replace(component, art=Art(raw["art"], path, entry.line_of(("art",))))
            raw_id = raw.get("id") if isinstance(raw, dict) else None
            if isinstance(raw_id, str) and raw_id in seen:
                where, line = seen[raw_id]
                problems.add(("id",), f"{raw_id} is already used at " + (f"line {line}" if where == entry.source else
                                                                          f"{where or self.filename}:{line}"))
            elif isinstance(raw_id, str):
                seen[raw_id] = (entry.source, entry.line)
            if isinstance(component, Component) and not problems:
                components.append(component)
            for p in problems:
                self.errors.append(f"{entry.source or self.filename}:{entry.line_of(p.path)}: {label}: "
                                   f"{fmt_path(p.path) or '-'}: {p.message}")
        return components

    def markup(self, entries: list[_Entry], components: list[Component], look: Look) -> None:
        """Each component's texts (name, text, a translated field): an inline icon that is no term or shape, a
        `**` or `*` that nothing closes; one error a text, at its line."""
        icon_names = set(DRAWN_SHAPES) | {name for name, term in look.terms.items() if term.shape}
        by_id = {c.id: c for c in components}
        said: set[tuple[str, int, str]] = set()  # a spreadsheet's cell is both languages' text: said once
        for entry in entries:
            raw_id = entry.raw.get("id") if isinstance(entry.raw, dict) else None
            c = by_id.get(raw_id) if isinstance(raw_id, str) else None
            if c is None:
                continue
            problems = Problems()
            for key, value in entry.raw.items():
                if key in ("name", "text") or isinstance(c.data.get(key), Texts):
                    for lang, text in (value.items() if isinstance(value, Mapping) else [((), value)]):
                        if isinstance(text, str):
                            layouts.check_markup(text, icon_names, (key, *((lang,) if lang else ())), problems)
            for p in problems:
                where = (entry.source or self.filename, entry.line_of(p.path), p.message)
                if where not in said:
                    said.add(where)
                    self.errors.append(f"{where[0]}:{where[1]}: {c.id}: {fmt_path(p.path)}: {p.message}")

    def copies(self, components: list[Component]) -> None:
        """The printed copies (the total of qty) past MAX_COPIES, named at the component that passes it."""
        total = 0
        for c in components:
            total += c.qty
            if total > MAX_COPIES:
                self.errors.append(f"{c.where(self.filename)}: {c.id}: qty: brings the copies the file prints to more "
                                   f"than {MAX_COPIES} (the total of qty over its components); a print-and-play "
                                   f"file is far smaller: print fewer copies, or split the game into files")
                return

    def backs(self, components: list[Component], design: layouts.Design, header: Mapping) -> dict[str, Component]:
        """The back components by id (one made from the file's `back:` when it draws one and lists none, added to
        `components`); a component naming a back that is not there is an error."""
        if (design.back_art or design.back_layout) and not any(c.kind == "back" for c in components):
            components.append(_implicit_back(header, self.line(("back",))))
        backs = {c.id: c for c in components if c.kind == "back"}
        for c in components:
            if c.back not in (None, "none") and c.back not in backs:
                self.errors.append(f"{c.where(self.filename)}: {c.id}: back: no back component has the id {c.back!r}")
        return backs

    def rule_cards(self, header: Mapping, components: list[Component]) -> None:
        """What a rules section's `cards:` names: a component id or a type of this file."""
        known = {c.id for c in components} | {c.type for c in components}
        for i, section in enumerate(header.get("rules", ())):
            for j, name in enumerate(section.get("cards", ())):
                if name not in known:
                    self.report(Problem(("rules", i, "cards", j),
                                        f"{name!r} is neither a component id nor a type of this file"))

    def rules_game(self, header: Mapping, components: list[Component], design: layouts.Design) -> None:
        """Warnings for a game with rules of its own, of what its tests require of its data: its faces drawn from
        `layouts:`, every field its rules read declared in `fields:` (on the types that carry it, with the rules'
        choices), and rules sections for its players."""
        if header["game"] not in games.GAMES:
            return
        if not design.layouts:
            self.warnings.append(f"{self.filename}:1: -: layouts: warning: a game with rules of its own draws every "
                                 f"face and back from the layouts: of its card data; this file has none")
        self.declared_fields(header)
        self.rules_for_players(header, components)

    def declared_fields(self, header: Mapping) -> None:
        """Each field its rules read, declared in `fields:` on the types that carry it (a choice with the rules'
        choices, in their order): as a designer's file declares its own, so its layouts and validate know it."""
        declared = header.get("fields") or {}
        carried: dict[str, list[str]] = {}
        for type_name, ctype in games.component_types(header["game"]).items():
            for name in ctype.fields:
                carried.setdefault(name, []).append(type_name)
        for name, types in carried.items():
            where = f"{self.filename}:{self.line(('fields', name))}: -: fields.{name}: warning:"
            rules = games.component_types(header["game"])[types[0]].fields[name]
            if name not in declared:
                self.warnings.append(f"{where} the rules read {name!r} on {', '.join(types)}: declare it in fields:")
            elif set(declared[name].get("types") or ()) != set(types):
                self.warnings.append(f"{where} the rules read it on {', '.join(types)}: give exactly these types:")
            elif isinstance(rules, Enum) and tuple(declared[name].get("choices") or ()) != rules.values:
                self.warnings.append(f"{where} the rules' choices are {', '.join(rules.values)}, in this order")

    def rules_for_players(self, header: Mapping, components: list[Component]) -> None:
        """A section of REQUIRED_SECTIONS missing or short in a language, and a printed type that no section names
        (its card pages then quote no rule)."""
        sections = {s["id"]: (i, s) for i, s in enumerate(header.get("rules", ()))}
        for needed in REQUIRED_SECTIONS:
            if needed not in sections:
                self.warnings.append(f"{self.filename}:{self.line(('rules',))}: -: rules: warning: no {needed!r} "
                                     f"section; a game with rules of its own explains at least "
                                     f"{', '.join(REQUIRED_SECTIONS)}")
                continue
            i, section = sections[needed]
            for lang in WRITTEN.get():
                if len(section["text"].get(lang)) <= SECTION_CHARS:
                    self.warnings.append(f"{self.filename}:{self.line(('rules', i, 'text', lang))}: -: "
                                         f"rules[{i}].text.{lang}: warning: the {needed!r} section says "
                                         f"{len(section['text'].get(lang))} characters; explain it for players in "
                                         f"more than {SECTION_CHARS}")
        named = {name for s in header.get("rules", ()) for name in s.get("cards", ())}
        unnamed: dict[str, Component] = {}
        for c in components:
            if c.kind != "back" and c.type not in named and c.id not in named:
                unnamed.setdefault(c.type, c)
        for kind, c in unnamed.items():
            self.warnings.append(f"{c.where(self.filename)}: {c.id}: type: warning: no rules section names the "
                                 f"type {kind!r} or this id in its cards:, so its card page quotes no rule")

    def component_layouts(self, design: layouts.Design, components: list[Component],
                          types: Mapping[str, ComponentType], look: Look, game: str) -> None:
        """Each component against the layout it prints with (its fields there, what its elements need)."""
        problems = Problems()
        for c, message in _check_layouts(design, components, types, look, game, problems):
            self.errors.append(f"{c.where(self.filename)}: {c.id}: layout: {message}")
        written = [replace(p, path=self.written(design, p.path)) for p in problems]
        _report_layout_problems([p for n, p in enumerate(written) if p not in written[:n]], self.report)

    def written(self, design: layouts.Design, path: Path) -> Path:
        """A layout problem's path under the layout where what it names is written: an element (or a property of
        one) a layout inherits is checked in each layout that has it, and said once, at its own line."""
        probe = path[:4]  # layouts, the layout, the element, its property
        if path[:1] != ("layouts",) or len(path) < 3 or probe in self.lines:
            return path
        mine = _element_named(design, path[1], path[2])
        for name in design.layouts:
            other = _element_named(design, name, path[2])
            if mine is not None and other is not None and ("layouts", name, *probe[2:]) in self.lines and (
                    other is mine or len(probe) == 4 and other.props.get(probe[3]) == mine.props.get(probe[3])):
                return ("layouts", name, *path[2:])
        return path

    def scoring(self, header: Mapping, types: Mapping[str, ComponentType], sets: Mapping,
                components: list[Component]) -> data_scoring.Scoring | None:
        """The `scoring:` section compiled and tried on sample hands; each problem as `file:line: scoring.…:
        problem` (the form ../shared/specs/scoring.md gives). Only a data-only game scores from data."""
        section = header.get("scoring")
        if section is None:
            return None
        if header["game"] in games.GAMES:
            self.errors.append(f"{self.filename}:{self.line(('scoring',))}: scoring: this game is scored by its "
                               f"rules module (companion/games/); scoring: is for a game of data alone")
            return None
        scoring, problems = data_scoring.check_section(section, types, sets, components, tuple(header["players"]))
        for p in problems:
            self.errors.append(f"{self.filename}:{self.line(p.path)}: {fmt_path(p.path)}: {p.message}")
        return scoring

    def setup(self, header: Mapping, components: list[Component]) -> None:
        """A setup that deals more cards to the most players than the deck holds."""
        plan = header.get("setup", {})
        dealt = plan.get("hand_size", 0) * header["players"][1] + plan.get("market", 0)
        cards_in_deck = sum(c.qty for c in components if c.kind == "card")
        if dealt > cards_in_deck:
            self.report(Problem(("setup",), f"{header['players'][1]} players need {dealt} cards; the deck has "
                                            f"{cards_in_deck}"))


@dataclass(frozen=True)
class _Entry:
    """One component as written, before its checks: in the data file (`source` "") or a spreadsheet's row."""

    raw: Any
    source: str
    line: int
    label: str  # what names it in an error line when its id cannot
    line_of: Any  # field path → line (a row has one line for all its cells)


# --- Components from spreadsheet rows ----------------------------------------------------------------------------

def _row_entries(given: str, folder: str, shown_as: str, given_at: str, types: Mapping[str, ComponentType],
                 errors: list[str]) -> list[_Entry]:
    """The components of a `rows:` spreadsheet, one a row, each cell turned into the value its field takes (a
    number, a list, yes/no, a text in both languages); errors appended: a file that cannot be read at the data
    file's `rows:` line (`given_at`), its columns and cells as `sheet:row: id: field: problem`."""
    from . import rows  # the spreadsheet readers (openpyxl, odfpy): only where a file has rows

    name, sheet_name = rows.split_reference(given)
    normal = posixpath.normpath(name)
    if posixpath.isabs(name) or normal == ".." or normal.startswith("../"):
        errors.append(f"{given_at}: -: rows: {name!r} leads outside the data file's folder; a spreadsheet must "
                      f"be in that folder or below it, given relative to it")
        return []
    path = os.path.join(folder, normal)
    real_folder = os.path.realpath(folder)
    if os.path.lexists(path) and os.path.commonpath([real_folder, os.path.realpath(path)]) != real_folder:
        errors.append(f"{given_at}: -: rows: {name!r} leads outside the data file's folder (through a link); a "
                      f"spreadsheet must be in that folder or below it")
        return []
    try:
        sheet = rows.read_rows(path, sheet_name)
    except rows.RowsError as e:
        errors.append(f"{shown_as}:{e.line}: -: rows: {e.message}" if e.line else
                      f"{given_at}: -: rows: {name}: {e.message}")
        return []
    known = _known_columns(types)
    columns = []
    for column in sheet.columns:
        if column in known:
            columns.append(column)
            continue
        near = closest(column, known)
        errors.append(f"{shown_as}:{sheet.header_line}: -: {column}: unknown column"
                      + (f"; did you mean {near!r}?" if near else f"; the columns are: {', '.join(known)}"))
    entries = []
    for number, cells in sheet.rows:
        problems = Problems()
        raw = _row_component({c: cells[c] for c in columns if c in cells}, types, problems)
        entry = _Entry(raw, shown_as, number, f"row {number}", lambda path, number=number: number)
        label = cells.get("id") or entry.label
        errors.extend(f"{shown_as}:{number}: {label}: {fmt_path(p.path)}: {p.message}" for p in problems)
        if not problems:
            entries.append(entry)
    return entries


def _known_columns(types: Mapping[str, ComponentType]) -> list[str]:
    """Every column a spreadsheet may have: each field any type takes, a text field also as `.es` and `.en`, a
    mapping field as `field.key`."""
    names: dict[str, None] = {}

    def add(name: str, spec: Field) -> None:
        if isinstance(spec, Record):
            for key, sub in spec.fields.items():
                add(f"{name}.{key}", sub)
            return
        names[name] = None
        if isinstance(spec, TextsField):
            names.update({f"{name}.{lang}": None for lang in WRITTEN.get()})

    for name, spec in COMMON_FIELDS.items():
        add(name, spec)
    for ctype in types.values():
        for name, spec in ctype.fields.items():
            add(name, spec)
    return list(names)


YES, NO = ("true", "yes", "sí", "si", "y", "s", "1", "x"), ("false", "no", "n", "0", "")


def list_items(text: str) -> list[str]:
    """A list cell's items: between commas or semicolons (else spaces), stripped, empty ones left out. Plain code,
    linear: a pattern that took the spaces around a comma (`\\s*,\\s*`) tried each space of a long run of them in
    turn (0.16 s for a cell of 5,000 characters, hours for a workbook sharing it among many cells)."""
    if "," not in text and ";" not in text:
        return text.split()
    return [item for part in text.replace(";", ",").split(",") if (item := part.strip())]


def _row_component(cells: Mapping[str, str], types: Mapping[str, ComponentType], problems: Problems) -> dict:
    """A row's cells as the entry a data file would give: `name.es` into `name: {es: ...}`, each cell read as its
    field takes it (the row's type tells which fields it has)."""
    ctype = types.get(cells.get("type", ""))
    fields = {**COMMON_FIELDS, **(ctype.fields if ctype else {})}
    raw: dict[str, Any] = {}
    for column, text in cells.items():
        parts = column.split(".")
        field = fields.get(parts[0])
        for part in parts[1:]:  # `wish.count`: the count of a mapping field; `name.es`: a text
            field = field.fields.get(part) if isinstance(field, Record) else None
        where = raw
        for i, parent in enumerate(parts[:-1]):
            where = where.setdefault(parent, {})
            if not isinstance(where, dict):
                problems.add(tuple(parts[:i + 1]), "is given as one cell and as %(column)s; give one", column=column)
                break
        else:
            if parts[-1] in where:
                problems.add(tuple(parts), "is given twice (%(column)s); give it once", column=column)
            where[parts[-1]] = _from_cell(field, text, tuple(parts), problems)
    return raw


def _from_cell(field: Field | None, text: str, path: Path, problems: Problems) -> Any:
    """A cell's text as its field takes it: a whole number, yes/no, a list (items between commas or semicolons,
    else spaces), one text for both languages; anything else as written (its field's check says what is wrong)."""
    if isinstance(field, Int):
        number = whole_number(text.strip().removesuffix(".0"))
        if number is None:
            return problems.add(path, "must be a whole number from %(lo)s to %(hi)s, got %(got)s", lo=field.lo,
                                hi=field.hi, got=repr(text))
        return number
    if isinstance(field, Bool):
        word = text.strip().lower()
        if word in YES or word in NO:
            return word in YES
        return problems.add(path, "must be yes or no (true or false), got %(got)s", got=repr(text))
    if isinstance(field, ListOf):
        parts = list_items(text)
        if len(parts) > field.max_len:  # one problem for the count, not one for each of thousands of items
            return field.check(parts, path, problems)
        return [_from_cell(field.item, part, (*path, i), problems) for i, part in enumerate(parts)]
    if isinstance(field, TextsField):
        return text  # one column for every language
    return text


def _declared_types(types: Mapping[str, ComponentType], declared: Mapping[str, Mapping],
                    problems: Problems) -> dict[str, ComponentType]:
    """The game's component types with the file's `fields:` on them. A field goes on the types its `types:` names
    (required there unless `optional: true`); else on those whose rules already read it (a shipped game declaring
    its own fields: the rules' stricter check stays); else on every type but backs (required on cards unless
    optional)."""
    fields: dict[str, dict[str, Field]] = {name: {} for name in types}
    required: dict[str, list[str]] = {name: [] for name in types}
    for name, decl in declared.items():
        named = decl.get("types")
        unknown = [t for t in named or () if t not in types]
        if unknown:
            problems.add(("fields", name, "types"), "%(got)s: no such component type; the game's types: %(types)s",
                         got=", ".join(map(repr, unknown)), types=", ".join(t for t in types if t != "back"))
        carriers = [t for t in named or () if t in types] if named else \
            [t for t, ct in types.items() if name in ct.fields] or [t for t, ct in types.items() if ct.kind != "back"]
        for t in carriers:
            if name not in types[t].fields:
                fields[t][name] = layouts.declared_field(decl)
                if not decl.get("optional") and (named or types[t].kind == "card"):
                    required[t].append(name)
    return {t: replace(ct, fields={**fields[t], **ct.fields}, required=(*ct.required, *required[t]))
            if fields[t] else ct for t, ct in types.items()}


def _element_named(design: layouts.Design, layout: str, name: str) -> layouts.Element | None:
    return next((e for e in design.layouts.get(layout, ()) if e.name == name), None)


def _report_layout_problems(problems: Problems, report) -> None:
    """A problem under `layouts.<name>` is said as `file:line: <name>: <element>: ...`; others as they are."""
    for p in problems:
        if p.path[:1] == ("layouts",) and len(p.path) >= 2:
            report(replace(p, path=p.path[2:]), str(p.path[1]), p.path[:2])
        else:
            report(p)


def _check_layouts(design: layouts.Design, components, types, look: Look, game: str, problems: Problems) -> list:
    """Each layout at each size a component draws it at: on the face, its fields, fonts and icons known (into
    `problems`); returned, each component whose `layout:` names none the file has, with what to say."""
    unknown = []
    known = set(layouts.COMPONENT_KEYS) | {name for t in types.values() for name in t.fields} \
        | set(games.for_data(game).face_fields)  # what the game's rules derive for its faces
    icon_names = set(DRAWN_SHAPES) | {name for name, term in look.terms.items() if term.shape}
    checked: set[tuple[str, str]] = set()
    for c in components:
        name = c.layout
        if c.kind == "back":  # a back drawn by a picture, or as the game's title on its accent, has no layout
            name = c.layout or (None if c.art or design.back_art else design.back_layout)
            if name is None:
                continue
        elements = design.layout_for(name, c.type)
        if elements is None:
            unknown.append((c, f"no layout is named {name!r}; the file has: {layouts.names_shown(design.layouts)}"))
            continue
        used = design.layout_name(name, c.type)
        if (used, c.size) not in checked:
            checked.add((used, c.size))
            layouts.check_elements(elements, SIZES[c.size], known, design, icon_names, ("layouts", used), problems)
    return unknown


def _check_component(raw, types, sets, header, line: int, problems: Problems):
    if not isinstance(raw, dict):
        return problems.add((), "each component must be a mapping with at least id and type")
    ctype = types.get(raw.get("type")) if isinstance(raw.get("type"), str) else None
    fields = {**COMMON_FIELDS, "type": Enum(types, "type")}
    if ctype:
        fields.update(ctype.fields)
    else:  # no type, or an unknown one: one problem, its type's; the fields some type has are checked with it
        raw = {k: v for k, v in raw.items() if k in fields or not any(k in t.fields for t in types.values())}
        if "type" not in raw:
            problems.add(("type",), "is missing; give one of: %(types)s", types=", ".join(types))
    required = ("id", *(("type",) if ctype or "type" in raw else ()), *(ctype.required if ctype else ()),
                *(ctype.texts if ctype else ()))
    checked = Record(fields, required).check(raw, (), problems)
    if checked is INVALID or ctype is None:
        return INVALID
    if ctype.validate:
        ctype.validate(checked, (), problems)
    if not checked["id"].startswith(header["prefix"]):
        problems.add(("id",), f"must start with the file's prefix {header['prefix']}")
    set_name = checked.get("set", "base")
    if set_name not in sets:
        problems.add(("set",), f"unknown set {set_name!r}; the file declares: {', '.join(sets)}")
    if problems:
        return INVALID
    game_data = {k: v for k, v in checked.items() if k not in COMMON_FIELDS}
    return Component(
        game=header["game"], id=checked["id"], type=checked["type"], kind=ctype.kind,
        qty=checked.get("qty", 1), set=set_name,
        size=checked.get("size") or DEFAULT_SIZE[ctype.kind] or header.get("card_size", "poker"),
        name=checked.get("name"), text=checked.get("text"), back=checked.get("back"),
        reconstructed=checked.get("reconstructed", False), data=MappingProxyType(game_data), line=line,
        layout=checked.get("layout"),
    )


def _implicit_back(header: Mapping, line: int) -> Component:
    """The back a file's `back:` section makes when it lists no back component: `<prefix>-BACK`, for its cards."""
    return Component(game=header["game"], id=f"{header['prefix']}-BACK", type="back", kind="back", qty=1, set="base",
                     size=header.get("card_size", "poker"), name=header["title"], text=None, back=None,
                     reconstructed=False, data=MappingProxyType({"for": ("card", "reference")}), line=line)


def _resolve_back(c: Component, backs: Mapping[str, Component]) -> str | None:
    """`back: none` means no back; no `back:` means the first back made for the component's kind."""
    if c.kind == "back" or c.back == "none":
        return None
    if c.back:
        return c.back
    return next((b.id for b in backs.values() if c.kind in b.data["for"]), None)


def check_file(path: str | FsPath) -> tuple[CardSet | None, list[str]]:
    """Check one data file on disk (see `check_text`); unreadable files are errors too. Its art files are not read,
    nor its fonts, nor the fit of its layouts' texts: those are the print's to check
    (`pnp.design_check.validate_file` is all that `validate` says)."""
    from .files import NotReadable, read_regular

    name = str(path)
    try:  # a regular file only (a FIFO would hang, /dev/zero never ends), of at most MAX_DATA_BYTES
        text = read_regular(path, MAX_DATA_BYTES, "data file").decode("utf-8")
        text = text.replace("\r\n", "\n").replace("\r", "\n")  # as a file opened as text reads it
    except NotReadable as e:
        return None, [f"{name}:0: -: -: {e}"]
    except UnicodeDecodeError as e:
        return None, [f"{name}:0: -: -: not UTF-8 text ({e.reason} at byte {e.start})"]
    return check_text(text, name)


def load_file(path: str | FsPath) -> CardSet:
    """A card data file's card set (DataError if it is broken). Its art files are not read: see
    `pnp.design_check.check_art`."""
    card_set, errors = check_file(path)
    if errors:
        raise DataError(errors)
    return card_set


def shipped_files() -> list[FsPath]:
    """The card data files shipped with the package (`cards/*.yaml`), sorted by name."""
    return sorted(resources.cards_dir().glob("*.yaml"))


@cache
def load_shipped() -> Mapping[str, CardSet]:
    """Every shipped card set by game id (loaded once per process); printed ids must be unique across games."""
    loaded: dict[str, CardSet] = {}
    for card_set in map(load_file, shipped_files()):
        _check_ids_are_new(card_set, loaded.values())
        loaded[card_set.game] = card_set
    return MappingProxyType(loaded)


def _check_ids_are_new(card_set: CardSet, others) -> None:
    """A printed id opens one card (`BASE/C/<id>`): no two games may print the same one."""
    taken = {c.id: s for s in others if s.game != card_set.game for c in s.components}
    errors = [f"{c.where(card_set.path)}: {c.id}: id: {taken[c.id].game} ({taken[c.id].path}) prints this id "
              f"too; ids must be unique across games" for c in card_set.components if c.id in taken]
    if errors:
        raise DataError(errors)
