"""`companion build --watch`: which changes rebuild (fast, the filter alone), and a real watching process that
rebuilds on a save, keeps the last good PDF on a broken one, ignores its own writes and stops on Ctrl+C (slow)."""
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from companion import cards
from companion.core.schema import InputError
from companion.pnp.document import BuildSettings
from companion.pnp.watch import relevant, scratch_name, watch

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example-game"


# --- the filter ---------------------------------------------------------------------------------------------------

def test_the_data_file_its_spreadsheets_art_and_fonts_rebuild(tmp_path):
    data = tmp_path / "game" / "especias.yaml"
    out = tmp_path / "out"
    for name in ("especias.yaml", "cards.csv", "cards.xlsx", "cards.ods", "art/saffron.svg", "art/deep/a.PNG",
                 "art/b.jpg", "art/c.jpeg", "fonts/Vera.ttf", "fonts/x.otf"):
        assert relevant(tmp_path / "game" / name, data, out), name


def test_other_files_beside_the_data_do_not(tmp_path):
    data = tmp_path / "game" / "especias.yaml"
    out = tmp_path / "out"
    for name in ("notes.txt", "cosecha.yaml", "art/readme.md", "especias.pdf", "art", "Makefile"):
        assert not relevant(tmp_path / "game" / name, data, out), name
    assert not relevant(tmp_path / "elsewhere" / "a.svg", data, out)  # outside the data file's folder
    assert not relevant(tmp_path / "a.svg", data, out)  # above it


def test_editor_and_office_scratch_files_do_not(tmp_path):
    data = tmp_path / "game" / "especias.yaml"
    for name in (".especias.yaml.swp", ".especias.yaml.swx", "4913", "especias.yaml~", "#especias.yaml#",
                 ".#especias.yaml", "~$cards.xlsx", ".~lock.cards.ods#", "cards.xlsx.tmp", "art/.x.svg",
                 ".git/a.svg", "art/.companion-build-x/new/a.png", ".especias.12ab.pdf.part", "x.png.part"):
        assert not relevant(tmp_path / "game" / name, data, tmp_path / "out"), name
    for name in (".companion-png", ".especias.yaml.swp", "~$cards.xlsx", "4913", "a.pdf.part", "x.bak"):
        assert scratch_name(name), name
    for name in ("especias.yaml", "cards.xlsx", "a.svg", "Vera.ttf"):
        assert not scratch_name(name), name


def test_nothing_inside_the_output_folder_rebuilds_even_beside_the_data(tmp_path):
    game = tmp_path / "game"
    data = game / "especias.yaml"
    out = game / "output"  # a designer building next to the data: the build's writes must not loop
    for name in ("especias.pdf", "art.svg", "especias-png/SP-SAFFRON.png", "cards.csv", "especias.yaml"):
        assert not relevant(out / name, data, out), name
    assert relevant(game / "art" / "a.svg", data, out)
    assert relevant(data, data, str(out) + os.sep)


def test_an_output_folder_holding_the_data_leaves_out_only_the_png_folders(tmp_path):
    game = tmp_path / "game"
    data = game / "especias.yaml"
    for out in (game, tmp_path):  # --out . in the game's folder, or its parent
        assert relevant(data, data, out)
        assert relevant(game / "art" / "a.png", data, out)
        assert not relevant(out / "especias-png" / "SP-SAFFRON.png", data, out, games=["especias"])
        assert not relevant(out / ".companion-build-1x/new/SP-SAFFRON.png", data, out)


def test_a_data_file_reached_through_a_link_is_watched_where_it_is(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "especias.yaml").write_text("game: x\n")
    (tmp_path / "link").symlink_to(real)
    data = tmp_path / "link" / "especias.yaml"
    assert relevant(real / "especias.yaml", data, tmp_path / "out")  # the watcher reports the folder's real path
    assert relevant(real / "art" / "a.svg", data, tmp_path / "out")


def test_load_file_reads_the_file_again_each_time(tmp_path):
    """No cache may serve a rebuild the file as it was: the watch builds data files by path, read each time."""
    data = tmp_path / "especias.yaml"
    shutil.copy(EXAMPLE / "especias.yaml", data)
    assert cards.load_file(data).component("SP-CINNAMON").name.es == "Canela"
    data.write_text(data.read_text(encoding="utf-8").replace("Canela", "Cardamomo"), encoding="utf-8")
    assert cards.load_file(data).component("SP-CINNAMON").name.es == "Cardamomo"


def test_settings_no_save_can_fix_stop_before_watching(tmp_path):
    with pytest.raises(InputError) as e:
        watch([str(EXAMPLE / "especias.yaml")], tmp_path, BuildSettings(paper="a5"))
    assert "paper" in str(e.value)


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_shipped_game_is_watched_through_its_data_file_read_again(tmp_path):
    """In process, stopped by an event: a shipped game's id builds from its file (not the process's cached card
    set), and a stop ends the watch cleanly."""
    stop = threading.Event()
    result = []
    thread = threading.Thread(target=lambda: result.append(watch(["gemas"], tmp_path, BuildSettings(qr="none"),
                                                                 stop_event=stop)))
    thread.start()
    deadline = time.monotonic() + 30
    while not (tmp_path / "gemas.pdf").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    thread.join(10)
    assert not thread.is_alive() and result == [1] and (tmp_path / "gemas.pdf").stat().st_size > 1000


