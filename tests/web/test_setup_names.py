"""A setup's hands when two players are named alike (issue 46, item 5): each is headed by its name and its seat, as
the scoring pages do, so that the dealer can still tell the hands apart (they read "Ana" twice)."""
import re


def test_two_players_named_alike_have_their_hands_headed_by_seat(client):
    page = client.get("/setup/gemas?players=3&_names=Ana&_names=Ana&_names=Caro&seed=abc&lang=es").get_data(
        as_text=True)
    heads = re.findall(r'<li><strong data-seat="(\d)">([^<]*)</strong>', page)
    assert heads == [("0", "Ana (Jugador 1)"), ("1", "Ana (Jugador 2)"), ("2", "Caro")]
    assert 'name="_names" value="Ana"' in page  # the fields keep what was typed
