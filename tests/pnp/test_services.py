"""Print-service files (`companion build FILE --service NAME --out DIR`) of a designer's game, checked with tools
made for it: pikepdf for the PDF's structure, Ghostscript for its ink, Pillow's ImageCms (littleCMS) for its
colours and the PNGs' profile. The game: the example games copied, with half-transparent SVG art (the leaf of cosecha's
apple at 60 % opacity) and a PNG with an alpha channel (especias' pepper)."""
import io
import json
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageCms

from companion.cli import main
from companion.pnp import cmyk

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "example-game"
BASE = ["--base-url", "http://192.168.1.20:5000"]
GS = shutil.which("gs")
try:
    cmyk.profile_path()
except cmyk.CmykError as e:  # the DriveThruCards files need a CMYK profile: Debian's ghostscript brings one
    pytestmark = pytest.mark.skip(reason=f"no CMYK profile for the DriveThruCards files ({e}); .ci/run installs "
                                         "ghostscript")
POKER_PT = (198.0, 270.0)  # 63.5 × 88.9 mm and 1/8 inch on each side, in points
TRIM_PT = [9.0, 9.0, 189.0, 261.0]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("designer") / "game"
    shutil.copytree(EXAMPLES, folder)
    apple = folder / "art" / "apple.svg"
    text = apple.read_text(encoding="utf-8")
    apple.write_text(text.replace('fill="#5a8f29"', 'fill="#5a8f29" fill-opacity="0.6"'), encoding="utf-8")  # its leaf
    return folder


@pytest.fixture(scope="module")
def dtc(game, tmp_path_factory):
    out = tmp_path_factory.mktemp("dtc")
    assert main(["build", str(game / "cosecha.yaml"), str(game / "especias.yaml"), "--service", "drivethrucards",
                 "--out", str(out), *BASE]) == 0
    return out


@pytest.fixture(scope="module")
def tgc(game, tmp_path_factory):
    out = tmp_path_factory.mktemp("tgc")
    assert main(["build", str(game / "cosecha.yaml"), "--service", "thegamecrafter", "--out", str(out), *BASE]) == 0
    return out


def forms_of(page) -> list:
    """The form XObjects a page places (the face or back on it)."""
    return [x for x in (page.Resources.get("/XObject") or {}).values() if x.get("/Subtype") == "/Form"]


def every_stream(pdf):
    """Each page and each form or image it reaches, once: (object, its resources)."""
    seen, out = set(), []

    def walk(obj):
        out.append(obj)
        for x in ((obj.get("/Resources") or {}).get("/XObject") or {}).values():
            if x.objgen not in seen:
                seen.add(x.objgen)
                if x.get("/Subtype") == "/Form":
                    walk(x)
                else:
                    out.append(x)

    for page in pdf.pages:
        walk(page.obj)
    return out


RGB_OPERATORS = {"rg", "RG", "g", "G", "sc", "SC", "scn", "SCN", "cs", "CS"}


@pytest.mark.slow  # the print services' files built and measured (seconds; the error tests stay quick)
def test_one_pdf_per_deck_a_card_a_page_fronts_then_backs(dtc, game):
    assert sorted(p.name for p in dtc.glob("*.pdf")) == ["cosecha-poker.pdf", "especias-poker.pdf"]
    from companion import cards

    card_set = cards.load_file(game / "cosecha.yaml")
    copies = [c for c in card_set.components if c.kind in ("card", "reference") for _ in range(c.qty)]
    with pikepdf.open(dtc / "cosecha-poker.pdf") as pdf:
        assert len(pdf.pages) == 2 * len(copies)
        backs = {forms_of(pdf.pages[i])[0].objgen for i in range(1, len(pdf.pages), 2)}
        fronts = [forms_of(pdf.pages[i])[0].objgen for i in range(0, len(pdf.pages), 2)]
        assert len(backs) == 1 and not backs & set(fronts)  # every second page the one back, never a front
        # each copy its own pair: as many fronts of a card as it has copies, in the file's order
        kinds = list(dict.fromkeys(fronts))
        assert len(kinds) == len({c.id for c in copies})
        assert [fronts.count(k) for k in kinds] == [c.qty for c in card_set.components if c.kind in ("card",
                                                                                                     "reference")]
        for page in pdf.pages:
            assert [float(v) for v in page.MediaBox] == [0, 0, *POKER_PT]
            assert [float(v) for v in page.TrimBox] == pytest.approx(TRIM_PT, abs=0.01)
            assert [float(v) for v in page.BleedBox] == [0, 0, *POKER_PT]
            # nothing on the page but its face: no crop marks, no frame
            ops = {str(op.operator) for op in pikepdf.parse_content_stream(page)}
            assert ops <= {"q", "Q", "cm", "Do"}, ops