# --- a real watching process ----------------------------------------------------------------------------------------

class Watching:
    """`companion build FILE --watch` as a child process, its output read as it comes."""

    def __init__(self, *args: str, cwd: Path):
        self.out: list[str] = []
        self.err: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "build", *args, "--watch"], cwd=cwd, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # Ctrl+C reaches it as at a terminal
        for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=lambda s=stream, ls=lines: ls.extend(iter(s.readline, "")), daemon=True).start()

    def built(self) -> list[str]:
        return [line for line in list(self.out) if "especias.pdf: " in line]

    def wait_for(self, test, what: str, timeout: float = 20) -> float:
        start = time.monotonic()
        while not test():
            if time.monotonic() - start > timeout or self.proc.poll() is not None:
                self.stop()
                pytest.fail(f"no {what} after {time.monotonic() - start:.1f} s; stdout: {''.join(self.out)!r}; "
                            f"stderr: {''.join(self.err)!r}")
            time.sleep(0.02)
        return time.monotonic() - start

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise


def pdf_text(path: Path) -> str:
    pdf = pdfium.PdfDocument(path.read_bytes())
    try:
        return "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


@pytest.mark.slow
def test_a_watching_build_rebuilds_on_a_save_keeps_the_last_good_pdf_and_stops_on_ctrl_c(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(EXAMPLE, game)
    data = game / "especias.yaml"
    good = data.read_text(encoding="utf-8")
    pdf = game / "output" / "especias.pdf"  # the output folder inside the watched one: its writes must not loop
    watching = Watching("especias.yaml", "--out", "output", "--qr", "none", cwd=game)

    watching.wait_for(lambda: watching.built() and pdf.exists(), "first build")
    assert "watching" in watching.out[0] and "Ctrl+C" in watching.out[0]
    first = pdf.read_bytes()
    assert "Canela" in pdf_text(pdf)

    # a save: the new name is in the new PDF
    data.write_text(good.replace("Canela", "Cardamomo"), encoding="utf-8")
    took = watching.wait_for(lambda: len(watching.built()) == 2, "rebuild after a save")
    assert "especias.yaml changed: output/especias.pdf: 12 pages" in watching.built()[1]
    renamed = pdf.read_bytes()
    assert renamed != first and "Cardamomo" in pdf_text(pdf) and "Canela" not in pdf_text(pdf)
    print(f"save to new PDF: {took:.2f} s")

    # a broken save: the error as `companion build` prints it, and the PDF untouched
    broken = good.replace("Canela", "Cardamomo").replace("qty: 4", "qty: cuatro", 1)
    line = broken.splitlines().index("    qty: cuatro") + 1
    data.write_text(broken, encoding="utf-8")
    watching.wait_for(lambda: any("not built" in e for e in watching.err), "error report")
    errors = "".join(watching.err)
    assert f"especias.yaml:{line}: SP-SAFFRON: qty: must be a whole number" in errors
    assert "the last good output/especias.pdf is kept" in errors and "Traceback" not in errors
    assert pdf.read_bytes() == renamed and len(watching.built()) == 2

    # its own writes into the output folder, and a file no build reads, change nothing
    (game / "output" / "stray.png").write_bytes(b"x")
    (game / "output" / "other.yaml").write_text("x")
    (game / "notes.txt").write_text("to do")
    (game / ".especias.yaml.swp").write_text("x")
    time.sleep(1.0)  # three times the quiet time a change is grouped over
    assert len(watching.built()) == 2 and sum("not built" in e for e in watching.err) == 1

    # the fix, saved as vim and LibreOffice save (written aside, renamed over the file): rebuilt
    before = pdf.stat()
    aside = game / "4913"
    aside.write_text(good.replace("Canela", "Clavo"), encoding="utf-8")
    os.replace(aside, data)
    watching.wait_for(lambda: len(watching.built()) == 3, "rebuild after the fix")
    assert pdf.stat().st_ino != before.st_ino and "Clavo" in pdf_text(pdf)

    # an art file
    art = game / "art" / "saffron.svg"
    art.write_text(art.read_text().replace("<svg", "<svg ", 1))
    watching.wait_for(lambda: len(watching.built()) == 4, "rebuild after an art change")
    assert "art/saffron.svg changed" in watching.built()[3]

    assert watching.stop() == 0
    watching.wait_for(lambda: watching.out and "stopped watching" in watching.out[-1], "goodbye")
    assert "Traceback" not in "".join(watching.err) and "KeyboardInterrupt" not in "".join(watching.err)
    assert sorted(p.name for p in (game / "output").iterdir()) == ["especias.pdf", "other.yaml", "stray.png"]


@pytest.mark.slow
def test_a_watch_whose_first_build_fails_waits_for_the_fix(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(EXAMPLE, game)
    data = game / "especias.yaml"
    good = data.read_text(encoding="utf-8")
    data.write_text(good.replace("value: 5", "value: cinco", 1), encoding="utf-8")
    watching = Watching(str(data), "--out", str(tmp_path / "out"), "--qr", "none", cwd=tmp_path)
    watching.wait_for(lambda: any("not built" in e for e in watching.err), "error report")
    assert "no PDF written yet" in "".join(watching.err) and watching.proc.poll() is None
    data.write_text(good, encoding="utf-8")
    watching.wait_for(lambda: watching.built(), "build after the fix")
    assert (tmp_path / "out" / "especias.pdf").exists()
    assert watching.stop() == 0
