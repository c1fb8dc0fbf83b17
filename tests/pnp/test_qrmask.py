"""The faster mask choice (companion/pnp/qrmask.py) prints qrcode's own code: the same modules for codes of every
error correction level and of versions 1 to 40, with the data laid out twice instead of nine times."""
import random
import string

import pytest
import qrcode

from companion.pnp import qrmask

random.seed(39)
ADDRESSES = [f"HTTP://192.168.1.20:5000/C/{''.join(random.choices(string.ascii_uppercase + string.digits, k=n))}"
             for n in range(1, 41, 3)]
TEXTS = ADDRESSES + ["".join(random.choices(string.printable, k=n)) for n in (1, 7, 60, 300, 1200)]


def reference(text: str, version: int, level: int):
    code = qrcode.QRCode(version=version, error_correction=level, border=0)
    code.add_data(text)
    code.make(fit=False)
    return code.modules


@pytest.mark.parametrize("level", [1, *(pytest.param(v, marks=pytest.mark.slow) for v in (0, 2, 3))])  # 0, 2, 3: 2–13 s
def test_the_same_modules_as_qrcode(level):
    for text in TEXTS:
        code = qrcode.QRCode(error_correction=level, border=0)
        code.add_data(text)
        try:
            lowest = code.best_fit()
        except qrcode.exceptions.DataOverflowError:
            continue
        for version in {lowest, min(40, lowest + 1), min(40, lowest + 7)}:
            assert qrmask.make(text, version, level) == reference(text, version, level), (text, version, level)


def test_the_data_is_laid_out_twice(monkeypatch):
    laid = []
    original = qrcode.QRCode.map_data
    monkeypatch.setattr(qrcode.QRCode, "map_data", lambda self, *a: (laid.append(1), original(self, *a))[1])
    qrmask.make(ADDRESSES[3], 3, qrcode.constants.ERROR_CORRECT_Q)
    assert len(laid) == 2
    laid.clear()
    reference(ADDRESSES[3], 3, qrcode.constants.ERROR_CORRECT_Q)
    assert len(laid) == 9
