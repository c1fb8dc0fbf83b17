"""A designer's card spreadsheet (`rows: cards.csv`, `cards.xlsx#Deck`, `cards.ods`) read into text cells.

Only reading: every cell comes out as stripped text (or absent when empty); turning cells into typed component
fields is `companion.cards`'s job. The file is a stranger's, so everything here is bounded before it is done:

* the file is read through `files.read_regular` (no pipes or devices, at most 4 MiB);
* an .xlsx or .ods is a zip archive: it is looked at with `zipfile` first, and refused when it is not one or its
  members would unpack to more than 64 MiB (a zip bomb); then the XML elements of its parts are counted (at C
  speed) and refused beyond what the largest card spreadsheet needs, and an .xlsx's rows are measured before
  openpyxl (which holds a whole row in memory) reads them: a few kilobytes of zip could otherwise cost minutes and
  gigabytes;
* at most 5,000 data rows, 200 columns, 5,000 characters a cell and 4 Mi characters in all the cells (an .xlsx's
  shared text counted in every cell that shows it); an ODS file's repeated rows and cells (LibreOffice writes
  `number-rows-repeated="1048576"` for the empty rows below the data) are counted, never made one by one.

Row numbers are the ones the designer sees: the spreadsheet program's row number for .xlsx and .ods, and for a CSV
the line the row starts on (a quoted cell may run over several lines; only after one does the line differ from
the row a spreadsheet program shows). A problem is a `RowsError` with that number (0: the whole file) and an
English message saying what is wrong and what to do; the caller puts the file's name in front (`cards.csv:14: ...`).
"""
from __future__ import annotations

import csv
import datetime
import io
import math
import os
import re
import warnings
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .files import NotReadable, read_regular

# OpenDocument's namespaces (ODF 1.2, part 1, 3.2): the names odfpy gives them
DRAWNS = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
OFFICENS = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TABLENS = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
TEXTNS = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"

FILE_LIMIT = 4 * 2**20  # bytes of the file, whatever its format
UNPACKED_LIMIT = 64 * 2**20  # bytes an .xlsx's or .ods's members may unpack to, all together
MAX_ROWS = 5000  # data rows (blank ones not counted)
MAX_COLUMNS = 200
MAX_CELL = 5000  # characters in a cell, once stripped
MAX_TEXT = FILE_LIMIT  # characters in all the cells: what a CSV file could hold (an .xlsx shares one text among many
# cells, an .ods repeats a cell: a few kilobytes could otherwise hold gigabytes of text)
# XML is parsed one element at a time (openpyxl: 6 µs a worksheet cell, 18 µs a shared string, 40 µs a style;
# expat and the handlers here: 4 µs), so the elements (counted as '<'s, at C speed) are bounded before any is parsed:
SHEET_TAGS = 1_000_000  # in the sheet read: an .xlsx's worksheet, an .ods's content.xml (~250,000 cells of text)
STRINGS_TAGS = 250_000  # in an .xlsx's shared strings (~60,000 different texts)
OTHER_TAGS = 100_000  # in all of an .xlsx's other parts together (styles, workbook, properties, rels...)
WORKBOOK_TAGS = 2_000_000  # in all of an .xlsx's parts together
ROW_ELEMENTS = 50_000  # XML elements in one .xlsx row (Excel's 16,384 cells at most, a few elements each)
FORMATS = (".csv", ".xlsx", ".ods")


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


_REFERENCE = re.compile(r"(.*?\.(?:csv|xlsx|ods))#(.*)", re.IGNORECASE | re.DOTALL)


def split_reference(given: str) -> tuple[str, str | None]:
    """`cards.xlsx#Deck` -> ("cards.xlsx", "Deck"); `cards.csv` -> ("cards.csv", None). The name is split at the first
    '#' right after a spreadsheet's extension (so `cards#2.csv` is a file name); nothing after the '#' is None."""
    found = _REFERENCE.fullmatch(given)
    if found is None:
        return given, None
    return found.group(1), found.group(2) or None


