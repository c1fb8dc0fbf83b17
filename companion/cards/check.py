"""Checking one card data file: `check_text` runs its checks step by step (`_FileCheck`), each problem a
`file:line: card id: field: problem` line; `check_file` reads the file from disk first."""
from __future__ import annotations

import hashlib
import os
import posixpath
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path as FsPath
from types import MappingProxyType

from .. import games, layouts, names
from .. import scoring as data_scoring
from ..components import ComponentType
from ..core.i18n import LANGS
from ..core.schema import INVALID, Path, Problem, Problems, Texts, fmt_path, written_in
from ..look import DRAWN_SHAPES, Art, Look, build_look
from .entries import check_component, component_types, declared_types, implicit_back, resolve_back
from .game_warnings import rules_game_warnings
from .layouts_check import check_layouts, report_layout_problems, written_at
from .model import HEADER, LANGUAGES, SAFE_MARGIN_MM, CardSet, Component
from .spreadsheet import Entry, row_entries
from .yaml_lines import YamlProblem, line_of, read_yaml

MAX_DATA_BYTES = 2**20  # a card data file (the largest shipped one is 46 KB)
MAX_COPIES = 5000  # printed copies a file asks for, qty over all its components (the most a shipped one prints: 158)


def card_version(header_version: str | None, data: bytes) -> str:
    """What a saved sheet records of the card data it starts with: the file's `version:`, else the first 12 hex
    digits of the SHA-256 of the file's bytes (so any saved change of the file is a new version)."""
    return header_version or hashlib.sha256(data).hexdigest()[:12]


