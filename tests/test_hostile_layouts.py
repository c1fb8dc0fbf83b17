"""Layouts and copies made to hurt (issue 37, items 6 and 7): thousands of layouts extending one large base, a chain
of `extends` thousands long, and thousands of rows asking for 500 copies each are one clean `file:line: ...` line
and exit 2 from `companion validate`, in bounded time and memory; a deck as large as allowed builds and exports in
bounded memory. The attacks run in a child process limited to CHILD_LIMIT of address space (the code before this
issue took gigabytes on them), whose own peak is measured (the launcher's os.wait4)."""
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import cards, layouts
from companion.cli import main
from companion.core.schema import Problems
from companion.pnp import tts
from helpers.capped import LAUNCHER
from helpers.server import error_lines

ROOT = Path(__file__).resolve().parents[1]
HEAD = "game: tiny\ntitle: {es: Mini, en: Tiny}\nprefix: TY\nplayers: [2, 4]\n"
ONE_CARD = "components:\n  - id: TY-0\n    type: card\n    name: {es: Carta, en: Card}\n"
CHILD_LIMIT = 1 << 30  # a child's address space: the code before this issue fails in it instead of taking 4 GB
PEAK_MB = 500  # what validate and a large allowed build may take
SECONDS = 10


def child(args: list[str], cwd: Path) -> tuple[int, str, float, float]:
    """Run `companion *args` in a child limited to CHILD_LIMIT: (exit code, stderr, peak MB, seconds)."""
    err_path = cwd / f".err-{len(list(cwd.iterdir()))}"
    start = time.monotonic()
    with open(err_path, "wb") as err:
        done = subprocess.run([sys.executable, "-c", LAUNCHER, str(CHILD_LIMIT), "120", sys.executable, "-c",
                               "import sys; from companion.cli import main; sys.exit(main(sys.argv[1:]))", *args],
                              stdout=subprocess.PIPE, stderr=err, cwd=ROOT, timeout=150, check=True)
    code, peak_kb = map(int, done.stdout.split())
    return code, err_path.read_text(errors="replace"), peak_kb / 1024, time.monotonic() - start


def one_error(err: str) -> tuple[str, int, str, str, str]:
    assert "Traceback" not in err, err[-2000:]
    (line,) = error_lines(err)
    return line


# --- `extends` fan-out and depth -------------------------------------------------------------------------------

def fan_out(folder: Path, base: int = 3000, children: int = 6000) -> Path:
    """6,000 layouts extending one of 3,000 elements: 244 KB of YAML, under every limit of the file itself."""
    lines = [HEAD, "layouts:\n  base:\n", *(f"    e{i}: {{rect: [1, 1, 5, 5]}}\n" for i in range(base)),
             *(f"  l{i}: {{extends: base}}\n" for i in range(children)), ONE_CARD]
    path = folder / "fan.yaml"
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_layouts_extending_a_large_base_stop_at_the_element_limit_in_bounded_memory(tmp_path):
    path = fan_out(tmp_path)
    code, err, peak, seconds = child(["validate", str(path)], tmp_path)
    assert code == 2, err[-2000:]
    file, line, layout, field, problem = one_error(err)
    # base holds 3,000 elements; l0 and l1 bring 6,000 more, l2 the 3,000 past 10,000
    assert (file, line, layout, field) == (str(path), 3009, "l2", "-")
    assert problem == ("brings the layouts to more than 10000 elements, counting each layout's inherited elements "
                       "again: make fewer layouts, or fewer elements in those others extend")
    assert seconds < SECONDS and peak < PEAK_MB, (seconds, peak)


def resolved(raw: dict) -> tuple[dict, list[str]]:
    problems = Problems()
    out = layouts.resolve(raw, ("layouts",), problems)
    return out, [f"{'.'.join(map(str, p.path))}: {p.message}" for p in problems]


