"""What a page tells search engines (issue 30: Lighthouse's SEO score was 80): a title and a sentence of its own in
its language, the page in each language at an absolute address plus x-default, and what Lighthouse's other SEO audits
look at, checked on the pages themselves (Lighthouse is not installed: its audits are read, not run): a viewport,
a language, no noindex, descriptive link texts, crawlable links, pictures with words, robots.txt; font sizes in a
real browser below (tap targets: test_tap_targets)."""
import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.web import create_app
from helpers.games import GAME_IDS

PAGES = ["/", "/sheets", "/offline", "/companion-needed", "/solo/duquesa", "/c/duquesa/DQ07", "/c/gemas/GM-THIEF",
         *[f"/{kind}/{game}" for game in GAME_IDS for kind in ("rules", "score")],
         *[f"/setup/{game}?seed=head" for game in GAME_IDS]]
# Lighthouse's link-text audit (core/audits/seo/link-text.js): texts that say nothing of where a link leads
SAYS_NOTHING = {"click here", "click this", "go", "here", "information", "learn more", "more", "more info",
                "more information", "right here", "read more", "see more", "start", "this", "click aquí", "click aqui",
                "clicka aquí", "clicka aqui", "pincha aquí", "pincha aqui", "aquí", "aqui", "más", "mas",
                "más información", "más informacion", "mas información", "mas informacion", "este", "enlace",
                "este enlace", "empezar"}


def in_lang(path: str, lang: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lang={lang}"


def head_of(page: str) -> str:
    return page.partition("</head>")[0]


def description(page: str) -> list[str]:
    return [html.unescape(d) for d in re.findall(r'<meta name="description" content="([^"]*)">', head_of(page))]


def alternates(page: str) -> dict[str, str]:
    found = re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]*)">', head_of(page))
    assert len(found) == len(dict(found)), found  # one a language
    return {lang: html.unescape(href) for lang, href in found}


@pytest.mark.parametrize("path", PAGES)
def test_each_page_says_what_it_is_in_its_language(client, path):
    said = {}
    for lang in ("es", "en"):
        r = client.get(in_lang(path, lang))
        page = r.get_data(as_text=True)
        assert r.status_code == 200 and f'<html lang="{lang}"' in page
        title = re.search(r"<title>([^<]+)</title>", head_of(page))
        [said[lang]] = description(page)
        assert title and title[1].strip() and len(said[lang]) > 40, (lang, said[lang])
    assert said["es"] != said["en"]  # each in its own language
    if path.count("/") == 2 and not path.startswith("/solo"):  # a page of a game: it names the game, as on the page
        game_page = client.get(in_lang(path, "es")).get_data(as_text=True)
        assert said["es"].split(":")[0] in html.unescape(game_page.partition("</head>")[2])


def test_a_games_pages_each_say_what_they_do(client):
    said = {p: description(client.get(in_lang(p, "en")).get_data(as_text=True))[0]
            for p in ("/rules/gemas", "/score/gemas", "/setup/gemas?seed=a", "/c/gemas/GM-THIEF", "/solo/duquesa")}
    assert len(set(said.values())) == len(said), said
    assert said["/score/gemas"] == "Gems: count a game's points on the phone, each total with the reason for it."
    es = description(client.get("/setup/duquesa?seed=a&lang=es").get_data(as_text=True))[0]
    assert es == "El Collar de la Duquesa: reparte la preparación inicial en el móvil y compártela con la mesa."


@pytest.mark.parametrize("path", ["/", "/rules/duquesa", "/score/nobles", "/setup/gemas?seed=a&players=3",
                                  "/c/duquesa/DQ07"])
def test_the_page_in_each_language_is_an_absolute_address(app, path):
    """Every language's copy of the page, this one included, and x-default (the address without ?lang=, where the
    reader's browser chooses); each opens this page in its language; the Spanish and English pages list the same."""
    client = app.test_client(use_cookies=False)  # (each request as a new reader: no language kept)
    pages = {lang: client.get(path, headers={"Cookie": f"lang={lang}"}).get_data(as_text=True) for lang in ("es", "en")}
    listed = alternates(pages["es"])
    assert listed == alternates(pages["en"]) and set(listed) == {"es", "en", "x-default"}
    wanted = urlsplit(path)
    for lang, href in listed.items():
        parts = urlsplit(href)
        assert parts.scheme == "http" and parts.netloc == "localhost" and parts.path == wanted.path, href
        query = parse_qs(parts.query)
        assert query.pop("lang", ["x-default"]) == [lang] and query == parse_qs(wanted.query), href
        for browser in ("es", "en"):  # a reader with no cookie, whatever the browser speaks
            opened = client.get(href.removeprefix("http://localhost"), headers={"Accept-Language": browser})
            opened = opened.get_data(as_text=True)
            assert f'<html lang="{lang if lang != "x-default" else browser}"' in opened, (href, browser)


