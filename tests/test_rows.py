"""companion.rows: a designer's card spreadsheet (CSV, XLSX, ODS) read into text cells, and every way a stranger's
file is refused (with the row, and a message saying what is wrong). XLSX files are made with openpyxl and ODS files
with odfpy here; CSV files are written by hand."""
from __future__ import annotations

import datetime
import os
import threading
import time
import zipfile

import openpyxl
import pytest
from odf.office import Annotation
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import CoveredTableCell, Table, TableCell, TableRow, TableRowGroup
from odf.text import LineBreak, P, S, Span, Tab

from companion import rows
from companion.rows import RowsError, Sheet, read_rows, split_reference

# The table every format writes: a number 3, a number 2.5, accents, an empty cell, a blank row, a multi-line cell
# (in the last row: after it a CSV's line numbers run ahead of the rows a spreadsheet program shows).
HEADER = ["id", "qty", "name.es", "value", "text.es"]
TABLE = [HEADER, ["HV-1", 3, "Cosecha ñ", 2.5, None], [], ["HV-2", 1, "Pera", 10.0, "Línea uno\nLínea dos"]]
EXPECTED = Sheet(
    columns=("id", "qty", "name.es", "value", "text.es"),
    rows=((2, {"id": "HV-1", "qty": "3", "name.es": "Cosecha ñ", "value": "2.5"}),
          (4, {"id": "HV-2", "qty": "1", "name.es": "Pera", "value": "10", "text.es": "Línea uno\nLínea dos"})),
    header_line=1,
)
NOTES = [["Notas"], ["sin cartas aquí"]]  # the first sheet of the workbooks: #Deck must be asked for


# --- writers -------------------------------------------------------------------------------------------------------


def write_xlsx(path, sheets: dict[str, list[list]]):
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, table in sheets.items():
        sheet = book.create_sheet(name)
        for r, values in enumerate(table, 1):
            for c, value in enumerate(values, 1):
                if value is not None:
                    sheet.cell(row=r, column=c, value=value)
    book.save(path)
    return path


def ods_cell(value):
    """A cell as LibreOffice writes it: numbers with office:value (shown the Spanish way), text as paragraphs."""
    if value is None:
        return TableCell()
    if not isinstance(value, (str, int, float)):  # an odfpy cell made by the test
        return value
    if isinstance(value, bool):
        cell = TableCell(valuetype="boolean", booleanvalue="true" if value else "false")
        cell.addElement(P(text="VERDADERO" if value else "FALSO"))
        return cell
    if isinstance(value, (int, float)):
        cell = TableCell(valuetype="float", value=repr(value).removesuffix(".0"))
        cell.addElement(P(text=str(value).replace(".", ",")))
        return cell
    cell = TableCell(valuetype="string")
    for line in value.split("\n"):
        p = P()
        if line == "Cosecha ñ":  # a space and a span, as an edited cell may hold
            p.addText("Cosecha")
            p.addElement(S(c=1))
            p.addElement(Span(text="ñ"))
        else:
            p.addText(line)
        cell.addElement(p)
    return cell


def write_ods(path, sheets: dict[str, list[list]], empty_rows: int = 1048570, empty_columns: int = 16379):
    """Each row ends with a run of empty cells and each table with a run of empty rows, as LibreOffice writes."""
    doc = OpenDocumentSpreadsheet()
    for name, table in sheets.items():
        t = Table(name=name)
        for values in table:
            row = TableRow()
            for value in values:
                row.addElement(ods_cell(value))
            row.addElement(TableCell(numbercolumnsrepeated=empty_columns))
            t.addElement(row)
        if empty_rows:
            row = TableRow(numberrowsrepeated=empty_rows)
            row.addElement(TableCell(numbercolumnsrepeated=empty_columns + 5))
            t.addElement(row)
        doc.spreadsheet.addElement(t)
    doc.save(str(path))
    return path


def csv_text(table, separator):
    def cell(value):
        text = "" if value is None else str(value).removesuffix(".0") if isinstance(value, float) else str(value)
        return f'"{text}"' if any(c in text for c in f'{separator}"\n') else text
    return "\n".join(separator.join(cell(v) for v in values) for values in table) + "\n"


