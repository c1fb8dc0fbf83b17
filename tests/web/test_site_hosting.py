"""The static site on a host that reads its files (issue 46, item 4; docs/hosting.md): Apache with the site's own
`.htaccess` serves each visitor the pages of their language at the address asked, with no round trip (a plain host
has the page's script move to the other tree: a second page load, about a second); the language chosen on a page's
switch wins over the browser's, both ways; the phones' Python and the service worker are left alone. Netlify's
`_redirects` is checked as written (its rules' order). Apache is Debian's `apache2` (.ci/run installs it)."""
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.web.site import build

APACHE = shutil.which("apache2") or "/usr/sbin/apache2"
MODULES = Path("/usr/lib/apache2/modules")
CONFIG = """ServerRoot "{folder}"
ServerName localhost
Listen 127.0.0.1:{port}
PidFile "{folder}/httpd.pid"
ErrorLog "{folder}/error.log"
""" + "".join(f"LoadModule {m}_module {MODULES}/mod_{m}.so\n"
              for m in ("mpm_event", "authz_core", "dir", "mime", "rewrite", "headers")) + """\
TypesConfig /etc/mime.types
DocumentRoot "{site}"
DirectoryIndex index.html
<Directory "{site}">
  AllowOverride All
  Require all granted
</Directory>
"""


@pytest.fixture(scope="module")
def apache(site, tmp_path_factory):
    """Debian's Apache serving the session's static site with its .htaccess, on a free loopback port: its base URL."""
    if not Path(APACHE).exists() or not (MODULES / "mod_rewrite.so").exists():
        pytest.skip("APACHE TESTS SKIPPED: no apache2 here. Install Debian's: sudo apt-get install apache2")
    with socket.socket() as s:  # a free port
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tmp_path_factory.mktemp("apache")
    (folder / "httpd.conf").write_text(CONFIG.format(folder=folder, port=port, site=site[1] / "site"))
    subprocess.run([APACHE, "-f", str(folder / "httpd.conf"), "-k", "start"], check=True, capture_output=True,
                   env={"PATH": "/usr/sbin:/usr/bin:/bin"})
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/sw.js", timeout=1)
            break
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    yield base
    subprocess.run([APACHE, "-f", str(folder / "httpd.conf"), "-k", "stop"], capture_output=True,
                   env={"PATH": "/usr/sbin:/usr/bin:/bin"})


def answer(url: str, **headers) -> tuple[str, str]:
    """(the page's language, its Vary) as a plain client gets it."""
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as r:
        text = r.read().decode()
        return (text.split('<html lang="', 1)[1][:2] if '<html lang="' in text else ""), r.headers.get("Vary", "")


@pytest.mark.parametrize(("path", "headers", "lang"), [
    ("/", {"Accept-Language": "en-GB,en;q=0.9,es;q=0.5"}, "en"),
    ("/score/duquesa/", {"Accept-Language": "en-US"}, "en"),
    ("/C/DQ07/", {"Accept-Language": "en"}, "en"),
    ("/setup/gemas/?seed=ab12", {"Accept-Language": "es-ES,es"}, "es"),
    ("/", {"Accept-Language": "en-GB", "Cookie": "companion-lang=es"}, "es"),  # chosen on the switch
    ("/rules/nobles/", {"Accept-Language": "es", "Cookie": "theme=1; companion-lang=en"}, "en"),
    ("/en/", {"Accept-Language": "es"}, "en"),  # a tree's own address is what it says
])
@pytest.mark.slow  # the session's whole static site, built for it (about 25 s)
def test_apache_serves_the_visitors_language_at_the_address_asked(apache, path, headers, lang):
    got, vary = answer(apache + path, **headers)
    assert got == lang and "Accept-Language" in vary and "Cookie" in vary


@pytest.mark.slow  # the session's whole static site, built for it (about 25 s)
def test_apache_leaves_the_phones_python_and_the_service_worker_alone(apache, site):
    for path in ("/sw.js", "/py/worker.js"):
        with urllib.request.urlopen(urllib.request.Request(apache + path, headers={"Accept-Language": "en"})) as r:
            assert r.read() == (site[1] / "site" / path.lstrip("/")).read_bytes(), path


def test_an_english_phone_opens_the_home_in_english_in_one_page_load(apache, site, chromium):
    """On Apache the English page comes at once (one document asked); on a plain host the Spanish one came first and
    its script opened the English tree (two). Then ES on the switch: the Spanish home at the same address, which a
    reload keeps."""
    loads = {}
    for name, base in (("apache", apache), ("plain", site[0])):
        context = chromium.new_context(locale="en-GB", service_workers="block")
        page = context.new_page()
        documents = []
        page.on("request", lambda r, documents=documents: documents.append(r.url)
                if r.resource_type == "document" else None)
        page.goto(base + "/")
        page.wait_for_load_state("load")
        loads[name] = (len(documents), page.evaluate("document.documentElement.lang"))
        if name == "apache":
            page.click(".langs a[hreflang=es]")
            page.wait_for_load_state("load")
            assert page.evaluate("document.documentElement.lang") == "es"
            page.reload()
            assert page.evaluate("[document.documentElement.lang, location.pathname]") == ["es", "/"]
        context.close()
    assert loads == {"apache": (1, "en"), "plain": (2, "en")}, loads


def test_netlifys_rules_keep_the_python_and_the_trees_then_the_choice_then_the_browsers_language():
    rules = [line.split() for line in build.host_files("/deck", ("es", "en"))["_redirects"].splitlines()
             if line and not line.startswith("#")]
    assert rules == [["/deck/py/*", "/deck/py/:splat", "200"], ["/deck/sw.js", "/deck/sw.js", "200"],
                     ["/deck/en/*", "/deck/en/:splat", "200"],
                     ["/deck/*", "/deck/:splat", "200", "Cookie=companion-lang"],
                     ["/deck/*", "/deck/en/:splat", "302!", "Language=en"]]