@pytest.mark.slow  # the print services' files built and measured (seconds; the error tests stay quick)
@pytest.mark.parametrize("name", ["cosecha-poker.pdf", "especias-poker.pdf"])
def test_cmyk_only_no_transparency_fonts_embedded_pdfx_marked(dtc, name):
    with pikepdf.open(dtc / name) as pdf:
        assert pdf.pdf_version == "1.4"
        info = pdf.docinfo
        assert str(info["/GTS_PDFXVersion"]) == "PDF/X-1a:2003" and info["/Trapped"] == pikepdf.Name("/False")
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == pikepdf.Name("/GTS_PDFX") and str(intent.OutputConditionIdentifier)
        profile = ImageCms.ImageCmsProfile(io.BytesIO(intent.DestOutputProfile.read_bytes()))
        assert profile.profile.xcolor_space.strip() == "CMYK" and int(intent.DestOutputProfile.N) == 4
        images = fonts = 0
        for obj in every_stream(pdf):
            if obj.get("/Subtype") == "/Image":
                images += 1
                assert obj.ColorSpace == pikepdf.Name("/DeviceCMYK") and "/SMask" not in obj and "/Mask" not in obj
                continue
            operators = {str(op.operator) for op in pikepdf.parse_content_stream(obj)}
            assert not operators & RGB_OPERATORS, operators & RGB_OPERATORS
            resources = obj.get("/Resources") or {}
            for state in (resources.get("/ExtGState") or {}).values():
                assert float(state.get("/ca", 1)) == 1 and float(state.get("/CA", 1)) == 1
                assert "/SMask" not in state or state.SMask == pikepdf.Name("/None")
                assert str(state.get("/BM", "/Normal")) in ("/Normal", "/Compatible")
            assert "/ColorSpace" not in resources and "/Pattern" not in resources and "/Shading" not in resources
            for font in (resources.get("/Font") or {}).values():
                fonts += 1
                parts = [font, *list(font.get("/DescendantFonts") or [])]
                assert any("/FontFile2" in (f.get("/FontDescriptor") or {}) for f in parts), font.get("/BaseFont")
        assert images >= 1 and fonts >= 1  # the flattened faces are CMYK pictures; the others keep their text


@pytest.mark.slow  # the print services' files built and measured (seconds; the error tests stay quick)
def test_the_colours_are_littlecms_conversions_through_the_profile(dtc):
    """The green of cosecha's pear band (#6d8c12) is in the file as ImageCms converts it into the same profile."""
    profile = ImageCms.getOpenProfile(cmyk.profile_path())
    to_cmyk = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), profile, "RGB", "CMYK",
                                      ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                      flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    want = ImageCms.applyTransform(Image.new("RGB", (1, 1), (0x6D, 0x8C, 0x12)), to_cmyk).getpixel((0, 0))
    assert sum(want) / 2.55 < cmyk.INK_LIMIT  # (under the limit: the ink limit leaves it as it is)
    found = set()
    with pikepdf.open(dtc / "cosecha-poker.pdf") as pdf:
        for obj in every_stream(pdf):
            if obj.get("/Subtype") != "/Image":
                for op in pikepdf.parse_content_stream(obj):
                    if str(op.operator) == "k":
                        found.add(tuple(round(float(v) * 255) for v in op.operands))
    assert any(all(abs(a - b) <= 2 for a, b in zip(f, want, strict=True)) for f in found), (want, sorted(found)[:8])


@pytest.mark.skipif(GS is None, reason="Ghostscript (gs) is not installed: apt-get install ghostscript "
                                       "(.ci/run installs it); the ink of the DriveThruCards files is not measured")
@pytest.mark.slow  # the DriveThruCards files built and rendered by Ghostscript
@pytest.mark.parametrize("name", ["cosecha-poker.pdf", "especias-poker.pdf"])
def test_no_point_of_any_page_takes_more_than_240_percent_of_ink(dtc, name, tmp_path):
    """Each page rendered by Ghostscript into its four inks (tiff32nc, no conversion: the file's own CMYK), every
    pixel's C + M + Y + K at most 240 %; and the average coverage as Ghostscript's ink_cov reads it."""
    subprocess.run([GS, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", "-r100",
                    f"-sOutputFile={tmp_path}/p%03d.tif", str(dtc / name)], check=True)
    pages = sorted(tmp_path.glob("p*.tif"))
    assert pages
    worst = 0
    for page in pages:
        with Image.open(page) as im:
            assert im.mode == "CMYK"
            c, m, y, k = (band.tobytes() for band in im.split())
            worst = max(worst, max(map(sum, zip(c, m, y, k, strict=True))))
    assert worst / 2.55 <= 240.0
    assert worst / 2.55 > 150  # (the dark art does reach the limit's neighbourhood: the measure measures)
    coverage = subprocess.run([GS, "-q", "-dSAFER", "-o", "-", "-sDEVICE=ink_cov", "-r50", str(dtc / name)],
                              check=True, capture_output=True, text=True).stdout.split()
    assert "CMYK" in coverage


