"""Card data and art at random (issue 25): random YAML shapes, the example game's text broken at random, random
SVG elements and attributes, odd and damaged images. Whatever comes in, checking it never raises (every problem is
a `file:line: ...` line), and what the check accepts is drawn: `validate` ok means `build` works."""
import base64
import io
import itertools
import re
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from companion import cards
from companion.cards import yaml_lines as cards_yaml
from companion.look import Art
from companion.pnp import art
from companion.pnp.design_check import check_art
from helpers.games import examples as scaled

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "example-game" / "especias.yaml"
def fast(examples: int):
    return settings(max_examples=scaled(examples), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


# --- YAML ------------------------------------------------------------------------------------------------------

YAML_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def checked(text: str, name: str = "especias.yaml"):
    """check_text never raises, and each error names the file and a line of it."""
    card_set, errors = cards.check_text(text, name)
    assert (card_set is None) == bool(errors)
    last = len(YAML_BREAKS.findall(text)) + 2  # a lone \r (or NEL, LS, PS) starts a line for YAML and editors
    for line in errors:
        # file:line: component: where: what; a scoring: problem is file:line: scoring.where: what (the contract's)
        m = re.match(rf"{re.escape(name)}:(\d+): (?:.+?: .+?: .|scoring[^ ]*: .)", line)
        assert m and 0 <= int(m[1]) <= last, line
    return card_set, errors


scalars = (st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats()
           | st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
           | st.sampled_from(["&a", "*a", "!!int x", "2001-13-45", "- x", "{", "[", "? x", "|", ">", "%", "@", "`",
                              ""]))
shapes = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=4), max_leaves=25)


@fast(100)
@given(value=shapes)
def test_any_yaml_shape_is_read_back_or_refused_at_a_line(value):
    text = yaml.safe_dump({"game": "especias", "x": value}, allow_unicode=True)
    try:
        doc, _lines = cards_yaml.read_yaml(text)
    except cards_yaml.YamlProblem as e:
        assert 1 <= e.line <= text.count("\n") + 1 and e.message
    else:
        assert doc["game"] == "especias"
    checked(text)


EXAMPLE_TEXT = EXAMPLE.read_text(encoding="utf-8")
PIECES = ["&a ", "*a", "[", "]", "{", "}", ": ", "- ", "\n", "\n  ", "\t", "'", '"', "#", "!!int ", "!!binary ",
          "!!python/object:os.system ", "? ", "|", ">", "%YAML 1.1\n", "---\n", "...\n", ",", "<<: ", "~", "\\",
          "2001-13-45", "9" * 5000, "[" * 60, "{a: " * 60, "\ufeff", "\x85", "\u2028", "\0"]


@fast(120)
@given(data=st.data())
def test_the_example_game_broken_at_random_is_checked_line_by_line(data):
    text = EXAMPLE_TEXT
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + data.draw(st.sampled_from(PIECES) | st.text(max_size=3)) + text[at + cut:]
    checked(text)


VALUE_PIECES = ["2001-13-45", "!!int abc", "9" * 5000, "&a [*a]", "*a", "&b x", "[" * 1200 + "]" * 1200,
                "{a: " * 1200 + "}" * 1200, "!!binary zz", "!!timestamp 2001-02-30", "!!float x", ".inf", "-.nan",
                "0x1F", "0o17", "1_000", "!!set {a, b}", "!!omap [a: 1]", "!!python/name:os.system", "{? [a]: b}",
                "[a, {b: [c]}]", "!!str", "!<tag:x> 1", "|\n  x", ">-", "'unterminated", "@x", "- - - -", "? ? ?"]
VALUE_LINES = [i for i, line in enumerate(EXAMPLE_TEXT.splitlines()) if re.match(r"\s*(- )?[\w-]+: \S", line)]


