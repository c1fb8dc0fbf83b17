"""Card data and art made to hurt (issue 25, items 1-4): `companion validate` says ok only for what `companion build`
draws; anything else is a clean `file:line: ...` line and exit 2, never a traceback, a hang or unbounded memory.
The files are made here: SVGs reaching outside their folder or into /dev/zero, embedded pictures, a viewBox of nan,
YAML aliases and nesting, a FIFO, PNG headers declaring gigapixels. The dangerous ones (a hang or gigabytes on the
code before this issue) run in a child process with a time and an address-space limit, and their peak memory is
measured (os.wait4 gives each child's own ru_maxrss) against 300 MB, beside a plain build's."""
import base64
import io
import os
import struct
import zlib
from pathlib import Path

import pytest
import yaml
from PIL import Image

from companion.cards import yaml_lines as cards_yaml
from companion.cli import main
from companion.pnp import art
from helpers.capped import child
from helpers.server import error_lines

SVG_HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'viewBox="0 0 200 200">')
SHAPE = '<circle cx="100" cy="100" r="80" fill="#a0522d"/>'
ROOT = Path(__file__).resolve().parents[1]
PEAK_MB = 300  # what validate and build may take on any file here


def svg(body: str, head: str = SVG_HEAD) -> str:
    return head + body + "</svg>"


def game(folder: Path, art_path: str = "art/a.svg", text: str | None = None) -> Path:
    """A data-only game `tiny` in `folder` with one card naming `art_path` (line 9), or the YAML `text` itself."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "art").mkdir(exist_ok=True)
    path = folder / "tiny.yaml"
    path.write_text(text if text is not None else
                    "game: tiny\ntitle: {es: Mini, en: Tiny}\nprefix: TY\nplayers: [2, 4]\ncomponents:\n"
                    f"  - id: TY-0\n    type: card\n    name: {{es: Carta, en: Card}}\n    art: {art_path}\n")
    return path


ART_LINE = 9


def png(width: int, height: int, rows: int | None = None, colour: int = 6) -> bytes:
    """A PNG of `width` × `height` black pixels (RGBA, or RGB with colour=2) made row by row without holding them:
    a real picture of any size, or with `rows` only its first rows (a header declaring more than the file has)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    squeeze = zlib.compressobj(1)
    row = b"\0" * (1 + (4 if colour == 6 else 3) * width)
    data = b"".join(squeeze.compress(row) for _ in range(height if rows is None else rows)) + squeeze.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def small_png(mode: str = "RGB", size=(20, 20)) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, "#a0522d" if mode.startswith("RGB") else 128).save(out, "PNG")
    return out.getvalue()


def data_uri(picture: bytes, kind: str = "png") -> str:
    return f"data:image/{kind};base64,{base64.b64encode(picture).decode()}"


