"""What the answers say about themselves over HTTP (issue 46, item 3): pages and the API gzipped for a browser that
takes it, `Vary` naming what chose the page's language and the encoding, a cache rule on every page (revalidated;
none kept where an edit link is), and the language an address asked for kept through a printed code's redirect."""
import gzip

import pytest

from companion.web import create_app


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")}).test_client()


def test_a_page_is_gzipped_for_a_browser_that_takes_it_and_plain_for_one_that_does_not(client):
    plain = client.get("/score/duquesa", headers={"Accept-Language": "en"})
    zipped = client.get("/score/duquesa", headers={"Accept-Language": "en", "Accept-Encoding": "gzip, deflate, br"})
    assert plain.status_code == zipped.status_code == 200
    assert "Content-Encoding" not in plain.headers and zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.get_data()) == plain.get_data()
    assert len(zipped.get_data()) * 5 < len(plain.get_data())  # 21.6 KB → about 2.3 KB
    assert int(zipped.headers["Content-Length"]) == len(zipped.get_data())
    for answer in (plain, zipped):
        varies = {v.strip() for v in answer.headers["Vary"].split(",")}
        assert {"Accept-Encoding", "Accept-Language", "Cookie"} <= varies


def test_the_api_and_the_scripts_are_gzipped_too_and_a_small_answer_is_not(client):
    answer = client.post("/api/v1/gemas/score", json={"players": [{"name": f"P{i}"} for i in range(3)]},
                         headers={"Accept-Encoding": "gzip"})
    assert answer.headers.get("Content-Encoding") == "gzip" or len(answer.get_data()) < 500
    script = client.get("/static/companion.js", headers={"Accept-Encoding": "gzip"})
    assert script.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in script.headers["Vary"]
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small.headers


def test_a_page_in_the_language_of_its_address_does_not_vary_by_the_browsers_languages(client):
    answer = client.get("/score/duquesa?lang=es", headers={"Accept-Encoding": "gzip"})
    assert "Accept-Language" not in answer.headers["Vary"] and "Accept-Encoding" in answer.headers["Vary"]


def test_every_page_has_a_cache_rule(client):
    assert client.get("/").headers["Cache-Control"] == "no-cache"
    assert client.get("/rules/nobles").headers["Cache-Control"] == "no-cache"
    assert client.get("/sheets").headers["Cache-Control"] == "no-store"  # (an edit link's page keeps nothing)


@pytest.mark.parametrize("code", ["/C/DQ01?lang=en", "/C/duquesa/dq01?lang=en"])
def test_the_language_an_address_asks_for_is_kept_through_a_printed_codes_redirect(client, code):
    moved = client.get(code)
    assert moved.status_code == 301 and moved.headers["Location"].endswith("/c/duquesa/DQ01?lang=en")
    page = client.get(moved.headers["Location"], headers={"Accept-Language": "es"})
    assert page.status_code == 200 and '<html lang="en"' in page.get_data(as_text=True)