def test_a_child_shares_its_parents_elements_and_its_problems_are_said_once():
    base = {f"e{i}": {"rect": [1, 1, 5, 5]} for i in range(50)}
    base["bad"] = {"rect": [1, 1, 0, 5]}
    out, problems = resolved({"base": base, **{f"l{i}": {"extends": "base", "e3": {"fill": "#ff0000"}}
                                               for i in range(20)}})
    assert all(a is b for child in (out["l0"], out["l19"]) for a, b in zip(child, out["base"], strict=True)
               if a.name != "e3")
    assert out["l0"][3].props["fill"] == "#ff0000" and "fill" not in out["base"][3].props
    assert problems == ["layouts.base.bad.rect: must have a width and a height above 0"]  # not once a child


def chain(depth: int) -> dict:
    """Layouts l0 → l1 → … → l<depth-1> → base, l0 the deepest, listed first (so resolving it recurses the most)."""
    return {**{f"l{i}": {"extends": f"l{i + 1}" if i + 1 < depth else "base"} for i in range(depth)},
            "base": {"e": {"rect": [1, 1, 5, 5]}}}


def test_a_chain_of_extends_of_the_limit_resolves_and_one_more_is_named():
    out, problems = resolved(chain(layouts.MAX_EXTENDS))
    assert problems == [] and len(out) == layouts.MAX_EXTENDS + 1 and out["l0"][0] is out["base"][0]
    out, problems = resolved(chain(layouts.MAX_EXTENDS + 1))
    assert problems == ["layouts.l0.extends: makes a chain of more than 32 layouts extending one another: "
                        "l0 → l1 → l2 → … → l32 → base"]
    assert "l0" not in out and "l1" in out


def test_a_chain_of_3000_extends_is_one_error_naming_it(capsys, tmp_path):
    lines = [HEAD, "layouts:\n", *(f"  {name}: {{extends: {value['extends']}}}\n" for name, value in
                                   chain(3000).items() if name != "base"), "  base:\n    e: {rect: [1, 1, 5, 5]}\n"]
    path = tmp_path / "chain.yaml"
    path.write_text("".join(lines) + ONE_CARD, encoding="utf-8")
    start = time.monotonic()
    code = main(["validate", str(path)])
    assert code == 2 and time.monotonic() - start < SECONDS
    file, line, layout, field, problem = one_error(capsys.readouterr().err)
    # base is 3,000 links up from l0: l2967 is the first 33 links from it (each layout below it fails with it)
    assert (file, line, layout, field) == (str(path), 6 + 2967, "l2967", "extends")
    assert problem == ("makes a chain of more than 32 layouts extending one another: l2967 → l2968 → l2969 → … → "
                       "l2999 → base")


def test_extending_a_layout_that_is_no_mapping_is_said_once():
    out, problems = resolved({"base": ["a"], "child": {"extends": "base"}})
    assert out == {} and problems == ["layouts.base: must be a mapping of elements, got a list"]


def test_a_missing_parent_lists_a_few_of_thousands_of_names():
    out, problems = resolved({f"l{i}": {"extends": "nope"} for i in range(3000)})
    assert len(problems) == 3000 and out == {}
    assert problems[0] == ("layouts.l0.extends: no layout is named 'nope'; the file declares: "
                           + ", ".join(f"l{i}" for i in range(20)) + " and 2980 more")


# --- Copies --------------------------------------------------------------------------------------------------------

