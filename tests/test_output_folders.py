"""Issue 25, items 5-7: what the command line reads and writes on disk. `sheets import` refuses a device, a pipe, a
folder or a file over the import limit unread; `site --out` and `build --out` take relative paths and `.` from the
current folder; a rebuild keeps what the build did not make (a CNAME, .git/, notes, an order form) and removes only
what the previous build made, and a build that fails leaves the folder as it was."""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import companion
from companion.cli import main
from companion.core import files
from companion.core.files import written_over
from companion.core.schema import InputError

BASE = ["--base-url", "https://you.github.io/deck", "--no-scoring"]  # the light site: no Pyodide to fetch


def tree(folder: Path) -> dict[str, str]:
    """Every file and folder under `folder`, with the digest of each file's bytes (a link: where it leads)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        out[rel] = ("link " + os.readlink(path) if path.is_symlink() else "folder" if path.is_dir()
                    else hashlib.sha256(path.read_bytes()).hexdigest())
    return out


# --- 5. `companion sheets import FILE`: a regular file within the limit, or a clean refusal ---------------------


def run_import(tmp_path: Path, *names: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """`companion sheets import` in a process of its own, with 1 GiB of memory at most (reading /dev/zero whole
    fails there in a second instead of filling the machine), and a timeout (a pipe with no writer would hang)."""
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
            "from companion.cli import main\n"
            "sys.exit(main(['sheets', 'import', *sys.argv[1:]]))\n")
    env = {**os.environ, "COMPANION_INSTANCE_PATH": str(tmp_path / "instance")}
    env.pop("COMPANION_DATABASE_URL", None)
    return subprocess.run([sys.executable, "-c", code, *names], capture_output=True, text=True, timeout=timeout,
                          env=env)


def sheets_in(tmp_path: Path) -> int:
    from companion.sheets.storage import Store

    database = tmp_path / "instance" / "companion.sqlite"
    return len(Store(f"sqlite:///{database}").sheet_ids()) if database.exists() else 0


@pytest.mark.slow  # the import in a process of its own, with a memory cap and a timeout
def test_import_refuses_a_link_to_dev_zero_unread(tmp_path):
    link = tmp_path / "backup.json"
    link.symlink_to("/dev/zero")
    done = run_import(tmp_path, str(link))
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"companion sheets: {link}: is a device, a pipe or a socket, not an export file\n"
    assert sheets_in(tmp_path) == 0


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.slow  # the import in a process of its own, with a memory cap and a timeout
def test_import_refuses_a_named_pipe_without_waiting_for_a_writer(tmp_path):
    pipe = tmp_path / "backup.csv"
    os.mkfifo(pipe)
    try:
        done = run_import(tmp_path, str(pipe), timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("sheets import waited for a writer on a named pipe")
    assert done.returncode == 2 and "backup.csv: is a device, a pipe or a socket" in done.stderr
    assert "Traceback" not in done.stderr


def test_import_refuses_a_folder_and_a_file_over_the_limit_and_imports_nothing(tmp_path, monkeypatch, capsys):
    from companion.sheets import service as sheet_service

    monkeypatch.setenv("COMPANION_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("COMPANION_DATABASE_URL", raising=False)
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(sheet_service.IMPORT_LIMIT + 1)  # sparse: no disk, and refused from its size alone
    assert main(["sheets", "import", str(big), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{big}: is larger than 4 MiB" in err
    assert f"{tmp_path}: is a folder, not an export file" in err and "Traceback" not in err
    assert sheets_in(tmp_path) == 0


def test_the_messages_are_in_the_catalogue():
    from companion.core.schema import problem

    said = problem(("x.json",), "is a device, a pipe or a socket, not an export file").say("es")
    assert said != "is a device, a pipe or a socket, not an export file"
    assert problem(("x.json",), "is larger than %(most)s MiB", most=4).say("es").endswith("4 MiB")


# --- 6. Relative paths and "." for --out -------------------------------------------------------------------------


@pytest.fixture
def package_folder_unchanged():
    """The installed package gains nothing (a relative --out once made Frozen-Flask write the site there); what a
    failing run leaves there is removed again."""
    web = Path(companion.__file__).parent / "web"
    before = set(os.listdir(web))
    yield
    made = [name for name in set(os.listdir(web)) - before if name.startswith(".")]
    for name in made:
        import shutil

        shutil.rmtree(web / name, ignore_errors=True)
    assert not made, f"the site was written into the package: {made}"


@pytest.mark.slow  # builds the light site (each build freezes every page: seconds)
def test_site_out_relative_and_dot_are_folders_of_the_current_folder(tmp_path, monkeypatch, capsys,
                                                                       package_folder_unchanged):
    monkeypatch.chdir(tmp_path)
    assert main(["site", "--out", "site", *BASE]) == 0
    assert capsys.readouterr().out.startswith("site: ")
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "en" / "rules").is_dir()
    assert len([p for p in (tmp_path / "site").rglob("*") if p.is_file()]) > 500
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert main(["site", "--out", ".", *BASE]) == 0
    assert (here / "index.html").is_file() and tree(here).keys() == tree(tmp_path / "site").keys()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_site_out_a_file_or_below_a_file_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("notes").write_text("mine")
    for out in ("notes", "notes/site"):
        assert main(["site", "--out", out, *BASE]) == 2
        err = capsys.readouterr().err
        assert err == "companion site: out: notes is a file, not a folder\n"
    assert Path("notes").read_text() == "mine" and os.listdir(tmp_path) == ["notes"]


@pytest.mark.slow  # about 1 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_build_out_relative_dot_and_a_png_folder_that_is_a_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["build", "duquesa", "--out", "."]) == 0
    assert capsys.readouterr().out.startswith("duquesa.pdf: ")
    assert main(["build", "duquesa", "--out", "pdf"]) == 0
    assert (tmp_path / "pdf" / "duquesa.pdf").is_file()
    capsys.readouterr()
    pdf = (tmp_path / "duquesa.pdf").read_bytes()
    Path("duquesa-png").write_text("my notes")
    assert main(["build", "duquesa", "--out", ".", "--png"]) == 2
    assert capsys.readouterr().err == "companion build: out: duquesa-png is a file, not a folder\n"
    assert Path("duquesa-png").read_text() == "my notes" and (tmp_path / "duquesa.pdf").read_bytes() == pdf
    assert sorted(os.listdir(tmp_path)) == ["duquesa-png", "duquesa.pdf", "pdf"]
    assert main(["build", "duquesa", "--out", "duquesa.pdf"]) == 2
    assert "out: duquesa.pdf is a file, not a folder" in capsys.readouterr().err


# --- 7. A rebuild keeps what it did not make ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def light_site(tmp_path_factory) -> Path:
    """A light site, built once; tests rebuild copies of it."""
    out = tmp_path_factory.mktemp("light") / "site"
    assert main(["site", "--out", str(out), *BASE]) == 0
    return out


def copy_of(site: Path, to: Path) -> Path:
    import shutil

    shutil.copytree(site, to, symlinks=True)
    return to


@pytest.mark.slow  # builds the light site (each build freezes every page: seconds)
def test_a_site_rebuild_keeps_a_cname_git_and_notes_and_removes_only_what_the_last_build_made(light_site, tmp_path):
    out = copy_of(light_site, tmp_path / "site")
    (out / "CNAME").write_text("deck.example.org\n")
    (out / ".git").mkdir()
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (out / "rules" / "notes.txt").write_text("print on A4")
    (out / "index.html").write_text("edited by hand")  # the build's own file: replaced
    record = json.loads((out / ".companion-site").read_text())
    assert record["base_url"] == "https://you.github.io/deck" and "index.html" in record["files"]
    assert ".companion-site" not in record["files"] and "CNAME" not in record["files"]
    # As if the last build had made a page this one no longer makes: it goes, and the folder it leaves empty.
    (out / "c" / "retired").mkdir()
    (out / "c" / "retired" / "index.html").write_text("an old card")
    record["files"].append("c/retired/index.html")
    (out / ".companion-site").write_text(json.dumps(record))
    assert main(["site", "--out", str(out), *BASE]) == 0
    assert (out / "CNAME").read_text() == "deck.example.org\n"
    assert (out / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert (out / "rules" / "notes.txt").read_text() == "print on A4"
    assert (out / "index.html").read_text() != "edited by hand"
    assert not (out / "c" / "retired").exists()
    assert tree(out).keys() - {"CNAME", ".git", ".git/HEAD", "rules/notes.txt"} == tree(light_site).keys()
    assert "c/retired/index.html" not in json.loads((out / ".companion-site").read_text())["files"]


@pytest.mark.slow  # builds the light site (each build freezes every page: seconds)
def test_a_site_made_by_an_older_companion_is_replaced_and_its_other_files_kept(light_site, tmp_path):
    out = copy_of(light_site, tmp_path / "site")
    (out / ".companion-site").write_text(json.dumps({"base_url": "https://you.github.io/deck"}))  # no list
    (out / "notes.txt").write_text("mine")
    assert main(["site", "--out", str(out), *BASE]) == 0
    assert (out / "notes.txt").read_text() == "mine" and "files" in json.loads((out / ".companion-site").read_text())


@pytest.mark.slow  # builds the light site (each build freezes every page: seconds)
def test_site_out_dot_in_a_git_checkout_keeps_it_and_never_overwrites_its_files(tmp_path, monkeypatch, capsys):
    checkout = tmp_path / "deck"
    (checkout / ".git").mkdir(parents=True)
    (checkout / ".git" / "config").write_text("[core]\n")
    (checkout / "README.md").write_text("my deck")
    (checkout / "index.html").write_text("my own home page")
    monkeypatch.chdir(checkout)
    before = tree(checkout)
    assert main(["site", "--out", ".", *BASE]) == 2
    assert capsys.readouterr().err == ("companion site: out: . already holds index.html, which this build would "
                                       "overwrite and did not make; move it away and build again (nothing was "
                                       "changed)\n")
    assert tree(checkout) == before
    (checkout / "index.html").unlink()
    assert main(["site", "--out", ".", *BASE]) == 0
    assert (checkout / "README.md").read_text() == "my deck" and (checkout / ".git" / "config").is_file()
    assert (checkout / "index.html").is_file() and (checkout / ".companion-site").is_file()


def test_a_folder_of_other_things_is_still_refused(tmp_path, capsys):
    mine = tmp_path / "photos"
    mine.mkdir()
    (mine / "holiday.jpg").write_bytes(b"precious")
    assert main(["site", "--out", str(mine), *BASE]) == 2
    assert "not a site made by companion site" in capsys.readouterr().err
    assert tree(mine) == {"holiday.jpg": hashlib.sha256(b"precious").hexdigest()}


@pytest.mark.slow  # builds the light site (each build freezes every page: seconds)
def test_a_site_build_that_fails_leaves_the_folder_as_it_was(light_site, tmp_path, monkeypatch):
    from companion.web.site import build as site

    out = copy_of(light_site, tmp_path / "site")
    (out / "CNAME").write_text("deck.example.org\n")
    before = tree(out)

    def broken(*args):
        raise RuntimeError("a page failed")

    monkeypatch.setattr(site, "_service_worker", broken)
    with pytest.raises(RuntimeError):
        site.build(out, "https://you.github.io/deck", scoring=False)
    assert tree(out) == before


@pytest.mark.slow  # exports every Duquesa card as a PNG twice (the fast lane's PNG export: test_document)
def test_png_rebuild_keeps_an_order_form_and_removes_the_pngs_of_cards_gone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "duquesa-png"
    folder.mkdir()  # an older export: no record; its PNG is replaced, the rest kept
    (folder / "DQ07.png").write_bytes(b"old")
    (folder / "order.txt").write_text("50 copies")
    assert main(["build", "duquesa", "--out", ".", "--png"]) == 0
    assert (folder / "order.txt").read_text() == "50 copies" and (folder / "DQ07.png").read_bytes() != b"old"
    record = json.loads((folder / ".companion-png").read_text())
    assert record["game"] == "duquesa" and "DQ07.png" in record["files"] and "order.txt" not in record["files"]
    (folder / "DQ99.png").write_bytes(b"a card since removed")
    record["files"].append("DQ99.png")
    (folder / ".companion-png").write_text(json.dumps(record))
    assert main(["build", "duquesa", "--out", ".", "--png"]) == 0
    assert not (folder / "DQ99.png").exists() and (folder / "order.txt").read_text() == "50 copies"
    assert not [p for p in folder.iterdir() if p.name.startswith(files.WORK_PREFIX)]


# --- companion/core/files.py itself: the swap, its undo, and what it never touches ---------------------------------


def fill(staging: Path, paths: dict[str, str]) -> None:
    for rel, text in paths.items():
        (staging / rel).parent.mkdir(parents=True, exist_ok=True)
        (staging / rel).write_text(text)


def test_a_failure_in_the_middle_of_the_swap_puts_every_file_back(tmp_path, monkeypatch):
    out = tmp_path / "out"
    with written_over(out, ".made") as staging:
        fill(staging, {"a.html": "a1", "sub/b.html": "b1", "gone/c.html": "c1"})
    (out / "mine.txt").write_text("mine")
    before = tree(out)
    real = os.rename
    calls = []

    def rename(src, dst):
        calls.append(dst)
        if len(calls) == 4:
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(files.os, "rename", rename)
    with pytest.raises(OSError):
        with written_over(out, ".made") as staging:
            fill(staging, {"a.html": "a2", "sub/b.html": "b2", "new/d.html": "d2"})
    assert tree(out) == before
    monkeypatch.setattr(files.os, "rename", real)
    with written_over(out, ".made") as staging:
        fill(staging, {"a.html": "a2", "sub/b.html": "b2", "new/d.html": "d2"})
    assert {k for k in tree(out)} == {".made", "a.html", "sub", "sub/b.html", "new", "new/d.html", "mine.txt"}
    assert (out / "a.html").read_text() == "a2"


def test_a_record_never_leads_outside_the_folder_nor_through_a_link(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "x.html").write_text("not the site's")
    with written_over(out, ".made") as staging:
        fill(staging, {"a.html": "a"})
    (out / "linked").symlink_to(elsewhere)
    (out / ".made").write_text(json.dumps({"files": ["a.html", "../elsewhere/x.html", str(elsewhere / "x.html"),
                                                     "linked/x.html", "./a.html"]}))
    with written_over(out, ".made") as staging:
        fill(staging, {"b.html": "b"})
    assert (elsewhere / "x.html").read_text() == "not the site's" and (out / "linked").is_symlink()
    assert not (out / "a.html").exists() and (out / "b.html").read_text() == "b"


def test_something_in_the_way_is_named_and_nothing_is_touched(tmp_path):
    out = tmp_path / "out"
    with written_over(out, ".made") as staging:
        fill(staging, {"a.html": "a"})
    (out / "rules").write_text("a file where the build needs a folder")
    before = tree(out)
    with pytest.raises(InputError) as e:
        with written_over(out, ".made") as staging:
            fill(staging, {"a.html": "a2", "rules/x.html": "x"})
    assert "already holds rules, which this build would overwrite" in str(e.value)
    assert tree(out) == before
