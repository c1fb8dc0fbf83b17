"""What an answer of the app carries, as a browser reads it: its body whether or not it came gzipped."""
from __future__ import annotations

import gzip


def body(response) -> bytes:
    """A test client's answer's body as the browser reads it (gunzipped where it came compressed)."""
    data = response.get_data()
    return gzip.decompress(data) if response.headers.get("Content-Encoding") == "gzip" else data
