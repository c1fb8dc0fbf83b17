"""An OpenDocument spreadsheet's (.ods) rows, its content.xml streamed through expat: a row is seen and let go, a
repeated row or cell is only a count, and reading stops at the end of the chosen table."""
from __future__ import annotations

import re

from .archive import SHEET_TAGS, check_tags, guard_expat, member, number_text, open_archive
from .sheet import MAX_CELL, Builder, RowsError, Sheet, put_cell

# OpenDocument's namespaces (ODF 1.2, part 1, 3.2): the names odfpy gives them
DRAWNS = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
OFFICENS = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TABLENS = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
TEXTNS = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"

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


def read_ods(data: bytes, sheet: str | None) -> Sheet:
    """The rows of the .ods file's table named `sheet` (default: the first one), as a `Sheet`."""
    with open_archive(data, "an OpenDocument spreadsheet (.ods)") as archive:
        mimetype = (member(archive, "mimetype") or b"").decode("ascii", "replace").strip()
        if mimetype and mimetype != "application/vnd.oasis.opendocument.spreadsheet":
            raise RowsError(0, f"is not an OpenDocument spreadsheet (it says it is {mimetype[:80]!r}); save it as "
                               ".ods from a spreadsheet program")
        content = member(archive, "content.xml")
        if content is None and "xl/workbook.xml" in archive.namelist():
            raise RowsError(0, "is an Excel workbook, not an OpenDocument spreadsheet: name it .xlsx")
        if content is None:
            raise RowsError(0, "is not an OpenDocument spreadsheet: it has no content.xml; save it again as .ods")
    check_tags(content.count(b"<"), SHEET_TAGS, "its content.xml")
    import pyexpat

    reader = _OdsReader(sheet)
    parser = pyexpat.ParserCreate(namespace_separator=" ")
    guard_expat(parser)
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
            return number_text(float(attributes.get(VALUE, "")))
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
    """expat's handlers: the rows of one table of content.xml into a Builder. Only what a row needs is kept; the
    subtrees of anything else inside a row or a cell (comments, notes, shapes, a nested table) are skipped."""

    def __init__(self, wanted: str | None):
        self.wanted = wanted
        self.builder = Builder()
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
                put_cell(self.row, self.number, self.column + k, text)
        self.column += self.cell_repeat
