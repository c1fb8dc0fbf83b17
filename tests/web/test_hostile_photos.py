"""Hostile photos (issue 37): a JPEG whose decoding would take a CPU for minutes, a large RGBA picture's memory, and
requests that are not a photo's form; each refused (or read) within a bound, with what is wrong said."""
import functools
import io
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from PIL import Image

from companion import photo
from table import small_photo

HAND = ("DQ03", "DQ07", "DQ11", "DQ15", "DQ22")


def scan(client, data: bytes, lang="en"):
    form = {"photo": (io.BytesIO(data), "table.jpg", "image/jpeg")}
    return client.post("/api/v1/duquesa/scan", data=form, content_type="multipart/form-data",
                       headers={"Accept-Language": lang})


def jpeg_segments(data: bytes) -> list[tuple[int, int, int]]:
    """(start, end, marker) of each segment of a JPEG made by Pillow, a scan with its data."""
    out, at = [], 2
    while data[at + 1] != 0xD9:
        end = at + 2 + int.from_bytes(data[at + 2:at + 4])
        if data[at + 1] == 0xDA:  # the scan's data runs to the next marker (not a stuffed FF 00)
            while not (data[end] == 0xFF and data[end + 1] != 0):
                end += 1
        out.append((at, end, data[at + 1]))
        at = end
    return out


def progressive(size: tuple[int, int], mode: str = "L") -> bytes:
    """A flat picture saved as a progressive JPEG (6 scans in grey, 10 in colour)."""
    out = io.BytesIO()
    Image.new(mode, size, 128 if mode == "L" else (120, 130, 140)).save(out, "JPEG", progressive=True)
    return out.getvalue()


def repeated_scan(data: bytes, times: int) -> bytes:
    """The JPEG with its smallest scan (26 bytes: a refinement over every block of the picture) added `times` more
    times before its end: libjpeg decodes each again, walking every block."""
    start, end, _ = min((s for s in jpeg_segments(data) if s[2] == 0xDA), key=lambda s: s[1] - s[0])
    return data[:-2] + data[start:end] * times + b"\xff\xd9"


@functools.cache
def minutes_jpeg() -> bytes:
    """12 MP in grey and 12,000 scans in 420 KB: 25 s of a CPU to decode before scans were counted."""
    return repeated_scan(progressive((4000, 3000)), 12_000)


def test_a_jpeg_of_thousands_of_scans_is_refused_before_it_is_decoded(client):
    began = time.perf_counter()
    r = scan(client, minutes_jpeg())
    assert time.perf_counter() - began < 5
    assert r.status_code == 400 and r.json["field"] == "photo"
    assert r.json["error"] == ("photo: is a JPEG of more than 40 scans (a camera's has at most 20): save it again "
                               "as an ordinary JPEG")
    assert r.json["message"].startswith("Photo: is a JPEG of more than 40 scans")
    assert scan(client, minutes_jpeg(), lang="es").json["message"].startswith("Foto: ")


def test_scans_are_counted_as_libjpeg_reads_them():
    """40 scans are read; 41 are refused, and so are fill bytes before a marker or scans after an APP segment that
    holds a marker's bytes (skipped by its length, as libjpeg skips it)."""
    grey = progressive((64, 48))
    assert photo.open_photo(repeated_scan(grey, photo.MAX_SCANS - 6)).size == (64, 48)
    with pytest.raises(photo.InputError, match="more than 40 scans"):
        photo.open_photo(repeated_scan(grey, photo.MAX_SCANS - 5))
    filled = repeated_scan(grey, photo.MAX_SCANS).replace(b"\xff\xda", b"\xff\xff\xff\xda")
    with pytest.raises(photo.InputError, match="more than 40 scans"):
        photo.open_photo(filled)
    fake = b"\xff\xda" * 100  # inside an APP segment: not scans
    app = grey[:2] + b"\xff\xe5" + (len(fake) + 2).to_bytes(2) + fake + grey[2:]
    assert photo.open_photo(app).size == (64, 48)


