"""No placeholder on any shipped face: no ringed initial (the old medallion), no "?" or "!" icon standing for a
missing picture; every card, tile and token shows a picture (its art, its icons or pips, or its value), and every
face whose data names an art file draws it. Checked by drawing each face on a canvas that records what it draws."""
import io

import pytest
from reportlab.pdfgen.canvas import Canvas

from companion import library
from companion.components import SIZES
from companion.core import i18n
from companion.pnp import art, draw, faces, layout
from companion.pnp.document import card_url
from companion.pnp.geometry import MM
from helpers.games import GAME_IDS

LAN = "http://192.168.1.20:5000"  # a LAN base: the larger (version 3) code, the least room on a face


class Recording(Canvas):
    def __init__(self):
        super().__init__(io.BytesIO())
        self.strings = []

    def drawString(self, x, y, text, *args, **kwargs):
        self.strings.append((text, self._fontsize))
        return super().drawString(x, y, text, *args, **kwargs)

    def drawCentredString(self, x, y, text, *args, **kwargs):
        self.strings.append((text, self._fontsize))
        return super().drawCentredString(x, y, text, *args, **kwargs)


def drawn(card_set, comp, lang, monkeypatch):
    """What the face of `comp` draws: (strings with their sizes, icons with their radii, art files placed)."""
    icons, pictures = [], []
    record = lambda c, icon, cx, cy, r, *a, **k: icons.append((icon, r))  # noqa: E731
    monkeypatch.setattr(draw, "draw_icon", record)
    monkeypatch.setattr(layout, "draw_icon", record)  # a face drawn from its layout
    real_place = art.place
    monkeypatch.setattr(art, "place", lambda c, path, *a, **k: (pictures.append(path), real_place(c, path, *a, **k)))
    c = Recording()
    w, h = SIZES[comp.size]
    face = faces.face(comp, card_set, lang)
    faces.paint_front(c, comp, card_set, lang, 0, 0, w * MM, h * MM, 0, card_url(LAN, comp.id), 3)
    return face, c.strings, icons, pictures


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("game", GAME_IDS)
def test_no_shipped_face_shows_a_placeholder(game, lang, monkeypatch):
    draw.register_fonts()
    card_set = library.load_game(game)
    for comp in card_set.components:
        if comp.kind == "back" or comp.size == "marker":  # a marker is its colour and its id, by design
            continue
        face, strings, icons, pictures = drawn(card_set, comp, lang, monkeypatch)
        assert not [icon for icon, _r in icons if icon.letter in ("?", "!")], (comp.id, "a '?' or '!' icon")
        monograms = [text for text, size in strings if len(text) == 1 and text.isalpha() and size > 14
                     and text != face.big]
        assert not monograms, (comp.id, "a big initial", monograms)
        if comp.art is not None:
            assert pictures == [comp.art.path], (comp.id, "its art is not drawn")
        if comp.kind != "reference":  # a reference card is its list (with its art where it names one)
            body_icons = [icon for icon, r in icons if r > 2.5 * MM or comp.kind == "token"]
            assert pictures or body_icons or face.big, (comp.id, "no picture")
