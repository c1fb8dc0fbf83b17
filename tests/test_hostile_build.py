"""Files that `validate` passed and `build` could not print (issue 37, items 9 and 11): a layout colour a card fills
with a non-colour, a `colours:` value that is a placeholder, a rules paragraph taller than a booklet page, and a
build stopped by a signal. Validate names each one as `file:line: ...` (exit 2); build says the same before it
writes anything, the phone's card page still draws the card, the long paragraph flows on to the next page, and a
stopped build leaves no `.pdf.part` behind and every earlier PDF as it was."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pypdfium2 as pdfium

from companion.cli import main
from companion.web import create_app

ROOT = Path(__file__).resolve().parents[1]
LAYOUT_LINE = 13  # the `band:` element in GAME
COLOURS_LINE = 9

GAME = """\
game: tiny
title: {es: Mini, en: Tiny}
prefix: TY
players: [2, 4]
fields:
  suit: {choices: [apple, pear]}
  tint: %(decl)s
colours:
  suit: {apple: "%(apple)s", pear: "#6d8c12"}
layouts:
  base:
    title: {text: "{name}", at: [4, 16, 55.5, 8], size: 11, colour: "{colour:suit}"}
    band: {rect: [0, 0, 63.5, 13], fill: "{tint}"}
    code: {qr: true, at: [2, 66.4, 21.5, 21.5]}
components:
  - {id: TY-A, type: card, suit: apple, tint: %(tint)s, name: {es: A, en: A}, text: {es: a, en: a}}
  - {id: TY-B, type: card, suit: pear, tint: %(other)s, name: {es: B, en: B}, text: {es: b, en: b}}
"""


CHOICES = '{choices: ["#2f5d9e", banana]}'


def tiny(folder: Path, apple: str = "#b03a2e", tint: str = "banana", decl: str = CHOICES, other: str = '"#2f5d9e"'):
    """The game above in `folder`: TY-A's `tint` (a band's fill, declared as `decl`), TY-B's (`other`) and the
    apple's colour as given."""
    path = folder / "tiny.yaml"
    path.write_text(GAME % {"apple": apple, "tint": tint, "decl": decl, "other": other}, encoding="utf-8")
    return path


def run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


def test_a_field_filling_a_colour_with_a_non_colour_is_named_by_validate_and_build(tmp_path, capsys):
    path = tiny(tmp_path)
    assert path.read_text().splitlines()[LAYOUT_LINE - 1].startswith("    band:")
    said = (f"{path}:{LAYOUT_LINE}: base: band: fill: \"{{tint}}\" gives TY-A 'banana', which is not a colour like "
            f"#5b2a6e")
    code, err = run(capsys, "validate", path)
    assert code == 2 and err.splitlines() == [said], err
    code, err = run(capsys, "build", path, "--out", tmp_path / "out")
    assert code == 2 and err.splitlines() == [said] and "Traceback" not in err, err
    assert not (tmp_path / "out" / "tiny.pdf").exists()


def test_each_language_of_a_translated_colour_is_checked(tmp_path, capsys):
    path = tiny(tmp_path, tint='{es: "#2f5d9e", en: red}', decl="{text: true}", other='{es: "#2f5d9e", en: "#2f5d9e"}')
    code, err = run(capsys, "validate", path)
    assert code == 2 and err.splitlines() == [
        f"{path}:{LAYOUT_LINE}: base: band: fill: \"{{tint}}\" gives TY-A 'red' (en), which is not a colour like "
        f"#5b2a6e"], err


def test_the_card_page_and_preview_draw_a_card_whose_colour_is_not_one(tmp_path):
    path = tiny(tmp_path)
    app = create_app({"TESTING": True, "CARD_FILES": [str(path)], "INSTANCE_PATH": str(tmp_path / "instance")})
    client = app.test_client()
    page = client.get("/c/tiny/TY-A")
    assert page.status_code == 200 and "<svg" in page.text and "banana" not in page.text.split("<svg", 1)[1]
    assert client.get("/c/tiny/TY-B").status_code == 200
    preview = client.get("/preview/tiny")
    assert preview.status_code == 200 and "which is not a colour like #5b2a6e" in preview.text


def test_a_colours_value_that_is_a_placeholder_is_refused(tmp_path, capsys):
    path = tiny(tmp_path, apple="{suit}", tint='"#2f5d9e"')
    said = f"{path}:{COLOURS_LINE}: -: colours.suit.apple: must be a colour like #5b2a6e, got text '{{suit}}'"
    code, err = run(capsys, "validate", path)
    assert code == 2 and err.splitlines() == [said], err
    code, err = run(capsys, "build", path, "--out", tmp_path / "out")
    assert code == 2 and err.splitlines() == [said], err


def test_a_rainbow_accent_is_refused_by_name(tmp_path, capsys):
    """A term may be `rainbow` (rings of colour); the accent fills bands and frames, and cannot."""
    data = (ROOT / "docs/example-game/huerto.yaml").read_text(encoding="utf-8")
    (tmp_path / "huerto.yaml").write_text(data.replace('accent: "#3f6b2a"', "accent: rainbow"), encoding="utf-8")
    (tmp_path / "huerto.csv").write_bytes((ROOT / "docs/example-game/huerto.csv").read_bytes())
    line = data.splitlines().index('  accent: "#3f6b2a"') + 1
    said = [f"{tmp_path / 'huerto.yaml'}:{line}: -: look.accent: 'rainbow' is not valid: a colour like #5b2a6e (a "
            f"band's colour: not rainbow)"]
    for argv in (("validate",), ("build", "--out", tmp_path / "out")):
        code, err = run(capsys, argv[0], tmp_path / "huerto.yaml", *argv[1:])
        assert code == 2 and err.splitlines() == said, err


