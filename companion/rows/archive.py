"""What the .xlsx and .ods readers share: the file opened as a zip archive within its bounds (no zip bomb), its
members read, XML elements counted before they are parsed, expat guarded as defusedxml guards it, numbers shown as
a spreadsheet program shows them."""
from __future__ import annotations

import io
import math
import zipfile

from .sheet import RowsError

UNPACKED_LIMIT = 64 * 2**20  # bytes an .xlsx's or .ods's members may unpack to, all together
# XML is parsed one element at a time (openpyxl: 6 µs a worksheet cell, 18 µs a shared string, 40 µs a style;
# expat and the handlers here: 4 µs), so the elements (counted as '<'s, at C speed) are bounded before any is parsed:
SHEET_TAGS = 1_000_000  # in the sheet read: an .xlsx's worksheet, an .ods's content.xml (~250,000 cells of text)


def open_archive(data: bytes, kind: str) -> zipfile.ZipFile:
    """The file as a zip archive, checked: RowsError if it is not one or would unpack to more than the limit."""
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise RowsError(0, f"is an old binary Office file (an Excel 97-2003 .xls, or a workbook with a password), "
                           f"not {kind}: save it again as {kind}, without a password")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as e:
        raise RowsError(0, f"is not {kind}: it is not a zip archive as {kind} files are ({e}); save it again from "
                           "the spreadsheet program in that format") from None
    unpacked = sum(member.file_size for member in members)
    if unpacked > UNPACKED_LIMIT:
        raise RowsError(0, f"would unpack to {unpacked / 2**20:,.0f} MiB, more than the {UNPACKED_LIMIT // 2**20} "
                           "MiB a card spreadsheet may (a zip bomb?); refused unread")
    return archive


def check_tags(count: int, most: int, what: str) -> None:
    """RowsError when `what` holds more XML elements than the largest card spreadsheet needs: parsed one by one,
    64 MiB of empty elements would take minutes (and openpyxl's styles, gigabytes)."""
    if count > most:
        raise RowsError(0, f"{what} holds more than {most:,} XML elements, more than a card spreadsheet needs; "
                           "save the cards' rows alone in a file of their own")


def reason(error: Exception) -> str:
    """A library's exception in a few words: its type and its message's first line."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:200]}" if text else type(error).__name__


def member(archive: zipfile.ZipFile, name: str) -> bytes | None:
    """One member's bytes (None if there is no such member); RowsError if it cannot be unpacked."""
    try:
        return archive.read(name)
    except KeyError:
        return None
    except Exception as e:  # noqa: BLE001 (a bad CRC, an unknown compression method, an encrypted member...)
        raise RowsError(0, f"cannot be unpacked ({name}: {reason(e)}); save it again") from None


def number_text(value: float) -> str:
    """A number as a spreadsheet program shows it (15 significant digits): 3.0 -> '3', 2.5 -> '2.5'."""
    if not math.isfinite(value):
        return repr(value)
    shown = float(f"{value:.15g}")
    if shown.is_integer() and abs(shown) < 1e16:
        return str(int(shown))
    return repr(shown)


def guard_expat(parser) -> None:
    """What defusedxml does for a parser: no entity declarations (no billion laughs), no external entities."""
    import pyexpat

    def forbidden(*args):
        raise RowsError(0, "declares XML entities, which a spreadsheet does not: refused")

    parser.EntityDeclHandler = parser.UnparsedEntityDeclHandler = forbidden
    parser.SetParamEntityParsing(pyexpat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True
    parser.buffer_size = 65536
