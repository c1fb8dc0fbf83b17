"""A card's phone page draws its face from the same layout as the print (companion/web/play/face_svg.py): the designer's
colours, fonts and pictures, served only when the card data names them; and, seen in Debian's chromium, the
phone's face matches the printed card pixel for pixel within a small tolerance."""
import io
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from helpers.server import free_port

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example-game"
CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`companion serve --cards` with the example game (copied), on a free port."""
    folder = tmp_path_factory.mktemp("face")
    shutil.copytree(EXAMPLE, folder / "game")
    port = free_port()
    env = dict(os.environ, COMPANION_INSTANCE_PATH=str(folder / "instance"))
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--port", str(port), "--cards",
                             str(folder / "game" / "cosecha.yaml")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=1)
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(proc.stderr.read())
            time.sleep(0.1)
    yield base, folder
    proc.terminate()
    proc.wait(timeout=10)


def get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.headers.get_content_type(), r.read()
    except urllib.error.HTTPError as e:
        return e.code, "", b""


def test_the_card_page_draws_the_layout_with_the_designers_look(served):
    base, _ = served
    status, _, body = get(f"{base}/c/cosecha/HV-PEAR-5?lang=en")
    page = body.decode()
    assert status == 200
    svg = page[page.index('<svg class="face-svg"'):page.index("</svg>", page.index('<svg class="face-svg"'))]
    assert 'fill="#6d8c12"' in svg  # the pear band's colour from colours: suit
    assert "cosecha-title-regular" in svg and "cosecha-body-italic" in svg  # the game's own fonts
    assert ">Pears<" in svg and ">Juicy.<" in svg  # its texts, in the page's language
    assert "/art/cosecha/art/pear.svg" in svg  # the pips are the designer's pear picture, not a shape
    css = get(f"{base}/icons/cosecha.css")[2].decode()
    assert "@font-face{font-family:'cosecha-body-regular';src:url(/fonts/cosecha/body-regular.ttf)" in css


def test_only_named_files_are_served(served):
    base, folder = served
    assert get(f"{base}/art/cosecha/art/pear.svg")[:2] == (200, "image/svg+xml")
    assert get(f"{base}/fonts/cosecha/body-bold.ttf")[:2] == (200, "font/ttf")
    (folder / "game" / "art" / "secret.svg").write_text("<svg/>")
    for path in ("/art/cosecha/cosecha.yaml", "/art/cosecha/art/secret.svg", "/art/cosecha/../cosecha.yaml",
                 "/fonts/cosecha/LICENSE-Vera.txt", "/fonts/cosecha/Vera.ttf", "/art/nosuchgame/x.svg"):
        assert get(base + path)[0] == 404, path


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"BROWSER TEST SKIPPED: no chromium at {CHROMIUM} "
                                                        "(apt-get install chromium)")
def test_phone_and_print_agree(served, tmp_path, chromium):
    """The print's PNG of a card (the print-service export, trimmed) against the phone's face in chromium at the
    same size: the mean difference per channel is small (anti-aliasing and font hinting only)."""
    from companion.cli import main

    base, folder = served
    assert main(["build", str(folder / "game" / "cosecha.yaml"), "--out", str(tmp_path), "--png", "--qr", "none",
                 "--base-url", "http://127.0.0.1:5000"]) == 0
    printed = Image.open(tmp_path / "cosecha-png" / "HV-PEAR-5.png").convert("RGB")
    bleed = round(printed.width * 3.175 / (63.5 + 2 * 3.175))  # the export's 1/8 inch bleed, in pixels
    printed = printed.crop((bleed, bleed, printed.width - bleed, printed.height - bleed))
    context = chromium.new_context(viewport={"width": 500, "height": 900}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(f"{base}/c/cosecha/HV-PEAR-5?lang=es")
        page.wait_for_function("document.fonts.status === 'loaded'")
        page.evaluate(f"""() => {{  // the CSSOM, which the page's Content-Security-Policy allows
            const figure = document.querySelector('.face-drawn');
            figure.style.maxWidth = 'none'; figure.style.width = '{printed.width}px';
            const svg = document.querySelector('svg.face-svg');
            svg.style.borderRadius = '0'; svg.style.boxShadow = 'none';
        }}""")
        page.wait_for_timeout(300)
        shot = Image.open(io.BytesIO(page.locator("svg.face-svg").screenshot())).convert("RGB")
    finally:
        context.close()
    shot = shot.resize(printed.size)
    diff = ImageStat.Stat(ImageChops.difference(printed, shot)).mean
    assert max(diff) < 12, diff  # an apple drawn for a heart, a missing band or font would be far more


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"BROWSER TEST SKIPPED: no chromium at {CHROMIUM} "
                                                        "(apt-get install chromium)")
@pytest.mark.parametrize("radius", [8, 0])
def test_the_phones_face_and_back_are_cut_to_the_files_corner_radius(tmp_path, chromium, radius):
    """A file's `corner_radius` (issue 39, item 5) rounds the phone's face and back as the print's cut: seen in
    chromium over black, the corner is black, the paper starts where the arc does; square corners stay paper."""
    from companion import cards
    from companion.web.play import face_svg

    (tmp_path / "round.yaml").write_text(
        f"game: round\ntitle: Round\nlanguages: [en]\nprefix: RD\nplayers: [2, 4]\ncorner_radius: {radius}\n"
        "components:\n  - {id: RD-1, type: card, name: One, value: 1}\n"
        "  - {id: RD-BACK, type: back, for: [card], name: Round}\n", encoding="utf-8")
    card_set = cards.load_file(str(tmp_path / "round.yaml"))
    drawn = [face_svg.face(card_set, card_set.component("RD-1"), "en", lambda p: None),
             face_svg.back(card_set, card_set.component("RD-BACK"), "en", lambda p: None)]
    context = chromium.new_context(viewport={"width": 500, "height": 800}, device_scale_factor=1)
    try:
        page = context.new_page()
        for svg in drawn:
            assert ('class="face-svg cut"' in svg) == bool(radius)  # (the page's own rounding is then off)
            page.set_content(f"<body style='margin:0;background:#000'><div style='width:500px'>{svg}</div></body>")
            picture = Image.open(io.BytesIO(page.locator("svg").screenshot())).convert("L")
            r = radius / 63.5 * picture.width  # the radius in pixels
            inside = round(r * (1 - 1 / 2 ** 0.5)) + 4  # just inside the arc, on the corner's diagonal
            assert picture.width == 500
            for x, y in ((3, 3), (496, 3), (3, picture.height - 4), (496, picture.height - 4)):  # the corners
                assert (picture.getpixel((x, y)) < 40) == bool(radius), (x, y, picture.getpixel((x, y)))
            assert picture.getpixel((inside, inside)) > 150 or not radius or svg is drawn[1]  # the face's paper
            assert picture.getpixel((250, 3)) > 40 and picture.getpixel((3, picture.height // 2)) > 40  # its edges
    finally:
        context.close()