def read_rows(path: str | os.PathLike, sheet: str | None = None) -> Sheet:
    """The spreadsheet at `path` (its format from its extension), `sheet` naming an .xlsx's worksheet or an .ods's
    table (default: the first one); RowsError on any problem."""
    extension = os.path.splitext(os.fspath(path))[1].lower()
    if extension not in FORMATS:
        hint = " (an old Excel .xls workbook: save it as .xlsx)" if extension == ".xls" else ""
        raise RowsError(0, f"is not a spreadsheet that can be read{hint}: use a .csv, .xlsx or .ods file")
    if extension == ".csv" and sheet is not None:
        raise RowsError(0, f"is a CSV file, which has no worksheets: remove '#{sheet}' after its name")
    try:
        data = read_regular(path, FILE_LIMIT, "spreadsheet")
    except NotReadable as e:
        raise RowsError(0, str(e)) from None
    if extension == ".csv":
        return _sheet(_csv_rows(data))
    if extension == ".xlsx":
        return _read_xlsx(data, sheet)
    return _read_ods(data, sheet)


# --- Rows of cells into a Sheet, the same for every format ----------------------------------------------------------


def column_name(index: int) -> str:
    """A 0-based column as a spreadsheet program names it, and its number: 'column C (3)'."""
    letters, n = "", index + 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"column {letters} ({index + 1})"


def _put(cells: dict[int, str], number: int, index: int, text: str) -> None:
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


class _Builder:
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


def _sheet(rows: Iterable[tuple[int, dict[int, str]]]) -> Sheet:
    builder = _Builder()
    for number, cells in rows:
        builder.add(number, cells)
    return builder.sheet()


# --- CSV -------------------------------------------------------------------------------------------------------------

_BLANK_RECORD = re.compile(r'[\s,;"]*')
_QUOTED = re.compile(r'"[^"]*"?')
_SEP_LINE = re.compile(r"sep=([,;])[ \t]*(?:\n|$)")
_END = "\0"  # a last line after the text: swallowed into a cell only when a quote is never closed


def _record_end(text: str, start: int) -> int:
    """Where the CSV record starting at `start` ends: the first line end after an even number of quotes (outside
    quotes), or the end of the text. Quotes are counted a line at a time (at C speed): looking for the line's end
    again after each quoted cell made a line of many of them quadratic (10 s for 1.6 MB of '""')."""
    at, quotes = start, 0
    while True:
        newline = text.find("\n", at)
        if newline == -1:
            return len(text)
        quotes += text.count('"', at, newline)
        if quotes % 2 == 0:
            return newline
        at = newline + 1


def _separator(text: str) -> str:
    """The header's separator: ';' when it splits the first non-blank record into more cells than ',' does
    (outside quotes), else ','. A header of one column says neither: then the blank rows above it (';;;') say."""
    start, commas_above, semicolons_above = 0, 0, 0
    while start < len(text):
        end = _record_end(text, start)
        record = _QUOTED.sub("", text[start:end])
        commas, semicolons = record.count(","), record.count(";")
        if not _BLANK_RECORD.fullmatch(record):
            if commas != semicolons:
                return ";" if semicolons > commas else ","
            break
        commas_above, semicolons_above = commas_above + commas, semicolons_above + semicolons
        start = end + 1
    return ";" if semicolons_above > commas_above else ","


def _line_at(data: bytes, offset: int) -> int:
    before = data[:offset]
    return before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1


def _csv_text(data: bytes) -> str:
    """A CSV file's bytes as text: UTF-8 (a byte-order mark dropped); RowsError naming UTF-16, another encoding or a
    NUL byte, with where."""
    skipped = 0
    if data.startswith(b"\xef\xbb\xbf"):
        data, skipped = data[3:], 3
    elif data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise RowsError(0, "is UTF-16 text (Excel's 'Unicode text'), not UTF-8: save it as CSV UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RowsError(_line_at(data, e.start),
                        f"is not UTF-8 text (the byte 0x{data[e.start]:02X} at byte offset {e.start + skipped:,} is "
                        "not UTF-8: an older Windows or Mac encoding?); save it as CSV UTF-8") from None
    if "\0" in text:
        raise RowsError(_line_at(data, data.index(b"\0")),
                        "has a NUL byte: it is not a text file; save it as CSV UTF-8")
    return text


