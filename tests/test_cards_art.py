"""A component's `art:` file: checked by `companion validate` and the build with `file:line` errors (no such file,
unreadable or invalid, a path leading outside the data file's folder), and warnings that do not stop it (not square
like the art window, more than 300 DPI in it); loading card data never opens the files."""
import os
import textwrap

import pytest
from PIL import Image

from companion import cards
from companion.cli import main
from companion.pnp.design_check import check_art
from helpers.server import error_lines

SQUARE_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><circle cx="100" cy="100" r="80"/></svg>'
WIDE_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 200"><rect width="400" height="200"/></svg>'


def game(folder, *arts, extra=""):
    """A data-only game in `folder` whose cards name these art paths, one card each; returns (path, art lines)."""
    lines = ["game: tiny", "title: {es: Mini, en: Tiny}", "prefix: TY", "players: [2, 4]", "components:"]
    art_lines = []
    for i, art in enumerate(arts):
        lines += [f"  - id: TY-{i}", "    type: card", f"    name: {{es: Carta {i}, en: Card {i}}}", f"    art: {art}"]
        art_lines.append(len(lines))
    lines += textwrap.dedent(extra).splitlines()
    path = folder / "tiny.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, art_lines


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "ok.svg").write_text(SQUARE_SVG)
    return tmp_path


