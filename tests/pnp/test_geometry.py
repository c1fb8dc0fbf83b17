"""Page layouts: how many cards fit, where they go, crop marks clear of cards and page edge, mirrored backs."""
import pytest

from companion.pnp.geometry import (
    MARK_GAP,
    MAX_BLEED,
    MIN_MARK,
    PAPERS,
    PRINTER_MARGIN,
    SIZES,
    GeometryError,
    Rect,
    layout,
)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nine_poker_cards_a_page_without_bleed(paper):
    s = layout(paper, "poker", 0)
    assert s.per_page == 9 and (s.page_w, s.page_h) == PAPERS[paper]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("bleed", [0, 1.5, 3])
def test_cards_keep_their_size_and_bleed_and_stay_on_the_printable_page(paper, size, bleed):
    s = layout(paper, size, bleed)
    for r in s.fronts:
        assert (r.w, r.h) == SIZES[size]
        outer = r.grow(bleed)
        assert outer.x >= PRINTER_MARGIN - 1e-9 and outer.y >= PRINTER_MARGIN - 1e-9
        assert outer.x + outer.w <= s.page_w - PRINTER_MARGIN + 1e-9
        assert outer.y + outer.h <= s.page_h - PRINTER_MARGIN + 1e-9
    bleeds = [r.grow(bleed) for r in s.fronts]
    assert not any(a.overlaps(b) for i, a in enumerate(bleeds) for b in bleeds[i + 1:])
    # No room was wasted: one more column or row would not fit.
    block = s.bounds(s.fronts, bleed)
    room = 2 * (PRINTER_MARGIN + MARK_GAP + MIN_MARK)  # kept for the crop marks
    assert block.w + SIZES[size][0] + 2 * bleed > s.page_w - room
    assert block.h + SIZES[size][1] + 2 * bleed > s.page_h - room


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0, 3])
def test_crop_marks_are_outside_every_card_and_clear_of_the_page_edge(paper, bleed):
    s = layout(paper, "poker", bleed)
    assert s.marks
    cards = [r.grow(bleed) for r in s.fronts]
    cut_xs = {round(v, 4) for r in s.fronts for v in (r.x, r.x + r.w)}
    cut_ys = {round(v, 4) for r in s.fronts for v in (r.y, r.y + r.h)}
    for x1, y1, x2, y2 in s.marks:
        assert abs(x2 - x1) + abs(y2 - y1) >= MIN_MARK - 1e-9
        segment = Rect(min(x1, x2), min(y1, y2), abs(x2 - x1) or 1e-6, abs(y2 - y1) or 1e-6)
        assert not any(segment.overlaps(c) for c in cards)
        assert min(x1, x2) >= PRINTER_MARGIN and max(x1, x2) <= s.page_w - PRINTER_MARGIN
        assert min(y1, y2) >= PRINTER_MARGIN and max(y1, y2) <= s.page_h - PRINTER_MARGIN
        assert (x1 == x2 and round(x1, 4) in cut_xs) or (y1 == y2 and round(y1, 4) in cut_ys)
    # every cut line has a mark
    assert cut_xs <= {round(m[0], 4) for m in s.marks if m[0] == m[2]}
    assert cut_ys <= {round(m[1], 4) for m in s.marks if m[1] == m[3]}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_mirror_the_fronts_for_a_long_edge_flip(paper):
    s = layout(paper, "poker", 2)
    for f, b in zip(s.fronts, s.backs, strict=True):
        # Flipping the sheet about its vertical axis maps a back at x to page_w - x - w: onto its front.
        assert abs((s.page_w - b.x - b.w) - f.x) < 1e-9 and b.y == f.y


def test_duplex_offset_moves_only_the_backs():
    plain, moved = layout("a4", "poker", 0), layout("a4", "poker", 0, offset=(1.5, -0.5))
    assert plain.fronts == moved.fronts
    for a, b in zip(plain.backs, moved.backs, strict=True):
        assert (round(b.x - a.x, 9), round(b.y - a.y, 9)) == (1.5, -0.5)


def test_gutterfold_puts_backs_mirrored_across_the_fold():
    s = layout("a4", "poker", 0, gutterfold=True)
    assert s.page_w > s.page_h and s.per_page >= 4
    for f, b in zip(s.fronts, s.backs, strict=True):
        assert f.x + f.w <= s.fold_x <= b.x
        assert abs((s.fold_x - (f.x + f.w)) - (b.x - s.fold_x)) < 1e-9 and f.y == b.y


@pytest.mark.parametrize("args,words", [
    (("a5", "poker", 0), "unknown paper"),
    (("a4", "jumbo", 0), "unknown card size"),
    (("a4", "poker", -1), "bleed must be from 0 to 3"),
    (("a4", "poker", MAX_BLEED + 0.1), "bleed must be from 0 to 3"),
])
def test_bad_settings(args, words):
    with pytest.raises(GeometryError, match=words):
        layout(*args)