def test_the_addresses_are_the_servers_own_not_the_host_a_request_names(tmp_path):
    app = create_app({"TESTING": True, "BASE_URL": "https://cards.example.org", "INSTANCE_PATH": str(tmp_path)})
    page = app.test_client().get("/rules/gemas", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert set(alternates(page).values()) == {"https://cards.example.org/rules/gemas?lang=es",
                                              "https://cards.example.org/rules/gemas?lang=en",
                                              "https://cards.example.org/rules/gemas"}


def test_a_static_sites_addresses_are_absolute_when_its_address_is_known(tmp_path):
    """`companion site --base-url` freezes each tree at its address (Frozen-Flask's FREEZER_BASE_URL): absolute;
    an app of the site frozen for no address keeps them relative."""
    config = {"TESTING": True, "STATIC_SITE": True, "STATIC_LANG": "en", "SITE_ROOT": "/deck", "SITE_SCORING": False,
              "INSTANCE_PATH": str(tmp_path)}
    app = create_app({**config, "FREEZER_BASE_URL": "https://you.github.io/deck/en/"})
    page = app.test_client().get("/rules/gemas/", base_url="https://you.github.io/deck/en/").get_data(as_text=True)
    assert alternates(page) == {"es": "https://you.github.io/deck/rules/gemas/",
                                "en": "https://you.github.io/deck/en/rules/gemas/",
                                "x-default": "https://you.github.io/deck/rules/gemas/"}
    assert description(page) == ["Gems: the rules, and every card with what it does."]
    assert not re.search(r'(?:href|src)="[^"]*\?v=', page)  # a static host serves files by path: no versions
    bare = create_app(config).test_client().get("/rules/gemas/").get_data(as_text=True)
    assert alternates(bare) == {"es": "/deck/rules/gemas/", "en": "/deck/en/rules/gemas/",
                                "x-default": "/deck/rules/gemas/"}


@pytest.mark.slow  # the session's site with the phones' Python (built once, about 10 s)
def test_the_built_static_site_names_its_pages_at_its_address(site):
    base, folder, _ = site
    for tree, lang in (("", "es"), ("en/", "en")):
        page = (folder / "site" / tree / "rules" / "duquesa" / "index.html").read_text(encoding="utf-8")
        assert alternates(page) == {"es": f"{base}/rules/duquesa/", "en": f"{base}/en/rules/duquesa/",
                                    "x-default": f"{base}/rules/duquesa/"}
        assert f'<html lang="{lang}"' in page and len(description(page)[0]) > 40


@pytest.mark.parametrize("lang", ["es", "en"])
def test_what_lighthouses_seo_audits_read_on_every_page(client, lang):
    for path in PAGES:
        r = client.get(in_lang(path, lang))
        page, head = r.get_data(as_text=True), head_of(r.get_data(as_text=True))
        assert r.status_code == 200, path  # http-status-code
        viewport = re.search(r'<meta name="viewport" content="([^"]+)">', head)  # viewport
        assert viewport and "width=device-width" in viewport[1] and "initial-scale=1" in viewport[1], path
        assert "user-scalable=no" not in viewport[1] and "maximum-scale" not in viewport[1], path
        assert "noindex" not in r.headers.get("X-Robots-Tag", "") and 'name="robots"' not in head, path  # is-crawlable
        assert 'rel="canonical"' not in head, path  # (none: the canonical audit does not apply)
        for attrs, inner in re.findall(r"<a\b([^>]*)>(.*?)</a>", page, re.S):
            href = re.search(r'\bhref="([^"]*)"', attrs)
            assert href and href[1].strip() and not href[1].startswith("javascript:"), (path, attrs)  # crawlable
            if "nofollow" in attrs:
                continue
            text = html.unescape(re.sub(r"<[^>]+>", "", inner)).strip()  # link-text:
            assert text.lower() not in SAYS_NOTHING and not re.fullmatch(r"https?://\S+", text), (path, text)
        for img in re.findall(r"<img\b[^>]*>", page):
            assert re.search(r'\balt="', img), (path, img)  # image-alt
    robots = client.get("/robots.txt")  # robots-txt: none is served, which Lighthouse counts as not applicable
    assert 400 <= robots.status_code < 500


# Lighthouse's font-size audit: at least 60 % of a page's text at 12 px or more; ours holds every text to it
SMALL_TEXT = """() => {
  const small = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let all = 0;
  while (walker.nextNode()) {
    const node = walker.currentNode, text = node.textContent.trim(), parent = node.parentElement;
    if (!text || !parent || !parent.getClientRects().length) continue;
    const style = getComputedStyle(parent);
    if (style.visibility === "hidden" || parent.closest("[hidden], svg")) continue;
    all += text.length;
    if (parseFloat(style.fontSize) < 12) small.push([text.slice(0, 40), style.fontSize]);
  }
  return [all, small];
}"""


def test_every_text_is_at_least_12_px_on_a_phone(server, browser):
    from helpers.browser import PHONE  # (and skips without playwright or chromium)

    context = browser.new_context(**PHONE, locale="es-ES")
    page = context.new_page()
    small, counted = [], 0
    try:
        for path in PAGES:
            assert page.goto(f"{server[0]}{path}").ok, path
            letters, tiny = page.evaluate(SMALL_TEXT)
            counted += letters
            small += [(path, *t) for t in tiny]
    finally:
        context.close()
    assert counted > 20_000  # (every page's text read)
    assert not small, small[:20]