def validate(capsys, path):
    code = main(["validate", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.mark.parametrize("art,make,words", [
    ("art/missing.svg", None, "'art/missing.svg' no such file"),
    ("art/broken.svg", lambda p: p.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><rect'),
     "is not valid SVG"),
    ("art/html.svg", lambda p: p.write_text("<html><body/></html>"), "not <svg>"),
    ("art/noise.png", lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40), "cannot be read as a PNG"),
    ("art/truncated.jpg", lambda p: p.write_bytes(_jpeg()[:300]), "cannot be read as a JPEG"),
    ("art/really-a-png.jpg", lambda p: Image.new("RGB", (10, 10)).save(p, "PNG"), "is named as a JPEG file but is PNG"),
    ("art", None, "is not an SVG, PNG or JPEG file"),
    ("art/picture.gif", None, "is not an SVG, PNG or JPEG file"),
    ("../outside.svg", None, "leads outside the data file's folder"),
    ("art/../../outside.svg", None, "leads outside the data file's folder"),
    ("/etc/passwd.svg", None, "leads outside the data file's folder"),
])
def test_a_bad_art_file_is_an_error_naming_file_line_card_and_field(capsys, folder, art, make, words):
    if make:
        make(folder / art)
    path, (line,) = game(folder, art)
    code, _out, err = validate(capsys, path)
    assert code == 2
    assert [(str(path), line, "TY-0", "art")] == [e[:4] for e in error_lines(err)], err
    assert words in err


def test_a_folder_named_like_a_picture_is_an_error(capsys, folder):
    (folder / "art" / "dir.svg").mkdir()
    path, (line,) = game(folder, "art/dir.svg")
    code, _out, err = validate(capsys, path)
    assert code == 2 and (str(path), line, "TY-0", "art", "'art/dir.svg' is a folder, not a file") in error_lines(err)


def test_a_link_leading_outside_the_folder_is_an_error(capsys, folder, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "secret.svg"
    elsewhere.write_text(SQUARE_SVG)
    os.symlink(elsewhere, folder / "art" / "link.svg")
    path, (line,) = game(folder, "art/link.svg")
    code, _out, err = validate(capsys, path)
    assert code == 2 and "leads outside the data file's folder (through a link)" in err
    assert error_lines(err)[0][:4] == (str(path), line, "TY-0", "art")


def test_every_art_problem_at_once_and_the_good_one_passes(capsys, folder):
    path, lines = game(folder, "art/ok.svg", "art/nope.png", "../x.svg")
    code, _out, err = validate(capsys, path)
    assert code == 2
    assert [e[1] for e in error_lines(err)] == lines[2:]  # the path's problem first (it needs no file), then the file's
    (folder / "tiny.yaml").write_text(path.read_text().replace("../x.svg", "art/ok.svg"))
    code, _out, err = validate(capsys, path)
    assert code == 2 and [e[1] for e in error_lines(err)] == [lines[1]]


def test_a_marker_prints_no_art(capsys, folder):
    path, _ = game(folder, extra="""
        - id: TY-M
          type: token
          size: marker
          name: {es: Marca, en: Marker}
          art: art/ok.svg
    """.replace("\n        ", "\n  ")[1:])
    code, _out, err = validate(capsys, path)
    assert code == 2 and "TY-M: art: a marker (8 mm) prints no art" in err


def test_a_wrong_aspect_is_a_warning_not_an_error(capsys, folder):
    (folder / "art" / "wide.svg").write_text(WIDE_SVG)
    path, (line,) = game(folder, "art/wide.svg")
    code, out, err = validate(capsys, path)
    assert code == 0 and "ok — 1 entries, 1 printed components, 1 warning" in out
    ((file, at, card, field, problem),) = error_lines(err)
    assert (file, at, card, field) == (str(path), line, "TY-0", "art")
    assert problem.startswith("warning: 'art/wide.svg' is 400 × 200 (2.00:1) but the art window is square (36.0 × 36.0")


def test_an_image_over_300_dpi_is_a_warning_saying_it_is_scaled_down(capsys, folder):
    Image.new("RGB", (1000, 1000), "#a0522d").save(folder / "art" / "big.png")
    Image.new("RGB", (400, 400), "#a0522d").save(folder / "art" / "fine.png")
    path, lines = game(folder, "art/big.png", "art/fine.png")
    code, _out, err = validate(capsys, path)
    assert code == 0
    ((_file, at, _card, _field, problem),) = error_lines(err)
    assert at == lines[0]
    assert "1000 × 1000 px, 706 DPI in the 36.0 mm art window of a poker: the build scales it down once to 425 × 425" \
        in problem


def test_loading_card_data_never_opens_the_art_files(folder):
    """The phone's Python and the web pages load card data without the pictures (and without svglib or Pillow)."""
    path, _ = game(folder, "art/not-there-yet.svg")
    card_set = cards.load_file(path)
    assert card_set.components[0].art.given == "art/not-there-yet.svg"
    assert card_set.components[0].art.path == str(folder / "art" / "not-there-yet.svg")
    errors, _warnings = check_art(card_set)
    assert len(errors) == 1 and "no such file" in errors[0]


def test_the_build_refuses_a_missing_art_file_naming_its_line(capsys, folder, tmp_path_factory):
    path, (line,) = game(folder, "art/gone.svg")
    out = tmp_path_factory.mktemp("out")
    assert main(["build", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:{line}: TY-0: art: 'art/gone.svg' no such file" in err
    assert not list(out.iterdir())  # nothing written


def _jpeg() -> bytes:
    import io

    out = io.BytesIO()
    Image.new("RGB", (64, 64), "#8a4b12").save(out, "JPEG")
    return out.getvalue()


def test_an_svg_with_text_is_warned_about(capsys, folder):
    (folder / "art" / "words.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">'
                                              '<text x="10" y="100">Rey</text></svg>')
    path, (line,) = game(folder, "art/words.svg")
    code, _out, err = validate(capsys, path)
    assert code == 0 and f"{path}:{line}: TY-0: art: warning: 'art/words.svg' has <text>" in err


HARVEST = os.path.join(os.path.dirname(__file__), "..", "docs", "example-game")


@pytest.fixture
def harvest(tmp_path):
    """docs/example-game/cosecha.yaml in a folder of its own, with its art and fonts, and two art elements more in
    its layouts: one a `{suit}` picks (art/plum.svg removed), one a fixed file that is not there."""
    import shutil

    for part in ("art", "fonts"):
        shutil.copytree(os.path.join(HARVEST, part), tmp_path / part)
    os.remove(tmp_path / "art" / "plum.svg")
    text = open(os.path.join(HARVEST, "cosecha.yaml"), encoding="utf-8").read()
    text = text.replace("art: art/plum.svg}", "}")  # (the plum cards' own art too)
    text = text.replace("    art:    {art: true, at: [13.5, 16, 36.5, 36.5]}\n",
                        "    art:    {art: true, at: [13.5, 16, 36.5, 36.5]}\n"
                        "    badge: {art: \"art/{suit}.svg\", at: [2, 30, 8, 8]}\n", 1)
    text = text.replace("    art: {art: true, at: [6, 15, 36, 27]}\n",
                        "    art: {art: true, at: [6, 15, 36, 27]}\n"
                        "    stamp: {art: art/stamp.svg, at: [50, 2, 8, 8]}\n", 1)
    path = tmp_path / "cosecha.yaml"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    return path, lines.index('    badge: {art: "art/{suit}.svg", at: [2, 30, 8, 8]}') + 1, \
        lines.index("    stamp: {art: art/stamp.svg, at: [50, 2, 8, 8]}") + 1


def test_every_art_file_a_layout_names_is_checked_for_every_card_drawn_with_it(harvest, capsys, tmp_path):
    """Validate said ok and the build stopped with a traceback naming no file: each file a layout's art element
    names (`{suit}` filled for each card) is read as the component's own art is, and one that is not there is an
    error at the element's line naming the cards that need it; the build says the same before writing anything."""
    path, badge, stamp = harvest
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"cosecha.yaml:{badge}: fruit: badge: art: 'art/plum.svg' no such file (drawn on HV-PLUM-" in err, err
    assert f"cosecha.yaml:{stamp}: " in err and "stamp: art: 'art/stamp.svg' no such file (drawn on " in err, err
    assert "art/apple.svg" not in err  # the suits whose pictures are there
    assert main(["build", str(path), "--out", str(tmp_path / "out")]) == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "'art/plum.svg' no such file" in out.err
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.pdf"))
