"""A real `companion serve`: the QR codes that `companion build --base-url` prints open pages naming their cards."""
import subprocess
import sys
import urllib.request

import pypdfium2 as pdfium
import pytest
import zxingcpp

from companion.cli import main


@pytest.mark.slow
def test_printed_qr_codes_open_their_card_pages_on_a_running_server(server, tmp_path):
    base, port, proc = server
    assert main(["build", "duquesa", "queens-necklace", "--out", str(tmp_path), "--base-url", base]) == 0
    opened = 0
    for game in ("duquesa", "queens-necklace"):
        pdf = pdfium.PdfDocument(str(tmp_path / f"{game}.pdf"))
        for page in (pdf[2], pdf[4]):  # two pages of fronts
            for code in zxingcpp.read_barcodes(page.render(scale=200 / 72).to_pil()):
                with urllib.request.urlopen(code.text, timeout=15) as response:
                    body = response.read().decode()
                card_id = code.text.rsplit("/", 1)[1]
                assert response.status == 200 and card_id in body, code.text
                opened += 1
    assert opened >= 20


def test_serve_prints_its_address_and_binds_loopback_by_default(server):
    base, port, proc = server
    with urllib.request.urlopen(f"{base}/rules/gemas", timeout=5) as response:
        assert response.status == 200


def test_a_busy_port_is_a_clear_error(server):
    base, port, proc = server
    result = subprocess.run([sys.executable, "-m", "companion.cli", "serve", "--port", str(port)],
                            capture_output=True, text=True, timeout=20)
    assert result.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr
