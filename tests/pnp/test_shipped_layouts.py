"""Every shipped game prints every face and back from the layouts in its card data (one mechanism, no face drawn
by a game's code), each layout's elements on the face at every size it is drawn at, every text fitting at 6 pt or
more in both languages, every code box large enough; and the phone's card page draws the same layout."""
import pytest

from companion import library
from companion.components import SIZES
from companion.layouts import MIN_TEXT_PT, QUIET_MIN_PT
from companion.pnp import faces, layout
from companion.pnp.design_check import check_design
from companion.web.play import face_svg
from helpers.games import GAME_IDS


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_face_and_back_comes_from_a_layout(game):
    card_set = library.load_game(game)
    assert card_set.design.layouts, f"{game} draws its faces by code"
    for c in card_set.components:
        if c.kind == "back":
            assert c.layout or c.art or card_set.design.back_layout or card_set.design.back_art, c.id
        else:
            assert faces.front_layout(c, card_set), c.id


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_layout_fits_its_faces(game):
    card_set = library.load_game(game)
    errors, _warnings = check_design(card_set)
    assert not errors, errors
    for c in card_set.components:
        elements = faces.front_layout(c, card_set) if c.kind != "back" else None
        if not elements:
            continue
        w, h = SIZES[c.size]
        for e in elements:
            x, y, bw, bh = e.box
            assert -0.01 <= x and x + bw <= w + 0.01 and -0.01 <= y and y + bh <= h + 0.01, (c.id, e.name)
            if e.kind != "text":
                continue
            for lang in ("es", "en"):
                try:
                    laid, _ = layout.text_layout(e, faces.shown(c, card_set, lang))
                except Exception as missing:  # an element whose field the card lacks is not drawn
                    assert type(missing).__name__ == "Missing"
                    continue
                floor = QUIET_MIN_PT if e.props.get("quiet") else MIN_TEXT_PT
                assert laid.fits and laid.size >= floor, (c.id, e.name, lang, laid.size)


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_phone_draws_each_card_from_its_layout(game):
    card_set = library.load_game(game)
    shown = [c for c in card_set.components if c.kind != "back"][:6]
    for c in shown:
        svg = face_svg.face(card_set, c, "es", lambda path: "/art/x")
        assert svg is not None and str(svg).startswith('<svg class="face-svg"'), c.id
        assert "<text" in str(svg) or "<use" in str(svg) or "<image" in str(svg), c.id