def _csv_rows(data: bytes) -> Iterator[tuple[int, dict[int, str]]]:
    """Each row of a CSV file that holds a cell: its line and its cells by column."""
    text = _csv_text(data)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    declared = _SEP_LINE.match(text)  # Excel's 'sep=;' first line names the separator and is no row
    if declared:
        separator = declared.group(1)
        text = "\n" + text[declared.end():]  # a blank line 1 in its place: the rows keep their line numbers
    else:
        separator = _separator(text)
    if not text.endswith("\n"):
        text += "\n"
    reader = csv.reader(io.StringIO(text + _END, newline="\n"), delimiter=separator, quotechar='"',
                        doublequote=True, skipinitialspace=True, strict=False)
    ended = 0  # the line the previous record ended on
    try:
        for fields in reader:
            number, ended = ended + 1, reader.line_num
            if not any(fields):  # a blank line, or only separators
                continue
            if fields[-1].endswith(_END):
                if fields == [_END]:
                    return
                raise RowsError(number, "a cell in this row opens a quote ('\"') that is never closed: close it, "
                                        "or remove it")
            cells: dict[int, str] = {}
            for index, field in enumerate(fields):
                if field:
                    field = field.strip()
                    if field:
                        _put(cells, number, index, field)
            yield number, cells
    except csv.Error as e:
        if "field limit" in str(e):
            raise RowsError(ended + 1, f"a cell in this row has more than {MAX_CELL:,} characters (is a '\"' "
                                       "missing, so that the cell runs on over many rows?)") from None
        raise RowsError(ended + 1, f"cannot be read as CSV ({e})") from None


# --- Zip archives: .xlsx and .ods --------------------------------------------------------------------------------


def _archive(data: bytes, kind: str) -> zipfile.ZipFile:
    """The file as a zip archive, checked: RowsError if it is not one or would unpack to more than the limit."""
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise RowsError(0, f"is an old binary Office file (an Excel 97-2003 .xls, or a workbook with a password), "
                           f"not {kind}: save it again as {kind}, without a password")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as e:
        raise RowsError(0, f"is not {kind}: it is not a zip archive as {kind} files are ({e}); save it again from "
                           "the spreadsheet program in that format") from None
    unpacked = sum(member.file_size for member in members)
    if unpacked > UNPACKED_LIMIT:
        raise RowsError(0, f"would unpack to {unpacked / 2**20:,.0f} MiB, more than the {UNPACKED_LIMIT // 2**20} "
                           "MiB a card spreadsheet may (a zip bomb?); refused unread")
    return archive


def _tags(count: int, most: int, what: str) -> None:
    """RowsError when `what` holds more XML elements than the largest card spreadsheet needs: parsed one by one,
    64 MiB of empty elements would take minutes (and openpyxl's styles, gigabytes)."""
    if count > most:
        raise RowsError(0, f"{what} holds more than {most:,} XML elements, more than a card spreadsheet needs; "
                           "save the cards' rows alone in a file of their own")


_NAME_START = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_CHARS = _NAME_START | frozenset(b"0123456789.-:")


def _root_name(xml: bytes) -> bytes:
    """The local name of a part's root element (b"" when it does not start as XML does), read past a byte order mark,
    the XML declaration, comments and processing instructions: plain code, one pass (a pattern that skipped the
    comments backtracked exponentially on a part of forty of them)."""
    at = 3 if xml.startswith(b"\xef\xbb\xbf") else 0
    while True:
        while at < len(xml) and xml[at] in b" \t\r\n":
            at += 1
        if xml.startswith(b"<!--", at):
            end = xml.find(b"-->", at + 4)
        elif xml.startswith(b"<?", at):
            end = xml.find(b"?>", at + 2)
        else:
            break
        if end == -1:
            return b""
        at = end + 3 if xml[end] == ord("-") else end + 2
    if not xml.startswith(b"<", at) or at + 1 >= len(xml) or xml[at + 1] not in _NAME_START:
        return b""
    end = at + 1
    while end < len(xml) and end - at <= 100 and xml[end] in _NAME_CHARS:
        end += 1
    return xml[at + 1:end].rpartition(b":")[2]


