"""Proofs (`companion build FILE --only ID[,ID...]`): just the components named, each face with its back and each back
named, once each, a card a page; in `--watch`, a one-card proof is rebuilt within 0.3 s of the build starting."""
import shutil
import threading
import time
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium

from companion.cli import main
from companion.pnp.build import build
from companion.pnp.document import BuildSettings
from companion.pnp.watch import watch

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "example-game"
BASE = ["--base-url", "http://192.168.1.20:5000"]


def page_texts(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(path.read_bytes())
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def test_only_the_cards_named_each_face_and_back_once(tmp_path, capsys):
    assert main(["build", str(EXAMPLES / "especias.yaml"), "--only", "sp-saffron,SP-PEPPER,SP-BACK", "--out",
                 str(tmp_path), *BASE]) == 0
    assert "a proof of sp-saffron,SP-PEPPER,SP-BACK" in capsys.readouterr().out
    texts = page_texts(tmp_path / "especias.pdf")
    assert len(texts) == 3  # two faces, and their one back (named too, drawn once)
    assert "SP-SAFFRON" in texts[0] and "SP-PEPPER" in texts[1]
    assert not any(f"SP-{other}" in "".join(texts) for other in ("CINNAMON", "CUMIN", "CLOVE"))
    with pikepdf.open(tmp_path / "especias.pdf") as pdf:  # a card a page, its boxes the card
        for page in pdf.pages:
            assert [round(float(v) / 72 * 25.4, 1) for v in page.TrimBox] == [0, 0, 63.5, 88.9]


def test_a_back_alone_and_an_unknown_id(tmp_path, capsys):
    assert main(["build", str(EXAMPLES / "especias.yaml"), "--only", "SP-BACK", "--out", str(tmp_path), *BASE]) == 0
    assert len(page_texts(tmp_path / "especias.pdf")) == 1
    out = tmp_path / "new"
    assert main(["build", str(EXAMPLES / "especias.yaml"), "--only", "SP-SAFRON", "--out", str(out), *BASE]) == 2
    err = capsys.readouterr().err
    assert "no component SP-SAFRON in especias; did you mean SP-SAFFRON" in err and "Traceback" not in err
    assert not (out / "especias.pdf").exists()


def test_a_one_card_proof_is_built_within_a_third_of_a_second_once_warm(tmp_path):
    """What the watch does at each save: the file read again, checked and one card drawn (best of three saves)."""
    game = tmp_path / "game"
    shutil.copytree(EXAMPLES, game)
    data = game / "cosecha.yaml"
    settings = BuildSettings(base_url="http://192.168.1.20:5000")
    build([str(data)], tmp_path / "out", settings, only=["HV-APPLE-1"])  # the process's first build: fonts, art
    times = []
    for n in range(3):
        data.write_text(data.read_text(encoding="utf-8") + f"\n# save {n}\n", encoding="utf-8")
        start = time.perf_counter()
        build([str(data)], tmp_path / "out", settings, only=["HV-APPLE-1"])
        times.append(time.perf_counter() - start)
    print(f"one-card proof: {', '.join(f'{t * 1000:.0f} ms' for t in times)}")
    assert min(times) <= 0.3


def test_a_watch_with_only_rebuilds_the_proof(tmp_path, capsys):
    game = tmp_path / "game"
    shutil.copytree(EXAMPLES, game)
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=([str(game / "cosecha.yaml")], tmp_path / "out",
                                                  BuildSettings(qr="none")),
                              kwargs={"stop_event": stop, "only": ["HV-PEAR-5"]})
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / "out" / "cosecha.pdf").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()
    assert len(page_texts(tmp_path / "out" / "cosecha.pdf")) == 2
    assert "cosecha.pdf: 2 pages" in capsys.readouterr().out
