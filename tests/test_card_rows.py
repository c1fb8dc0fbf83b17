"""A designer's card list in a spreadsheet (`rows:`): the example game's components written as CSV (comma, and
semicolon with a BOM), XLSX and ODS build the very PDF its YAML builds; a bad cell, an unknown column, a broken
file are named by spreadsheet and row; the data file's name need not be its game id."""
import csv
import io
import shutil
from pathlib import Path

import pytest
import yaml

from companion import cards
from companion.cli import main
from companion.pnp.build import build
from companion.pnp.design_check import validate_file
from companion.pnp.document import BuildSettings

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "example-game"
SETTINGS = BuildSettings(base_url="http://192.168.1.20:5000", lang="en")


def flatten(component: dict) -> dict:
    """One component as spreadsheet cells: `name.es` for a translated text, lists between commas, numbers kept."""
    cells = {}
    for key, value in component.items():
        if isinstance(value, dict):
            cells.update({f"{key}.{sub}": v for sub, v in value.items()})
        elif isinstance(value, list):
            cells[key] = ", ".join(map(str, value))
        else:
            cells[key] = value
    return cells


def table(components: list[dict]) -> tuple[list[str], list[list]]:
    rows = [flatten(c) for c in components]
    columns = list(dict.fromkeys(k for row in rows for k in row))
    return columns, [[row.get(c) for c in columns] for row in rows]


def write_csv(path: Path, columns, rows, delimiter=",", bom=False):
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(columns)
    writer.writerow([])  # a blank row: skipped
    writer.writerows([["" if v is None else v for v in row] for row in rows])
    path.write_bytes(("\ufeff" if bom else "").encode() + out.getvalue().encode("utf-8"))


def write_xlsx(path: Path, columns, rows, sheet="Deck"):
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Notes"
    book.active.append(["a first sheet that is not the deck"])
    deck = book.create_sheet(sheet)
    deck.append(columns)
    for row in rows:
        deck.append(row)  # numbers stay numbers, as a designer types them
    book.save(path)