def _xlsx_parts(archive: zipfile.ZipFile) -> None:
    """Every part of a workbook within its bounds, by what its root element says it is. Not by its name: the
    workbook's own relations may name `xl/worksheets/sheet1.dat` as a worksheet, and openpyxl parses it; a part that
    is no XML (a picture) has few '<' bytes to count (the file itself is at most FILE_LIMIT)."""
    total = other = 0
    for name in archive.namelist():
        xml = _member(archive, name) or b""
        if b"<!DOCTYPE" in xml:  # no part of a workbook has one: it is where entities (billion laughs) are declared
            raise RowsError(0, f"{name} declares XML entities, which a workbook does not: refused")
        count = xml.count(b"<")
        total += count
        kind = _root_name(xml)
        if kind == b"worksheet":  # openpyxl parses the chosen one (its rows counted again then), scans the others
            _tags(count, SHEET_TAGS, f"the worksheet {name}")
        elif kind == b"sst":
            _tags(count, STRINGS_TAGS, f"the shared strings ({name})")
        else:
            other += count
            _tags(other, OTHER_TAGS, f"{name} (with the parts before it)")
    _tags(total, WORKBOOK_TAGS, "the workbook")


def _reason(error: Exception) -> str:
    """A library's exception in a few words: its type and its message's first line."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:200]}" if text else type(error).__name__


def _member(archive: zipfile.ZipFile, name: str) -> bytes | None:
    """One member's bytes (None if there is no such member); RowsError if it cannot be unpacked."""
    try:
        return archive.read(name)
    except KeyError:
        return None
    except Exception as e:  # noqa: BLE001 (a bad CRC, an unknown compression method, an encrypted member...)
        raise RowsError(0, f"cannot be unpacked ({name}: {_reason(e)}); save it again") from None


def _number(value: float) -> str:
    """A number as a spreadsheet program shows it (15 significant digits): 3.0 -> '3', 2.5 -> '2.5'."""
    if not math.isfinite(value):
        return repr(value)
    shown = float(f"{value:.15g}")
    if shown.is_integer() and abs(shown) < 1e16:
        return str(int(shown))
    return repr(shown)


# --- XLSX ------------------------------------------------------------------------------------------------------------


def _xlsx_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, datetime.datetime):
        return value.date().isoformat()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value).strip()


def _read_xlsx(data: bytes, sheet: str | None) -> Sheet:
    with _archive(data, "an Excel workbook (.xlsx)") as archive:
        names = archive.namelist()
        if "content.xml" in names and "xl/workbook.xml" not in names:
            raise RowsError(0, "is an OpenDocument spreadsheet, not an Excel workbook: name it .ods")
        _xlsx_parts(archive)
        import openpyxl  # imported when a workbook is read: it takes a while

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "no default style", unsupported extensions: nothing for a designer
            return _read_book(openpyxl, data, sheet, archive)


def _read_book(openpyxl, data: bytes, sheet: str | None, archive: zipfile.ZipFile) -> Sheet:
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    except Exception as e:  # noqa: BLE001 (a stranger's file: openpyxl fails in many ways: KeyError, XML errors...)
        raise RowsError(0, f"cannot be read as an Excel workbook ({_reason(e)}); save it again as .xlsx"
                        ) from None
    try:
        sheets = book.worksheets  # chart sheets left out
        if not sheets:
            raise RowsError(0, "has no worksheets")
        if sheet is None:
            chosen = sheets[0]
        else:
            chosen = next((each for each in sheets if each.title == sheet), None)
            if chosen is None:
                raise RowsError(0, f"has no worksheet named {sheet!r}; its worksheets are "
                                   f"{', '.join(repr(each.title) for each in sheets)}")
        part = getattr(chosen, "_worksheet_path", None)  # openpyxl's read-only worksheet: where its XML is
        xml = (_member(archive, part) or b"") if part is not None else b""
        if xml.count(b"<") > ROW_ELEMENTS:  # else no row can be too large
            _row_sizes(xml)
        if hasattr(chosen, "reset_dimensions"):
            chosen.reset_dimensions()  # the file's own claim of its size is not trusted: rows are as long as they are
        return _sheet(_xlsx_rows(chosen))
    finally:
        book.close()


