"""Fitting a marked-up text in a box: words wrapped in their styles, inline icons as squares a line high, the size
stepped down until it fits (never below the element's smallest size). Pure arithmetic on reportlab's font widths:
no canvas, so `validate` asks the same question the build does."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

from ..layouts import Run

ICON_EM = 1.0  # an inline icon's side, in ems
STEP = 0.25  # points: how finely a text shrinks


@dataclass(frozen=True)
class Piece:
    """One placed piece of a line: a word (with the space before it) or an icon, at x points from the line's start."""

    x: float
    width: float
    run: Run
    font: str


@dataclass(frozen=True)
class Laid:
    size: float
    leading: float
    lines: tuple[tuple[Piece, ...], ...]
    widths: tuple[float, ...]
    fits: bool

    @property
    def height(self) -> float:
        """The height of its lines in points: one leading a line."""
        return self.leading * len(self.lines)


FontOf = Callable[[bool, bool], str]  # (bold, italic) → a registered reportlab font name


def _words(line: Sequence[Run]) -> list[list[Run]]:
    """A line's runs split into words (a word may span runs in different styles: `**3**x`); icons are words."""
    words: list[list[Run]] = [[]]
    for run in line:
        if run.icon is not None:
            words[-1].append(run)
            continue
        parts = run.text.split(" ")
        for i, part in enumerate(parts):
            if i:
                words.append([])
            if part:
                words[-1].append(Run(part, run.bold, run.italic))
    return [w for w in words if w]


LIST_ITEM = re.compile(r"(?:- |• |\d{1,2}[.)] )")  # a line starting so is a list item: "- " prints as a bullet


def _list_item(line: Sequence[Run]) -> tuple[Sequence[Run], bool]:
    """A line that starts a list item ("- ", "• ", "1. ", "2) "), its dash as a bullet; whether it is one."""
    plain = "".join(r.text if r.icon is None else "\0" for r in line)
    if not LIST_ITEM.match(plain):
        return line, False
    if plain.startswith("- "):
        first = line[0]
        line = [Run("•" + first.text[1:], first.bold, first.italic), *line[1:]]
    return line, True


def lay_out(lines: Sequence[Sequence[Run]], font_of: FontOf, size: float, width: float,
            leading: float = 1.2) -> tuple[list[list[Piece]], list[float], bool]:
    """Lines of placed pieces at `size`, wrapped at `width` points; False when a single word is wider. A list
    item's lines after its first start under its words, not under its bullet or number (a hanging indent)."""
    out: list[list[Piece]] = []
    widths: list[float] = []
    fits = True
    for line in lines:
        line, item = _list_item(line)
        current: list[Piece] = []
        x = indent = 0.0
        for k, word in enumerate(_words(line)):
            pieces, w = [], 0.0
            for run in word:
                font = font_of(run.bold, run.italic)
                rw = size * ICON_EM if run.icon is not None else stringWidth(run.text, font, size)
                pieces.append((run, font, w, rw))
                w += rw
            space = stringWidth(" ", font_of(word[0].bold, word[0].italic), size) if current else 0.0
            if current and x + space + w > width + 1e-6:
                out.append(current)
                widths.append(x)
                current, x, space = [], indent, 0.0
            if x + space + w > width + 1e-6:
                fits = False
            current += [Piece(x + space + dx, rw, run, font) for run, font, dx, rw in pieces]
            x += space + w
            if item and k == 0:  # the bullet or number: what follows wraps under the words after it
                indent = x + stringWidth(" ", font_of(word[-1].bold, word[-1].italic), size)
        out.append(current)
        widths.append(x)
    return out, widths, fits


_STYLES = ((False, False), (True, False), (False, True), (True, True))


def fit(lines: Sequence[Sequence[Run]], font_of: FontOf, size: float, min_size: float, width: float,
        height: float, leading: float = 1.2) -> Laid:
    """The largest size from `size` down to `min_size` (in STEP points) at which the text fits the box; at
    `min_size` with fits=False when even that does not. Fitted once per text, fonts, sizes and box in a process
    (while _FITTED holds it): validate's check, the build and each build of the watch loop ask the same."""
    names = tuple(font_of(b, i) for b, i in _STYLES)
    fonts = tuple(map(getFont, names))  # a font file registered again (a designer's edit) is another font
    key = (tuple(map(tuple, lines)), names, fonts, size, min_size, width, height, leading)
    found = _FITTED.get(key)
    if found is None:
        found = _fit(lines, font_of, size, min_size, width, height, leading)
        if len(_FITTED) >= FITTED_MAX:
            _FITTED.pop(next(iter(_FITTED)))  # the oldest
        _FITTED[key] = found
    return found


FITTED_MAX = 8192
_FITTED: dict = {}


def _fit(lines: Sequence[Sequence[Run]], font_of: FontOf, size: float, min_size: float, width: float,
         height: float, leading: float) -> Laid:
    s = size
    while True:
        laid, widths, ok = lay_out(lines, font_of, s, width, leading)
        if ok and s * leading * len(laid) <= height + 1e-6:
            return Laid(s, s * leading, tuple(map(tuple, laid)), tuple(widths), True)
        if s - STEP < min_size - 1e-9:
            return Laid(s, s * leading, tuple(map(tuple, laid)), tuple(widths), False)
        s -= STEP