def test_the_printing_code_draws_a_card_whose_colour_is_not_one(tmp_path):
    """What reaches the drawing code unchecked (a served file is drawn as it is): drawn without that colour."""
    from reportlab.pdfgen.canvas import Canvas

    from companion import cards
    from companion.pnp import faces

    card_set = cards.load_file(tiny(tmp_path, tint='{es: banana, en: "#12345"}', decl="{text: true}",
                                    other="{es: rainbow, en: '{x}'}"))
    canvas = Canvas(str(tmp_path / "faces.pdf"))
    for c in card_set.components:
        for lang in ("es", "en"):
            faces.paint_front(canvas, c, card_set, lang, 20, 20, 180, 252, 0, None, None)
    canvas.save()


WORDS = [f"harv{n:03d}" for n in range(1, 500)]  # 499 words, 3,991 characters: a rules text may hold 4,000


def test_a_rules_paragraph_taller_than_a_page_flows_on_to_the_next(tmp_path, capsys):
    text = " ".join(WORDS)
    data = (ROOT / "docs/example-game/huerto.yaml").read_text(encoding="utf-8") + (
        f"rules:\n  - id: turn\n    title: {{es: Turno, en: Turn}}\n    text: {{es: \"{text}\", en: \"{text}\"}}\n")
    (tmp_path / "huerto.yaml").write_text(data, encoding="utf-8")
    (tmp_path / "huerto.csv").write_bytes((ROOT / "docs/example-game/huerto.csv").read_bytes())
    for paper in ("a4", "letter"):
        started = time.monotonic()
        code, err = run(capsys, "build", tmp_path / "huerto.yaml", "--out", tmp_path / paper, "--paper", paper)
        assert code == 0 and "Traceback" not in err, err
        assert time.monotonic() - started < 10
        pdf = pdfium.PdfDocument(str(tmp_path / paper / "huerto.pdf"))
        pages = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
        booklet = [p for p in pages if "harv" in p]
        assert len(booklet) == 2  # the paragraph fills the first page's two columns and goes on
        found = [w for p in booklet for w in p.split() if w.startswith("harv")]
        assert found == WORDS  # every word, once, in order: nothing cut


def test_the_paragraph_flows_across_many_columns_on_small_pages(tmp_path):
    """On an A6 page it takes more than two pages: each remainder is split again, column after column."""
    from reportlab.lib.pagesizes import A6
    from reportlab.pdfgen.canvas import Canvas

    from companion import cards
    from companion.pnp import cover

    text = " ".join(WORDS)
    (tmp_path / "huerto.csv").write_bytes((ROOT / "docs/example-game/huerto.csv").read_bytes())
    (tmp_path / "huerto.yaml").write_text((ROOT / "docs/example-game/huerto.yaml").read_text(encoding="utf-8") + (
        f"rules:\n  - id: turn\n    title: {{es: Turno, en: Turn}}\n    text: {{es: \"{text}\", en: \"{text}\"}}\n"),
        encoding="utf-8")
    canvas = Canvas(str(tmp_path / "booklet.pdf"), pagesize=A6)
    cover.booklet_pages(canvas, cards.load_file(tmp_path / "huerto.yaml"), "en", A6, canvas.showPage)
    canvas.save()
    pdf = pdfium.PdfDocument(str(tmp_path / "booklet.pdf"))
    assert len(pdf) >= 4
    found = [w for i in range(len(pdf)) for w in pdf[i].get_textpage().get_text_range().split() if w.startswith("harv")]
    assert found == WORDS


def slow_game(folder: Path) -> Path:
    """A data-only game of 3,000 cards: long enough a build to stop in the middle."""
    rows = ["id;type;qty;icons;value;name.es;name.en;text.es;text.en"]
    rows += [f"SL-{n};card;500;heart circle;{n};C{n};C{n};Vale {n}.;Worth {n}." for n in range(6)]
    (folder / "slow.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    path = folder / "slow.yaml"
    path.write_text("game: slow\ntitle: {es: Lenta, en: Slow}\nprefix: SL\nplayers: [2, 4]\nrows: slow.csv\n",
                    encoding="utf-8")
    return path


def test_a_build_stopped_by_sigterm_leaves_no_part_file_and_the_earlier_pdfs(tmp_path, capsys):
    out = tmp_path / "out"
    huerto = ROOT / "docs/example-game/huerto.yaml"
    assert run(capsys, "build", huerto, "--out", out)[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert list(before) == ["huerto.pdf"]
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "build", str(huerto), str(slow_game(tmp_path)),
                             "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    deadline = time.monotonic() + 20
    while not list(out.glob(".slow.*.part")):  # huerto's PDF is rendered (to its own .part), slow's begun
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.005)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 128 + signal.SIGTERM and "Traceback" not in err, err
    assert sorted(os.listdir(out)) == ["huerto.pdf"]  # no .part of either game, no slow.pdf
    assert (out / "huerto.pdf").read_bytes() == before["huerto.pdf"]


def test_main_puts_back_the_sigterm_handler_it_found(tmp_path, capsys):
    """In-process callers (tests, a host program) keep their own handler: only a command's run stops on SIGTERM."""
    before = signal.getsignal(signal.SIGTERM)
    assert run(capsys, "validate", tiny(tmp_path, tint='"#2f5d9e"'))[0] == 0
    assert signal.getsignal(signal.SIGTERM) is before