def _expat(parser) -> None:
    """What defusedxml does for a parser: no entity declarations (no billion laughs), no external entities."""
    import pyexpat

    def forbidden(*args):
        raise RowsError(0, "declares XML entities, which a spreadsheet does not: refused")

    parser.EntityDeclHandler = parser.UnparsedEntityDeclHandler = forbidden
    parser.SetParamEntityParsing(pyexpat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True
    parser.buffer_size = 65536


def _row_sizes(xml: bytes) -> None:
    """A worksheet's rows, counted before openpyxl reads it: openpyxl holds a whole row (its XML elements and a dict
    a cell) in memory, and one row of millions of empty cells took 5 GB. RowsError if a row is that large."""
    import pyexpat

    parser = pyexpat.ParserCreate()
    _expat(parser)
    depth, row_depth, inside, rows = 0, 0, 0, 0

    def start(name, attributes):
        nonlocal depth, row_depth, inside, rows
        depth += 1
        if row_depth:
            inside += 1
            if inside > ROW_ELEMENTS:
                raise RowsError(rows, f"has more than {ROW_ELEMENTS:,} XML elements in this row (a row holds "
                                      "16,384 cells at most): the file is damaged; save it again as .xlsx")
        elif name.rpartition(":")[2] == "row":
            row_depth, inside = depth, 0
            number = attributes.get("r", "")
            rows = int(number) if number.isdigit() and len(number) < 8 else rows + 1

    def end(name):
        nonlocal depth, row_depth
        if depth == row_depth:
            row_depth = 0
        depth -= 1

    parser.StartElementHandler, parser.EndElementHandler = start, end
    try:
        parser.Parse(xml, True)
    except pyexpat.ExpatError as e:
        raise RowsError(0, f"cannot be read as an Excel workbook (its worksheet's XML: {e}); save it again as .xlsx"
                        ) from None


def _xlsx_rows(worksheet) -> Iterator[tuple[int, dict[int, str]]]:
    rows = worksheet.iter_rows(values_only=True)
    number = 0
    while True:
        number += 1
        try:
            values = next(rows)
        except StopIteration:
            return
        except Exception as e:  # noqa: BLE001 (openpyxl parses the rows as they are asked for)
            raise RowsError(number, f"cannot be read as an Excel workbook ({_reason(e)}); save it again "
                                    "as .xlsx") from None
        if len(values) > MAX_COLUMNS and values[MAX_COLUMNS:].count(None) == len(values) - MAX_COLUMNS:
            values = values[:MAX_COLUMNS]  # empty cells far to the right (styled ones): not looked at one by one
        cells: dict[int, str] = {}
        for index, value in enumerate(values):
            if value is not None:
                text = _xlsx_text(value)
                if text:
                    _put(cells, number, index, text)
        yield number, cells


# --- ODS -------------------------------------------------------------------------------------------------------------
#
# content.xml is read as a stream by expat, guarded as odfpy's own loader guards it (defusedxml: no entity
# declarations, no external entities), rather than through
# `odf.opendocument.load`: that builds an odfpy element for every cell and paragraph (about 40 µs each: a 100-row,
# 12-column sheet took 60-80 ms of CPU, and 64 MiB of XML would take minutes and gigabytes), also parses styles.xml,
# meta.xml and settings.xml, and given XML that is not well-formed prints the whole part to standard output and
# returns an empty document. Streamed, a row is seen and let go, a repeat is only a count, and reading stops at the
# end of the chosen table.

_TIME = re.compile(r"PT(\d{1,6})H(\d{1,2})M(\d{1,2})(?:[.,]\d*)?S")
_RAW_CELL = 16 * MAX_CELL  # characters gathered from one cell's paragraphs at most (before stripping)


def _name(namespace: str, local: str) -> str:
    return f"{namespace} {local}"  # as expat names it, with " " between a namespace and a name


SPREADSHEET, TABLE, TABLE_NAME = _name(OFFICENS, "spreadsheet"), _name(TABLENS, "table"), _name(TABLENS, "name")
ROW, ROWS_REPEATED = _name(TABLENS, "table-row"), _name(TABLENS, "number-rows-repeated")
CELL, COVERED_CELL = _name(TABLENS, "table-cell"), _name(TABLENS, "covered-table-cell")
COLUMNS_REPEATED = _name(TABLENS, "number-columns-repeated")
PARAGRAPHS = {_name(TEXTNS, "p"), _name(TEXTNS, "h")}
SPACE, SPACES, TAB, LINE_BREAK = (_name(TEXTNS, "s"), _name(TEXTNS, "c"), _name(TEXTNS, "tab"),
                                  _name(TEXTNS, "line-break"))
SKIPPED = {_name(OFFICENS, "annotation"), _name(OFFICENS, "annotation-end"), _name(TEXTNS, "note"), TABLE}
VALUE_TYPE, VALUE, STRING_VALUE = (_name(OFFICENS, "value-type"), _name(OFFICENS, "value"),
                                   _name(OFFICENS, "string-value"))
BOOLEAN_VALUE, DATE_VALUE, TIME_VALUE = (_name(OFFICENS, "boolean-value"), _name(OFFICENS, "date-value"),
                                         _name(OFFICENS, "time-value"))
SHAPES = DRAWNS + " "  # a shape anchored in a cell: not its text


class _TableRead(Exception):
    """The chosen table has been read: the rest of content.xml is not needed."""


def _read_ods(data: bytes, sheet: str | None) -> Sheet:
    with _archive(data, "an OpenDocument spreadsheet (.ods)") as archive:
        mimetype = (_member(archive, "mimetype") or b"").decode("ascii", "replace").strip()
        if mimetype and mimetype != "application/vnd.oasis.opendocument.spreadsheet":
            raise RowsError(0, f"is not an OpenDocument spreadsheet (it says it is {mimetype[:80]!r}); save it as "
                               ".ods from a spreadsheet program")
        content = _member(archive, "content.xml")
        if content is None and "xl/workbook.xml" in archive.namelist():
            raise RowsError(0, "is an Excel workbook, not an OpenDocument spreadsheet: name it .xlsx")
        if content is None:
            raise RowsError(0, "is not an OpenDocument spreadsheet: it has no content.xml; save it again as .ods")
    _tags(content.count(b"<"), SHEET_TAGS, "its content.xml")
    import pyexpat

    reader = _OdsReader(sheet)
    parser = pyexpat.ParserCreate(namespace_separator=" ")
    _expat(parser)
    parser.StartElementHandler, parser.EndElementHandler = reader.start, reader.end
    parser.CharacterDataHandler = reader.characters
    try:
        parser.Parse(content, True)
    except _TableRead:
        pass
    except pyexpat.ExpatError as e:
        raise RowsError(0, f"cannot be read as an OpenDocument spreadsheet (content.xml: {e}); save it again as .ods"
                        ) from None
    if not reader.spreadsheet:
        raise RowsError(0, "is not an OpenDocument spreadsheet (content.xml holds no spreadsheet); save it as .ods")
    if not reader.found:
        if sheet is None:
            raise RowsError(0, "has no sheets")
        raise RowsError(0, f"has no sheet named {sheet!r}; its sheets are {', '.join(map(repr, reader.names))}")
    return reader.builder.sheet()


def _count(value) -> int:
    """A `number-*-repeated` attribute: a whole number >= 1 (anything else counts as 1)."""
    try:
        count = int(value)
    except (TypeError, ValueError):
        return 1
    return min(max(count, 1), 2**31)


def _ods_typed(attributes: dict) -> str | None:
    """A cell's value from its attributes (numbers, booleans, dates, times), None when its text is its value."""
    kind = attributes.get(VALUE_TYPE)
    if kind in ("float", "percentage", "currency"):
        try:
            return _number(float(attributes.get(VALUE, "")))
        except ValueError:
            return None
    if kind == "boolean":
        value = attributes.get(BOOLEAN_VALUE)
        return None if value is None else "true" if value.strip().lower() in ("true", "1") else "false"
    if kind == "date":
        return attributes.get(DATE_VALUE, "").strip().split("T")[0][:40] or None
    if kind == "time":
        found = _TIME.fullmatch(attributes.get(TIME_VALUE, "").strip())
        if found:
            return ":".join(f"{int(part):02d}" for part in found.groups())
    return None


class _OdsReader:
    """expat's handlers: the rows of one table of content.xml into a _Builder. Only what a row needs is kept; the
    subtrees of anything else inside a row or a cell (comments, notes, shapes, a nested table) are skipped."""

    def __init__(self, wanted: str | None):
        self.wanted = wanted
        self.builder = _Builder()
        self.names: list[str] = []  # the spreadsheet's tables, for the message when `wanted` is not one of them
        self.spreadsheet = self.in_spreadsheet = self.found = self.reading = False
        self.tables = 0  # table:table elements open
        self.skip = 0  # depth inside a skipped subtree
        self.number = 1  # the next row's number
        self.row: dict[int, str] | None = None
        self.repeat = 1
        self.column = 0
        self.cell = False
        self.cell_repeat = 1
        self.value: str | None = None
        self.string_value = ""
        self.lines: list[str] = []
        self.parts: list[str] | None = None  # the paragraph being read
        self.paragraphs = 0  # paragraph elements open (one inside another is read as part of it)
        self.size = 0

    def start(self, name: str, attributes: dict) -> None:
        if self.skip:
            self.skip += 1
        elif self.cell:
            self._start_in_cell(name, attributes)
        elif self.row is not None:
            repeat = _count(attributes.get(COLUMNS_REPEATED))
            if name == CELL:
                self.cell, self.cell_repeat = True, repeat
                self.value = _ods_typed(attributes)
                self.string_value = attributes.get(STRING_VALUE, "")
                self.lines, self.parts, self.paragraphs, self.size = [], None, 0, 0
            else:  # a covered cell (under a merged one) is empty; anything else in a row is no cell
                if name == COVERED_CELL:
                    self.column += repeat
                self.skip = 1
        elif name == TABLE:
            self.tables += 1
            if self.tables == 1 and self.in_spreadsheet:
                table = attributes.get(TABLE_NAME, "")
                self.names.append(table)
                if not self.found and (self.wanted is None or table == self.wanted):
                    self.found = self.reading = True
        elif name == ROW:
            if self.reading and self.tables == 1:
                self.row, self.column = {}, 0
                self.repeat = _count(attributes.get(ROWS_REPEATED))
            else:
                self.skip = 1
        elif name == SPREADSHEET:
            self.spreadsheet = self.in_spreadsheet = True

    def _start_in_cell(self, name: str, attributes: dict) -> None:
        if name in PARAGRAPHS:
            if not self.paragraphs:
                self.parts = []
            self.paragraphs += 1
        elif name in SKIPPED or name.startswith(SHAPES):
            self.skip = 1
        elif self.parts is None:  # outside a paragraph (a text:list around it): only paragraphs are read
            return
        elif name == SPACE:
            self._text(" " * min(_count(attributes.get(SPACES)), _RAW_CELL + 1))
        elif name == TAB:
            self._text("\t")
        elif name == LINE_BREAK:
            self._text("\n")
        # anything else in a paragraph (a span, a link, a field) is read for its text

    def _text(self, text: str) -> None:
        if self.size <= _RAW_CELL:
            self.parts.append(text)
            self.size += len(text)

    def characters(self, content: str) -> None:
        if self.parts is not None and not self.skip:
            self._text(content)

    def end(self, name: str) -> None:
        if self.skip:
            self.skip -= 1
        elif self.cell:
            if name == CELL:
                self._end_cell()
            elif name in PARAGRAPHS:
                self.paragraphs -= 1
                if not self.paragraphs:
                    self.lines.append("".join(self.parts))
                    self.size += 1
                    self.parts = None
        elif self.row is not None:
            if name == ROW:
                row, self.row = self.row, None
                if row:  # a row with something in it, repeated: identical rows (the row limit stops a huge repeat)
                    for k in range(self.repeat):
                        self.builder.add(self.number + k, dict(row))
                self.number += self.repeat  # empty rows, however many, are only counted
        elif name == TABLE:
            self.tables -= 1
            if self.tables == 0 and self.reading:
                raise _TableRead()
        elif name == SPREADSHEET:
            self.in_spreadsheet = False

    def _end_cell(self) -> None:
        self.cell = False
        text = self.value
        if text is None:
            text = "\n".join(self.lines).strip() or self.string_value.strip()
        if text:
            for k in range(self.cell_repeat):  # _put stops at the column limit
                _put(self.row, self.number, self.column + k, text)
        self.column += self.cell_repeat
