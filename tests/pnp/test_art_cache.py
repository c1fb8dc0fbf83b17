"""SVG art read once per machine (companion/pnp/art_cache.py): a fresh process finds what an earlier one read of
the same bytes (its size and its operators) without svglib, and prints the same PDF; an entry from other code, or
one that cannot be read, is read as nothing kept."""
import io
import json
import shutil

import pytest
from reportlab.pdfgen.canvas import Canvas

from companion.pnp import art, art_cache
from companion.pnp.build import build
from companion.pnp.document import BuildSettings

NECKLACE = "cards/art/queens-necklace/necklace.svg"


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A cache folder of its own, and this process's own memory of art forgotten (as in a new process)."""
    monkeypatch.setenv("COMPANION_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(art, "_LOADED", art._Cache(art.CACHE_BUDGET))
    monkeypatch.setattr(art, "_SVG_CODE", art._Cache(art.CACHE_BUDGET // 4))

    def forget():
        art._LOADED.items.clear()
        art._SVG_CODE.items.clear()
    return forget


def drawn(path):
    c = Canvas(io.BytesIO())
    c.beginForm("f", lowerx=0, lowery=0, upperx=10, uppery=10)
    start = len(c._code)
    art.place(c, path, 0, 0, 10, 10)
    return c._code[start:]


def test_a_new_process_draws_a_picture_read_before_without_svglib(fresh, monkeypatch, tmp_path):
    first, ops = art.inspect(NECKLACE), drawn(NECKLACE)
    assert len(list((tmp_path / "cache" / "art").glob("*.json"))) == 1
    fresh()
    monkeypatch.setattr(art, "_svg", lambda *a: pytest.fail("svglib read a picture kept in the cache"))
    assert art.inspect(NECKLACE) == first
    assert drawn(NECKLACE) == ops


def test_operators_let_go_are_read_again_from_the_file(fresh):
    ops = drawn(NECKLACE)
    fresh()
    art.inspect(NECKLACE)  # from the cache: no drawing
    art._SVG_CODE.items.clear()  # its operators let go (the memory budget)
    assert drawn(NECKLACE) == ops


def test_an_entry_of_other_code_or_unreadable_is_not_read(fresh, monkeypatch, tmp_path):
    first = art.inspect(NECKLACE)
    entry = next((tmp_path / "cache" / "art").glob("*.json"))
    fresh()
    entry.write_text(json.dumps({"info": ["SVG", 1, 1, "x", "", False], "ops": ["0 0 m"]}))  # as if tampered
    monkeypatch.setattr(art_cache, "_code_version", lambda: "another")
    assert art.inspect(NECKLACE) == first  # read by svglib again
    fresh()
    monkeypatch.setattr(art_cache, "_code_version", lambda: entry.name.split("-")[1][:-5])
    entry.write_text("{not json")
    assert art.inspect(NECKLACE) == first


@pytest.mark.slow  # two whole builds, cold and cached (about 9–18 s)
def test_a_build_from_the_cache_is_the_same_pdf(fresh, tmp_path):
    def pdf(folder):
        build(["queens-necklace"], tmp_path / folder, BuildSettings())
        return (tmp_path / folder / "queens-necklace.pdf").read_bytes()

    first = pdf("a")
    fresh()
    assert pdf("b") == first  # every picture from the cache
    shutil.rmtree(tmp_path / "cache")
    fresh()
    assert pdf("c") == first  # the cache emptied: every picture read by svglib again
