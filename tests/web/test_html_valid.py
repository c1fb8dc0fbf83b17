"""Every kind of page is valid HTML by the Nu Html Checker (vnu.jar, the W3C's validator; issue 46): served and on
the static site, in Spanish and in English. Each page is written to a file and the checker runs once on them all
(Java's start is the slow part). Skipped loudly without Java or the checker (`make vnu` fetches it)."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from companion import games
from companion.web import create_app
from helpers import http, vnu

GAME_IDS = sorted(games.GAMES)
DATA_GAMES = [Path(__file__).with_name("data_scoring_game.yaml"),
              Path(__file__).parents[2] / "docs" / "examples" / "bazas.yaml"]
LANGS = ("es", "en")

# The served pages of every kind: home, each game's scoring (bare and with an answer), setup, rules, a card, the
# printed code's target, the solo helper, playtest figures, the offline page, errors 404 and 400.
PAGES = ["/", "/sheets", "/offline", "/companion-needed", "/solo/duquesa", "/solo/duquesa/turn",
         "/solo/duquesa?florins:int=31", "/no-such-page", "/c/duquesa/NOPE",
         "/score/duquesa?players.0.hand:list=XX", "/score/nobles?_mode=duel", "/score/queens-necklace?_mode=game",
         *[p for g in GAME_IDS for p in (f"/score/{g}", f"/setup/{g}?seed=v", f"/rules/{g}", f"/playtest/{g}")],
         "/c/duquesa/DQ07", "/c/queens-necklace/QN-KING", "/c/gemas/GM-THIEF", "/c/nobles/NB-QH",
         "/c/duplicon/DP-CIRCLE", "/preview/duquesa",
         "/score/duquesa?players.0.name=Ana&players.1.name=Bea&common=DQ01&players.0.hand:list=DQ02&players.0.hand:list=DQ07&players.0.hand:list=DQ12"
         "&players.0.hand:list=DQ16&players.1.hand:list=DQ03&players.1.hand:list=DQ05&players.1.hand:list=DQ19"
         "&players.1.hand:list=DQ14", "/score/duplicon?_names=Ana&_names=Bea&rounds.0.0.won:int=20",
         "/score/duplicon?_names=Ana&_names=Bea&rounds.0.0.won:int=200",  # refused: 400, the problem by its field
         "/score/queens-necklace?_names=Ana&_names=Bea&players.0.shown.diamond:ints=3+2&players.1.shown.ruby:ints=2",
         "/score/queens-necklace?_mode=game&_names=Ana&_names=Bea&sales.0.players.0.shown.diamond:ints=3+2",
         "/score/gemas?_n=2&players.0.name=Ana&players.1.name=Bruno&lay_down.player=%230&lay_down.set=gems"
         "&lay_down.cards.0=green&lay_down.cards.1=blue&lay_down.cards.2=orange",
         "/score/nobles?_names=Ana&_names=Bea&courts.0.nobles.0.noble=king&courts.0.nobles.0.suit=spades"
         "&courts.1.nobles.0.noble=queen&courts.1.nobles.0.suit=hearts",
         # a photo's cards put in the form (what it said above it)
         "/score/duquesa?players.0.hand:list=DQ03&_seen=DQ03&_took=DQ03"]
# A designer's data games (one with scoring rules, one of rounds): their scoring, setup, rules and a card page.
DATA_PAGES = ["/score/lost", "/score/lost?_n=2&players.0.name=Ana&players.0.cards.LC-RED-5:int=1&players.1.name=Bea"
              "&players.1.cards.LC-PUD:int=2",
              "/setup/lost?seed=v", "/rules/lost", "/c/lost/LC-PUD", "/preview/lost", "/score/bazas", "/rules/bazas",
              "/setup/bazas?seed=v"]


def _name(lang: str, path: str) -> str:
    return f"{lang}-{re.sub(r'[^a-z0-9]+', '-', path.lower()).strip('-')[:80] or 'home'}.html"


def _write(folder: Path, lang: str, path: str, response, statuses=(200,)) -> Path:
    assert response.status_code in statuses, (path, response.status_code)
    file = folder / _name(lang, path)
    file.write_bytes(http.body(response))
    return file


def _with_lang(path: str, lang: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lang={lang}"


def served_pages(folder: Path, instance: Path) -> list[Path]:
    """Every served kind of page in both languages, as files: the pages above, a saved sheet's pages (the sheet, its
    history, an entry's edit), a refused photo's page (400), a designer's data games' pages."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance / "shipped")})
    client = app.test_client()
    files = []
    token = re.search(r'name="_csrf" value="([^"]+)"', client.get("/sheets").get_data(as_text=True))[1]
    started = client.post("/sheets", data={"_csrf": token, "game": "duquesa", "title": "Domingo", "players.0": "Ana",
                                           "players.1": "Bruno"})
    assert started.status_code == 303, started.status_code
    sheet = started.headers["Location"]
    assert client.post(f"{sheet}/entries", data={"_csrf": token, "points.0": "12", "points.1": "3"}).status_code == 303
    for lang in LANGS:
        for path in PAGES:
            errors = ("/no-such-page", "/c/duquesa/NOPE", "XX", "won:int=200")
            files.append(_write(folder, lang, path, client.get(_with_lang(path, lang)),
                                (404, 400) if any(e in path for e in errors) else (200,)))
        for path in (sheet, f"{sheet}/log", f"{sheet}/entries/1/edit"):
            files.append(_write(folder, lang, path, client.get(_with_lang(path, lang))))
        photo = client.post(f"/score/duquesa/photo?lang={lang}", content_type="multipart/form-data",
                            data={"_csrf": token,
                                  "_photo": (io.BytesIO(b"not a picture"), "table.jpg", "image/jpeg")})
        files.append(_write(folder, lang, "/score/duquesa/photo-refused", photo, (400,)))
    data_app = create_app({"TESTING": True, "CARD_FILES": [str(p) for p in DATA_GAMES],
                           "INSTANCE_PATH": str(instance / "data")})
    data_client = data_app.test_client()
    for lang in LANGS:
        for path in DATA_PAGES:
            files.append(_write(folder, lang, path, data_client.get(_with_lang(path, lang))))
    return files


def site_pages(site_folder: Path) -> list[Path]:
    """The static site's pages of every kind in both language trees: all but the card pages and the printed codes'
    redirects (one per card: two of each, which are the same page for another card)."""
    every = sorted(site_folder.rglob("*.html"))
    cards = [f for f in every if {"c", "C"} & set(f.relative_to(site_folder).parts[:2])]
    return [f for f in every if f not in cards] + [f for f in cards if f.parent.name in ("DQ07", "QN-KING")]


@pytest.mark.slow  # (the static site is built once a session, with the phones' Python: about a minute alone)
def test_every_kind_of_page_is_valid_html_served_and_static(request, tmp_path):
    why = vnu.missing()
    if why:
        pytest.skip(why)
    site = request.getfixturevalue("site")  # (built only where the checker can run)
    (tmp_path / "served").mkdir()
    files = served_pages(tmp_path / "served", tmp_path)
    static = site_pages(site[1] / "site")
    assert len(static) > 40 and any("score" in f.parts for f in static)
    found = vnu.errors(files + static)
    said = sorted({f"{m['url'].rsplit('/', 3)[-1] if 'served' in m['url'] else m['url'].split('/site/', 1)[-1]}:"
                   f"{m.get('lastLine')}: {m['message']}" for m in found})
    assert not found, f"{len(found)} errors on {len({m['url'] for m in found})} of {len(files + static)} pages:\n" \
                      + "\n".join(said[:60])
