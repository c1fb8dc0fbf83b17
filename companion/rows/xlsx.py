"""An Excel workbook's (.xlsx) rows: every part bounded by what its root element says it is, a worksheet's rows
measured before openpyxl (which holds a whole row in memory) reads them, each cell's value as text."""
from __future__ import annotations

import datetime
import io
import warnings
import zipfile
from collections.abc import Iterator

from .archive import SHEET_TAGS, check_tags, guard_expat, member, number_text, open_archive, reason
from .sheet import MAX_COLUMNS, RowsError, Sheet, put_cell, sheet_of

STRINGS_TAGS = 250_000  # in an .xlsx's shared strings (~60,000 different texts)
OTHER_TAGS = 100_000  # in all of an .xlsx's other parts together (styles, workbook, properties, rels...)
WORKBOOK_TAGS = 2_000_000  # in all of an .xlsx's parts together
ROW_ELEMENTS = 50_000  # XML elements in one .xlsx row (Excel's 16,384 cells at most, a few elements each)
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
        xml = member(archive, name) or b""
        if b"<!DOCTYPE" in xml:  # no part of a workbook has one: it is where entities (billion laughs) are declared
            raise RowsError(0, f"{name} declares XML entities, which a workbook does not: refused")
        count = xml.count(b"<")
        total += count
        kind = _root_name(xml)
        if kind == b"worksheet":  # openpyxl parses the chosen one (its rows counted again then), scans the others
            check_tags(count, SHEET_TAGS, f"the worksheet {name}")
        elif kind == b"sst":
            check_tags(count, STRINGS_TAGS, f"the shared strings ({name})")
        else:
            other += count
            check_tags(other, OTHER_TAGS, f"{name} (with the parts before it)")
    check_tags(total, WORKBOOK_TAGS, "the workbook")


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
        return number_text(value)
    if isinstance(value, datetime.datetime):
        return value.date().isoformat()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value).strip()


def read_xlsx(data: bytes, sheet: str | None) -> Sheet:
    """The rows of the .xlsx file's worksheet named `sheet` (default: the first one), as a `Sheet`."""
    with open_archive(data, "an Excel workbook (.xlsx)") as archive:
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
        raise RowsError(0, f"cannot be read as an Excel workbook ({reason(e)}); save it again as .xlsx"
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
        xml = (member(archive, part) or b"") if part is not None else b""
        if xml.count(b"<") > ROW_ELEMENTS:  # else no row can be too large
            _row_sizes(xml)
        if hasattr(chosen, "reset_dimensions"):
            chosen.reset_dimensions()  # the file's own claim of its size is not trusted: rows are as long as they are
        return sheet_of(_xlsx_rows(chosen))
    finally:
        book.close()


def _row_sizes(xml: bytes) -> None:
    """A worksheet's rows, counted before openpyxl reads it: openpyxl holds a whole row (its XML elements and a dict
    a cell) in memory, and one row of millions of empty cells took 5 GB. RowsError if a row is that large."""
    import pyexpat

    parser = pyexpat.ParserCreate()
    guard_expat(parser)
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
            raise RowsError(number, f"cannot be read as an Excel workbook ({reason(e)}); save it again "
                                    "as .xlsx") from None
        if len(values) > MAX_COLUMNS and values[MAX_COLUMNS:].count(None) == len(values) - MAX_COLUMNS:
            values = values[:MAX_COLUMNS]  # empty cells far to the right (styled ones): not looked at one by one
        cells: dict[int, str] = {}
        for index, value in enumerate(values):
            if value is not None:
                text = _xlsx_text(value)
                if text:
                    put_cell(cells, number, index, text)
        yield number, cells
