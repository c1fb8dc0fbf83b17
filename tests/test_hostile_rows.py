"""Hostile spreadsheets and texts (issue 37, items 2, 3 and 8): a workbook's part of forty XML comments (a pattern
backtracked exponentially on it), one long cell shared by thousands of list cells (a split that went quadratic), a
worksheet named `.dat` (its elements went uncounted), and every pattern that reads a file's or a request's text
given its worst input. Every hostile file is built here, from zipfile and XML text."""
from __future__ import annotations

import contextlib
import io
import shutil
import threading
import time
import tracemalloc
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from companion import layouts, rows
from companion.cards import spreadsheet as cards_rows
from companion.cli import main
from companion.core.schema import Problems, Text, whole_number
from companion.games import generic
from companion.pnp import art, textfit, tts
from companion.rows import csv_file as rows_csv
from companion.rows import ods as rows_ods
from companion.rows import xlsx as rows_xlsx
from companion.web import create_app
from companion.web.play import forms
from companion.web.shell import limits

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "example-game"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
TYPES = "application/vnd.openxmlformats-officedocument.spreadsheetml"


def workbook(sheet_xml: str, strings=(), sheet_part="xl/worksheets/sheet1.xml", extra=None) -> bytes:
    """A minimal .xlsx, written by hand: one worksheet `Deck` at `sheet_part` (named by the workbook's relations,
    whatever its name), shared strings, and `extra` parts {name: text}."""
    parts = {
        "[Content_Types].xml": f'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
                               f'content-types"><Default Extension="rels" ContentType="application/vnd.'
                               f'openxmlformats-package.relationships+xml"/><Default Extension="xml" '
                               f'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
                               f'ContentType="{TYPES}.sheet.main+xml"/><Override PartName="/{sheet_part}" '
                               f'ContentType="{TYPES}.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" '
                               f'ContentType="{TYPES}.sharedStrings+xml"/></Types>',
        "_rels/.rels": f'<?xml version="1.0"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" '
                       f'Type="{OFFICE}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<?xml version="1.0"?><workbook xmlns="{MAIN}" xmlns:r="{OFFICE}"><sheets><sheet '
                           f'name="Deck" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<?xml version="1.0"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" '
                                      f'Type="{OFFICE}/worksheet" Target="/{sheet_part}"/><Relationship Id="rId2" '
                                      f'Type="{OFFICE}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/sharedStrings.xml": f'<?xml version="1.0"?><sst xmlns="{MAIN}">'
                                + "".join(f"<si><t>{escape(s)}</t></si>" for s in strings) + "</sst>",
        sheet_part: sheet_xml,
        **(extra or {}),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return out.getvalue()


def worksheet(rows_xml: str) -> str:
    return f'<?xml version="1.0"?><worksheet xmlns="{MAIN}"><sheetData>{rows_xml}</sheetData></worksheet>'


def inline(text: str) -> str:
    return f'<c t="inlineStr"><is><t>{escape(text)}</t></is></c>'


def card_rows(count: int, icons_cell: str) -> str:
    """The example's `huerto` columns id, type, qty, name, icons: a header and `count` cards (8 copies each) whose
    icons are `icons_cell`."""
    return f"<row>{''.join(map(inline, COLUMNS))}</row>" + "".join(card(n, icons_cell) for n in range(count))


COLUMNS = ["id", "type", "qty", "name", "icons"]


def card(n: int, icons_cell: str) -> str:
    return f"<row>{inline(f'HU-C{n}')}{inline('card')}<c><v>8</v></c>{inline('Col')}{icons_cell}</row>"


GOOD = worksheet(card_rows(3, inline("heart")))


@pytest.fixture
def game(tmp_path):
    """The example's `huerto` (a game kept in a spreadsheet) reading its cards from cards.xlsx: (data file, sheet)."""
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    data = folder / "huerto.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("rows: huerto.csv", "rows: cards.xlsx"), encoding="utf-8")
    (folder / "cards.xlsx").write_bytes(workbook(GOOD))
    return data, folder / "cards.xlsx"


def validate(data: Path) -> tuple[int, str, float, int]:
    """`companion validate FILE`: (exit code, standard error, CPU seconds, peak bytes traced)."""
    err = io.StringIO()
    tracemalloc.start()
    start = time.process_time()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(["validate", str(data)])
    finally:
        seconds, (_, peak) = time.process_time() - start, tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return code, err.getvalue(), seconds, peak


def test_the_hand_written_workbook_validates(game):
    data, _ = game
    code, err, _, _ = validate(data)
    assert code == 0, err


# --- item 2: a part of forty XML comments ------------------------------------------------------------------------

COMMENTS = '<?xml version="1.0" encoding="UTF-8"?>' + "<!---->" * 40 + "<ñame/>"  # well-formed: a non-ASCII root


def test_a_part_of_forty_comments_is_read_at_once(game):
    data, sheet = game
    sheet.write_bytes(workbook(GOOD, extra={"docProps/custom.xml": COMMENTS}))
    assert sheet.stat().st_size < 5000
    code, err, seconds, peak = validate(data)  # before: the root's pattern backtracked 2**40 times (never ended)
    assert code == 0, err
    assert seconds < 10 and peak < 200 * 2**20


@pytest.mark.parametrize("xml, name", [
    (b'\xef\xbb\xbf<?xml version="1.0"?>\r\n<!-- a -- b --><?pi x?>\n<x:worksheet xmlns:x="u">', b"worksheet"),
    (b"<sst xmlns='u'/>", b"sst"), (b"  <styleSheet>", b"styleSheet"), (b"<!-- never closed", b""),
    (b"<?xml version='1.0'", b""), (b"\x89PNG\r\n", b""), (b"<1/>", b""), (b"", b""),
    (b"<!---->" * 40 + "<ñame/>".encode(), b""),
])
def test_a_parts_root_name(xml, name):
    assert rows_xlsx._root_name(xml) == name


# --- item 3: one long cell shared by thousands of list cells -----------------------------------------------------

SPACED = "a" + " " * 4997 + "b,"  # a run of spaces with no separator after it: `\s*,\s*` tried each space in turn


@pytest.mark.slow  # reads a spreadsheet at the text limit (about 5–11 s)
def test_a_long_cell_shared_by_thousands_of_list_cells_is_refused_at_the_text_limit(game):
    data, sheet = game
    header = "".join(f'<c t="s"><v>{i}</v></c>' for i in range(5))
    body = "".join(card(n, '<c t="s"><v>5</v></c>') for n in range(5000))
    sheet.write_bytes(workbook(worksheet(f"<row>{header}</row>{body}"), [*COLUMNS, SPACED]))
    assert sheet.stat().st_size < 50_000
    code, err, seconds, peak = validate(data)  # before: 0.25 s a cell, 21 minutes for this file
    assert code == 2 and seconds < 10 and peak < 200 * 2**20
    assert f"{sheet}:838: -: rows: the cells up to this row hold more than 4,194,304 characters in all, more than " \
           "a card spreadsheet may (as much as a CSV file of 4 MiB holds)" in err


@pytest.mark.slow  # times large spreadsheets (about 10–19 s)
def test_hundreds_of_long_list_cells_under_the_limit_are_read_in_linear_time(game):
    data, sheet = game
    sheet.write_bytes(workbook(worksheet(card_rows(300, '<c t="s"><v>0</v></c>')), [SPACED]))
    code, err, seconds, _ = validate(data)  # before: 75 s
    assert code == 2 and seconds < 10
    assert f"{sheet}:2: HU-C0: icons[0]: unknown icon 'a " in err and err.count("unknown icon") == 300


def test_a_list_cell_of_thousands_of_items_is_one_problem(game):
    data, sheet = game
    with data.open("a", encoding="utf-8") as f:
        f.write("fields:\n  rolls: {number: [1, 6], list: true, optional: true}\n")
    header = "".join(map(inline, [*COLUMNS, "rolls"]))
    sheet.write_bytes(workbook(worksheet(f"<row>{header}</row>" + card(0, inline("heart") + inline("x," * 2400)))))
    code, err, _, _ = validate(data)  # before: 2,400 lines, one for each 'x' that is no number
    assert code == 2 and f"{sheet}:2: HU-C0: rolls: must have 0 to 40 items, has 2400" in err
    assert "whole number" not in err


@pytest.mark.parametrize("text, items", [
    ("heart heart", ["heart", "heart"]), (" a , b ;c,, ;", ["a", "b", "c"]), ("a\u00a0,\u3000b", ["a", "b"]),
    ("", []), (" ; ", []), ("a b, c", ["a b", "c"]),
])
def test_list_items(text, items):
    assert cards_rows.list_items(text) == items


def test_a_csv_line_of_a_million_quoted_cells_is_scanned_once(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_bytes(b'""' * 2_000_000 + b"\nid\n")  # 4 MB: each quote looked for the line's end again (minutes)
    start = time.process_time()
    with pytest.raises(rows.RowsError) as caught:
        rows.read_rows(path)
    assert time.process_time() - start < 10
    assert caught.value.line == 1 and "more than 5,000 characters" in caught.value.message


# --- item 8: a worksheet not named .xml ----------------------------------------------------------------------------


def test_a_worksheet_named_dat_is_read_as_its_relations_say(game):
    data, sheet = game
    sheet.write_bytes(workbook(GOOD, sheet_part="xl/worksheets/sheet1.dat"))
    code, err, _, _ = validate(data)
    assert code == 0, err


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_worksheet_named_dat_has_its_elements_counted(game):
    data, sheet = game
    empty_rows = ("<row>" + "<c/>" * 10_000 + "</row>") * 1500  # 15 million elements, 60 MB, below any row's bound
    sheet.write_bytes(workbook(worksheet(f"<row>{inline('id')}</row>{empty_rows}"),
                               sheet_part="xl/worksheets/sheet1.dat"))
    assert sheet.stat().st_size < 100_000
    code, err, seconds, peak = validate(data)  # before: openpyxl parsed every element (133 s)
    assert code == 2 and seconds < 10 and peak < 300 * 2**20
    assert ("-: rows: cards.xlsx: the worksheet xl/worksheets/sheet1.dat holds more than 1,000,000 XML elements"
            in err)


# --- the served companion: /healthz answers while a designer's hostile spreadsheet is read -------------------------


def test_healthz_answers_while_a_hostile_spreadsheet_is_read(game, tmp_path):
    data, sheet = game
    app = create_app({"TESTING": True, "CARD_FILES": [str(data)], "INSTANCE_PATH": str(tmp_path / "instance")})
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    sheet.write_bytes(workbook(GOOD, extra={"docProps/custom.xml": COMMENTS * 20}))  # read again at the next request
    reader = threading.Thread(target=lambda: app.test_client().get("/"), daemon=True)
    reader.start()
    start = time.monotonic()
    answer = client.get("/healthz")  # waits for the reader (one thread reads a changed file): before, for ever
    assert answer.status_code == 200 and time.monotonic() - start < 10
    reader.join(10)
    assert not reader.is_alive()


# --- every pattern that reads a file's or a request's text, given its worst input ----------------------------------

N = 100_000


class _Labels:
    def label(self, key, lang):
        return key


WORST = {  # what each is given: long runs that almost match, openers never closed, separators never reached
    "rows: a part's root": lambda: rows_xlsx._root_name(b"<!---->" * (N // 7) + b"<\xc3\xb1/>"),
    "rows: processing instructions": lambda: rows_xlsx._root_name(b"<?" * N),
    "rows: sheet reference": lambda: rows.split_reference("a.csv" * (N // 5)),
    "rows: CSV separator": lambda: rows_csv._separator('""' * N + "\n" + ",;" * N),
    "rows: CSV quote never closed": lambda: rows_csv._separator('"' + "a" * N + "\nid"),
    "rows: sep= line": lambda: rows_csv._SEP_LINE.match("sep=," + " " * N + "x"),
    "rows: ODS time": lambda: rows_ods._TIME.fullmatch("PT1H1M1." + "1" * N),
    "cards: list cell": lambda: cards_rows.list_items("a" + " " * N + "b,"),
    "layouts: placeholders": lambda: layouts.placeholders("{a" + "a" * N + "{" * N + "{a:" * (N // 3)),
    "layouts: fill": lambda: layouts.fill_list("{" + "a" * N + ":" + "a" * N, {}, "es"),
    "layouts: markup": lambda: layouts.markup("{icon:" + "a" * N + "*" * N + "{icon:" * (N // 6)),
    "layouts: reference sentences": lambda: layouts.list_items("a." + " \t" * N + "b" + ". ." * N),
    "generic: sentences": lambda: generic._as_list("a." + " " * N + "b"),
    "tts: bold, italic, icons": lambda: tts.description("**" + "a" * N + "*" + "\\*" * N + "{icon:" * (N // 6),
                                                        _Labels(), "es"),
    "tts: stars": lambda: tts.description("*" * N + "{icon:" + "a" * N, _Labels(), "es"),
    "textfit: list item": lambda: textfit.LIST_ITEM.match("1" * N),
    "art: clip-path urls": lambda: art._FRAGMENT_URL.findall("url(" + " " * N + "url(#" * (N // 5)),
    "art: resource operators": lambda: art._RESOURCE_OPS.search("T" * N + "f" * N),
    "forms: numbers": lambda: forms._value(" ," * N + "1" * N, "ints"),
    "limits: budget": lambda: limits._parse(" ," * N + "scan=" + "1" * N),
    "schema: whole number": lambda: whole_number("1" * N + "x"),
    "schema: text": lambda: Text(max_len=10).check("a" * N, (), Problems()),
}


@pytest.mark.parametrize("name", list(WORST))
def test_a_pattern_given_its_worst_input_finishes_at_once(name):
    start = time.process_time()
    with contextlib.suppress(Exception):  # what it answers is not the point here: that it answers at once
        WORST[name]()
    assert time.process_time() - start < 1, name
