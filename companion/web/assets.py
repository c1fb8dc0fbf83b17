"""The stylesheet and scripts as phones get them: without the comments written for the people who read the code.

They are most of what a scoring page loads (issue 13 keeps a page with everything it loads under 60 KB), and their
comments are a fifth of them. Only what is safe without a parser is dropped: CSS comments, whole-line `//`
comments of a script and those after a statement (`;  // ...`; the scripts have no template string spanning lines,
which a test checks, nor such a sequence in a string), the
indentation at the start of a line, and in a stylesheet the spaces and line breaks around its punctuation outside
its strings. The files on disk stay as written; the static site freezes these same answers.
"""
from __future__ import annotations

import io
import re
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


@lru_cache(maxsize=32)
def _compacted(path: str, _mtime: float) -> bytes:
    return compact(path, Path(path).read_text(encoding="utf-8")).encode("utf-8")


def init_app(app) -> None:
    """The static files' view serves stylesheets and scripts compacted, with the same caching headers."""
    from flask import send_file, send_from_directory
    from werkzeug.security import safe_join

    folder = app.static_folder

    def static(filename: str):
        path = safe_join(folder, filename)
        if path is None or not filename.endswith((".css", ".js")) or not Path(path).is_file():
            return send_from_directory(folder, filename, max_age=app.get_send_file_max_age(filename))
        stat = Path(path).stat()
        return send_file(io.BytesIO(_compacted(path, stat.st_mtime)), download_name=Path(path).name,
                         last_modified=stat.st_mtime, etag=f"{stat.st_mtime_ns:x}-{stat.st_size:x}",
                         max_age=app.get_send_file_max_age(filename), conditional=True)

    app.view_functions["static"] = static
