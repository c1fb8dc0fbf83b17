"""Art files in the PDF: an SVG drawn as vectors (no image) in one form XObject that every face using it places; a
PNG or JPEG placed as one image XObject at the file's own pixel size (a JPEG's bytes untouched), or scaled down once
to 300 DPI in its window."""
import io
import re
import zlib
from pathlib import Path

import pytest
from PIL import Image

from companion.pnp.build import build
from companion.pnp.document import BuildSettings

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><g stroke="#2b2b2b" stroke-width="4">'
       '<circle cx="100" cy="100" r="70" fill="#e0a000"/><rect x="60" y="60" width="80" height="80" fill="#2e7d4f"/>'
       '</g></svg>')
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "example-game"


def objects(pdf: bytes) -> dict[int, tuple[bytes, bytes]]:
    """Every object of a reportlab PDF: number → (dictionary, stream decoded when Flate, else raw)."""
    out = {}
    for m in re.finditer(rb"(\d+) 0 obj\r?\n(.*?)endobj", pdf, re.S):
        head, sep, stream = m[2].partition(b"stream\n")
        stream = stream.rsplit(b"endstream", 1)[0].removesuffix(b"\n") if sep else b""
        if stream and b"/FlateDecode" in head and b"/Subtype /Image" not in head:
            stream = zlib.decompress(stream)
        out[int(m[1])] = (head, stream)
    return out


def tiny_game(folder: Path, art_lines: list[str]) -> Path:
    lines = ["game: tiny", "title: {es: Mini, en: Tiny}", "prefix: TY", "players: [2, 4]", "components:"]
    for i, art in enumerate(art_lines):
        lines += [f"  - {{id: TY-{i}, type: card, qty: 2, name: {{es: Carta {i}, en: Card {i}}}, art: {art}}}"]
    path = folder / "tiny.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def built(tmp_path, data: Path, **settings) -> bytes:
    out = tmp_path / "out"
    build([str(data)], out, BuildSettings(**settings))
    return (out / f"{data.stem}.pdf").read_bytes()


def test_an_svg_is_drawn_as_vectors_in_one_form_every_face_places(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "sun.svg").write_text(SVG)
    (tmp_path / "art" / "same-picture.svg").write_text(SVG)  # the same bytes under another name: one form too
    pdf = built(tmp_path, tiny_game(tmp_path, ["art/sun.svg", "art/sun.svg", "art/sun.svg", "art/same-picture.svg"]))
    objs = objects(pdf)
    assert not [h for h, _s in objs.values() if b"/Subtype /Image" in h]  # no pixels anywhere: vectors
    names = {n for n in re.findall(rb"/(FormXob\.ART\w+)", pdf)}
    assert len(names) == 1  # one form for the picture
    (name,) = names
    art_form = [s for h, s in objs.values() if b"/Subtype /Form" in h and b"/BBox [ 0 0 150 150 ]" in h]
    assert len(art_form) == 1 and b" c" in art_form[0] and b"Do" not in art_form[0]  # curves, no image in it
    uses = sum(s.count(b"/" + name + b" Do") for _h, s in objs.values())
    assert uses == 4  # placed on each of the four faces (each face itself a form placed on its two copies)


def _first_image(pdf: bytes) -> tuple[bytes, bytes]:
    """The one picture of a PDF (not its soft mask)."""
    images = [(h, s) for h, s in objects(pdf).values() if b"/Subtype /Image" in h and b"/DeviceGray" not in h]
    assert len(images) == 1, images
    return images[0]


def _size(head: bytes) -> tuple[int, int]:
    return int(re.search(rb"/Width (\d+)", head)[1]), int(re.search(rb"/Height (\d+)", head)[1])


def test_the_example_games_png_is_placed_once_at_its_own_pixel_size(tmp_path):
    pdf = built(tmp_path, EXAMPLE / "especias.yaml")
    head, _stream = _first_image(pdf)
    assert _size(head) == Image.open(EXAMPLE / "art" / "pepper.png").size == (240, 240)
    assert b"/FlateDecode" in head  # lossless: reportlab writes the PNG's pixels with Flate, its alpha as a soft mask
    images = [h for h, _s in objects(pdf).values() if b"/Subtype /Image" in h]
    assert len(images) == 2  # the picture and its soft mask, once for the 8 pepper cards


