"""The stylesheet and scripts as phones get them: without the comments written for the people who read the code.

They are most of what a scoring page loads (issue 13 keeps a page with everything it loads under 60 KB), and their
comments are a fifth of them. Only what is safe without a parser is dropped: CSS comments, whole-line `//`
comments of a script and those after a statement (`;  // ...`; the scripts have no template string spanning lines,
which a test checks, nor such a sequence in a string), the
indentation at the start of a line, and in a stylesheet the spaces and line breaks around its punctuation outside
its strings. The files on disk stay as written; the static site freezes these same answers.

How they are sent (the static files and each game's icon stylesheet, `SENT_HERE`): gzip-compressed to a client that
accepts it (compressed once per version of a file and kept in memory, with an ETag of its own), and kept a year by
browsers (`immutable`) when asked for at an address carrying the file's version (`?v=`, a hash of what is sent), which
every page's `url_for` adds: a changed file gets a new address. Asked for without it, or with an old one, a file is
kept an hour. HTML pages are never compressed here: they carry a CSRF token and echo what a form sent, and the
length of a compressed page would let an attacker who can add text to a request guess the secret beside it a byte at
a time (BREACH).
"""
from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
LINE_COMMENT = re.compile(r"^[ \t]*//[^\n]*\n", re.M)
# a comment after a statement on its line: `//` and a space, after spaces that follow the end of a statement or
# block (`;`, `{`, `}`, `,`, `)`), to the end of the line; `http://` or a `//` inside a string has neither around it
TRAILING_COMMENT = re.compile(r"(?<=[;{},)])[ \t]+// [^\n]*$", re.M)
INDENT = re.compile(r"^[ \t]+", re.M)
BLANK = re.compile(r"\n{2,}")
CSS_STRING = re.compile(r"(\"[^\"\n]*\"|'[^'\n]*')")
CSS_AROUND = re.compile(r"\s*([{};,>])\s*")  # no space is needed around these outside a string
CSS_AFTER_COLON = re.compile(r":\s+")  # a declaration's "color: red" (a selector never has a space after ':')


def _tight_css(text: str) -> str:
    """A stylesheet without the spaces and line breaks around its punctuation; strings kept as written."""
    parts = CSS_STRING.split(text)
    for i in range(0, len(parts), 2):  # (the odd parts are the strings)
        parts[i] = CSS_AFTER_COLON.sub(":", CSS_AROUND.sub(r"\1", parts[i]))
    return "".join(parts)


def compact(name: str, text: str) -> str:
    """A stylesheet or script without its comments and indentation; any other file as it is."""
    if name.endswith(".css"):
        return _tight_css(CSS_COMMENT.sub("", text)).strip()
    elif name.endswith(".js"):
        text = TRAILING_COMMENT.sub("", LINE_COMMENT.sub("", text))
    else:
        return text
    return BLANK.sub("\n", INDENT.sub("", text)).lstrip("\n")


SENT_HERE = {"static", "pages.icon_styles"}  # the endpoints whose answers are compressed and versioned here
# what the other endpoints of SENT_HERE send for an address's values (None: nothing), told by the modules serving them
SENDS: dict[str, Callable[[dict], str | None]] = {}
VERSION = "v"  # the query key of a file's version in its address
LONG = 365 * 24 * 3600  # a versioned address never changes what it sends: kept a year
SHORT = 3600  # an address without its version (or with an old one) may send something else tomorrow
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/manifest+json", "image/svg+xml")
SMALLEST = 512  # bytes: below this gzip's own header and the Vary bookkeeping cost more than they save
_GZIPPED: OrderedDict[str, bytes] = OrderedDict()  # digest of a body -> that body compressed (newest last)
_GZIPPED_KEPT = 64