def write(tmp_path, name, text: str | bytes):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def error(path, sheet=None) -> RowsError:
    with pytest.raises(RowsError) as caught:
        read_rows(str(path), sheet)
    return caught.value


# --- the same table in every format --------------------------------------------------------------------------------


def table_as(kind, tmp_path):
    if kind == "csv-comma":
        text = 'id,qty,name.es,value,text.es\nHV-1, 3 ,Cosecha ñ,2.5,\n\nHV-2,1,"Pera",10,"Línea uno\nLínea dos"\n'
        return write(tmp_path, "cards.csv", text), None
    if kind == "csv-semicolon-bom":  # what Excel in Spanish saves: ';', a BOM, \r\n, a trailing ';' per row
        text = ('id;qty;name.es;value;text.es;\r\nHV-1;3;Cosecha ñ;2.5;;\r\n;;;;;\r\n'
                'HV-2;1;Pera;10;"Línea uno\r\nLínea dos";\r\n')
        return write(tmp_path, "cards.csv", b"\xef\xbb\xbf" + text.encode("utf-8")), None
    if kind == "xlsx":
        return write_xlsx(tmp_path / "cards.xlsx", {"Notes": NOTES, "Deck": TABLE}), "Deck"
    return write_ods(tmp_path / "cards.ods", {"Notes": NOTES, "Deck": TABLE}), "Deck"