def test_a_jpeg_of_a_million_segments_is_refused_before_pillow_walks_them(client):
    """Pillow reads the segments before the first scan in Python (2 s a million): more than 1000 are refused."""
    grey = progressive((64, 48))
    data = grey[:2] + b"\xff\xfe\x00\x02" * 1_000_000 + grey[2:]
    assert refused_at_once(client, data) == ("photo: is a JPEG of more than 1000 segments (a camera's has a few "
                                             "dozen): save it again as an ordinary JPEG")


def refused_at_once(client, data: bytes) -> str:
    """The error a scan of `data` answers with, within a second (before the picture is decoded)."""
    began = time.perf_counter()
    r = scan(client, data)
    assert time.perf_counter() - began < 1
    assert r.status_code == 400
    return r.json["error"]


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_png_of_a_million_chunks_is_refused_before_pillow_walks_them(client):
    """Pillow walks a PNG's chunks in Python (5 s for the 1.5 million empty ones 17 MiB hold): more than 20,000 are
    refused; one saved by an encoder (IDAT in 64 KiB chunks) is read."""
    data = png((64, 48))
    sneaky = data[:33] + b"\0\0\0\0zzZz\0\0\0\0" * 1_500_000 + data[33:]  # after IHDR: empty unknown chunks
    assert refused_at_once(client, sneaky) == ("photo: is a PNG of more than 20000 chunks (an ordinary one has a "
                                               "few thousand at most): save it again as an ordinary PNG or a JPEG")
    assert scan(client, sneaky, lang="es").json["message"].startswith("Foto: es un PNG de más de 20000 bloques")
    out = io.BytesIO()
    Image.open(io.BytesIO(small_photo("duquesa", HAND)[0])).save(out, "PNG")
    r = scan(client, out.getvalue())
    assert r.status_code == 200 and sorted(c["id"] for c in r.json["cards"]) == sorted(HAND)


def test_a_cameras_progressive_and_baseline_photos_are_read(client):
    data = small_photo("duquesa", HAND)[0]
    for options in ({"progressive": True}, {"progressive": True, "subsampling": 0}, {}):
        out = io.BytesIO()
        Image.open(io.BytesIO(data)).save(out, "JPEG", quality=90, **options)
        r = scan(client, out.getvalue())
        assert r.status_code == 200 and sorted(c["id"] for c in r.json["cards"]) == sorted(HAND)