@lru_cache(maxsize=64)
def _static_body(path: str, _mtime_ns: int, _size: int) -> tuple[bytes, str]:
    """A static file as sent (stylesheets and scripts compacted) and its digest; read again when the file changes."""
    if path.endswith((".css", ".js")):
        body = compact(path, Path(path).read_text(encoding="utf-8")).encode("utf-8")
    else:
        body = Path(path).read_bytes()
    return body, digest(body)


def digest(body: bytes) -> str:
    """What a version and an ETag are made of: a hash of the bytes sent (uncompressed)."""
    return hashlib.sha256(body).hexdigest()[:16]


def version(tag: str) -> str:
    """The version an address carries for bytes of this digest."""
    return tag[:10]


def gzipped(body: bytes, key: str) -> bytes:
    """`body` compressed, once per version (`key`): the same bytes every time (no time stamp in the header)."""
    packed = _GZIPPED.get(key)
    if packed is None:
        packed = _GZIPPED[key] = gzip.compress(body, compresslevel=9, mtime=0)
        while len(_GZIPPED) > _GZIPPED_KEPT:
            _GZIPPED.popitem(last=False)
    else:
        _GZIPPED.move_to_end(key)
    return packed


def _static_file(folder: str, filename: str) -> tuple[bytes, str] | None:
    from werkzeug.security import safe_join

    path = safe_join(folder, filename)
    if path is None or not Path(path).is_file():
        return None
    stat = Path(path).stat()
    return _static_body(path, stat.st_mtime_ns, stat.st_size)


def as_sent(path: Path) -> str:
    """A stylesheet or script on disk as it is sent (compacted), read again when the file changes."""
    stat = path.stat()
    return _static_body(str(path), stat.st_mtime_ns, stat.st_size)[0].decode("utf-8")


def sent(response, request):
    """An answer of SENT_HERE as it leaves: cached a year at its versioned address, else an hour (an answer that must
    be checked at each use, a designer's live look, stays so); compressed when the client accepts gzip; a 304 when
    the client's copy is the same."""
    if response.status_code != 200 or response.direct_passthrough:
        return response
    body = response.get_data()
    tag = digest(body)
    cache = response.cache_control
    if not cache.no_cache:
        if request.args.get(VERSION) == version(tag):
            cache.public, cache.max_age, cache.immutable = True, LONG, True
        else:
            cache.max_age = min(cache.max_age or SHORT, SHORT)
    if response.mimetype.startswith(COMPRESSIBLE):
        response.vary.add("Accept-Encoding")  # a shared cache keeps one copy per encoding
        if len(body) >= SMALLEST and request.accept_encodings["gzip"] > 0:
            response.set_data(gzipped(body, tag))  # (sets Content-Length to the compressed size)
            response.headers["Content-Encoding"] = "gzip"
            tag += "-gz"  # another representation: another ETag, so no cache mixes the two
    response.set_etag(tag)
    return response.make_conditional(request)


def init_app(app) -> None:
    """The static files' view serves stylesheets and scripts compacted; the answers of SENT_HERE go out through
    `sent`; and `url_for` gives their addresses with the version of what they send (not on a static site, whose
    host serves a file by its path and decides its caching)."""
    from flask import Response, abort, request

    def static(filename: str):
        found = _static_file(app.static_folder, filename)
        if found is None:
            abort(404)
        return Response(found[0], mimetype=mimetypes.guess_type(filename)[0] or "application/octet-stream")

    app.view_functions["static"] = static

    @app.after_request
    def send(response):
        return sent(response, request) if request.endpoint in SENT_HERE else response

    @app.url_defaults
    def versioned(endpoint: str, values: dict) -> None:
        if endpoint not in SENT_HERE or VERSION in values or app.config.get("STATIC_SITE"):
            return
        if endpoint == "static":
            found = _static_file(app.static_folder, values.get("filename", ""))
            tag = found[1] if found else None
        else:
            text = SENDS[endpoint](values) if endpoint in SENDS else None
            tag = digest(text.encode("utf-8")) if text is not None else None
        if tag is not None:
            values[VERSION] = version(tag)
