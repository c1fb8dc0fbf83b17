"""A designer's 100-card deck kept in a spreadsheet (`rows:`), as CSV, XLSX and ODS: how long `companion validate`
takes on it, as the designer runs it (a fresh process: imports, the spreadsheet read, every card and layout checked,
art and fonts read) and within one process (the reading and checking alone). The issue's bar: ≤ 0.5 s.
Run on demand: `.venv/bin/python benchmarks/bench_rows.py`."""
from __future__ import annotations

import csv
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SUITS = ("apple", "pear", "grape", "plum")
NAMES = {"apple": ("Manzana", "Apple"), "pear": ("Pera", "Pear"), "grape": ("Uva", "Grape"),
         "plum": ("Ciruela", "Plum")}
COLUMNS = ["id", "type", "layout", "qty", "suit", "rank", "name.es", "name.en", "text.es", "text.en", "flavour.es",
           "flavour.en"]


def table() -> list[list]:
    """100 fruit cards: 4 suits × 25, ranks 1–10 over and over, some with flavour text."""
    rows = []
    for suit in SUITS:
        es, en = NAMES[suit]
        for n in range(1, 26):
            rank = (n - 1) % 10 + 1
            rows.append([f"HV-{suit[:2].upper()}-{n}", "card", "fruit", 1 + n % 2, suit, rank, es, en,
                         f"Vale **{rank}**.", f"Worth **{rank}**.", *(("Dulce.", "Sweet.") if n % 3 else ("", ""))])
    return rows


def game(folder: Path) -> dict[str, Path]:
    """The example game with no components of its own, and a data file for each spreadsheet format."""
    shutil.copytree(ROOT / "docs" / "example-game", folder, dirs_exist_ok=True)
    head = (folder / "cosecha.yaml").read_text(encoding="utf-8").partition("\ncomponents:")[0]
    rows = table()
    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([COLUMNS, *rows])
    import openpyxl

    book = openpyxl.Workbook()
    for row in [COLUMNS, *rows]:
        book.active.append([None if v == "" else v for v in row])
    book.save(folder / "cards.xlsx")
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    sheet = Table(name="Deck")
    for values in [COLUMNS, *rows]:
        row = TableRow()
        for v in values:
            cell = TableCell(valuetype="float", value=v) if isinstance(v, int) else TableCell(valuetype="string")
            if v != "":
                cell.addElement(P(text=str(v)))
            row.addElement(cell)
        sheet.addElement(row)
    doc.spreadsheet.addElement(sheet)
    doc.save(str(folder / "cards.ods"))
    files = {}
    for fmt in ("csv", "xlsx", "ods"):
        files[fmt] = folder / f"cosecha-{fmt}.yaml"
        files[fmt].write_text(f"{head}\nrows: cards.{fmt}\n", encoding="utf-8")
    return files


def main() -> None:
    from companion.pnp.design_check import validate_file

    companion = Path(sys.executable).parent / "companion"
    with tempfile.TemporaryDirectory() as tmp:
        files = game(Path(tmp) / "game")
        print("100 cards from a spreadsheet     validate (fresh process)   validate_file (warm, in process)")
        for fmt, data in files.items():
            fresh = []
            for _ in range(5):
                t = time.perf_counter()
                subprocess.run([str(companion), "validate", str(data)], check=True, capture_output=True)
                fresh.append(time.perf_counter() - t)
            card_set, errors = validate_file(data)
            assert not errors and sum(c.qty for c in card_set.components if c.kind == "card") > 100, errors
            warm = []
            for _ in range(10):
                t = time.perf_counter()
                validate_file(data)
                warm.append(time.perf_counter() - t)
            print(f"  {fmt:5} ({data.with_name('cards.' + fmt).stat().st_size / 1024:5.1f} KB)"
                  f"              {statistics.median(fresh):.2f} s                     "
                  f"{statistics.median(warm) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