def check_text(text: str, filename: str, digest_of: bytes | None = None) -> tuple[CardSet | None, list[str]]:
    """Check one data file's text; return the card set (None if any error) and every error line. The checks run in
    this order, which is the order of the error lines: the YAML; the header; the look; the layouts and declared
    fields; each component, from the file, then from its spreadsheets (`rows:`); the copies they print; the backs;
    the cards the rules sections name; each component against its layout; what the setup deals. (Warnings, which do
    not stop it: what a game with rules of its own lacks that its tests require, see `cards_warnings`.)"""
    try:
        doc, lines = read_yaml(text)
    except YamlProblem as e:
        return None, [f"{filename}:{e.line}: -: yaml: {e.message}"]
    if not isinstance(doc, dict):
        return None, [f"{filename}:1: -: -: the file must be a mapping with game, title, prefix and components"]
    with written_in(_languages(doc)):  # its texts are checked in the languages it declares
        card_set, errors = _checked(doc, lines, filename)
    if card_set is not None:  # (the bytes as read from disk; a text given alone: its UTF-8)
        version = card_version(card_set.version, text.encode() if digest_of is None else digest_of)
        card_set = replace(card_set, version=version)
    return card_set, errors


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
    types = declared_types(component_types(header["game"]), header.get("fields") or {}, problems)
    report_layout_problems(problems, check.report)
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
    scoring = check.scoring(header, types, sets, components)
    setup = check.setup(header, components, scoring)
    if check.errors:
        return None, check.errors
    check.warnings += rules_game_warnings(filename, check.line, header, components, design)
    components = [replace(c, back=resolve_back(c, backs)) for c in components]
    return CardSet(
        game=header["game"], path=filename, title=header["title"], prefix=header["prefix"],
        languages=header.get("languages", LANGS),
        players=tuple(header["players"]), card_size=header.get("card_size", "poker"), sets=MappingProxyType(sets),
        labels=header.get("labels", MappingProxyType({})), notes=tuple(header.get("notes", ())),
        rules=tuple(header.get("rules", ())), components=tuple(components), look=look,
        needs=tuple(header.get("needs", ())),
        setup=setup, design=design, sources=tuple(sources),
        warnings=tuple(check.warnings), scoring=scoring, author=header.get("author", ""),
        version=header.get("version", ""), safe_margin=header.get("safe_margin", SAFE_MARGIN_MM),
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
                types: Mapping[str, ComponentType]) -> tuple[list[Entry], list[str]]:
        """Every component as written: the file's own, then each spreadsheet's rows; and the files they come from."""
        filename = self.filename
        entries = [Entry(raw, "", self.line(("components", i)), f"components[{i}]",
                          lambda path, i=i: self.line(("components", i, *path)))
                   for i, raw in enumerate(raw_components)]
        sources = [filename]
        for i, given in enumerate(header.get("rows", ())):
            shown_as = os.path.join(os.path.dirname(filename), given.partition("#")[0])
            sources.append(shown_as)
            given_at = f"{filename}:{self.line(('rows', i) if isinstance(doc['rows'], list) else ('rows',))}"
            entries += row_entries(given, self.folder, shown_as, given_at, types, self.errors)
        if not entries and not self.errors:
            self.report(Problem(("components",), "lists no component"))
        return entries, sources

    def components(self, entries: list[Entry], types: Mapping[str, ComponentType], sets: Mapping,
                   header: Mapping) -> list[Component]:
        """Each entry checked into a component, an id used twice named at its second use."""
        components: list[Component] = []
        seen: dict[str, tuple[str, int]] = {}
        for entry in entries:
            raw = entry.raw
            label = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) and raw["id"].strip() \
                else entry.label  # an id that is not text, or empty, cannot name the entry
            problems = Problems()
            component = check_component(raw, types, sets, header, entry.line, problems)
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

    def markup(self, entries: list[Entry], components: list[Component], look: Look) -> None:
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
            components.append(implicit_back(header, self.line(("back",))))
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

    def component_layouts(self, design: layouts.Design, components: list[Component],
                          types: Mapping[str, ComponentType], look: Look, game: str) -> None:
        """Each component against the layout it prints with (its fields there, what its elements need)."""
        problems = Problems()
        for c, message in check_layouts(design, components, types, look, game, problems):
            self.errors.append(f"{c.where(self.filename)}: {c.id}: layout: {message}")
        written = [replace(p, path=written_at(design, self.lines, p.path)) for p in problems]
        report_layout_problems([p for n, p in enumerate(written) if p not in written[:n]], self.report)

    def scoring(self, header: Mapping, types: Mapping[str, ComponentType], sets: Mapping,
                components: list[Component]) -> data_scoring.Scoring | None:
        """The `scoring:` section compiled and proved over the file's domains (scoring/proof.py); each problem as
        `file:line: scoring.…: problem`, each warning as `file:line: scoring.…: warning: …`. Only a data-only game
        scores from data."""
        section = header.get("scoring")
        if section is None:
            return None
        if header["game"] in games.GAMES:
            self.errors.append(f"{self.filename}:{self.line(('scoring',))}: scoring: this game is scored by its "
                               f"rules module (companion/games/); scoring: is for a game of data alone")
            return None
        scoring, problems, warnings = data_scoring.check_section(section, types, sets, components,
                                                                 tuple(header["players"]),
                                                                 (header.get("setup") or {}).get("hand_size"))
        for p in problems:
            self.errors.append(f"{self.filename}:{self.line(p.path)}: {fmt_path(p.path)}: {p.message}")
        for p in warnings:
            self.warnings.append(f"{self.filename}:{self.line(p.path)}: {fmt_path(p.path)}: {p.message}")
        return scoring

    def setup(self, header: Mapping, components: list[Component], scoring) -> Mapping:
        """The setup as the deal reads it (its hand size one formula of players and round: `scoring.deal`), and a
        problem for a hand size that is no whole number of cards, or a deal of more cards than the deck holds, at
        any player count the file allows and any round its game may reach."""
        plan = dict(header.get("setup") or {})
        if "hand_size" not in plan:
            return MappingProxyType(plan)
        players = tuple(header["players"])
        rounds = scoring.rounds if scoring is not None else 1
        problems: list[Problem] = []
        plan["hand_size"] = formula = data_scoring.compile_hand_size(plan["hand_size"], players, rounds, problems)
        for p in problems:
            self.report(p)
        cards_in_deck = sum(c.qty for c in components if c.kind == "card")
        reads_round = formula is not None and "round" in formula.text
        for n in range(players[0], players[1] + 1) if formula is not None else ():
            for round_ in range(1, (rounds if reads_round else 1) + 1):
                dealt = data_scoring.dealt(formula, n, round_) * n + plan.get("market", 0)
                if dealt > cards_in_deck:
                    when = f" in round {round_}" if reads_round else ""
                    self.report(Problem(("setup",), f"{n} players need {dealt} cards{when}; the deck has "
                                                    f"{cards_in_deck}"))
                    return MappingProxyType(plan)
        return MappingProxyType(plan)


def check_file(path: str | FsPath) -> tuple[CardSet | None, list[str]]:
    """Check one data file on disk (see `check_text`); unreadable files are errors too. Its art files are not read,
    nor its fonts, nor the fit of its layouts' texts: those are the print's to check
    (`pnp.design_check.validate_file` is all that `validate` says)."""
    from ..core.files import NotReadable, read_regular

    name = str(path)
    try:  # a regular file only (a FIFO would hang, /dev/zero never ends), of at most MAX_DATA_BYTES
        data = read_regular(path, MAX_DATA_BYTES, "data file")
        text = data.decode("utf-8")
        text = text.replace("\r\n", "\n").replace("\r", "\n")  # as a file opened as text reads it
    except NotReadable as e:
        return None, [f"{name}:0: -: -: {e}"]
    except UnicodeDecodeError as e:
        return None, [f"{name}:0: -: -: not UTF-8 text ({e.reason} at byte {e.start})"]
    return check_text(text, name, data)