@fast(120)
@given(data=st.data())
def test_a_value_in_the_example_written_as_odd_yaml(data):
    lines = EXAMPLE_TEXT.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.sampled_from(VALUE_LINES))
        key = lines[i].split(": ", 1)[0]
        lines[i] = f"{key}: {data.draw(st.sampled_from(VALUE_PIECES) | st.text(max_size=6))}"
    checked("\n".join(lines) + "\n")


@fast(60)
@given(data=st.data())
def test_a_value_of_the_example_replaced_by_any_shape(data):
    doc = yaml.safe_load(EXAMPLE_TEXT)
    paths = list(_paths(doc))
    path = data.draw(st.sampled_from(paths))
    node = doc
    for key in path[:-1]:
        node = node[key]
    if path:
        node[path[-1]] = data.draw(shapes)
    checked(yaml.safe_dump(doc, allow_unicode=True))


@pytest.mark.parametrize("key, said", [("\n", "title['\\n']"), ("\u2028", "title['\\u2028']"), ("", "title['']"),
                                       (" es", "title[' es']")])
def test_a_key_with_a_line_break_or_nothing_to_read_is_named_quoted_on_one_line(key, said):
    """Found by the test above: a key `\n` split the problem over two lines ("title." then ": unknown key")."""
    doc = yaml.safe_load(EXAMPLE_TEXT)
    doc["title"][key] = None
    _, errors = checked(yaml.safe_dump(doc, allow_unicode=True))
    assert any(f": {said}: unknown key" in line for line in errors), errors


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


# --- Art: what check_art accepts, place() draws -------------------------------------------------------------------

_count = itertools.count()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A one-card game whose card gets the art file of each example (each its own file: the art cache is keyed by
    a file's path, time and size)."""
    from companion.pnp.draw import register_fonts

    register_fonts()  # as a build's document does before any face is drawn
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "art").mkdir()
    path = folder / "tiny.yaml"
    path.write_text("game: tiny\ntitle: {es: Mini, en: Tiny}\nprefix: TY\nplayers: [2, 4]\ncomponents:\n"
                    "  - id: TY-0\n    type: card\n    name: {es: Carta, en: Card}\n    art: art/x.svg\n")
    return folder, cards.load_file(path)


def accepted_means_drawn(tiny, data: bytes, suffix: str) -> bool:
    """Check the art file as validate does; when it passes, draw it as the build does (in every window size a
    face gives it, in two documents); True when accepted."""
    folder, card_set = tiny
    given_path = f"art/f{next(_count)}{suffix}"
    (folder / given_path).write_bytes(data)
    component = replace(card_set.components[0], art=Art(given_path, str(folder / given_path), 9))
    errors, warnings = check_art(replace(card_set, components=(component,)))
    for line in errors + warnings:
        assert line.startswith((f"{card_set.path}:9: TY-0: art: '{given_path}' ",
                                f"{card_set.path}:9: TY-0: art: warning: '{given_path}' ")), line
    if errors:
        return False
    for window in (30.0, 102.0, 250.0):
        c = Canvas(io.BytesIO())
        art.place(c, str(folder / given_path), 10, 10, window, window, window_pt=window)
        art.place(c, str(folder / given_path), 10, 10, 20, 40)
        c.showPage()
        c.save()
    return True


def _png(mode, size=(8, 8), **save) -> bytes:
    out = io.BytesIO()
    im = Image.new(mode, size)
    if mode == "P":
        im.putpalette([i % 256 for i in range(768)])
        save.setdefault("transparency", 0)
    im.save(out, "PNG", **save)
    return out.getvalue()


def _jpeg(mode, size=(8, 8), **save) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size).save(out, "JPEG", **save)
    return out.getvalue()


SMALL_PNG = _png("RGBA")
IMAGES = {
    **{f"png-{m}": _png(m) for m in ("1", "L", "LA", "P", "RGB", "RGBA", "I;16")},
    "png-interlaced": _png("RGB", interlace=1), "png-1x1": _png("L", (1, 1)), "png-thin": _png("RGB", (1, 3000)),
    "png-large": _png("RGBA", (1200, 900)), "png-16bit-rgba": None,
    **{f"jpeg-{m}": _jpeg(m) for m in ("L", "RGB", "CMYK")},
    "jpeg-progressive": _jpeg("RGB", (300, 200), progressive=True), "jpeg-large": _jpeg("RGB", (1500, 1000)),
    "jpeg-cmyk-large": _jpeg("CMYK", (900, 900)),
}


