"""A QR code's mask chosen as qrcode chooses it, about three times faster: qrcode lays out and scores the whole code
once per mask (eight times, module by module in Python); here the data is laid out once, each mask is an XOR of
whole rows held as integers, and the penalty rules of ISO 18004 (as qrcode's util.lost_point counts them) are
counted with a few operations on whole integers. The code a build prints is qrcode's own, made at that mask."""
from __future__ import annotations

from functools import lru_cache

import qrcode
from qrcode import util


class _Layout(qrcode.QRCode):
    """A QR code that remembers which modules hold data (those map_data fills), the rest being its patterns."""

    def map_data(self, data, mask_pattern):
        self.free = [[m is None for m in row] for row in self.modules]
        super().map_data(data, mask_pattern)


def make(text: str, version: int, level: int) -> list[list[bool]]:
    """The matrix of `text` at `version` and error correction `level` (no border), at the mask qrcode's
    best_mask_pattern would choose: the same modules as qrcode.QRCode(...).make(fit=False)."""
    probe = _Layout(version=version, error_correction=level, border=0)
    probe.add_data(text)
    probe.makeImpl(True, 0)  # the test layout (format bits light) at mask 0
    size = len(probe.modules)
    free = tuple(_bits(row) for row in probe.free)  # the same for every code of a version: a cache key
    unmasked = [_bits(row) ^ flip for row, flip in zip(probe.modules, _masked(free, 0, size), strict=True)]
    best = min(range(8), key=lambda m: (_penalty(unmasked, _masked(free, m, size), size), m))
    code = qrcode.QRCode(version=version, error_correction=level, border=0, mask_pattern=best)
    code.data_list, code.data_cache = probe.data_list, probe.data_cache
    code.makeImpl(False, best)
    return code.modules


def _bits(row) -> int:
    """A row of modules as an integer: bit c is module c."""
    value = 0
    for c, dark in enumerate(row):
        if dark:
            value |= 1 << c
    return value


@lru_cache(maxsize=512)
def _masked(free: tuple[int, ...], mask: int, size: int) -> tuple[int, ...]:
    """The data modules that `mask` inverts, as row bits."""
    flips = util.mask_func(mask)
    return tuple(sum(1 << c for c in range(size) if free_row >> c & 1 and flips(r, c))
                 for r, free_row in enumerate(free))


def _penalty(unmasked: list[int], flips: tuple[int, ...], size: int) -> int:
    """qrcode's util.lost_point of the test layout at one mask, from its rows as integers: every row (and then
    every column) packed into one integer, `size` bits a line and one light bit between lines, each rule counted
    with a few operations on it."""
    texts = [format(u ^ f, f"0{size}b") for u, f in zip(unmasked, flips, strict=True)]  # bit order reversed: the
    rows = int("0".join(texts), 2)  # rules read the same either way, and so do the columns' order and direction
    columns = int("0".join(map("".join, zip(*texts, strict=True))), 2)
    within, finders, blocks = _fields(size)
    points = _runs(rows, within) + _runs(columns, within) + 40 * (_finders(rows, finders) + _finders(columns, finders))
    same = ~(rows ^ rows >> (size + 1))  # each module the colour of the one below it
    points += 3 * (same & same >> 1 & ~(rows ^ rows >> 1) & blocks).bit_count()
    return points + int(abs(float(rows.bit_count()) / size**2 * 100 - 50) / 5) * 10


@lru_cache(maxsize=64)
def _fields(size: int) -> tuple[int, int, int]:
    """Where a rule may start in every packed line: a pair of neighbours (bits 0 to size - 2), an 11-module
    pattern (0 to size - 11), a 2 × 2 block (a pair, in every line but the last)."""
    width = size + 1
    def each(bits: int, lines: int) -> int:
        return sum(((1 << bits) - 1) << (line * width) for line in range(lines))
    return each(size - 1, size), each(size - 10, size), each(size - 1, size) >> width


def _runs(packed: int, within: int) -> int:
    """Rule 1: each run of five or more modules of one colour in a line, 3 points and 1 per module past five."""
    equal = ~(packed ^ packed >> 1) & within  # a module the colour of its neighbour
    fives = equal & equal >> 1 & equal >> 2 & equal >> 3  # five modules of one colour from here
    return fives.bit_count() + 2 * (fives & ~(equal << 1)).bit_count()  # (length - 4) each, and 2 at its start


_PATTERNS = ("10111010000", "00001011101")


def _finders(packed: int, starts: int) -> int:
    """Rule 3: how many times a line holds 1:1:3:1:1 with four light modules on one side."""
    found = 0
    for pattern in _PATTERNS:
        at = starts
        for k, dark in enumerate(pattern):
            at &= packed >> k if dark == "1" else ~(packed >> k)
        found += at.bit_count()
    return found