KINDS = ["csv-comma", "csv-semicolon-bom", "xlsx", "ods"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_table_in_every_format_reads_the_same(tmp_path, kind):
    path, sheet = table_as(kind, tmp_path)
    if kind == "csv-semicolon-bom":
        assert path.read_bytes().startswith(b"\xef\xbb\xbfid;qty;") and b"\r\n" in path.read_bytes()
    got = read_rows(str(path), sheet)
    assert got == EXPECTED
    assert list(got.rows[1][1]) == ["id", "qty", "name.es", "value", "text.es"]  # the cells in column order


@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_a_workbook_is_read_from_its_first_sheet_unless_one_is_named(tmp_path, kind):
    path, _ = table_as(kind, tmp_path)
    assert read_rows(str(path)) == Sheet(columns=("Notas",), rows=((2, {"Notas": "sin cartas aquí"}),), header_line=1)
    assert read_rows(str(path), "Deck") == EXPECTED


@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_a_missing_worksheet_is_named_with_the_ones_there_are(tmp_path, kind):
    path, _ = table_as(kind, tmp_path)
    e = error(path, "Mazo")
    assert e.line == 0 and "'Mazo'" in e.message and "'Notes', 'Deck'" in e.message


def test_split_reference():
    assert split_reference("cards.xlsx#Deck") == ("cards.xlsx", "Deck")
    assert split_reference("cards.csv") == ("cards.csv", None)
    assert split_reference("data/cards.ODS#Hoja 1") == ("data/cards.ODS", "Hoja 1")
    assert split_reference("cards#2.csv") == ("cards#2.csv", None)  # a '#' in the file's own name
    assert split_reference("a#b.xlsx#Deck#2") == ("a#b.xlsx", "Deck#2")
    assert split_reference("cards.xlsx#") == ("cards.xlsx", None)


def test_a_csv_has_no_worksheets(tmp_path):
    e = error(write(tmp_path, "cards.csv", "id\nA\n"), "Deck")
    assert e.line == 0 and "#Deck" in e.message


# --- CSV -------------------------------------------------------------------------------------------------------------


def test_csv_rows_are_numbered_by_the_line_they_start_on(tmp_path):
    text = 'id,text.es\n\nA,"one\ntwo\nthree"\n\n"B","x"\r\nC,"say ""hi"", then\r\nbye"\rD,end'
    got = read_rows(str(write(tmp_path, "cards.csv", text)))
    assert got.rows == ((3, {"id": "A", "text.es": "one\ntwo\nthree"}), (7, {"id": "B", "text.es": "x"}),
                        (8, {"id": "C", "text.es": 'say "hi", then\nbye'}), (10, {"id": "D", "text.es": "end"}))


def test_csv_separator_is_chosen_from_the_header_outside_quotes(tmp_path):
    semicolons = 'id;name.es\nA;"uno, dos, tres"\n'
    assert read_rows(str(write(tmp_path, "a.csv", semicolons))).rows == ((2, {"id": "A", "name.es": "uno, dos, tres"}),)
    commas = '"a;b;c",d\n1;2,3\n'  # two ';' in the header, but inside quotes
    assert read_rows(str(write(tmp_path, "b.csv", commas))) == Sheet(("a;b;c", "d"),
                                                                     ((2, {"a;b;c": "1;2", "d": "3"}),), 1)
    one_column = "\n;;;\nid\nA\n\nB\n"  # a blank line of separators first: the header is line 3
    assert read_rows(str(write(tmp_path, "c.csv", one_column))) == Sheet(("id",),
                                                                         ((4, {"id": "A"}), (6, {"id": "B"})), 3)
    declared = "sep=;\nid;name.es\nA;Pera, verde\n"  # Excel's first line naming the separator
    assert read_rows(str(write(tmp_path, "d.csv", declared))).rows == ((3, {"id": "A", "name.es": "Pera, verde"}),)


def test_csv_that_is_not_utf8_names_the_byte_and_the_line(tmp_path):
    latin1 = "id,name.es\nHV-1,Pera\nHV-2,Cosecha ñ\n".encode("latin-1")
    e = error(write(tmp_path, "cards.csv", b"\xef\xbb\xbf" + latin1))
    assert e.line == 3
    assert "byte offset 37" in e.message and "0xF1" in e.message and "save it as CSV UTF-8" in e.message
    e = error(write(tmp_path, "u16.csv", "id\nA\n".encode("utf-16")))
    assert e.line == 0 and "UTF-16" in e.message and "CSV UTF-8" in e.message


def test_csv_with_a_quote_never_closed(tmp_path):
    e = error(write(tmp_path, "cards.csv", 'id,text.es\nA,fine\nB,"5 cm\nC,more\n'))
    assert e.line == 3 and "never closed" in e.message


def test_csv_binary_and_empty_files(tmp_path):
    e = error(write(tmp_path, "nul.csv", b"id\nA\x00B\n"))
    assert e.line == 2 and "NUL" in e.message
    for text in ("", "\n\n", ";;;\r\n;;\n", ",,\n"):
        e = error(write(tmp_path, "empty.csv", text))
        assert e.line == 0 and "empty" in e.message


# --- header and limits, all formats ----------------------------------------------------------------------------------

WRITERS = {
    "csv": lambda tmp_path, table: write(tmp_path, "t.csv", csv_text(table, ",")),
    "xlsx": lambda tmp_path, table: write_xlsx(tmp_path / "t.xlsx", {"Sheet": table}),
    "ods": lambda tmp_path, table: write_ods(tmp_path / "t.ods", {"Sheet": table}),
}


@pytest.mark.parametrize("kind", WRITERS)
def test_the_same_column_name_twice(tmp_path, kind):
    e = error(WRITERS[kind](tmp_path, [[], ["id", "qty", " id "], ["A", 1, "B"]]))
    assert e.line == 2 and "'id'" in e.message and "column A (1)" in e.message and "column C (3)" in e.message


@pytest.mark.parametrize("kind", WRITERS)
def test_a_blank_header_cell_with_data_under_it(tmp_path, kind):
    path = WRITERS[kind](tmp_path, [["id", None, "qty"], ["A", None, 1], [], ["B", "oops", 2]])
    e = error(path)
    assert e.line == 4 and "column B (2)" in e.message and "'oops'" in e.message and "no name" in e.message


@pytest.mark.parametrize("kind", WRITERS)
def test_blank_header_cells_and_trailing_empty_columns_without_data_are_fine(tmp_path, kind):
    path = WRITERS[kind](tmp_path, [["id", None, "qty", None, None], ["A", None, 1, None, " "]])
    assert read_rows(str(path)) == Sheet(("id", "qty"), ((2, {"id": "A", "qty": "1"}),), 1)


@pytest.mark.parametrize("kind", WRITERS)
def test_too_many_columns(tmp_path, kind):
    e = error(WRITERS[kind](tmp_path, [[f"c{i}" for i in range(201)], ["x"] * 201]))
    assert e.line == 1 and "column GS (201)" in e.message and "200 columns" in e.message
    fine = [[f"c{i}" for i in range(200)], ["x"] * 200]
    assert len(read_rows(str(WRITERS[kind](tmp_path, fine))).columns) == 200


@pytest.mark.parametrize("kind", WRITERS)
def test_a_cell_too_long(tmp_path, kind):
    e = error(WRITERS[kind](tmp_path, [["id", "text.es"], ["A", "x"], ["B", "y" * 5001]]))
    assert e.line == 3 and "column B (2)" in e.message and "5,001 characters" in e.message and "5,000" in e.message
    assert (read_rows(str(WRITERS[kind](tmp_path, [["id", "text.es"], ["B", "y" * 5000]]))).rows[0][1]["text.es"]
            == "y" * 5000)


def test_too_many_rows_csv(tmp_path):
    lines = ["id"] + [f"C-{i}" for i in range(5000)]
    assert len(read_rows(str(write(tmp_path, "ok.csv", "\n".join(lines) + "\n\n\n"))).rows) == 5000
    e = error(write(tmp_path, "big.csv", "\n".join(lines + ["C-LAST"]) + "\n"))
    assert e.line == 5002 and "5,000 rows" in e.message


def test_too_many_rows_xlsx(tmp_path):
    e = error(write_xlsx(tmp_path / "big.xlsx", {"S": [["id"]] + [[f"C-{i}"] for i in range(5001)]}))
    assert e.line == 5002 and "5,000 rows" in e.message


def test_too_many_rows_ods_repeated_row_is_not_made_a_million_times(tmp_path):
    doc = OpenDocumentSpreadsheet()
    t = Table(name="S")
    for text, repeat in (("id", 1), ("same", 1000000)):  # LibreOffice writes identical rows as one, repeated
        row = TableRow(numberrowsrepeated=repeat)
        row.addElement(ods_cell(text))
        t.addElement(row)
    doc.spreadsheet.addElement(t)
    doc.save(str(tmp_path / "big.ods"))
    start = time.process_time()
    e = error(tmp_path / "big.ods")
    assert time.process_time() - start < 1
    assert e.line == 5002 and "5,000 rows" in e.message


# --- files: zips, extensions, pipes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["cards.xlsx", "cards.ods"])
def test_a_workbook_that_is_not_a_zip(tmp_path, name):
    e = error(write(tmp_path, name, "id,qty\nA,1\n"))
    assert e.line == 0 and "not a zip archive" in e.message
    e = error(write(tmp_path, name, b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(500)))
    assert e.line == 0 and ".xls" in e.message


@pytest.mark.parametrize("name", ["cards.xlsx", "cards.ods"])
def test_a_zip_bomb_is_refused_unread(tmp_path, name):
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        with archive.open("content.xml" if name.endswith(".ods") else "xl/worksheets/sheet1.xml", "w") as member:
            chunk = bytes(2**20)
            for _ in range(100):  # 100 MiB of zeros
                member.write(chunk)
    assert path.stat().st_size < 1024 * 1024
    start = time.process_time()
    e = error(path)
    assert time.process_time() - start < 0.5
    assert e.line == 0 and "zip bomb" in e.message and "64 MiB" in e.message


def test_an_unknown_extension_names_the_three(tmp_path):
    e = error(write(tmp_path, "cards.txt", "id\nA\n"))
    assert e.line == 0 and all(ext in e.message for ext in (".csv", ".xlsx", ".ods"))
    e = error(write(tmp_path, "cards.xls", b"\xd0\xcf\x11\xe0"))
    assert e.line == 0 and "save it as .xlsx" in e.message


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "cards.csv"
    os.mkfifo(fifo)
    found = []
    reader = threading.Thread(target=lambda: found.append(error(fifo)), daemon=True)
    reader.start()
    reader.join(2)
    if reader.is_alive():  # it waits for a writer: give it one, so that the test ends
        with open(fifo, "w") as writer:
            writer.write("id\nA\n")
        reader.join(2)
        pytest.fail("reading a FIFO waited for a writer")
    assert found and found[0].line == 0 and "pipe" in found[0].message


def test_missing_and_oversized_files(tmp_path):
    e = error(tmp_path / "nothing.csv")
    assert e.line == 0 and "no such file" in e.message
    e = error(write(tmp_path, "huge.csv", b"id\n" + b"A\n" * (2 * 2**20)))
    assert e.line == 0 and "4 MiB" in e.message


def test_broken_ods_content_is_an_error_not_an_empty_sheet_nor_a_printout(tmp_path, capfd):
    path = tmp_path / "broken.ods"
    write_ods(path, {"S": [["id"], ["A"]]})
    with zipfile.ZipFile(path) as archive:
        parts = {info.filename: archive.read(info.filename) for info in archive.infolist()}
    assert b"</table:table-row>" in parts["content.xml"]
    parts["content.xml"] = parts["content.xml"].replace(b"</table:table-row>", b"</table:table-rov>", 1)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    e = error(path)
    assert e.line == 0 and "content.xml" in e.message
    assert capfd.readouterr().out == ""


def test_broken_xlsx_is_an_error(tmp_path):
    path = tmp_path / "broken.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
    e = error(path)
    assert e.line == 0 and "Excel workbook" in e.message


# --- values ----------------------------------------------------------------------------------------------------------


def test_xlsx_values_as_text(tmp_path):
    values = [True, False, 7, 3.0, 0.1 + 0.2, -2.25, 1e-05, datetime.date(2024, 5, 1),
              datetime.datetime(2024, 5, 2, 0, 0), "  spaced  ", "   "]
    path = write_xlsx(tmp_path / "v.xlsx", {"S": [[f"c{i}" for i in range(len(values))], values]})
    assert read_rows(str(path)).rows == ((2, {"c0": "true", "c1": "false", "c2": "7", "c3": "3", "c4": "0.3",
                                              "c5": "-2.25", "c6": "1e-05", "c7": "2024-05-01", "c8": "2024-05-02",
                                              "c9": "spaced"}),)


def test_ods_values_as_text(tmp_path):
    def cell(**attributes):
        shown = attributes.pop("shown", "shown")
        c = TableCell(**attributes)
        c.addElement(P(text=shown))
        return c

    words = TableCell(valuetype="string")
    p = P()
    p.addText("a")
    p.addElement(Tab())
    p.addText("b")
    p.addElement(S(c=3))
    p.addText("c")
    p.addElement(LineBreak())
    p.addText("d")
    words.addElement(Annotation())  # a comment on the cell: not its text
    words.addElement(p)
    row = [cell(valuetype="boolean", booleanvalue="true"), cell(valuetype="percentage", value="0.25", shown="25 %"),
           cell(valuetype="currency", currency="EUR", value="4", shown="4,00 €"),
           cell(valuetype="date", datevalue="2024-05-01T00:00:00"), cell(valuetype="time", timevalue="PT10H30M00S"),
           cell(valuetype="float", value="0.30000000000000004"), words, cell(valuetype="string", shown="  x  "),
           TableCell(valuetype="float", value="5", numbercolumnsrepeated=2), CoveredTableCell(), cell(shown="last")]
    header = [f"c{i}" for i in range(12)]
    path = write_ods(tmp_path / "v.ods", {"S": [header, row]})
    assert read_rows(str(path)).rows == ((2, {"c0": "true", "c1": "0.25", "c2": "4", "c3": "2024-05-01",
                                              "c4": "10:30:00", "c5": "0.3", "c6": "a\tb   c\nd", "c7": "x",
                                              "c8": "5", "c9": "5", "c11": "last"}),)


def test_ods_rows_inside_groups_and_after_repeated_blank_rows(tmp_path):
    doc = OpenDocumentSpreadsheet()
    t = Table(name="S")
    blank = TableRow(numberrowsrepeated=3)
    blank.addElement(TableCell(numbercolumnsrepeated=1024))
    t.addElement(blank)
    header = TableRow()
    header.addElement(ods_cell("id"))
    t.addElement(header)
    group = TableRowGroup()
    for text in ("A", "B"):
        row = TableRow()
        row.addElement(ods_cell(text))
        group.addElement(row)
    t.addElement(group)
    last = TableRow()
    last.addElement(ods_cell("C"))
    t.addElement(last)
    doc.spreadsheet.addElement(t)
    doc.save(str(tmp_path / "g.ods"))
    assert read_rows(str(tmp_path / "g.ods")) == Sheet(("id",),
                                                       ((5, {"id": "A"}), (6, {"id": "B"}), (7, {"id": "C"})), 4)


def test_ods_with_a_million_repeated_empty_rows_and_columns_reads_at_once(tmp_path):
    path = write_ods(tmp_path / "cards.ods", {"Deck": TABLE}, empty_rows=1048576, empty_columns=16384)
    start = time.process_time()
    assert read_rows(str(path)) == EXPECTED
    assert time.process_time() - start < 1


# --- speed -----------------------------------------------------------------------------------------------------------


def test_a_hundred_rows_of_twelve_columns_read_quickly_in_every_format(tmp_path):
    table = [[f"col{c}" for c in range(12)]] + [[f"R{r}-{c}" if c % 3 else r * 1.5 for c in range(12)]
                                                 for r in range(100)]
    paths = [write(tmp_path, "s.csv", csv_text(table, ",")), write_xlsx(tmp_path / "s.xlsx", {"S": table}),
             write_ods(tmp_path / "s.ods", {"S": table})]
    for path in paths:
        read_rows(str(path))  # imports openpyxl / odfpy once
        best = min(timed(path) for _ in range(3))
        assert best < 0.1, (path.name, best)
        assert len(read_rows(str(path)).rows) == 100


# Every time bound in this file is on CPU time (time.process_time): the work the read does, which a busy machine
# or a second xdist worker beside it does not stretch the way it stretches the wall clock.
def timed(path):
    start = time.process_time()
    read_rows(str(path))
    return time.process_time() - start


def test_row_errors_say_where(tmp_path):
    assert str(RowsError(14, "bad")) == "14: bad" and str(RowsError(0, "bad")) == "bad"
    assert (RowsError(3, "x").line, RowsError(3, "x").message) == (3, "x")
    assert rows.column_name(0) == "column A (1)" and rows.column_name(27) == "column AB (28)"


# --- guards beyond the zip's size: XML element counts, one huge row, a size the file claims, entities ----------------


def rewritten(path, change):
    """The zip at `path` written again with change(parts) applied to its {name: bytes}."""
    with zipfile.ZipFile(path) as archive:
        parts = {info.filename: archive.read(info.filename) for info in archive.infolist()}
    change(parts)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return path


def test_xlsx_that_claims_a_million_rows_and_every_column_is_read_as_it_is(tmp_path):
    table = [["id", "qty"]] + [[f"C-{i}", i] for i in range(2000)]
    path = write_xlsx(tmp_path / "cards.xlsx", {"Deck": table})

    def claim(parts):
        sheet = parts["xl/worksheets/sheet1.xml"]
        assert b'<dimension ref="A1:B2001"/>' in sheet
        parts["xl/worksheets/sheet1.xml"] = sheet.replace(b'ref="A1:B2001"', b'ref="A1:XFD1048576"')

    rewritten(path, claim)
    start = time.process_time()
    got = read_rows(str(path))
    assert time.process_time() - start < 1
    assert (got.columns == ("id", "qty") and len(got.rows) == 2000
            and got.rows[-1] == (2001, {"id": "C-1999", "qty": "1999"}))


def test_xlsx_row_of_a_million_empty_cells_is_refused_before_openpyxl_holds_it(tmp_path):
    path = write_xlsx(tmp_path / "cards.xlsx", {"Deck": [["id"], ["A"], ["B"]]})

    def widen(parts):
        sheet = parts["xl/worksheets/sheet1.xml"]
        parts["xl/worksheets/sheet1.xml"] = sheet.replace(b'<row r="3"', b'<row r="2"><c/></row><row r="3"', 1) \
            .replace(b"<c/></row>", b"<c/>" * 600_000 + b"</row>", 1)

    rewritten(path, widen)
    assert path.stat().st_size < 100_000
    start = time.process_time()
    e = error(path)
    assert time.process_time() - start < 1
    assert e.line == 2 and "50,000 XML elements" in e.message


@pytest.mark.parametrize("part", ["xl/styles.xml", "xl/worksheets/sheet1.xml", "content.xml"])
def test_xml_parts_with_too_many_elements_are_refused_unparsed(tmp_path, part):
    if part == "content.xml":
        path = write_ods(tmp_path / "cards.ods", {"Deck": TABLE})
    else:
        path = write_xlsx(tmp_path / "cards.xlsx", {"Deck": TABLE})

    def bloat(parts):
        xml = parts[part]
        closing = xml.rindex(b"</")  # empty elements just before the root's end: still well-formed
        parts[part] = xml[:closing] + b"<x/>" * 1_100_000 + xml[closing:]

    rewritten(path, bloat)
    start = time.process_time()
    e = error(path)
    assert time.process_time() - start < 1
    assert e.line == 0 and "XML elements" in e.message and (part in e.message or "content.xml" in e.message)


@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_xml_entities_are_refused(tmp_path, kind):
    laughs = (b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
              b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>')
    if kind == "ods":
        path = write_ods(tmp_path / "cards.ods", {"Deck": [["id"], ["HV-1"]]})
        part, value = "content.xml", b"HV-1"
    else:
        path = write_xlsx(tmp_path / "cards.xlsx", {"Deck": [["id"], ["HV-1"]]})
        part, value = "xl/worksheets/sheet1.xml", b"HV-1"

    def entity(parts):
        xml = parts[part]
        declaration_end = xml.index(b"?>") + 2 if xml.startswith(b"<?xml") else 0
        parts[part] = xml[:declaration_end] + laughs + xml[declaration_end:].replace(value, b"&c;")

    rewritten(path, entity)
    e = error(path)
    assert e.line == 0 and "entit" in e.message.lower()


@pytest.mark.parametrize("given, other", [("cards.xlsx", "ods"), ("cards.ods", "xlsx")])
def test_a_workbook_with_the_other_formats_extension(tmp_path, given, other):
    made = tmp_path / f"made.{other}"
    (write_ods if other == "ods" else write_xlsx)(made, {"Deck": TABLE})
    path = tmp_path / given
    path.write_bytes(made.read_bytes())
    e = error(path)
    assert e.line == 0 and f"name it .{other}" in e.message


def test_csv_cell_beyond_the_csv_modules_own_limit(tmp_path):
    e = error(write(tmp_path, "cards.csv", 'id,text.es\nA,ok\nB,"' + "x" * 200_000 + '"\n'))
    assert e.line == 3 and "5,000 characters" in e.message


def test_ods_paragraphs_in_a_list_and_a_shape_in_a_cell(tmp_path):
    from odf.draw import Frame, TextBox
    from odf.text import List, ListItem

    cell = TableCell(valuetype="string")
    items = List()
    for text in ("uno", "dos"):
        item = ListItem()
        item.addElement(P(text=text))
        items.addElement(item)
    cell.addElement(items)
    frame = Frame(width="1cm", height="1cm")
    box = TextBox()
    box.addElement(P(text="a shape's words"))
    frame.addElement(box)
    shaped = TableCell(valuetype="string")
    shaped.addElement(frame)
    shaped.addElement(P(text="cell"))
    path = write_ods(tmp_path / "l.ods", {"S": [["a", "b"], [cell, shaped]]})
    assert read_rows(str(path)).rows == ((2, {"a": "uno\ndos", "b": "cell"}),)