def _png16() -> bytes:
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + bytes(range(64)) for _ in range(8))  # 8 × 8 RGBA, 16 bits a sample
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 16, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


IMAGES["png-16bit-rgba"] = _png16()


@pytest.mark.parametrize("name", IMAGES)
def test_odd_images_are_drawn(tiny, name):
    assert accepted_means_drawn(tiny, IMAGES[name], ".png" if name.startswith("png") else ".jpg")


@fast(80)
@given(name=st.sampled_from(sorted(IMAGES)), data=st.data())
def test_a_damaged_image_is_refused_or_drawn(tiny, name, data):
    picture = bytearray(IMAGES[name])
    for _ in range(data.draw(st.integers(0, 6))):
        at = data.draw(st.integers(0, len(picture) - 1))
        picture[at] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        picture = picture[:data.draw(st.integers(0, len(picture)))]
    accepted_means_drawn(tiny, bytes(picture), data.draw(st.sampled_from([".png", ".jpg", ".jpeg"])))


SVG, XLINK = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
NUMBERS = ["0", "1", "-1", "10", "200", "1e308", "-1e308", "1e-320", "nan", "inf", "-inf", "1e999", "", "abc", "10%",
           "5px", "2em", "3mm", "1,2", "1 2 3", "0.5", "-0"]
VALUES = {
    "transform": ["scale(nan)", "rotate(45)", "matrix(1 0 0 1 0 0)", "matrix(nan 0 0 1 0 0)", "translate(1e308)",
                  "skewX(90)", "scale(0)", "rotate(1e999 1 1)", "scale(1e200) scale(1e200)", "foo(1)", ""],
    "d": ["M0 0 L10 10 Z", "M 0 0 A 5 5 0 1 1 10 10", "M nan 0 L1 1", "M0 0 C", "Q1 1", "m1e308 1e308 l1e308 1e308",
          "", "M0 0 A 0 0 0 0 0 0 0", "M0,0 h10 v10 H-5 V-5 s1 1 2 2 t3 3 z"],
    "points": ["0,0 10,10 20,0", "nan,1 2,3", "1", "", "0 0 1e999 1"],
    "href": ["#a", "#b", "#g", "#missing", "", "x.svg", "../x.png", "/dev/zero",
             f"data:image/png;base64,{base64.b64encode(SMALL_PNG).decode()}", "data:image/png;base64,!!!",
             "data:image/jpeg;base64,AAAA", "data:image/svg+xml;base64,PHN2Zy8+"],
    "fill": ["red", "#abc", "url(#a)", "url(#g)", "none", "rgb(300,-1,nan)", "currentColor", "hsl(1,2%,3%)", "#12",
             "url(#missing)", "inherit"],
    "style": ["fill:red;stroke:nan", "clip-path:url(#a)", "font-size:nan", "stroke-width:1e308", "display:none",
              "fill:url(#g);opacity:2", ";;:", "stroke-dasharray:nan 1"],
    "clip-path": ["url(#a)", "url(#b)", "url(#missing)", "none"],
    "font-family": ["serif", "Helvetica", "../../x", "/etc/passwd", "Noto Serif", ""],
    "font-size": ["nan", "0", "12", "-3", "1e308"],
    "id": ["a", "b", "g", "c"],
    "stroke-dasharray": ["1 2", "nan", "0 0", "-1"],
    "viewBox": ["0 0 200 200", "0 0 nan nan", "0 0 0 0", "-1 -1 2 2", "0 0 1e308 1e308", "a b c d"],
    "preserveAspectRatio": ["none", "xMidYMid slice", "bad"],
    "offset": ["0", "0.5", "nan", "2"],
    "stop-color": ["red", "nan"],
    "gradientTransform": ["rotate(nan)", "scale(2)"],
}
NUMERIC = ["x", "y", "width", "height", "r", "rx", "ry", "cx", "cy", "x1", "y1", "x2", "y2", "stroke-width",
           "opacity", "fill-opacity", "stroke-opacity", "fx", "fy"]