def write_ods(path: Path, columns, rows, sheet="Deck"):
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    deck = Table(name=sheet)
    for values in [columns, *rows]:
        row = TableRow()
        for value in values:
            if value is None:
                cell = TableCell()
            elif isinstance(value, int):
                cell = TableCell(valuetype="float", value=value)
                cell.addElement(P(text=str(value)))
            else:
                cell = TableCell(valuetype="string")
                for line in str(value).split("\n"):
                    cell.addElement(P(text=line))
            row.addElement(cell)
        deck.addElement(row)
    doc.spreadsheet.addElement(deck)
    doc.save(str(path))


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The example game's folder copied, its YAML components written out in each spreadsheet format, and a data
    file for each (named cosecha-<format>.yaml: not its game id) that takes its components from the rows."""
    folder = tmp_path_factory.mktemp("rows") / "game"
    shutil.copytree(EXAMPLE, folder)
    text = (folder / "cosecha.yaml").read_text(encoding="utf-8")
    head, _, _ = text.partition("\ncomponents:")
    columns, rows = table(yaml.safe_load(text)["components"])
    write_csv(folder / "cards.csv", columns, rows)
    write_csv(folder / "cartas.csv", columns, rows, delimiter=";", bom=True)
    write_xlsx(folder / "cards.xlsx", columns, rows)
    write_ods(folder / "cards.ods", columns, rows)
    files = {}
    for name, reference in [("csv", "cards.csv"), ("csv-semicolon", "cartas.csv"), ("xlsx", "cards.xlsx#Deck"),
                            ("ods", "cards.ods")]:
        files[name] = folder / f"cosecha-{name}.yaml"
        files[name].write_text(f"{head}\nrows: {reference}\n", encoding="utf-8")
    return folder, columns, rows, files


def built(data: Path, out: Path) -> bytes:
    [(pdf, _pages)] = build([str(data)], out, SETTINGS)
    return pdf.read_bytes()


def test_every_format_builds_the_pdf_the_yaml_builds(game, tmp_path):
    folder, _, _, files = game
    expected = built(folder / "cosecha.yaml", tmp_path / "yaml")
    from_yaml = cards.load_file(folder / "cosecha.yaml")
    for name, data in files.items():
        card_set = cards.load_file(data)
        assert card_set.game == "cosecha" and card_set.sources[1].endswith(("cards.csv", "cartas.csv", "cards.xlsx",
                                                                            "cards.ods"))
        assert [(c.id, c.qty, dict(c.data), c.name, c.text) for c in card_set.components] == \
            [(c.id, c.qty, dict(c.data), c.name, c.text) for c in from_yaml.components], name
        assert built(data, tmp_path / name) == expected, f"{name}: the PDF differs from the YAML's"


def test_rows_add_to_the_components_the_file_lists(game, tmp_path):
    folder, columns, rows, _ = game
    text = (folder / "cosecha.yaml").read_text(encoding="utf-8")
    write_csv(folder / "more.csv", ["id", "type", "suit", "rank", "name.es", "name.en", "text.es", "text.en"],
              [["HV-PEAR-9", "card", "pear", 9, "Pera", "Pear", "Nada.", "Nothing."]])
    data = folder / "cosecha-more.yaml"
    data.write_text(text.replace("\ncomponents:", "\nrows: more.csv\ncomponents:"), encoding="utf-8")
    card_set = cards.load_file(data)
    pear = card_set.component("HV-PEAR-9")
    assert pear.data["rank"] == 9 and pear.source.endswith("more.csv") and pear.line == 3
    assert len(card_set.components) == len(cards.load_file(folder / "cosecha.yaml").components) + 1


def broken(game, tmp_path, edit, fmt="csv", reference=None):
    """A copy of the CSV game with one change to its table; the validate errors."""
    folder, columns, rows, files = game
    columns, rows = list(columns), [list(r) for r in rows]
    edit(columns, rows)
    copy = tmp_path / "game"
    shutil.copytree(folder, copy)
    path = copy / f"cards.{fmt}"
    {"csv": write_csv, "xlsx": write_xlsx, "ods": write_ods}[fmt](path, columns, rows)
    data = copy / "cosecha-csv.yaml"
    data.write_text(files["csv"].read_text(encoding="utf-8").replace("rows: cards.csv",
                                                                     f"rows: {reference or path.name}"),
                    encoding="utf-8")
    return validate_file(data)[1]


def test_a_bad_cell_is_named_by_file_row_card_and_field(game, tmp_path):
    def tres(columns, rows):
        rows[1][columns.index("rank")] = "tres"

    errors = broken(game, tmp_path, tres)
    # the header is line 1, a blank line 2, the first card 3: the second card is on line 4
    assert f"{tmp_path}/game/cards.csv:4: HV-APPLE-3: rank: must be a whole number from 1 to 10, got 'tres'" in errors


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_a_bad_cell_in_a_workbook_is_named_by_its_row(game, tmp_path, fmt):
    def grape(columns, rows):
        rows[2][columns.index("suit")] = "grap"

    errors = broken(game, tmp_path, grape, fmt, reference=f"cards.{fmt}#Deck" if fmt == "xlsx" else None)
    assert any(line.startswith(f"{tmp_path}/game/cards.{fmt}:4: HV-PEAR-5: suit: unknown choice 'grap'")
               for line in errors), errors


def test_an_unknown_column_is_named_once_with_the_closest_one(game, tmp_path):
    def suitt(columns, rows):
        columns[columns.index("suit")] = "suitt"

    errors = broken(game, tmp_path, suitt)
    unknown = [line for line in errors if "suitt" in line]
    assert unknown == [f"{tmp_path}/game/cards.csv:1: -: suitt: unknown column; did you mean 'suit'?"]
    assert any(line.endswith(": suit: is missing") for line in errors)  # then each card lacks its suit


def test_a_missing_spreadsheet_or_worksheet_is_a_clear_error(game, tmp_path, capsys):
    folder, _, _, files = game
    copy = tmp_path / "game"
    shutil.copytree(folder, copy)
    head = files["csv"].read_text(encoding="utf-8")
    (copy / "linked.csv").symlink_to("/etc/hostname")
    cases = {"gone.csv": "gone.csv", "cards.xlsx#Mazo": "Mazo", "../cards.csv": "outside", "cards.txt": "csv",
             "linked.csv": "through a link"}
    for reference, said in cases.items():
        data = copy / "x.yaml"
        data.write_text(head.replace("rows: cards.csv", f"rows: {reference}"), encoding="utf-8")
        assert main(["validate", str(data)]) == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err, (reference, err)


def test_cli_builds_a_file_whose_name_is_not_its_game_id(game, tmp_path, capsys):
    folder, _, _, files = game
    assert main(["validate", str(files["ods"])]) == 0
    assert main(["build", str(files["ods"]), "--out", str(tmp_path), "--base-url", SETTINGS.base_url]) == 0
    assert (tmp_path / "cosecha.pdf").stat().st_size > 10_000


def test_the_spreadsheet_example_reads_as_written():
    """docs/example-game/huerto.yaml takes every card from huerto.csv, as a Spanish spreadsheet writes it
    (semicolons, CRLF, a blank row, a help card's text over two lines)."""
    card_set = cards.load_file(EXAMPLE / "huerto.yaml")
    assert [(c.id, c.qty, c.data.get("value"), c.line) for c in card_set.components] == [
        ("HU-TOMATO", 6, 3, 2), ("HU-CARROT", 8, 2, 3), ("HU-PEA", 10, 1, 4), ("HU-AUBERGINE", 4, 4, 5),
        ("HU-SLUG", 3, None, 6), ("HU-HELP", 4, None, 8), ("HU-BACK", 1, None, 11)]
    assert card_set.component("HU-BACK").data["for"] == ("card", "reference")
    assert card_set.component("HU-TOMATO").data["icons"] == ("heart", "heart")
    assert card_set.component("HU-HELP").text.en.splitlines() == [
        "On your turn: draw a card and plant one in your row.", "When the deck runs out, the most points wins."]
    assert card_set.sources == (str(EXAMPLE / "huerto.yaml"), str(EXAMPLE / "huerto.csv"))
