"""A designer's card spreadsheet (`rows: cards.csv`, `cards.xlsx#Deck`, `cards.ods`) read into text cells.

Only reading: every cell comes out as stripped text (or absent when empty); turning cells into typed component
fields is `cards.spreadsheet`'s job. The file is a stranger's, so everything here is bounded before it is done:

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

import os
import re

from ..core.files import NotReadable, read_regular
from .sheet import FILE_LIMIT, RowsError, Sheet, column_name

__all__ = ["FORMATS", "RowsError", "Sheet", "column_name", "read_rows", "split_reference"]

FORMATS = (".csv", ".xlsx", ".ods")
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
        from .csv_file import read_csv

        return read_csv(data)
    if extension == ".xlsx":
        from .xlsx import read_xlsx  # (openpyxl, imported when a workbook is read)

        return read_xlsx(data, sheet)
    from .ods import read_ods

    return read_ods(data, sheet)

