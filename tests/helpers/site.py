"""The static site as a phone meets it: served by a plain file server, visited once then offline, its pages drawn by the
phones' Python."""
from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from helpers import server


def until(page, check: str, seconds: float) -> None:
    """Polls an async check in the page until it answers true. (Playwright's wait_for_function takes the promise an
    async function returns as a truthy answer and returns at once: the offline tests then went offline before the
    service worker had kept what they need, and failed one run in five.)"""
    end = time.monotonic() + seconds
    while not page.evaluate(check):
        assert time.monotonic() < end, f"not true after {seconds} s: {check}"
        time.sleep(0.1)



def visited_then_offline(context, page, url: str, proc) -> None:
    """A phone's first visit of `url`: its Python up and the site's service worker holding the site and the phones'
    Python; then the file server (`proc`) stopped, the phone offline, and the page opened again from its copies."""
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.pythonReady", timeout=120000)
    until(page, KEPT, 180)
    proc.terminate()
    proc.wait(timeout=10)
    context.set_offline(True)
    page.reload()



def served(folder: Path) -> tuple[str, subprocess.Popen]:
    """Python's plain static file server on a free port for `folder`, once it answers (the caller stops it)."""
    port = server.free_port()
    return f"http://127.0.0.1:{port}", server.static_server(folder, port)



def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:  # follows the static server's 301 to the folder
        assert r.status == 200
        return r.read().decode()



def wait_drawn(page, count: int = 1, timeout: float = 60000) -> None:
    try:
        page.wait_for_function(f"Number(document.documentElement.dataset.drawn || 0) >= {count}", timeout=timeout)
    except Exception:
        said = page.evaluate("document.querySelector('.python-status')?.textContent")
        pytest.fail(f"not drawn: {page.url} says {said}")



def text_of(html_or_page, selector: str, drop: str = "") -> str:
    """An element's text, spaces folded (`drop`: parts left out, e.g. a link that names the host)."""
    import html as _html
    if isinstance(html_or_page, str):
        from html.parser import HTMLParser

        class Grab(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.depth, self.out, self.skip = 0, [], 0

            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                if self.depth:
                    self.depth += tag not in ("br", "input", "img", "meta", "link")
                    if drop and drop.lstrip(".") in (a.get("class") or "").split():
                        self.skip = self.depth
                elif a.get("id") == selector.lstrip("#") or (selector == "main" and tag == "main"):
                    self.depth = 1

            def handle_endtag(self, tag):
                if self.depth:
                    if self.skip == self.depth:
                        self.skip = 0
                    self.depth -= 1

            def handle_data(self, data):
                if self.depth and not self.skip:
                    self.out.append(data)
        grab = Grab()
        grab.feed(html_or_page)
        text = "".join(grab.out)
    else:
        text = html_or_page.evaluate("([s, d]) => { const e = document.querySelector(s).cloneNode(true); "
                                     "if (d) e.querySelectorAll(d).forEach((x) => x.remove()); return e.textContent; }",
                                     [selector, drop])
    return " ".join(_html.unescape(text).split())



def python_drawn(page) -> None:
    """The page's Python is up and has drawn the page for its address."""
    page.wait_for_function("document.documentElement.dataset.pythonReady && document.documentElement.dataset.drawn",
                           timeout=120_000)



def kept_sheets(page) -> dict:
    return json.loads(page.evaluate("localStorage.getItem('companion-phone-sheets') || '{}'"))



def new_phone_sheet(page, base: str, game: str, names: list[str]) -> None:
    """A sheet started on the phone's sheets page (its Python up), left open."""
    page.goto(f"{base}/en/phone-sheets/")
    python_drawn(page)
    page.select_option("select[name=game]", game)
    for i, name in enumerate(names):
        page.fill(f"input[name='players.{i}']", name)
    page.locator("form[data-phone=new] button[type=submit]").tap()
    page.wait_for_selector("a[data-phone-calculator]")



KEPT = "async () => (await navigator.serviceWorker.ready).active?.state === 'activated'"

