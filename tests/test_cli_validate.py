"""`companion validate`: 0 on the shipped data; every kind of broken file is exit 2 with file:line, no traceback."""
import re
import shutil
import subprocess
import sys

import pytest

from companion.cli import main
from companion.core.resources import cards_dir
from helpers.games import GAME_IDS
from helpers.server import error_lines

BROKEN = [
    # (name, game, old text, new text, card id, field, words in the problem)
    ("yaml syntax", "duquesa", "stones: [amber, amethyst, pearl, ruby]", "stones: [amber, amethyst", "-", "yaml",
     "expected"),
    ("unknown stone", "duquesa", "stones: [jet, pearl, ruby, diamond]", "stones: [jet, perl, ruby, diamond]",
     "DQ02", "stones[1]", "unknown stone 'perl'"),
    ("non-numeric count", "duquesa", "wish: {stone: jet, count: 3, florins: 10}",
     "wish: {stone: jet, count: three, florins: 10}", "DQ04", "wish.count", "must be a whole number"),
    ("wish count out of range", "duquesa", "wish: {stone: ruby, count: 2, florins: 5}",
     "wish: {stone: ruby, count: 5, florins: 5}", "DQ10", "wish.count", "must be 2, 3 or 4"),
    ("duquesa wish of one", "duquesa", "wish: {stone: ruby, count: 2, florins: 5}",
     "wish: {stone: ruby, count: 1, florins: 5}", "DQ10", "wish.count", "must be 2, 3 or 4"),
    ("duplicate id", "duquesa", "{id: DQ05,", "{id: DQ04,", "DQ04", "id", "already used"),
    ("non-numeric qty", "gemas", "qty: 24\n", "qty: lots\n", "GM-THIEF", "qty", "must be a whole number"),
    ("qty zero", "gemas", "colour: green, qty: 4}", "colour: green, qty: 0}", "GM-GREEN", "qty", "from 1 to 500"),
    ("unknown key", "gemas", "colour: green, qty: 4}", "colour: green, qty: 4, shiny: true}", "GM-GREEN", "shiny",
     "unknown key"),
    ("unknown gem colour", "gemas", "type: gem-card, colour: blue", "type: gem-card, colour: teal", "GM-BLUE",
     "colour", "unknown gem colour 'teal'"),
    ("unknown suit", "nobles", "{id: NB-AH, type: number, layout: ace, suit: hearts",
     "{id: NB-AH, type: number, layout: ace, suit: cups",
     "NB-AH", "suit", "unknown suit 'cups'"),
    ("noble rank as number", "nobles", "{id: NB-10S, type: number, suit: spades, rank: 10}",
     "{id: NB-10S, type: number, suit: spades, rank: 11}", "NB-10S", "rank", "from 1 to 10"),
    ("unknown type", "duplicon", "type: pair-card, shape: star", "type: pair-kard, shape: star", "DP-STAR", "type",
     "unknown type 'pair-kard'"),
    ("unknown shape", "duplicon", "shape: star,", "shape: moon,", "DP-STAR", "shape", "unknown shape 'moon'"),
    ("missing required", "queens-necklace", "{id: QN-D3, type: gem, gem: diamond, gems: 3,",
     "{id: QN-D3, type: gem, gem: diamond,", "QN-D3", "gems", "is missing"),
    ("amber with 2 gems", "queens-necklace", "gem: amber, gems: 1", "gem: amber, gems: 2", "QN-A1", "gems",
     "amber cards carry 1 gem"),
    ("prices going up", "queens-necklace", "prices: [7, 5, 4, 2]", "prices: [7, 8, 4, 2]",
     "QN-RING", "prices", "must go down"),
    ("tile value", "queens-necklace", "type: fashion-tile, value: 20", "type: fashion-tile, value: 25", "QN-FAS20",
     "value", "must be 30, 20, 10 or 0"),
    ("id without prefix", "duplicon", "{id: DP-CROSS,", "{id: XX-CROSS,", "XX-CROSS", "id", "prefix DP"),
    ("lower-case id", "duplicon", "{id: DP-CROSS,", "{id: dp-cross,", "dp-cross", "id", "not valid"),
    ("text in one language", "gemas", "name: {es: Curita, en: Band-aid}", "name: {es: Curita}", "GM-T-BANDAID",
     "name.en", "is missing"),
    ("mapping where a list goes", "duquesa", "stones: [jet, pearl, ruby, diamond]", "stones: {jet: 1}", "DQ02",
     "stones", "must be a list"),
    ("duplicate yaml key", "duquesa", "{id: DQ03, type: necklace,", "{id: DQ03, type: necklace, type: necklace,",
     "-", "yaml", "appears twice"),
    ("unknown back", "duplicon", "{id: DP-CROSS,", "{id: DP-CROSS, back: DP-NOPE,", "DP-CROSS", "back",
     "no back component"),
    ("mistyped field", "nobles", "{id: NB-AH, type: number, layout: ace, suit: hearts",
     "{id: NB-AH, type: number, layout: ace, sut: hearts",
     "NB-AH", "sut", "did you mean 'suit'?"),
    # the look: accent, emblem and each term's shape and colour
    ("bad accent colour", "gemas", 'accent: "#0f6e6e"', "accent: teal", "-", "look.accent", "not valid"),
    ("unknown look shape", "duquesa", "jet: {shape: square,", "jet: {shape: cube,", "-", "look.terms.jet.shape",
     "unknown shape 'cube'"),
    ("term without a colour", "nobles", 'wound: {shape: burst, colour: "#c0392b"}', "wound: {shape: burst}", "-",
     "look.terms.wound.colour", "is missing"),
    ("emblem term without a shape", "queens-necklace", "emblem: [diamond, ruby, emerald]",
     "emblem: [diamond, purple, emerald]", "-", "look.emblem[1]", "not a term with a shape"),
]


