"""Gemas' turn form as a table reads it (issue 46, item 6): exchanging gems is a move of the turn form, checked by
the rules (three gems of the colour given, another colour taken from the reserve); nobody "leads" a table where
nobody holds a gem; a gem taken or stolen is said in words that fit any colour, in both languages."""
import html
import re
from urllib.parse import urlencode

from companion import service

TABLE = [("_n", "3"), ("_turns", "1"), ("players.0.name", "Ana"), ("players.0.gems.orange:int", "3"),
         ("players.0.gems.violet:int", "2"), ("players.1.name", "Beto"), ("players.2.name", "Caro")]


def page(client, pairs, lang="en") -> tuple[int, str]:
    r = client.get(f"/score/gemas?{urlencode([*pairs, ('lang', lang)])}")
    return r.status_code, html.unescape(r.get_data(as_text=True))


def test_exchanging_two_gems_of_a_colour_held_three_times(client):
    move = [("lay_down.player", "#0"), ("lay_down.set", "exchange"), ("lay_down.give", "orange"),
            ("lay_down.take", "green")]
    status, text = page(client, TABLE + move)
    assert status == 200 and "data-moved" in text
    assert "Ana gives two gems back to the reserve (Orange) and takes one: Green" in re.sub(r"</?bdi>", "", text)
    expected = service.score("gemas", {"players": [{"name": "Ana", "gems": {"orange": 3, "violet": 2}},
                                                   {"name": "Beto", "gems": {}}, {"name": "Caro", "gems": {}}],
                                       "lay_down": {"player": "Ana", "set": "exchange", "give": "orange",
                                                    "take": "green"}})
    assert expected["players"][0]["gems"] == {"green": 1, "blue": 0, "violet": 2, "orange": 1}
    assert 'name="players.0.gems.orange:int" value="1"' in text and 'name="players.0.gems.green:int" value="1"' in text
    # two of a colour are not enough, and the gem taken is of another colour: said beside the field, both languages
    for give, take, lang, said in (
            ("violet", "green", "en", "gems given: exchanging needs 3 gems of that colour (Violet); Ana holds 2"),
            ("violet", "green", "es", "gemas entregadas: canjear pide 3 gemas de ese color (Violeta); Ana tiene 2"),
            ("orange", "orange", "en", "gem taken: must be another colour than the two gems given")):
        bad = [*move[:2], ("lay_down.give", give), ("lay_down.take", take)]
        status, text = page(client, TABLE + bad, lang)
        assert status == 400 and said in text, (give, take, lang)


def test_nobody_leads_a_table_where_nobody_holds_a_gem(client):
    empty = [("_n", "3"), ("players.0.name", "Ana"), ("players.1.name", "Beto"), ("players.2.name", "Caro")]
    for lang, nobody, leading in (("en", "Nobody holds a gem yet", "Leading:"),
                                  ("es", "Nadie tiene gemas todavía", "Va en cabeza:")):
        status, text = page(client, [*empty, ("players.0.gems.green:int", "0")], lang)
        assert status == 200 and nobody in text and leading not in text, lang
        status, text = page(client, [*empty, ("players.1.gems.orange:int", "1")], lang)
        assert status == 200 and f"{leading} <bdi>Beto</bdi>" in text and nobody not in text, lang


def test_a_gem_taken_or_stolen_is_said_for_any_colour(client):
    take = [("lay_down.player", "#1"), ("lay_down.set", "three-orange")]
    steal = [("lay_down.player", "#2"), ("lay_down.set", "thief"), ("lay_down.target", "#0")]
    for lang, taken, stolen in (
            ("en", "Beto takes a gem from the reserve: Orange",
             "Caro steals a gem from Ana, the lowest-valued: Orange"),
            ("es", "Beto toma una gema de la reserva: Naranja",
             "Caro roba una gema a Ana, la de menos valor: Naranja")):
        for move, said in ((take, taken), (steal, stolen)):
            status, text = page(client, TABLE + move, lang)
            assert status == 200 and said in re.sub(r"</?bdi>", "", text), (lang, said)
            assert not re.search(r"\ba (Orange|Naranja)\b", text)
