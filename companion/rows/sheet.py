"""A card spreadsheet's rows of cells into a `Sheet`, the same for every format (`companion.rows` reads the file):
the limits every reader keeps, the `RowsError` each raises, and the builder that names the columns."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

FILE_LIMIT = 4 * 2**20  # bytes of the file, whatever its format
MAX_ROWS = 5000  # data rows (blank ones not counted)
MAX_COLUMNS = 200
MAX_CELL = 5000  # characters in a cell, once stripped
MAX_TEXT = FILE_LIMIT  # characters in all the cells: what a CSV file could hold (an .xlsx shares one text among many
# cells, an .ods repeats a cell: a few kilobytes could otherwise hold gigabytes of text)


class RowsError(Exception):
    """A spreadsheet that cannot be read: `line` (1-based row/line of the problem, 0 when it is the whole file) and
    `message` (English, says what is wrong and what to do)."""

    def __init__(self, line: int, message: str):
        self.line, self.message = line, message
        super().__init__(line, message)

    def __str__(self) -> str:
        return f"{self.line}: {self.message}" if self.line else self.message


@dataclass(frozen=True)
class Sheet:
    """The header's names, and each non-blank row after it as {column name: stripped, non-empty cell text}."""

    columns: tuple[str, ...]  # the header's non-empty cells, stripped, in order
    rows: tuple[tuple[int, dict[str, str]], ...]  # (row number as the designer sees it, {column: text})
    header_line: int  # the header's row number



def column_name(index: int) -> str:
    """A 0-based column as a spreadsheet program names it, and its number: 'column C (3)'."""
    letters, n = "", index + 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"column {letters} ({index + 1})"


def put_cell(cells: dict[int, str], number: int, index: int, text: str) -> None:
    """A non-empty, stripped cell into its row, within the limits."""
    if index >= MAX_COLUMNS:
        raise RowsError(number, f"{column_name(index)} has something in it; a card spreadsheet may have at most "
                                f"{MAX_COLUMNS} columns: move it to the left or remove it")
    if len(text) > MAX_CELL:
        raise RowsError(number, f"the cell in {column_name(index)} has {len(text):,} characters; a cell may have at "
                                f"most {MAX_CELL:,}")
    cells[index] = text


def _shown(text: str) -> str:
    return repr(text if len(text) <= 30 else text[:29] + "…")


class Builder:
    """Rows in, one at a time: the first non-blank row names the columns; each further non-blank row is one
    component."""

    def __init__(self):
        self.names: dict[int, str] | None = None
        self.header_line = 0
        self.out: list[tuple[int, dict[str, str]]] = []
        self.text = 0  # characters in the cells so far

    def add(self, number: int, cells: dict[int, str]) -> None:
        """Take row `number` (column index → text; a blank row is skipped): the header first, then one component a row.
        RowsError for a column name used twice, a cell in an unnamed column, or more than MAX_ROWS rows."""
        if not cells:
            return
        self.text += sum(map(len, cells.values()))
        if self.text > MAX_TEXT:
            raise RowsError(number, f"the cells up to this row hold more than {MAX_TEXT:,} characters in all, more "
                                    "than a card spreadsheet may (as much as a CSV file of "
                                    f"{FILE_LIMIT // 2**20} MiB holds): shorten the texts, or split the rows into "
                                    "files of their own")
        if self.names is None:
            self.header_line, self.names = number, cells
            first: dict[str, int] = {}
            for index, name in cells.items():
                if name in first:
                    raise RowsError(number, f"the column name {_shown(name)} is used twice, in "
                                            f"{column_name(first[name])} and {column_name(index)}: "
                                            "give each column its own name")
                first[name] = index
            return
        data = {}
        for index, text in cells.items():
            name = self.names.get(index)
            if name is None:
                raise RowsError(number, f"{column_name(index)} has {_shown(text)} in this row but no name in the "
                                        f"header (row {self.header_line}): name the column in the header, or empty "
                                        "it")
            data[name] = text
        if len(self.out) >= MAX_ROWS:
            raise RowsError(number, f"more than {MAX_ROWS:,} rows: a card spreadsheet may have at most "
                                    f"{MAX_ROWS:,} rows of components")
        self.out.append((number, data))

    def sheet(self) -> Sheet:
        """The rows read, as a `Sheet`; RowsError if no row named the columns."""
        if self.names is None:
            raise RowsError(0, "is empty: its first row must name the columns (id, type, qty, name.es, ...)")
        return Sheet(columns=tuple(self.names.values()), rows=tuple(self.out), header_line=self.header_line)


def sheet_of(rows: Iterable[tuple[int, dict[int, str]]]) -> Sheet:
    builder = Builder()
    for number, cells in rows:
        builder.add(number, cells)
    return builder.sheet()