@pytest.mark.slow  # the print services' files built and measured (seconds; the error tests stay quick)
def test_the_game_crafter_a_png_per_face_and_back_at_its_pixel_size_in_srgb(tgc, game):
    from companion import cards

    card_set = cards.load_file(game / "cosecha.yaml")
    files = sorted(p.name for p in tgc.glob("*.png"))
    faces = [c for c in card_set.components if c.kind in ("card", "reference")]
    assert files == sorted([f"cosecha-poker-{c.id}-x{c.qty}.png" for c in faces] + ["cosecha-poker-back.png"])
    for name in files:
        with Image.open(tgc / name) as im:
            assert im.size == (825, 1125) and im.mode == "RGB"  # no alpha: square corners
            assert round(im.info["dpi"][0]) == 300
            profile = ImageCms.ImageCmsProfile(io.BytesIO(im.info["icc_profile"]))
            assert "sRGB" in ImageCms.getProfileDescription(profile)
            assert im.getpixel((0, 0)) != (0, 0, 0)


@pytest.mark.slow
def test_every_shipped_and_example_game_builds_for_both(tmp_path, capsys):
    from companion import cards

    files = [str(p) for p in cards.shipped_files()] + [str(p) for p in sorted(EXAMPLES.glob("*.yaml"))]
    for service in ("drivethrucards", "thegamecrafter"):
        assert main(["build", *files, "--service", service, "--out", str(tmp_path / service), *BASE]) == 0
    out = capsys.readouterr()
    for card_set in map(cards.load_file, files):
        assert (tmp_path / "drivethrucards" / f"{card_set.game}-poker.pdf").is_file()
        assert any((tmp_path / "thegamecrafter").glob(f"{card_set.game}-poker-*-x*.png"))
    assert "prints cards only; not in its files: GM-T-GREEN (token)" in out.err


def test_a_size_the_service_does_not_print_is_named_and_nothing_is_written(game, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["build", str(game / "cometas.yaml"), "--service", "drivethrucards", "--card-size", "bridge",
                 "--out", str(out), *BASE]) == 2
    err = capsys.readouterr().err
    assert "DriveThruCards prints no bridge cards" in err and "--card-size" in err
    assert not out.exists() or not any(out.iterdir())
    assert main(["build", str(game / "cometas.yaml"), "--service", "kinkos", "--out", str(out), *BASE]) == 2
    assert "unknown print service 'kinkos'" in capsys.readouterr().err


def test_art_whose_colours_cannot_be_made_cmyk_is_named_and_nothing_is_written(game, tmp_path, capsys):
    folder = tmp_path / "g"
    shutil.copytree(game, folder)
    with Image.open(folder / "art" / "pepper.png") as im:  # a colour profile that is no profile at all
        im.save(folder / "art" / "pepper.png", icc_profile=b"not a colour profile" * 8)
    out = tmp_path / "out"
    assert main(["build", str(folder / "especias.yaml"), "--service", "drivethrucards", "--out", str(out),
                 *BASE]) == 2
    err = capsys.readouterr().err
    assert "art/pepper.png" in err and "cannot be made CMYK" in err
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_second_export_removes_the_files_it_no_longer_makes(game, tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(game, folder)
    out = tmp_path / "out"
    assert main(["build", str(folder / "cometas.yaml"), "--service", "thegamecrafter", "--out", str(out), *BASE]) == 0
    (out / "order-form.txt").write_text("mine", encoding="utf-8")
    data = folder / "cometas.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("id: KT-HELP\n    type: reference\n    qty: 2",
                                                             "id: KT-HELP\n    type: reference\n    qty: 3"),
                    encoding="utf-8")
    assert main(["build", str(data), "--service", "thegamecrafter", "--out", str(out), *BASE]) == 0
    assert (out / "cometas-poker-KT-HELP-x3.png").is_file() and not (out / "cometas-poker-KT-HELP-x2.png").exists()
    assert (out / "order-form.txt").read_text(encoding="utf-8") == "mine"
    record = json.loads((out / ".companion-thegamecrafter-cometas").read_text(encoding="utf-8"))
    assert "cometas-poker-KT-HELP-x3.png" in record["files"]


def test_without_a_cmyk_profile_the_build_says_what_to_install(game, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(cmyk.PROFILE_ENV, str(tmp_path / "missing.icc"))
    cmyk.profile_bytes.cache_clear()
    try:
        assert main(["build", str(game / "cometas.yaml"), "--service", "drivethrucards", "--out",
                     str(tmp_path / "out"), *BASE]) == 2
    finally:
        cmyk.profile_bytes.cache_clear()
    err = capsys.readouterr().err
    assert "cannot read the CMYK profile" in err and "Traceback" not in err and not (tmp_path / "out").exists()
