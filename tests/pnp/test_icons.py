"""Gems drawn as cut stones inside their unchanged outlines; Nobles number cards with their pips laid out as on a
French deck."""
import io

import pytest
from reportlab.pdfgen.canvas import Canvas

from companion import cards, library
from companion.look import Icon
from companion.pnp import draw, faces
from companion.pnp.geometry import MM
from companion.pnp.icons import draw_icon, paint_icon

GEM_SHAPES = ("diamond", "hexagon", "heart", "star", "octagon", "triangle", "square", "circle")


class Recording(Canvas):
    """A canvas that also keeps every path it draws: (its PDF operators, stroked, filled, fill colour)."""

    def __init__(self):
        super().__init__(io.BytesIO())
        self.paths, self.fills = [], set()

    def drawPath(self, path, stroke=1, fill=0, fillMode=None):
        self.paths.append((path.getCode(), stroke, fill))
        super().drawPath(path, stroke=stroke, fill=fill, fillMode=fillMode)

    def setFillColor(self, colour, alpha=None):
        self.fills.add(colour.hexval())
        super().setFillColor(colour, alpha)


@pytest.mark.parametrize("shape", GEM_SHAPES)
def test_a_gem_is_a_cut_stone_inside_the_same_outline(shape):
    plain, cut = Recording(), Recording()
    paint_icon(plain, Icon(shape, "#1e9e5a"), 100, 100, 20)
    paint_icon(cut, Icon(shape, "#1e9e5a", gem=True), 100, 100, 20)
    assert len(plain.fills) == 1 and len(cut.fills) >= 4  # the stone, a lighter table, lighter and darker facets
    outline = [code for code, stroked, _filled in plain.paths if stroked]
    last = [code for code, stroked, filled in cut.paths if stroked and not filled][-1]
    assert outline == [last]  # the same outline, drawn last: shapes stay what colour-blind players tell apart by


def test_every_gem_of_the_shipped_games_is_cut_and_nothing_else_is():
    gems = {"duquesa": {"pearl", "jet", "amethyst", "diamond", "emerald", "ruby", "sapphire", "amber"},
            "queens-necklace": {"diamond", "emerald", "ruby", "amber"}, "gemas": {"green", "blue", "violet", "orange"}}
    for game, card_set in cards.load_shipped().items():
        cut = {name for name, term in card_set.look.terms.items() if term.gem}
        assert cut == gems.get(game, set()), game


def test_a_cut_gems_letter_is_drawn_over_its_facets_in_a_colour_for_its_table():
    draw.register_fonts()
    c = Recording()
    paint_icon(c, Icon("hexagon", "#2e9e4f", "4", gem=True), 100, 100, 20)  # Gemas' green: a light green table
    text = next(i for i, op in enumerate(c._code) if "(4) Tj" in op)
    assert text > max(i for i, op in enumerate(c._code) if op in ("f", "f*", "B", "B*"))  # over every facet
    assert c._code[text - 1] == ".113725 .113725 .113725 rg"  # dark ink on the light green table


def test_an_icon_is_drawn_once_per_document_and_placed_where_it_recurs():
    draw.register_fonts()
    c = Recording()
    ruby = Icon("heart", "#c0392b", gem=True)
    for x in range(10):
        draw_icon(c, ruby, 20 + 30 * x, 100, 12)
    draw_icon(c, ruby, 100, 200, 6)  # another size: another form
    assert len(c.paths) == 2 * (1 + 1 + 1)  # each form: the stone, its table, the outline over them
    assert sum(" Do" in op for op in c._code) == 11


def pips(card_set, comp, monkeypatch):
    """The icons a card's face draws as its body's pips, as (shape, upside down), found by drawing it from its
    layout on a canvas with draw_icon spied on where the pips are drawn (companion/pnp/draw.py)."""
    drawn = []

    def spy(c, icon, cx, cy, r, *args, **kwargs):
        if r > 2.5 * MM:  # the body's pips, not the 2.2 mm suit of an index
            drawn.append((icon.shape, c._currentMatrix[0] < 0))

    monkeypatch.setattr(draw, "draw_icon", spy)
    draw.register_fonts()
    faces.paint_front(Canvas(io.BytesIO()), comp, card_set, "es", 0, 0, 63.5 * MM, 88.9 * MM, 0,
                      "HTTP://EXAMPLE/C/NB-X", 3)
    return drawn


# How many pips of each count a French deck prints upside down (those below the middle).
REVERSED = {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 2, 8: 3, 9: 4, 10: 5}


def test_every_nobles_number_card_draws_as_many_pips_as_its_rank(monkeypatch):
    card_set = library.load_game("nobles")
    numbers = [c for c in card_set.components if c.type == "number"]
    assert len(numbers) == 40
    for comp in numbers:
        shape = card_set.look.terms[comp.data["suit"]].shape
        drawn = pips(card_set, comp, monkeypatch)
        rank = comp.data["rank"]
        assert [s for s, _down in drawn] == [shape] * rank, comp.id
        assert sum(down for _s, down in drawn) == REVERSED[rank], comp.id


def test_the_seven_of_hearts_has_seven_hearts_two_of_them_reversed(monkeypatch):
    card_set = library.load_game("nobles")
    drawn = pips(card_set, card_set.component("NB-7H"), monkeypatch)
    assert drawn == [("heart", False)] * 5 + [("heart", True)] * 2
