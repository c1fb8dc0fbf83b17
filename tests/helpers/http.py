"""What an answer of the app carries, as a browser reads it: its body whether or not it came gzipped."""
from __future__ import annotations

import gzip
import re


def body(response) -> bytes:
    """A test client's answer's body as the browser reads it (gunzipped where it came compressed)."""
    data = response.get_data()
    return gzip.decompress(data) if response.headers.get("Content-Encoding") == "gzip" else data


BUDGET = 60 * 1024  # bytes for the heaviest scoring page and everything it loads (issue 13)


PHONE_ACCEPTS = {"Accept-Encoding": "gzip, deflate, br"}  # what every phone's browser says it accepts


def assets(page: str) -> list[str]:
    """What the page loads (a link to the page in another language is not loaded)."""
    return re.findall(r'<(?:link(?![^>]*rel="alternate")|script)[^>]+(?:href|src)="(/[^"]+)"', page)

