"""A setup's dealt cards drawn as the printed card is (issue 46, item 5): Duplicon's cards are a shape in a colour
inside a frame picture; the setup used to list each as the blank frame alone. Each card is now drawn by the icons
its face draws (the same description of the face the print and the card's page use), the frame left out."""
import re
from urllib.parse import unquote

from companion import games, library


def test_duplicons_dealt_cards_show_their_shape_in_their_colour(client):
    page = client.get("/setup/duplicon?players=3&seed=abc123&lang=en").get_data(as_text=True)
    chips = re.findall(r'<a class="cid" href="/c/duplicon/([A-Z-]+)">(.*?)</a>', page, re.S)
    assert len(chips) > 40  # the opening turns, then the dealer's view: the grid, the hands, the deck
    assert "duplicon-card-frame" not in page  # no card is its blank frame
    for card_id, inside in chips:
        assert f'<i class="i i-face-{card_id}"></i>' in inside, card_id
    css = client.get("/icons/duplicon.css").get_data(as_text=True)
    card_set = library.current()["duplicon"]
    for card_id in {c for c, _inside in chips}:
        card = card_set.component(card_id)
        (icon,) = games.for_data("duplicon").face(card, card_set, "en").icons
        rule = re.search(rf'\.i-face-{card_id}\{{background-image:url\("data:image/svg\+xml,([^"]+)"\)', css)
        assert rule, card_id
        drawn = unquote(rule[1])
        assert f'fill="{icon.fill}"' in drawn and "<path d=" in drawn, card_id  # its shape, in its colour
