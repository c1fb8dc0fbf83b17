"""The stylesheet and scripts reach phones without their comments (companion.web.shell.assets), still whole: every
rule and statement kept, each script still parses, a second load is a 304."""
import gzip
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.web.shell.assets import compact

STATIC = Path(__file__).parents[2] / "companion" / "web" / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))


def test_the_stylesheet_keeps_every_rule_without_its_comments(client):
    written = (STATIC / "companion.css").read_text(encoding="utf-8")
    served = client.get("/static/companion.css").get_data(as_text=True)
    assert "/*" not in served and len(served) < 0.95 * len(written)
    without = re.sub(r"/\*.*?\*/", "", written, flags=re.S)
    assert served.count("{") == without.count("{") == served.count("}")
    # nothing but white space differs, and a string keeps its spaces (the page's rules are compared as drawn below)
    assert re.sub(r"\s+", "", served) == re.sub(r"\s+", "", without)
    assert re.findall(r'"[^"\n]*"', served) == re.findall(r'"[^"\n]*"', without)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_each_script_keeps_its_statements_and_still_parses(client, script, tmp_path):
    written = script.read_text(encoding="utf-8")
    # only whole-line comments are dropped: a template string spanning lines could hold one, so none may
    assert not [lit for lit in re.findall(r"`[^`]*`", written) if "\n" in lit], script.name
    served = compact(script.name, written)
    assert not re.search(r"^\s*//", served, re.M)
    code = [line.strip() for line in written.splitlines() if line.strip() and not line.strip().startswith("//")]
    # a comment after a statement goes too: each line up to its "  // " where a statement or block ends before it
    code = [re.split(r"(?<=[;{},)])\s+// ", line, maxsplit=1)[0] for line in code]
    assert served.splitlines() == code
    assert re.findall(r'"[^"\n]*"', "\n".join(code)) == re.findall(r'"[^"\n]*"', served)  # every string as written
    if script.name in ("companion.js", "theme.js", "sheets.js", "site-python.js"):  # served as static files
        assert client.get(f"/static/{script.name}").get_data(as_text=True) == served
    node = shutil.which("node")
    if node:  # (the suite's machines have it; without, the line comparison above still holds)
        (tmp_path / script.name).write_text(served.replace("__FILES__", "[]").replace("__ROOT__", ""), encoding="utf-8")
        check = subprocess.run([node, "--check", str(tmp_path / script.name)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr


def test_a_second_load_is_not_modified(client):
    first = client.get("/static/companion.js")
    again = client.get("/static/companion.js", headers={"If-None-Match": first.headers["ETag"].strip('"').join('""')})
    assert first.status_code == 200 and again.status_code == 304
    assert first.headers["Content-Type"].startswith(("text/javascript", "application/javascript"))
    assert client.get("/static/icon.svg").status_code == 200 and client.get("/static/nothing.js").status_code == 404


# --- Sent compressed, and kept a year at an address that carries the file's version (issue 30) ---

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def loaded(client, path: str = "/score/duquesa") -> list[str]:
    """The stylesheets, scripts and icon a page loads, as its HTML gives their addresses."""
    page = client.get(path).get_data(as_text=True)
    return re.findall(r'<(?:link(?![^>]*rel="(?:alternate|manifest)")|script)[^>]+(?:href|src)="(/[^"]+)"', page)


def test_every_file_a_page_loads_is_at_a_versioned_address_kept_a_year(client):
    urls = loaded(client)
    assert len(urls) == 5 and all(re.search(r"\?v=[0-9a-f]{10}$", u) for u in urls), urls  # icon, 2 styles, 2 scripts
    for url in urls:
        r = client.get(url)
        assert r.status_code == 200
        assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable", url
        assert url.endswith(r.headers["ETag"].strip('"')[:10])  # the version is what is sent
        plain = client.get(url.partition("?")[0])  # the same file without its version: kept an hour
        assert plain.get_data() == r.get_data() and plain.headers["Cache-Control"] == "max-age=3600"
        stale = client.get(url.partition("?")[0] + "?v=0123456789")  # an old page's address: the file of today
        assert stale.get_data() == r.get_data() and "immutable" not in stale.headers["Cache-Control"]


@pytest.mark.parametrize("name", ["companion.css", "companion.js", "sheets.js", "icons/duquesa.css"])
def test_compressed_bytes_are_the_same_file(client, name):
    url = f"/{name}" if name.startswith("icons/") else f"/static/{name}"
    raw, packed = client.get(url), client.get(url, headers=GZIP)
    assert "Content-Encoding" not in raw.headers and packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == raw.get_data()
    assert len(packed.get_data()) < 0.5 * len(raw.get_data())  # (text: well under half)
    for r in (raw, packed):
        assert int(r.headers["Content-Length"]) == len(r.get_data())
        assert "Accept-Encoding" in r.headers["Vary"]  # a cache between keeps both forms apart
    assert raw.headers["ETag"] != packed.headers["ETag"]  # two representations, two tags
    assert client.get(url, headers=GZIP).get_data() == packed.get_data()  # compressed once: the same bytes again


def test_a_client_that_refuses_gzip_gets_the_file_as_it_is(client):
    for refusal in ("identity", "gzip;q=0", ""):
        r = client.get("/static/companion.css", headers={"Accept-Encoding": refusal})
        assert "Content-Encoding" not in r.headers and b"{" in r.get_data(), refusal


def test_a_copy_the_phone_holds_is_a_304_in_either_form(client):
    for headers in ({}, GZIP):
        for url in ("/static/companion.js", "/icons/gemas.css"):
            first = client.get(url, headers=headers)
            again = client.get(url, headers={**headers, "If-None-Match": first.headers["ETag"]})
            assert first.status_code == 200 and again.status_code == 304 and again.get_data() == b""
            assert again.headers["ETag"] == first.headers["ETag"]
    # the compressed form's tag is not the plain form's: a client that stops accepting gzip gets the file again
    packed = client.get("/static/companion.js", headers=GZIP)
    assert client.get("/static/companion.js", headers={"If-None-Match": packed.headers["ETag"]}).status_code == 200


def test_a_page_holding_an_edit_link_is_never_compressed_and_a_form_token_is_never_sent_twice(client):
    """A page echoes what a form sent: its compressed length beside a secret would leak the secret (BREACH). A page
    holding an edit link goes out uncompressed; the CSRF token every page holds is masked afresh in each answer (and
    every masking is accepted)."""
    made = client.post("/sheets", data={"_csrf": _token(client), "game": "gemas", "players.0": "Ana",
                                        "players.1": "Bea"})
    sheet = made.headers["Location"]
    for path in (f"{sheet}?title=Ana", "/sheets?title=Ana"):
        r = client.get(path, headers=GZIP)
        assert "Content-Encoding" not in r.headers and b"<html" in r.get_data(), path
    page = client.get("/score/duquesa?players.0.name=Ana", headers=GZIP)
    assert page.headers["Content-Encoding"] == "gzip" and b"Ana" in gzip.decompress(page.get_data())
    tokens = [_token(client) for _ in range(2)]
    assert tokens[0] != tokens[1]
    for token in tokens:
        ok = client.post("/sheets", data={"_csrf": token, "game": "gemas", "players.0": "Ana", "players.1": "Bea"})
        assert ok.status_code == 303, ok.get_data(as_text=True)[:300]
    assert client.post("/sheets", data={"_csrf": tokens[0][:-2] + "AA", "game": "gemas", "players.0": "Ana",
                                        "players.1": "Bea"}).status_code == 400


def _token(client) -> str:
    return client.get("/api/v1/csrf").get_json()["csrf"]


def test_a_changed_file_gets_a_new_address(app, tmp_path):
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    app.static_folder = str(folder)
    client = app.test_client()
    old = [u for u in loaded(client) if "companion.css" in u][0]
    css = folder / "companion.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n.changed { color: red }\n", encoding="utf-8")
    new = [u for u in loaded(client) if "companion.css" in u][0]
    assert new != old and new.partition("?")[0] == old.partition("?")[0] == "/static/companion.css"
    now = client.get(new)
    assert b".changed{color:red}" in now.get_data() and "immutable" in now.headers["Cache-Control"]
    assert "immutable" not in client.get(old).headers["Cache-Control"]  # the old address no longer says forever
    others = [u for u in loaded(client) if "companion.css" not in u]
    assert others == [u for u in loaded(client) if "companion.css" not in u]  # the other files keep theirs


def test_a_designers_look_changed_in_its_file_gets_a_new_address(tmp_path):
    """A game served live from a designer's file (serve --cards): its look is checked at each use, never kept a year,
    and a change to the file gives the page a new address for it."""
    from companion.web import create_app

    shutil.copytree(Path(__file__).parents[2] / "docs" / "example-game", tmp_path / "game")
    data = tmp_path / "game" / "cosecha.yaml"
    app = create_app({"TESTING": True, "CARD_FILES": [str(data)], "INSTANCE_PATH": str(tmp_path / "instance")})
    client = app.test_client()
    [old] = [u for u in loaded(client, "/rules/cosecha") if u.startswith("/icons/")]
    assert "no-cache" in client.get(old).headers["Cache-Control"].split(", ")
    text = data.read_text(encoding="utf-8")
    accent = re.search(r'accent: *"(#[0-9a-fA-F]{6})"', text)[1]
    data.write_text(text.replace(accent, "#123456"), encoding="utf-8")
    [new] = [u for u in loaded(client, "/rules/cosecha") if u.startswith("/icons/")]
    assert new != old and "--accent:#123456" in client.get(new).get_data(as_text=True)


def test_after_one_page_the_offline_page_has_its_styles_and_scripts(browser, tmp_path):
    """The first page a phone opens loads its files before the service worker runs, so the worker holds them only
    at the plain addresses it installs with; the offline page asks for them at their versioned addresses and gets
    those copies (the same files): styled, its script running. (Fails with the worker's exact matches alone.)"""
    from helpers.browser import OFFLINE_PHONE  # (and skips without playwright or chromium)
    from helpers.server import free_port, start_server

    base, proc = start_server(free_port(), tmp_path)
    context = browser.new_context(**OFFLINE_PHONE, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{base}/rules/gemas")
        page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                               timeout=15_000)
        proc.terminate()
        proc.wait(timeout=10)
        # (the browser's own cache keeps them a year too: emptied, as a phone short of room may, so that the
        # worker's copies are what answers)
        context.new_cdp_session(page).send("Network.clearBrowserCache")
        page.goto(f"{base}/score/duplicon")  # never opened: the offline page
        assert page.locator("h1").inner_text() == "No connection"
        bar = page.locator("header.bar").evaluate("(e) => getComputedStyle(e).display")
        assert bar == "flex", bar  # companion.css applied (unstyled, a header is a block)
        assert page.locator("[data-theme-switch]").is_visible()  # companion.js ran (it shows the switch)
    finally:
        context.close()
        proc.terminate()
        proc.wait(timeout=10)