def run_validate(capsys, *files):
    code = main(["validate", *map(str, files)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_shipped_data_is_valid(capsys):
    code, out, err = run_validate(capsys)
    assert code == 0, err
    assert err == "" and out.count(": ok") == len(GAME_IDS)


@pytest.mark.parametrize("name,game,old,new,card,field,words", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_copy_exits_2_naming_file_line_card_and_field(capsys, broken_copy, name, game, old, new, card, field,
                                                             words):
    path, line = broken_copy(game, old, new)
    code, out, err = run_validate(capsys, path)
    assert code == 2
    errors = error_lines(err)
    assert (str(path), card, field) in {(f, c, fl) for f, _, c, fl, _ in errors}, err
    hit = next(e for e in errors if e[2] == card and e[3] == field)
    assert words in hit[4]
    if field != "yaml" or "twice" in words:
        assert hit[1] == line, f"reported line {hit[1]}, the change is on line {line}"


def test_all_errors_of_all_files_at_once(capsys, broken_copy, tmp_path):
    path, _ = broken_copy("duquesa", "count: 3, florins: 9}", "count: x, florins: 9}", count=3)
    empty = tmp_path / "gemas.yaml"
    empty.write_text("")
    code, _, err = run_validate(capsys, path, empty, tmp_path / "missing.yaml")
    assert code == 2
    errors = error_lines(err)
    assert sum(e[3] == "wish.count" for e in errors) == 3
    assert (str(empty), 1, "-", "yaml", "the file is empty") in errors
    assert any(e[0].endswith("missing.yaml") and "no such file" in e[4] for e in errors)


@pytest.mark.parametrize("content,problem", [
    (b"- just\n- a list\n", "must be a mapping"),
    (b"game: duquesa\n", "components: is missing"),
    (b"\xff\xfe not utf-8", "not UTF-8"),
    (b"a: b\n---\nc: d\n", "expected a single document"),
])
def test_malformed_files(capsys, tmp_path, content, problem):
    path = tmp_path / "duquesa.yaml"
    path.write_bytes(content)
    code, _, err = run_validate(capsys, path)
    assert code == 2 and problem in err


def test_a_folder_is_not_a_data_file(capsys, tmp_path):
    code, _, err = run_validate(capsys, tmp_path)
    assert code == 2 and "is a folder" in err


def test_console_script_prints_no_traceback(broken_copy):
    path, _ = broken_copy("duquesa", "{id: DQ05,", "{id: DQ04,")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "validate", str(path)], capture_output=True,
                          text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"{path}:" in proc.stderr and "DQ04: id: DQ04 is already used" in proc.stderr


def test_usage_errors_exit_2(capsys):
    assert main([]) == 2
    assert main(["no-such-command"]) == 2
    assert main(["--version"]) == 0


def test_a_term_the_faces_draw_is_named_when_the_look_lacks_it(capsys, broken_copy):
    path, _ = broken_copy("gemas", '    thief: {shape: diamond, colour: "#444444", letter: "?"}\n', "")
    code, _, err = run_validate(capsys, path)
    terms_line = path.read_text(encoding="utf-8").splitlines().index("  terms:") + 1
    assert code == 2 and (str(path), terms_line, "-", "look.terms", "is missing 'thief': this game's faces draw it") \
        in error_lines(err)


def test_a_data_only_setup_must_fit_its_deck(capsys, tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text("game: tiny\ntitle: {es: T, en: T}\nprefix: TY\nplayers: [2, 4]\nsetup:\n  hand_size: 3\n"
                    "components:\n  - {id: TY-A, type: card, qty: 10, name: {es: A, en: A}}\n")
    code, _, err = run_validate(capsys, path)
    assert code == 2 and (str(path), 5, "-", "setup", "4 players need 12 cards; the deck has 10") in error_lines(err)


def test_a_game_with_rules_is_warned_of_what_its_tests_require_of_its_data(capsys, broken_copy):
    """Every field its rules read declared in fields:, the three sections every game with rules of its own has
    (setup, turn, end; each in more than 150 characters in every language), and a section naming each printed
    type: warnings, the file still prints."""
    path, _ = broken_copy("duplicon", "  - id: end\n", "  - id: the-end\n")
    text = path.read_text(encoding="utf-8").replace("    cards: [pair-card]\n", "")
    path.write_text(re.sub(r"\n  shape: \{choices: [^\n]*", "", text, count=1), encoding="utf-8")
    shutil.copytree(cards_dir() / "art", path.parent / "art")
    code, out, err = run_validate(capsys, path)
    assert code == 0 and ": ok" in out and "3 warnings" in out, err
    warned = error_lines(err)
    assert [(e[2], e[3]) for e in warned] == [("-", "fields.shape"), ("-", "rules"), ("DP-CIRCLE", "type")]
    assert "declare it in fields:" in warned[0][4] and "no 'end' section" in warned[1][4]
    assert "'pair-card'" in warned[2][4]
