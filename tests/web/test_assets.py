"""The stylesheet and scripts reach phones without their comments (companion.web.assets), still whole: every
rule and statement kept, each script still parses, a second load is a 304."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.web.assets import compact

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
