"""Transparency in a designer's SVG art (issue 39, item 1): `fill-opacity`, `opacity` and colours with alpha print
as drawn, a 50 % white over black measured mid grey in the PDF's PNGs and on the phone's face, and every graphics
state a PDF's content names is in its resources."""
import base64
import io
import re
import zlib
from pathlib import Path

import pytest
from PIL import Image

from companion import cards
from companion.pnp.build import build
from companion.pnp.document import BuildSettings

# Black, then its right half veiled in white at 50 % four ways, a quarter each from the top.
VEIL = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#000"/>'
        '<rect x="50" width="50" height="25" fill="#fff" fill-opacity="0.5"/>'
        '<rect x="50" y="25" width="50" height="25" fill="#fff" opacity="0.5"/>'
        '<g style="opacity: 50%"><rect x="50" y="50" width="50" height="25" fill="#ffffff"/></g>'
        '<rect x="50" y="75" width="50" height="25" fill="rgba(255, 255, 255, 0.5)"/></svg>')


def game(folder: Path) -> Path:
    (folder / "art").mkdir()
    (folder / "art" / "veil.svg").write_text(VEIL)
    path = folder / "veil.yaml"
    path.write_text("game: veil\ntitle: {es: Velo, en: Veil}\nprefix: VL\nplayers: [2, 4]\ncomponents:\n"
                    "  - {id: VL-1, type: card, qty: 3, name: {es: Velo, en: Veil}, art: art/veil.svg}\n"
                    "  - {id: VL-2, type: reference, name: {es: Ayuda, en: Help}, text: {es: Uno., en: One.},"
                    " art: art/veil.svg}\n", encoding="utf-8")
    return path


def veiled(picture: Image.Image) -> list[tuple[int, int, int]]:
    """The colours of the four veiled quarters: measured just right of the black half's middle, in each quarter."""
    rgb = picture.convert("RGB")
    black = [(x, y) for y in range(0, rgb.height, 2) for x in range(0, rgb.width, 2)
             if rgb.getpixel((x, y)) == (0, 0, 0)]
    assert black, "no black art found"
    left, top = min(x for x, _ in black), min(y for _, y in black)
    right, bottom = max(x for x, _ in black), max(y for _, y in black)
    width = right - left
    return [rgb.getpixel((right + width // 2, top + (bottom - top) * (2 * k + 1) // 8)) for k in range(4)]


def grey(colour) -> bool:
    return all(110 <= v <= 145 for v in colour)


def pdf_objects(pdf: bytes) -> dict[int, tuple[bytes, bytes]]:
    """Every object of a reportlab PDF: number → (dictionary, stream decoded when Flate)."""
    out = {}
    for m in re.finditer(rb"(\d+) 0 obj\r?\n(.*?)endobj", pdf, re.S):
        head, sep, stream = m[2].partition(b"stream\n")
        stream = stream.rsplit(b"endstream", 1)[0].removesuffix(b"\n") if sep else b""
        if stream and b"/FlateDecode" in head and b"/Subtype /Image" not in head:
            stream = zlib.decompress(stream)
        out[int(m[1])] = (head, stream)
    return out


def unknown_states(pdf: bytes) -> list[str]:
    """Each `/name gs` a page's or form's content uses that its resources' ExtGState lacks (what poppler reports
    as "ExtGState 'name' is unknown")."""
    objs = pdf_objects(pdf)
    missing = []
    for number, (head, stream) in objs.items():
        if re.search(rb"/Type /Page\b(?!s)", head):
            content = re.search(rb"/Contents (\d+) 0 R", head)
            stream = objs[int(content[1])][1] if content else b""
        elif b"/Subtype /Form" not in head:
            continue
        used = set(re.findall(rb"/(\w+) gs\b", stream))
        states = re.search(rb"/ExtGState <<(.*?)>>\s*>>", head, re.S)
        known = set(re.findall(rb"/(\w+) <<", states[1] + b">>")) if states else set()
        missing += [f"object {number}: {name.decode()}" for name in used - known]
    return missing


def test_the_pdf_names_every_graphics_state_it_uses_and_its_pngs_blend(tmp_path):
    data = game(tmp_path)
    out = tmp_path / "out"
    build([str(data)], out, BuildSettings(lang="en"), png=True)
    pdf = (out / "veil.pdf").read_bytes()
    assert re.search(rb"/gRLs\d+ gs", b"".join(s for _h, s in pdf_objects(pdf).values()))  # alpha is used...
    assert unknown_states(pdf) == []  # ...and every state it names is there
    assert unknown_states((out / "veil-png" / "cards.pdf").read_bytes()) == []
    for card in ("VL-1", "VL-2"):
        quarters = veiled(Image.open(out / "veil-png" / f"{card}.png"))
        assert all(map(grey, quarters)), (card, quarters)  # not white (opaque), not black (left out)


def test_an_elements_opacity_multiplies_its_fill_opacity(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    from companion.pnp import art

    svg = tmp_path / "twice.svg"  # 50 % of a 50 % fill: a quarter white over black
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/>'
                   '<g opacity="0.5"><rect width="10" height="10" fill="#fff" fill-opacity="0.5"/></g></svg>')
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(20, 20))
    art.place(c, str(svg), 0, 0, 20, 20)
    c.showPage()
    c.save()
    import pypdfium2 as pdfium

    picture = pdfium.PdfDocument(buf.getvalue())[0].render(scale=2).to_pil().convert("RGB")
    assert all(56 <= v <= 72 for v in picture.getpixel((20, 20)))  # 255 / 4


def test_the_phones_face_blends_the_art_as_the_print_does(tmp_path, chromium):
    from companion.web.play import face_svg

    card_set = cards.load_file(str(game(tmp_path)))
    comp = card_set.component("VL-1")
    picture = base64.b64encode(VEIL.encode()).decode()
    svg = face_svg.face(card_set, comp, "en", lambda path: f"data:image/svg+xml;base64,{picture}")
    assert svg is not None
    context = chromium.new_context(viewport={"width": 400, "height": 560})
    try:
        page = context.new_page()
        page.set_content(f"<html><body style='margin:0'><div style='width:400px'>{svg}</div>"
                         f"<style>svg{{width:400px;display:block}}</style></body></html>")
        page.wait_for_function("[...document.images].every(i => i.complete) !== false")
        page.wait_for_timeout(100)
        shot = Image.open(io.BytesIO(page.locator("svg").screenshot()))
    finally:
        context.close()
    quarters = veiled(shot)
    assert all(map(grey, quarters)), quarters


@pytest.mark.parametrize("alpha", [0.5])
def test_the_phone_canvas_writes_the_prints_fill_alpha(alpha):
    from reportlab.lib.colors import white

    from companion.web.play.face_svg import SvgCanvas

    c = SvgCanvas(lambda p: None, lambda f: ("serif", "normal", "normal"))
    c.setFillColor(white)
    c.setFillAlpha(alpha)
    c.rect(0, 0, 10, 10, stroke=0, fill=1)
    assert 'fill-opacity="0.5"' in "".join(c.out)