def many_copies(folder: Path, rows: int, qty: int) -> Path:
    """A data-only game whose spreadsheet lists `rows` cards of `qty` copies each."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "copies.csv").write_text("id,type,qty,name.es,name.en,text.es,text.en\n" + "".join(
        f"TY-{i},card,{qty},Carta {i},Card {i},Vale {i}.,Worth {i}.\n" for i in range(rows)), encoding="utf-8")
    path = folder / "copies.yaml"
    path.write_text(HEAD + "rows: copies.csv\n", encoding="utf-8")
    return path


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_file_asking_for_more_copies_than_the_limit_is_an_error_at_the_row_passing_it(tmp_path):
    path = many_copies(tmp_path, 5000, 500)  # 2,500,000 copies: validate said ok, build grew past 3 GB
    code, err, peak, seconds = child(["validate", str(path)], tmp_path)
    assert code == 2, err[-2000:]
    file, line, card, field, problem = one_error(err)
    assert (file, line, card, field) == (str(tmp_path / "copies.csv"), 12, "TY-10", "qty")  # row 11: 5,500 copies
    assert problem == ("brings the copies the file prints to more than 5000 (the total of qty over its components); "
                       "a print-and-play file is far smaller: print fewer copies, or split the game into files")
    assert seconds < SECONDS and peak < PEAK_MB, (seconds, peak)


def test_the_copies_limit_counts_the_data_files_own_components_too(tmp_path):
    text = HEAD + "components:\n" + "".join(f"  - {{id: TY-{i}, type: card, qty: 500, name: {{es: C, en: C}}}}\n"
                                            for i in range(11))
    card_set, errors = cards.check_text(text, str(tmp_path / "t.yaml"))
    assert card_set is None and [e.split(": ")[:3] for e in errors] == [[f"{tmp_path / 't.yaml'}:16", "TY-10", "qty"]]
    card_set, errors = cards.check_text(text.rsplit("  - ", 1)[0], str(tmp_path / "t.yaml"))
    assert errors == [] and sum(c.qty for c in card_set.components) == cards.MAX_COPIES


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_deck_of_as_many_copies_as_allowed_builds_in_bounded_memory(tmp_path):
    path = many_copies(tmp_path / "deck", 10, 500)  # 5,000 copies: 556 sheets of fronts and their backs
    code, err, peak, seconds = child(["build", str(path), "--out", str(tmp_path / "out"), "--base-url",
                                      "http://192.168.1.20:5000"], tmp_path)
    assert code == 0, err[-2000:]
    assert peak < PEAK_MB / 2 and seconds < 4 * SECONDS, (peak, seconds)  # measured: 54 MB, 2.3 s
    assert (tmp_path / "out" / "tiny.pdf").stat().st_size > 0


def test_a_tts_export_holds_a_few_sheets_at_once(tmp_path, monkeypatch):
    path = many_copies(tmp_path / "deck", 10, 1)
    settings = tts.BuildSettings(base_url="http://192.168.1.20:5000")
    whole = tts.export_tts(str(path), tmp_path / "whole", settings)  # 10 faces and the back: one sheet
    monkeypatch.setattr(tts, "PER_SHEET", 3)  # 4 sheets of 3 faces or fewer, made one at a time
    monkeypatch.setattr(tts, "SHEETS_AT_ONCE", 1)
    held = []
    batch = tts._batch_pictures
    monkeypatch.setattr(tts, "_batch_pictures", lambda cs, st, sheets, *rest: (held.append(len(sheets)),
                                                                               batch(cs, st, sheets, *rest)))
    split = tts.export_tts(str(path), tmp_path / "split", settings)
    assert held == [1, 1, 1, 1] and len(split.sheets) == 4 and len(whole.sheets) == 1
    assert [p.read_bytes() for p in split.backs] == [p.read_bytes() for p in whole.backs]
    assert all(p.stat().st_size > 0 for p in split.sheets)


@pytest.mark.parametrize("name", ["cosecha", "huerto"])
def test_the_example_games_are_far_inside_the_limits(name):
    card_set = cards.load_file(ROOT / "docs" / "example-game" / f"{name}.yaml")
    assert sum(c.qty for c in card_set.components) < cards.MAX_COPIES / 10
    assert sum(map(len, card_set.design.layouts.values())) < layouts.MAX_ELEMENTS / 10


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_rows_naming_no_layout_of_thousands_are_short_lines(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    (folder / "rows.csv").write_text("id,type,layout,name.es,name.en\n" + "".join(
        f"TY-{i},card,nope,C{i},C{i}\n" for i in range(2000)), encoding="utf-8")
    text = HEAD + "layouts:\n" + "".join(f"  l{i}: {{e: {{rect: [1, 1, 5, 5]}}}}\n" for i in range(3000)) \
        + "rows: rows.csv\n"
    card_set, errors = cards.check_text(text, str(folder / "many.yaml"))  # 2,000 lines of 3,000 names: 40 MB
    assert card_set is None and len(errors) == 2000 and max(map(len, errors)) < 400
    assert errors[0].endswith("no layout is named 'nope'; the file has: " + ", ".join(f"l{i}" for i in range(20))
                              + " and 2980 more")