def test_a_jpeg_goes_in_as_its_own_bytes(tmp_path):
    (tmp_path / "art").mkdir()
    im = Image.new("RGB", (300, 200), "#a0522d")
    im.paste(Image.new("RGB", (100, 100), "#2e7d4f"), (50, 50))
    jpeg = tmp_path / "art" / "photo.jpg"
    im.save(jpeg, "JPEG", quality=80)
    head, stream = _first_image(built(tmp_path, tiny_game(tmp_path, ["art/photo.jpg"])))
    assert _size(head) == (300, 200) and b"/DCTDecode" in head
    assert stream == jpeg.read_bytes()  # passed through, not decoded and re-encoded


@pytest.mark.parametrize("kind,filter_", [("png", b"/FlateDecode"), ("jpg", b"/DCTDecode")])
def test_an_image_over_300_dpi_is_scaled_down_once_to_300_dpi(tmp_path, kind, filter_):
    (tmp_path / "art").mkdir()
    Image.new("RGB", (1200, 600), "#8a4b12").save(tmp_path / "art" / f"big.{kind}")
    data = tiny_game(tmp_path, [f"art/big.{kind}", f"art/big.{kind}"])
    images = [(h, s) for h, s in objects(built(tmp_path, data)).values() if b"/Subtype /Image" in h]
    assert len(images) == 1
    head, _stream = images[0]
    # fitted in the 36 mm window of a poker card (1200 px across 36 mm: 847 DPI): 425 px across is 300 DPI
    assert _size(head) == (425, 213) and filter_ in head
    with_mini = [h for h, _s in objects(built(tmp_path, data, card_size="mini")).values() if b"/Subtype /Image" in h]
    assert [_size(h) for h in with_mini] == [(298, 149)]  # the mini card's 25.2 mm window


def test_a_token_and_a_tile_draw_their_art(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "sun.svg").write_text(SVG)
    data = tmp_path / "tiny.yaml"
    data.write_text("game: tiny\ntitle: {es: Mini, en: Tiny}\nprefix: TY\nplayers: [2, 4]\ncomponents:\n"
                    "  - {id: TY-T, type: token, name: {es: Ficha, en: Token}, art: art/sun.svg}\n"
                    "  - {id: TY-L, type: tile, name: {es: Loseta, en: Tile}, art: art/sun.svg}\n")
    pdf = built(tmp_path, data)
    (name,) = set(re.findall(rb"/(FormXob\.ART\w+)", pdf))
    assert sum(s.count(b"/" + name + b" Do") for _h, s in objects(pdf).values()) == 2


def test_the_same_build_with_art_twice_is_byte_identical(tmp_path):
    first = built(tmp_path / "a", EXAMPLE / "especias.yaml")
    assert built(tmp_path / "b", EXAMPLE / "especias.yaml") == first


def test_the_same_art_in_another_folder_builds_the_same_pdf(tmp_path):
    """Form names come from the file's bytes, so a checkout elsewhere builds the same PDF."""
    for where in ("one", "two"):
        folder = tmp_path / where
        (folder / "art").mkdir(parents=True)
        (folder / "art" / "sun.svg").write_text(SVG)
        tiny_game(folder, ["art/sun.svg"])
    assert built(tmp_path / "one", tmp_path / "one" / "tiny.yaml") == \
        built(tmp_path / "two", tmp_path / "two" / "tiny.yaml")


def test_a_broken_image_never_reaches_the_drawing(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "bad.png").write_bytes(io.BytesIO(b"not a png").getvalue())
    from companion.cards import DataError

    with pytest.raises(DataError, match=r"tiny.yaml:6: TY-0: art: 'art/bad.png' cannot be read as a PNG"):
        built(tmp_path, tiny_game(tmp_path, ["art/bad.png"]))