def validate(capsys, path: Path) -> tuple[int, str]:
    code = main(["validate", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, err


def refused(capsys, path: Path, words: str, line: int = ART_LINE, field: str = "art", card: str = "TY-0") -> str:
    """Validate and build both refuse the file with one `file:line: card: field: ...` line holding `words`; the
    build writes nothing."""
    code, err = validate(capsys, path)
    assert code == 2, err
    ((file, at, who, what, problem),) = error_lines(err)
    assert (file, at, who, what) == (str(path), line, card, field) and words in problem, err
    out = path.parent / "out"
    assert main(["build", str(path), "--out", str(out)]) == 2
    assert words in capsys.readouterr().err
    assert not out.exists() or not list(out.iterdir())
    return problem


def built(capsys, path: Path) -> bytes:
    """Validate says ok, and the build writes the PDF: its bytes."""
    code, err = validate(capsys, path)
    assert code == 0, err
    out = path.parent / "out"
    assert main(["build", str(path), "--out", str(out)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    return (out / "tiny.pdf").read_bytes()


# --- 1. An SVG reaches only its own parts and its embedded pictures ----------------------------------------------


def test_an_svg_using_a_drawing_outside_the_data_folder_is_refused(capsys, tmp_path):
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "x.svg").write_text(svg('<defs><g id="a"><rect width="200" height="200"/></g></defs>'))
    path = game(tmp_path / "game" / "data")
    (path.parent / "art" / "a.svg").write_text(svg('<use xlink:href="../../../secret/x.svg#a"/>'))
    problem = refused(capsys, path, "refers to '../../../secret/x.svg#a' (line 1 of the SVG)")
    assert "only its own parts (#id) and pictures embedded in it as PNG or JPEG" in problem


@pytest.mark.parametrize("href", ["pic.png", "./pic.png", "other.svg#a", "/etc/passwd", "file:///etc/passwd",
                                  "http://example.com/x.png", "data:image/svg+xml;base64,PHN2Zy8+",
                                  "data:image/gif;base64,R0lGODlhAQABAAAAACw=", " #a"])
def test_every_reference_but_a_fragment_or_an_embedded_picture_is_refused(capsys, tmp_path, href):
    path = game(tmp_path)
    (tmp_path / "art" / "pic.png").write_bytes(small_png())  # beside it, in the data folder: still not followed
    (tmp_path / "art" / "other.svg").write_text(svg('<g id="a">' + SHAPE + '</g>'))
    (tmp_path / "art" / "a.svg").write_text(svg(f'\n<image width="50" height="50" href="{href}"/>'))
    refused(capsys, path, f"refers to {href!r} (line 2 of the SVG)")


def test_fragments_links_and_embedded_pictures_are_drawn(capsys, tmp_path):
    path = game(tmp_path)
    (tmp_path / "art" / "a.svg").write_text(svg(
        '<defs><g id="sun">' + SHAPE + '</g><linearGradient id="g"><stop offset="0" stop-color="#fff"/>'
        '</linearGradient></defs><use xlink:href="#sun"/><a href="https://example.com/"><rect width="9" height="9" '
        f'fill="url(#g)"/></a><image x="10" y="10" width="40" height="40" xlink:href="{data_uri(small_png())}"/>'))
    assert b"/Subtype /Image" in built(capsys, path)


def test_a_font_family_never_names_a_file_to_embed(capsys, tmp_path):
    """svglib would register `<font-family>.ttf` (any path) and embed it: only the PDF's standard fonts are used."""
    from reportlab.pdfbase import pdfmetrics

    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "spy.ttf").write_bytes((ROOT / "companion/pnp/fonts/NotoSerif-Regular.ttf").read_bytes())
    path = game(tmp_path / "game")
    (path.parent / "art" / "a.svg").write_text(svg(f'<text x="9" y="99" font-family="{secret}/spy">Rey</text>'))
    built(capsys, path)
    fonts = [pdfmetrics.getFont(name) for name in pdfmetrics.getRegisteredFontNames()]
    assert not [f for f in fonts if str(secret) in str(getattr(getattr(f, "face", None), "filename", ""))]


# --- 2. What validate accepts, the build draws ------------------------------------------------------------------


@pytest.mark.parametrize("mode,kind", [("RGB", "png"), ("RGBA", "png"), ("P", "png"), ("LA", "png"), ("L", "png"),
                                       ("RGB", "jpeg"), ("L", "jpg")])
def test_an_svg_with_an_embedded_picture_as_inkscape_writes_it_is_drawn(capsys, tmp_path, mode, kind):
    picture = small_png(mode)
    if kind != "png":
        out = io.BytesIO()
        Image.open(io.BytesIO(picture)).save(out, "JPEG")
        picture = out.getvalue()
    uri = data_uri(picture, kind)
    wrapped = uri[:40] + "\n" + "\n".join(uri[i:i + 76] for i in range(40, len(uri), 76))  # base64 in lines
    path = game(tmp_path)
    (tmp_path / "art" / "a.svg").write_text(svg(f'<image width="200" height="200" xlink:href="{wrapped}"/>'))
    pdf = built(capsys, path)
    assert pdf.count(b"/Subtype /Image") == 1 + ("A" in mode)  # one image XObject (and its alpha), in the art's form


@pytest.mark.parametrize("picture,words", [
    (data_uri(b"\x89PNG\r\n\x1a\n" + b"\0" * 30), "embeds a PNG picture that cannot be read (line 2 of the SVG)"),
    (data_uri(small_png(), "jpeg"), "embeds a picture said to be JPEG that is PNG (line 2 of the SVG)"),
    ("data:image/png;base64,QUJD=Q", "embeds a picture that is not base64 (line 2 of the SVG)"),
    (data_uri(png(20000, 20000, rows=1)), ("embeds a picture of 20000 × 20000 px (line 2 of the SVG), more pixels "
                                           "than art may have (16.8 Mpx")),
], ids=["broken", "png-said-jpeg", "bad-base64", "gigapixel"])
def test_an_embedded_picture_is_checked_as_an_image_file_is(capsys, tmp_path, picture, words):
    path = game(tmp_path)
    (tmp_path / "art" / "a.svg").write_text(svg(f'\n<image width="200" height="200" xlink:href="{picture}"/>'))
    refused(capsys, path, words)


@pytest.mark.parametrize("head,words", [
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 nan nan">', "has a viewBox that is not four numbers"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 inf 9">', "has a viewBox that is not four numbers"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 -1">', "has a viewBox that is not four numbers"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="a b c d">', "has a viewBox that is not four numbers"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="inf" height="9">', "is an SVG with no size"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="1e-30" height="1e-30">', "give it a size from 0.001"),
])
def test_an_svg_size_that_is_no_number_is_refused(capsys, tmp_path, head, words):
    path = game(tmp_path)
    (tmp_path / "art" / "a.svg").write_text(svg(SHAPE, head))
    refused(capsys, path, words)


@pytest.mark.parametrize("body", ['<rect width="nan" height="9"/>', '<g transform="scale(1e999)">' + SHAPE + '</g>',
                                  '<circle cx="inf" cy="1" r="2"/>', '<path d="M0 0 L nan 1 Z"/>'])
def test_a_number_the_pdf_cannot_hold_is_refused_or_left_out(capsys, tmp_path, body):
    """svglib drops what it cannot read; what it keeps is drawn once when checked: never a build that fails."""
    path = game(tmp_path)
    (tmp_path / "art" / "a.svg").write_text(svg(body))
    code, err = validate(capsys, path)
    if code == 0:
        built(capsys, path)
    else:
        assert code == 2 and [e[:4] for e in error_lines(err)] == [(str(path), ART_LINE, "TY-0", "art")]


def test_an_svg_repeating_itself_is_refused(capsys, tmp_path):
    path = game(tmp_path)
    (tmp_path / "art" / "a.svg").write_text(svg('<g id="a">' + SHAPE + '<use xlink:href="#a"/></g>'))
    refused(capsys, path, "more than 10000 elements once what it repeats")


# --- 3. YAML: no aliases, no deep nesting -----------------------------------------------------------------------


HEAD = "game: tiny\ntitle: {es: Mini, en: Tiny}\nprefix: TY\nplayers: [2, 4]\n"


@pytest.mark.parametrize("text,line,words", [
    (HEAD + "x: &a [*a]\ncomponents: []\n", 5, "&a: anchors are not allowed in card data"),
    (HEAD + "components:\n  - &card {id: TY-1, type: card}\n  - *card\n", 6, "&card: anchors are not allowed"),
    (HEAD + "components: [" + "[" * 5000 + "]" * 5000 + "]\n", 5, "nested more than 50 levels deep"),
    (HEAD + "notes:\n" + "".join("  " * i + "- \n" for i in range(1, 60)), 55, "nested more than 50 levels deep"),
    (HEAD + "components: []\nwhen: 2001-13-45\n", 6, "'2001-13-45' cannot be read as a timestamp"),
    (HEAD + "components: []\nqty: " + "9" * 5000 + "\n", 6, "cannot be read as an int"),
    (HEAD + "components: []\nqty: !!int abc\n", 6, "'abc' cannot be read as an int"),
    (HEAD + "components: []\nqty: !!int\n", 6, "'' cannot be read as an int"),  # found by the fuzz test
])
@pytest.mark.parametrize("loader", ["libyaml", "pure"])
def test_yaml_that_card_data_never_needs_is_refused_at_its_line(capsys, tmp_path, monkeypatch, loader, text, line,
                                                                words):
    if loader == "pure":  # the phone's Python has no libyaml: the pure loader refuses the same, in one pass
        monkeypatch.setattr(cards_yaml, "_LOADER", yaml.SafeLoader)
    path = game(tmp_path, text=text)
    code, err = validate(capsys, path)
    assert code == 2
    ((file, at, card, field, problem),) = error_lines(err)
    assert (file, at, card, field) == (str(path), line, "-", "yaml") and words in problem, err


def test_an_alias_is_refused_where_it_is_even_without_its_anchor(capsys, tmp_path):
    path = game(tmp_path, text=HEAD + "components: []\nx: *nowhere\n")
    code, err = validate(capsys, path)
    assert code == 2 and error_lines(err)[0][1] == 6 and "yaml" in err


def test_fifty_levels_are_still_read():
    text = "x: " + "[" * 49 + "1" + "]" * 49 + "\n"
    doc, _lines = cards_yaml.read_yaml(text)
    depth, node = 0, doc["x"]
    while isinstance(node, list):
        depth, node = depth + 1, node[0]
    assert depth == 49 and node == 1


def test_a_data_file_that_is_a_folder_or_a_device_is_an_error(capsys, tmp_path):
    (tmp_path / "folder.yaml").mkdir()
    os.symlink("/dev/null", tmp_path / "null.yaml")
    for name, words in (("folder.yaml", "is a folder, not a data file"), ("null.yaml", "not a data file")):
        code, err = validate(capsys, tmp_path / name)
        assert code == 2 and error_lines(err) == [(str(tmp_path / name), 0, "-", "-", error_lines(err)[0][4])]
        assert words in err


# --- 4. Art files: regular files of a bounded size --------------------------------------------------------------


def test_an_art_header_past_the_pixel_cap_is_refused_before_decoding(capsys, tmp_path):
    path = game(tmp_path, "art/a.png")
    (tmp_path / "art" / "a.png").write_bytes(png(5000, 4000, rows=1))  # 20 Mpx declared, one row present
    problem = refused(capsys, path, "is 5000 × 4000 px, more pixels than art may have (16.8 Mpx, e.g. 4096 × 4096)")
    assert "cannot be read" not in problem  # the size is refused, not the truncated pixels: none were decoded


def test_pillows_own_decompression_bomb_limit_never_escapes(capsys, tmp_path):
    path = game(tmp_path, "art/a.png")
    (tmp_path / "art" / "a.png").write_bytes(png(20000, 20000, rows=1))
    refused(capsys, path, "is 20000 × 20000 px, more pixels than art may have")


def test_an_art_file_past_its_size_cap_is_refused_unread(capsys, tmp_path):
    path = game(tmp_path, "art/a.png")
    with open(tmp_path / "art" / "a.png", "wb") as f:
        f.truncate(art.MAX_FILE_BYTES + 1)  # sparse: nothing written
    refused(capsys, path, "is larger than 20 MiB")


def test_art_caps_leave_room_for_real_pictures():
    """The caps are far above what prints: a poker card's art window is 425 px at 300 DPI, a whole poker card
    750 × 1050; a 12 Mpx phone photo and an A4 page scanned at 400 DPI fit."""
    assert 4000 * 3000 <= art.MAX_PIXELS and 3307 * 4677 <= art.MAX_PIXELS and art.MAX_PIXELS * 4 <= 64 * 2**20


# --- Peak memory and time, in a child process -------------------------------------------------------------------






def _make_hostile(name: str, folder: Path) -> tuple[Path, str, int]:
    """A hostile data file (with its art) in `folder`: (its path, the words of its error, the error's line)."""
    if name == "svg-use-outside":
        (folder / "secret").mkdir(parents=True)
        (folder / "secret" / "x.svg").write_text(svg('<defs><g id="a"><rect width="9" height="9"/></g></defs>'))
        path = game(folder / "game")
        (path.parent / "art" / "a.svg").write_text(svg('<use xlink:href="../../secret/x.svg#a"/>'))
        return path, "refers to '../../secret/x.svg#a'", ART_LINE
    if name == "svg-image-dev-zero":
        path = game(folder)
        (folder / "art" / "a.svg").write_text(svg('<image width="9" height="9" xlink:href="' + "../" * 30
                                                  + 'dev/zero"/>'))
        return path, "refers to '../../", ART_LINE
    if name == "svg-embedded-gigapixel":
        path = game(folder)
        (folder / "art" / "a.svg").write_text(svg(f'<image width="9" height="9" '
                                                  f'xlink:href="{data_uri(png(20000, 20000, rows=1))}"/>'))
        return path, "embeds a picture of 20000 × 20000 px", ART_LINE
    if name == "svg-use-fan-out":  # 1 KB standing for a million rectangles (svglib: minutes)
        groups = "".join(f'<g id="g{i}">' + f'<use xlink:href="#g{i - 1}"/>' * 10 + "</g>" for i in range(1, 7))
        path = game(folder)
        (folder / "art" / "a.svg").write_text(svg(f'<defs><g id="g0"><rect width="1" height="1"/></g>{groups}'
                                                  f'</defs><use xlink:href="#g6"/>'))
        return path, "more than 10000 elements once what it repeats", ART_LINE
    if name == "yaml-billion-laughs":
        lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
        lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
        return game(folder, text="\n".join(lines) + "\n" + HEAD), "anchors are not allowed", 1
    if name == "yaml-a-megabyte-of-values":
        return game(folder, text=HEAD + "x: [" + "0," * 500_000 + "]\n"), "more than 50000 values", 5
    if name == "data-fifo":
        folder.mkdir()
        os.mkfifo(folder / "tiny.yaml")
        return folder / "tiny.yaml", "is a device, a pipe or a socket, not a data file", 0
    if name == "art-fifo":
        path = game(folder, "art/a.png")
        os.mkfifo(folder / "art" / "a.png")
        return path, "is a device, a pipe or a socket, not a file", ART_LINE
    if name == "png-20000-header":
        path = game(folder, "art/a.png")
        (folder / "art" / "a.png").write_bytes(png(20000, 20000, rows=1))
        return path, "is 20000 × 20000 px", ART_LINE
    if name == "png-13000-rgba":  # a whole picture: 676 MB once decoded
        path = game(folder, "art/a.png")
        (folder / "art" / "a.png").write_bytes(png(13000, 13000))
        return path, "is 13000 × 13000 px", ART_LINE
    raise ValueError(name)


HOSTILE = ["svg-use-outside", "svg-image-dev-zero", "svg-embedded-gigapixel", "svg-use-fan-out",
           "yaml-billion-laughs", "yaml-a-megabyte-of-values", "data-fifo", "art-fifo", "png-20000-header",
           "png-13000-rgba"]


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """A plain build's peak memory (a one-card game with an SVG): what the 300 MB limit is measured against."""
    folder = tmp_path_factory.mktemp("plain")
    path = game(folder)
    (folder / "art" / "a.svg").write_text(svg(SHAPE))
    code, err, peak = child(["build", str(path), "--out", str(folder / "out")], folder)
    assert code == 0, err
    assert peak < PEAK_MB / 2, f"a plain build already takes {peak:.0f} MB"
    return peak


@pytest.mark.slow
@pytest.mark.parametrize("command", ["validate", "build"])
@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_file_is_one_clean_line_in_bounded_memory_and_time(tmp_path, baseline, name, command):
    path, words, line = _make_hostile(name, tmp_path / "case")
    if command == "build" and name.startswith(("yaml", "data")):
        pytest.skip("a build reads card data as validate does (cards.load_file)")
    args = ["validate", str(path)] if command == "validate" else ["build", str(path), "--out", str(tmp_path / "out")]
    code, err, peak = child(args, tmp_path)
    assert code == 2 and "Traceback" not in err, err[-2000:]
    ((file, at, _card, _field, problem),) = error_lines(err)
    assert (file, at) == (str(path), line) and words in problem, err
    assert peak < PEAK_MB, f"{command} {name}: {peak:.0f} MB (a plain build: {baseline:.0f} MB)"


@pytest.mark.slow
def test_a_picture_just_under_the_cap_is_checked_and_built_in_bounded_memory(tmp_path, baseline):
    path = game(tmp_path / "case", "art/a.png")
    (path.parent / "art" / "a.png").write_bytes(png(4096, 4096))
    for args in (["validate", str(path)], ["build", str(path), "--out", str(tmp_path / "out")]):
        code, err, peak = child(args, tmp_path)
        assert code == 0 and "Traceback" not in err, err[-2000:]
        assert peak < PEAK_MB, f"{args[0]}: {peak:.0f} MB (a plain build: {baseline:.0f} MB)"
    assert (tmp_path / "out" / "tiny.pdf").exists()