def png(size: tuple[int, int], mode: str = "RGBA") -> bytes:
    """A PNG of `size` (every row alike, 2.5 MB at 50 MP), written a row at a time: no picture held in memory."""
    channels, kind = {"RGBA": (4, 6), "RGB": (3, 2)}[mode]
    width, height = size

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    squeeze = zlib.compressobj(1)
    row = b"\0" + (bytes(range(256)) * (width * channels // 256 + 1))[:width * channels]
    body = b"".join(squeeze.compress(row) for _ in range(height)) + squeeze.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, kind, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


PEAK = """
import re, sys
from companion import photo

def kib(field):
    return int(re.search(field + r":\\s+(\\d+) kB", open("/proc/self/status").read())[1])

data = open(sys.argv[1], "rb").read()
open("/proc/self/clear_refs", "w").write("5")  # the high-water mark brought down to what is held now
before = kib("VmRSS")
found = photo.find_codes(data)
print(found.size, (kib("VmHWM") - before) // 1024)
"""


def peak_mib(data: bytes, folder) -> tuple[str, int]:
    """The size find_codes says and the MiB its reading took: a fresh process's high-water mark (Linux's VmHWM:
    ru_maxrss starts at the parent's) above what it held with the photo's bytes read. Pillow's pixels are not
    Python's, so tracemalloc does not see them."""
    if not Path("/proc/self/clear_refs").exists():
        pytest.skip("needs Linux's /proc")
    path = folder / "photo"
    path.write_bytes(data)
    out = subprocess.run([sys.executable, "-c", PEAK, str(path)], capture_output=True, text=True, check=True)
    size, mib = out.stdout.rsplit(" ", 1)
    return size, int(mib)


@pytest.mark.slow  # about 1–4 s on a quiet machine: the fast lane keeps under 90 s (make test runs it)
def test_a_50_megapixel_rgba_picture_is_read_in_a_bounded_memory(tmp_path):
    """Decoded whole (200 MB; Pillow keeps RGB in 4 bytes a pixel too), made grey (50 MB) and let go: 239 MiB at
    its peak, not 382 (exif_transpose's copy of the colour picture, and the grey one beside both)."""
    size, mib = peak_mib(png((8160, 6120)), tmp_path)
    assert size == "(8160, 6120)" and mib < 290, mib


def test_a_jpeg_is_decoded_in_grey_at_once(tmp_path):
    """Its Y plane alone (at half its size when it is searched smaller): a 12 MP photo in 48-59 MiB, not 93."""
    out = io.BytesIO()
    Image.new("RGB", (4000, 3000), (120, 130, 140)).save(out, "JPEG", quality=90)
    size, mib = peak_mib(out.getvalue(), tmp_path)
    assert size == "(4000, 3000)" and mib < 75, mib


def multipart(parts: list[tuple[str, bytes, str | None]]) -> tuple[bytes, str]:
    """A multipart body of (name, value, file name or None for a text field) parts, and its content type."""
    lines = []
    for name, value, filename in parts:
        named = f'name="{name}"' + (f'; filename="{filename}"' if filename is not None else "")
        lines.append(b"--BOUNDARY\r\nContent-Disposition: form-data; " + named.encode() + b"\r\n\r\n" + value + b"\r\n")
    return b"".join(lines) + b"--BOUNDARY--\r\n", "multipart/form-data; boundary=BOUNDARY"


def small() -> bytes:
    return progressive((64, 48))


@pytest.mark.parametrize("parts, error", [
    ([("f", b"x", None)] * 50_000 + [("photo", small(), "t.jpg")],
     "photo: came in a request of more than 1000 parts (fields and files)"),
    ([("note", b"x" * (19 * 1024 * 1024), None), ("photo", small(), "t.jpg")],
     "photo: came with a text field larger than 256 KiB: send the photo as a file"),
    ([("photo", small(), None)],
     "photo: came as text, not as a file: send it as a file (multipart/form-data with a file name)"),
    ([("note", b"x", None)], "photo: is missing: choose a photo of the cards"),
])
def test_a_request_that_is_not_a_photos_form_is_told_what_it_is(client, parts, error):
    body, kind = multipart(parts)
    began = time.perf_counter()
    r = client.post("/api/v1/duquesa/scan", data=body, content_type=kind, headers={"Accept-Language": "en"})
    assert time.perf_counter() - began < 5
    assert r.status_code == 400 and r.json["error"] == error and r.json["field"] == "photo"
    assert r.json["message"] == "Photo: " + error.removeprefix("photo: ")


def test_the_scoring_page_says_so_too_and_keeps_what_it_can(client):
    body, kind = multipart([("_to", b"players.0.hand:list", None), ("players.0.hand:list", b"DQ03", None),
                            ("_photo", small(), None)])
    r = client.post("/score/duquesa/photo?lang=en", data=body, content_type=kind)
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and "came as text, not as a file" in page and 'value="DQ03" checked' in page
    body, kind = multipart([("f", b"x", None)] * 2000 + [("_photo", small(), "t.jpg")])
    r = client.post("/score/duquesa/photo?lang=en", data=body, content_type=kind)
    assert r.status_code == 400 and "more than 1000 parts" in r.get_data(as_text=True)


def test_a_body_that_is_not_multipart_is_not_parsed(client):
    """20 MiB of empty urlencoded fields (ten million) took 24 s and 900 MB to parse: no photo can be in it."""
    body = b"a&" * (10 * 1024 * 1024)
    for path in ("/api/v1/duquesa/scan", "/score/duquesa/photo"):
        began = time.perf_counter()
        r = client.post(f"{path}?lang=en", data=body, content_type="application/x-www-form-urlencoded",
                        headers={"Accept-Language": "en"})
        assert time.perf_counter() - began < 2
        assert r.status_code == 400 and "Photo: is missing: choose a photo of the cards" in r.get_data(as_text=True)
