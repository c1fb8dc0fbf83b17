"""A CSV card spreadsheet's rows: UTF-8 text (a byte-order mark dropped), its separator (',' or ';') found or
declared (`sep=;`), each row numbered by the line it starts on."""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

from .sheet import MAX_CELL, RowsError, Sheet, put_cell, sheet_of

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


def read_csv(data: bytes) -> Sheet:
    """A CSV file's rows as a `Sheet`."""
    return sheet_of(_csv_rows(data))


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
                        put_cell(cells, number, index, field)
            yield number, cells
    except csv.Error as e:
        if "field limit" in str(e):
            raise RowsError(ended + 1, f"a cell in this row has more than {MAX_CELL:,} characters (is a '\"' "
                                       "missing, so that the cell runs on over many rows?)") from None
        raise RowsError(ended + 1, f"cannot be read as CSV ({e})") from None

