"""Components from spreadsheet rows (a data file's `rows:`): each row an entry as the data file would write it,
each cell read as its field takes it; and `Entry`, one component as written, from the file or a row."""
from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..components import ComponentType
from ..core.schema import (
    WRITTEN,
    Bool,
    Field,
    Int,
    ListOf,
    Path,
    Problems,
    Record,
    TextsField,
    closest,
    fmt_path,
    whole_number,
)
from .model import COMMON_FIELDS


@dataclass(frozen=True)
class Entry:
    """One component as written, before its checks: in the data file (`source` "") or a spreadsheet's row."""

    raw: Any
    source: str
    line: int
    label: str  # what names it in an error line when its id cannot
    line_of: Any  # field path → line (a row has one line for all its cells)


def row_entries(given: str, folder: str, shown_as: str, given_at: str, types: Mapping[str, ComponentType],
                 errors: list[str]) -> list[Entry]:
    """The components of a `rows:` spreadsheet, one a row, each cell turned into the value its field takes (a
    number, a list, yes/no, a text in both languages); errors appended: a file that cannot be read at the data
    file's `rows:` line (`given_at`), its columns and cells as `sheet:row: id: field: problem`."""
    from .. import rows  # the spreadsheet readers (openpyxl for .xlsx, expat for .ods): only where a file has rows

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
        entry = Entry(raw, shown_as, number, f"row {number}", lambda path, number=number: number)
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
        for part in parts[1:]:  # `bonus.count`: a key of a mapping field; `name.es`: a text
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
