"""The language at a static site's root (issue 39, item 6): a site of games written in English only opens in
English at its root, Spanish under /es/; `--lang` chooses it for any site; every page's alternates, the language
switch and the service worker's trees follow."""
import json
import re

import pytest

from companion import cards
from companion.cli import main
from companion.web.site.build import root_language

BASE = "https://you.github.io/deck"


def english_only(folder):
    folder.mkdir()
    path = folder / "round.yaml"
    path.write_text("game: round\ntitle: Round\nlanguages: [en]\nprefix: RD\nplayers: [2, 4]\ncomponents:\n"
                    "  - {id: RD-1, type: card, name: One, value: 1}\n"
                    "  - {id: RD-BACK, type: back, for: [card], name: Round}\n", encoding="utf-8")
    return path


def page(out, path: str) -> str:
    return (out / path / "index.html").read_text(encoding="utf-8")


def test_the_root_language_is_the_games_own_when_they_agree_else_spanish(tmp_path):
    round_set = cards.load_file(str(english_only(tmp_path / "cards")))
    shipped = list(cards.load_shipped().values())
    assert root_language([round_set]) == "en"
    assert root_language(shipped) == "es" and root_language([*shipped, round_set]) == "es"
    assert root_language(shipped, "en") == "en" and root_language([round_set], "es") == "es"


def test_a_site_of_english_only_games_opens_in_english_at_its_root(tmp_path, monkeypatch):
    game = english_only(tmp_path / "cards")
    monkeypatch.setattr(cards, "shipped_files", lambda: [game])
    cards.load_shipped.cache_clear()
    try:
        out = tmp_path / "site"
        assert main(["site", "--out", str(out), "--base-url", BASE, "--no-scoring"]) == 0
    finally:
        cards.load_shipped.cache_clear()
    home, spanish = page(out, "."), page(out, "es")
    assert '<html lang="en"' in home and '<html lang="es"' in spanish
    assert not (out / "en").exists()  # (no second English tree)
    card = page(out, "c/round/RD-1")
    assert '<html lang="en"' in card and ">One<" in card
    links = dict(re.findall(r'<link rel="alternate" hreflang="([\w-]+)" href="([^"]+)"', card))
    assert links == {"en": f"{BASE}/c/round/RD-1/", "es": f"{BASE}/es/c/round/RD-1/",
                     "x-default": f"{BASE}/c/round/RD-1/"}
    trees = json.loads(re.search(r"const TREES = (\{.*?\});", (out / "sw.js").read_text()).group(1))
    assert trees == {"en": "/deck/", "es": "/deck/es/"}


@pytest.mark.slow  # builds the light site of the five games (every page frozen: seconds)
def test_lang_puts_english_at_the_root_of_the_shipped_games_site(tmp_path, capsys):
    out = tmp_path / "site"
    assert main(["site", "--out", str(out), "--base-url", BASE, "--no-scoring", "--lang", "en"]) == 0
    assert "en and es" in capsys.readouterr().out
    assert '<html lang="en"' in page(out, "rules/duquesa") and '<html lang="es"' in page(out, "es/rules/duquesa")
    rules = page(out, "rules/duquesa")
    assert '<a href="/deck/es/rules/duquesa/" hreflang="es" lang="es">ES</a>' in rules  # the language switch
    assert f'hreflang="x-default" href="{BASE}/rules/duquesa/"' in rules
    assert '<a href="/deck/rules/duquesa/" hreflang="en" lang="en">EN</a>' in page(out, "es/rules/duquesa")
    assert main(["site", "--out", str(tmp_path / "other"), "--base-url", BASE, "--lang", "fr"]) == 2
    assert "--lang" in capsys.readouterr().err and not (tmp_path / "other").exists()
