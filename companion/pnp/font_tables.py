"""A designer's font file looked over before reportlab reads it. reportlab's reader expands a character map's ranges
one code point at a time into dictionaries (a 66 KB file whose one format-12 group spans U+0000 to U+FFFFFFFF took
2.5 GB and a MemoryError in `validate`), so the file's table directory is read first with fontTools, lazily, and the
ranges of each character-map subtable are counted from their bytes, never expanded. `problem` is asked by
`layout.register_font`, the one place a game's font is opened (validate, build, the phone's pages, the site)."""
from __future__ import annotations

import struct

MAX_CODE_POINTS = 0x110000  # one character map covers at most Unicode's U+0000 to U+10FFFF
MAX_TABLES = 100  # tables in a font (Noto Serif has 19; a colour or variable font some 30)
MAX_SUBTABLES = 32  # subtables of a character map (real fonts have 1 to 5)
SFNT = {b"\x00\x01\x00\x00": "TrueType", b"true": "TrueType", b"OTTO": "OpenType", b"ttcf": "TrueType collection"}
WEB_FONTS = {b"wOFF": "WOFF", b"wOF2": "WOFF2"}


def problem(path: str) -> str | None:
    """Why reportlab must not read this font file (a sentence to follow its name), or None."""
    from fontTools.ttLib import TTFont  # only where a game has fonts of its own

    with open(path, "rb") as f:
        magic = f.read(4)
    if magic in WEB_FONTS:
        return f"is a {WEB_FONTS[magic]} web font; give the TrueType (.ttf) file it was made from"
    if magic not in SFNT:
        return "is not a TrueType or OpenType font (it does not start as one)"
    try:
        font = TTFont(path, lazy=True, fontNumber=0)
        try:
            tables = len(font.reader.tables)
            if tables > MAX_TABLES:
                return f"has {tables} tables; a font has at most {MAX_TABLES}"
            if "cmap" not in font.reader:
                return "has no character map (cmap table)"
            data = font.reader["cmap"]
        finally:
            font.close()
    except Exception as e:  # a damaged file fails anywhere in fontTools' reader
        return f"is not a TrueType or OpenType font that can be read ({type(e).__name__}: {e})"
    try:
        return cmap_problem(data)
    except struct.error as e:
        return f"has a character map (cmap table) that cannot be read ({e})"


def cmap_problem(data: bytes) -> str | None:
    """What is wrong with a character map (the raw `cmap` table) for reportlab: a subtable covering more code points
    than Unicode has, or beyond U+10FFFF, a header reportlab reads otherwise than fontTools; None when it is sane.
    Every subtable is counted, whichever one reportlab picks."""
    version, count = struct.unpack_from(">HH", data)
    if version != 0 or not 0 < count <= MAX_SUBTABLES:
        return f"has a character map (cmap) of version {version} with {count} subtables; a font's has version 0 " \
               f"and 1 to {MAX_SUBTABLES}"
    for offset in sorted({struct.unpack_from(">HHI", data, 4 + 8 * i)[2] for i in range(count)}):
        fmt = struct.unpack_from(">H", data, offset)[0]
        covered, last = _coverage(data, offset, fmt)
        if covered > MAX_CODE_POINTS or last > MAX_CODE_POINTS - 1:
            return (f"has a character map (cmap format {fmt}) covering {covered:,} code points up to U+{last:04X}; "
                    f"a font maps at most {MAX_CODE_POINTS:,}, from U+0000 to U+10FFFF")
    return None


def _coverage(data: bytes, at: int, fmt: int) -> tuple[int, int]:
    """(how many code points, the highest) one subtable maps, as reportlab's reader walks it (formats 2, 4, 10, 12,
    13 loop over ranges; 0 and 6 hold at most 65,536 entries; the rest reportlab refuses)."""
    if fmt == 4:
        segments = struct.unpack_from(">H", data, at + 6)[0] // 2
        ends = struct.unpack_from(f">{segments}H", data, at + 14)
        starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
        spans = [(s, e) for s, e in zip(starts, ends, strict=True) if e >= s]
        return sum(e - s + 1 for s, e in spans), max((e for _, e in spans), default=0)
    if fmt in (12, 13):
        groups = struct.unpack_from(">I", data, at + 12)[0]
        if at + 16 + 12 * groups > len(data):
            raise struct.error(f"cmap format {fmt} claims {groups:,} groups, more than its table holds")
        spans = [(s, e) for s, e, _ in struct.iter_unpack(">III", data[at + 16:at + 16 + 12 * groups]) if e >= s]
        return sum(e - s + 1 for s, e in spans), max((e for _, e in spans), default=0)
    if fmt == 10:
        return struct.unpack_from(">I", data, at + 16)[0], 0  # its count (reportlab reads one 16-bit code each)
    if fmt == 2:  # reportlab takes each high byte's key as the index of its subheader (8 bytes each, after the keys)
        keys = struct.unpack_from(">256H", data, at + 6)
        sizes = {k: struct.unpack_from(">H", data, at + 6 + 512 + 8 * k + 2)[0] for k in set(keys) if k}
        return sum(sizes[k] if k else 1 for k in keys), 0xFFFF
    return 0, 0