TAGS = ["g", "rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "use", "image", "text", "tspan",
        "defs", "symbol", "clipPath", "linearGradient", "radialGradient", "stop", "style", "a", "switch", "title",
        "mask", "pattern", "marker", "svg", "foreignObject"]
CSS = ["rect{fill:red}", "circle{clip-path:url(#a)}", "* {stroke-width: nan}", "@import url(x.css);", "{", "g>rect{"]

PLAIN = ["0", "1", "10", "50", "120", "200", "0.5", "-5"]
odd_numbers = st.sampled_from(NUMBERS) | st.floats().map(repr)
numbers = st.sampled_from(PLAIN) | st.sampled_from(PLAIN) | st.sampled_from(PLAIN) | odd_numbers  # mostly plain
sizes = st.sampled_from(["200", "100", "50mm", "3in", "80%"] * 4) | odd_numbers


@st.composite
def attributes(draw):
    """Plain values mostly (so that many drawings pass and are drawn), odd ones often enough."""
    names = draw(st.lists(st.sampled_from(sorted(VALUES) + NUMERIC * 2), max_size=6, unique=True))
    return {name: draw(st.sampled_from(VALUES[name]) if name in VALUES and draw(st.integers(0, 4)) else
                       st.sampled_from(VALUES.get(name, ["#a"])) if name == "href" else numbers) for name in names}


@st.composite
def elements(draw, depth=0):
    tag = draw(st.sampled_from(TAGS))
    attrs = draw(attributes())
    children = draw(st.lists(elements(depth + 1), max_size=3)) if depth < 4 else []
    text = draw(st.sampled_from(CSS) if tag == "style" else st.sampled_from(["", "Rey", "nan", "x" * 200]))
    return tag, attrs, children, text


def to_svg(root_attrs: dict, children: list) -> bytes:
    def make(parent, tag, attrs, kids, text):
        el = etree.SubElement(parent, f"{{{SVG}}}{tag}")
        for name, value in attrs.items():
            el.set(f"{{{XLINK}}}href" if name == "href" and len(value) % 2 else name, value)
        el.text = text or None
        for kid in kids:
            make(el, *kid)

    root = etree.Element(f"{{{SVG}}}svg", nsmap={None: SVG, "xlink": XLINK})
    for name, value in root_attrs.items():
        root.set(name, value)
    for child in children:
        make(root, *child)
    return etree.tostring(root)


@fast(100)
@given(root=st.fixed_dictionaries({"viewBox": st.sampled_from(["0 0 200 200"] * 8 + VALUES["viewBox"])},
                                  optional={"width": sizes, "height": sizes}),
       children=st.lists(elements(), min_size=1, max_size=4))
def test_random_svg_elements_and_attributes_are_refused_or_drawn(tiny, root, children):
    accepted_means_drawn(tiny, to_svg(root, children), ".svg")


def test_the_fuzzed_svgs_are_often_drawn(tiny):
    """The generator is not all noise: a plain random drawing passes and is drawn."""
    shapes_ = [("rect", {"width": "10", "height": "10", "fill": "url(#g)"}, [], ""),
               ("linearGradient", {"id": "g"}, [("stop", {"offset": "0", "stop-color": "red"}, [], "")], ""),
               ("use", {"href": "#a"}, [], ""), ("g", {"id": "a"}, [("circle", {"r": "5"}, [], "")], ""),
               ("image", {"href": VALUES["href"][8], "width": "9", "height": "9"}, [], "")]
    assert accepted_means_drawn(tiny, to_svg({"viewBox": "0 0 200 200"}, shapes_), ".svg")
