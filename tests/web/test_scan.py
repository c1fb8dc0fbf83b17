"""Cards as input: with a score sheet open, a scanned card's page offers to add it, and the sheet comes back filled."""
import re
from urllib.parse import parse_qs, urlsplit


def add_links(page):
    return [h.replace("&amp;", "&") for h in re.findall(r'href="(/scan/add/[^"]+)"', page)]


def test_a_scanned_duquesa_card_goes_into_a_hand(client):
    client.get("/score/duquesa?players.0.name=Ana&players.1.name=Bruno&players.0.hand:list=DQ02")
    page = client.get("/C/DQ07", follow_redirects=True).get_data(as_text=True)
    links = add_links(page)
    assert len(links) == 3  # common card, Ana, Bruno
    r = client.get(next(link for link in links if "players.1.hand" in link))
    args = parse_qs(urlsplit(r.location).query)
    assert r.status_code == 302 and args["players.1.hand:list"] == ["DQ07"] and args["players.0.hand:list"] == ["DQ02"]
    back = client.get(r.location)
    assert back.status_code == 200  # an unfinished sheet is not an error
    assert 'value="DQ07" checked' in back.get_data(as_text=True).replace("\n", " ")


def test_a_scanned_gem_card_adds_its_gems_to_a_column(client):
    client.get("/score/queens-necklace?_n=2&_names=Alice&_names=Bob&players.1.shown.diamond:ints=1")
    links = add_links(client.get("/c/queens-necklace/QN-D3").get_data(as_text=True))
    r = client.get(next(link for link in links if "players.1" in link))
    assert parse_qs(urlsplit(r.location).query)["players.1.shown.diamond:ints"] == ["1 3"]


def test_no_open_sheet_no_offer(client):
    assert add_links(client.get("/c/duquesa/DQ07").get_data(as_text=True)) == []
    assert client.get("/scan/add/duquesa/DQ07?to=common").status_code == 400


def test_a_card_of_another_game_or_a_bad_target_is_refused(client):
    client.get("/score/duquesa?players.0.name=Ana")
    assert add_links(client.get("/c/gemas/GM-BLUE").get_data(as_text=True)) == []
    assert client.get("/scan/add/duquesa/DQ07?to=players.5.hand:list").status_code == 400
    assert client.get("/scan/add/duquesa/XX99?to=common").status_code == 404


def test_a_full_hand_is_not_offered(client):
    """Issue 13: with Ana's four cards chosen, scanning a fifth offered "Add to Ana" and the hand became 5/4."""
    full = "".join(f"&players.0.hand:list=DQ0{k}" for k in (1, 2, 3, 4))
    client.get(f"/score/duquesa?players.0.name=Ana&players.1.name=Bruno{full}&players.1.hand:list=DQ05")
    links = add_links(client.get("/C/DQ07", follow_redirects=True).get_data(as_text=True))
    assert len(links) == 2 and not any("players.0.hand" in link for link in links)  # the common card, Bruno
    assert client.get("/scan/add/duquesa/DQ07?to=players.0.hand:list").status_code == 400
    # a card already in a hand is not offered to that hand again
    links = add_links(client.get("/C/DQ05", follow_redirects=True).get_data(as_text=True))
    assert not any("players.1.hand" in link for link in links)
