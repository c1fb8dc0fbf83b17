"""A designer's mistakes are said, once, where they are (issue 39, items 2, 3 and 7), through `companion validate`
on a copy of the example game (docs/example-game/cosecha.yaml): an inline icon no term or shape is, a `**` nothing
closes, an unknown choice or type (with the closest name), a component without a type; an element covering
another's words (a warning, naming both and the cards), none on the shipped games; a small code a warning."""
import re
import shutil
from pathlib import Path

import pytest

from companion import cards
from companion.cli import main
from companion.pnp.design_check import validate_file

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "example-game"

NOTE_AFTER_ID = ('    id:     {text: "{id}", at: [24, 83, 26, 3], size: 6, colour: "#77706a"}\n',
                 '    id:     {text: "{id}", at: [24, 83, 26, 3], size: 6, colour: "#77706a"}\n'
                 '    note:   {text: "*{flavour}*", at: [40, 66, 22, 10], size: 7, fill: "#f3ead2",\n'
                 '             when: "{flavour}"}\n')


def validate(tmp_path, capsys, *changes):
    """`companion validate` on the example game with each (old, new) change made once: (exit code, stderr lines,
    the changed file's lines); the summary line (stdout) is checked here: a warning where there is one."""
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    data = folder / "cosecha.yaml"
    text = data.read_text(encoding="utf-8")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    data.write_text(text, encoding="utf-8")
    code = main(["validate", str(data)])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    warned = [line for line in err.splitlines() if ": warning: " in line]
    assert (f", {len(warned)} warning" in out) if warned else "warning" not in out, out
    return code, err.splitlines(), text.splitlines()


def line_of(lines, needle: str) -> int:
    """The line (from 1) of the only line holding `needle`."""
    [found] = [n for n, line in enumerate(lines, 1) if needle in line]
    return found


MISTAKES = [  # (old, new, the changed line's text, what the one error says after `file:line: `)
    ('con el mercado {icon:basket}.",', 'con el mercado {icon:baskett}.",', "{icon:baskett}",
     r"HV-APPLE-3: text\.es: names the icon 'baskett', which is neither a term in look\.terms nor a shape; did you "
     r"mean 'basket'\?"),
    ('text: {es: "Roba **una** carta.",', 'text: {es: "Roba **una carta.",', "Roba **una carta.",
     r"HV-APPLE-1: text\.es: opens bold with \*\* at '\*\*una carta\.' and nothing closes it, so the rest of the "
     r"text prints bold: close it with \*\*"),
    ('"**+2** al vender uvas."', '"**+2 al vender uvas."', "**+2 al vender uvas.",
     r"HV-GRAPE-7: text\.es: opens bold with \*\*"),
    ('layout: fruit, suit: grape,', 'layout: fruit, suit: grap,', "suit: grap,",
     r"HV-GRAPE-7: suit: unknown choice 'grap'; did you mean 'grape'\? Expected one of: apple, pear, grape, plum"),
    ('{id: HV-PLUM-10, type: card, layout: fruit,', '{id: HV-PLUM-10, layout: fruit,', "{id: HV-PLUM-10, layout",
     r"HV-PLUM-10: type: is missing; give one of: card, reference, tile, token, back"),
    ('{id: HV-PLUM-10, type: card, layout: fruit,', '{id: HV-PLUM-10, type: crad, layout: fruit,', "type: crad",
     r"HV-PLUM-10: type: unknown type 'crad'; did you mean 'card'\?"),
    ('    leaf:   {icon: apple,', '    leaf:   {icon: aple,', "{icon: aple,",
     r"rules: leaf\.icon: names the icon 'aple', which is neither a term in look\.terms nor a shape; did you mean "
     r"'apple'\?"),
    ('{text: "{name}", at: [5, 3, 53.5, 7.5]', '{text: "{name} {icon:basket}", at: [5, 3, 53.5, 7.5]', "{icon:basket}",
     None),  # a known icon in a layout's text: no error at all
    ('{text: "{name}", at: [5, 3, 53.5, 7.5]', '{text: "{name} {icon:baskte}", at: [5, 3, 53.5, 7.5]',
     "{icon:baskte}", r"rules: title\.text: names the icon 'baskte', which is neither a term in look\.terms nor a "
                      r"shape; did you mean 'basket'\?"),
    ('    flavour: {text: "*{flavour}*",', '    flavour: {text: "*{flavour}",', 'flavour: {text: "*{flavour}",',
     r"fruit: flavour\.text: opens italic with \* at '\*\{flavour\}' and nothing closes it"),
]


@pytest.mark.parametrize("old, new, where, said", MISTAKES, ids=[m[2] for m in MISTAKES])
def test_each_mistake_is_one_error_at_its_line(tmp_path, capsys, old, new, where, said):
    code, err, lines = validate(tmp_path, capsys, (old, new))
    if said is None:
        assert code == 0 and err == [], err
        return
    assert code == 2
    assert len(err) == 1, err  # the one real problem, nothing said before it
    assert re.match(rf".*cosecha\.yaml:{line_of(lines, where)}: {said}", err[0]), err[0]


def test_a_panel_over_the_turned_corner_index_is_warned_with_both_names_and_the_cards(tmp_path, capsys):
    # the case: a text on a panel, on the cards that have a flavour, over the index's turned copy
    code, err, lines = validate(tmp_path, capsys, NOTE_AFTER_ID)
    assert code == 0
    [warning] = [line for line in err if ": warning: covers" in line]
    assert re.fullmatch(
        rf".*cosecha\.yaml:{line_of(lines, '    note:')}: fruit: note: warning: covers the turned copy "
        rf"\(corners: 2\) of index \(line {line_of(lines, '    index:  {text')}\), drawn before it, on 2 cards "
        r"\(HV-APPLE-1, HV-PEAR-5\): move one of them, or put index after it in the layout", warning), warning


def test_many_covered_cards_are_counted_and_an_element_drawn_first_is_not_warned(tmp_path, capsys):
    # on every fruit card, a code drawn over the rank's own corner: the first cards named, the rest counted
    code, err, lines = validate(tmp_path, capsys, ("    code:   {qr: true, at: [2, 66.4, 21.5, 21.5]}",
                                                   "    code:   {qr: true, at: [1, 12, 22, 22]}"))
    assert code == 0
    covers = [line for line in err if "covers" in line]
    assert any(re.fullmatch(rf".*:{line_of(lines, '    code:')}: fruit: code: warning: covers index \(line \d+\), "
                            r"drawn before it, on 5 cards \(HV-APPLE-1, HV-APPLE-3, HV-PEAR-5 and 2 more\).*", line)
               for line in covers), covers
    # a panel over the turned index warned, but not when drawn before it (a background under the index)
    note = '    note:   {text: "*{flavour}*", at: [52, 67, 11, 9], size: 7, fill: "#f3ead2", when: "{flavour}"}\n'
    code, err, _ = validate(tmp_path / "after", capsys, (NOTE_AFTER_ID[0], NOTE_AFTER_ID[0] + note))
    assert code == 0 and len([line for line in err if "covers the turned copy (corners: 2) of index" in line]) == 1
    index = '    index:  {text: "**{rank}**"'
    code, err, _ = validate(tmp_path / "before", capsys, (index, note + index))
    assert code == 0 and not [line for line in err if "covers" in line], err


SHIPPED = sorted(cards.shipped_files()) + sorted(EXAMPLE.glob("*.yaml"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_no_overlap_warning_on_the_shipped_games(path):
    card_set, errors = validate_file(str(path))
    assert not errors
    assert [w for w in card_set.warnings if "covers" in w] == []


def test_a_small_code_is_a_warning_saying_what_the_camera_reads(tmp_path, capsys):
    code, err, lines = validate(tmp_path, capsys, ("    code:   {qr: true, at: [2, 66.4, 21.5, 21.5]}",
                                                   "    code:   {qr: true, at: [2, 72, 16, 16]}"))
    assert code == 0  # the designer's call
    [warning] = [line for line in err if "a code in this box" in line]
    assert re.fullmatch(
        rf".*cosecha\.yaml:{line_of(lines, '    code:')}: fruit: code: warning: a code in this box has modules of "
        r"0\.48 mm \(HV-\S+\): the camera simulation \(benchmarks/bench_qr\.py\) reads under 59 % of codes with "
        r"modules of under 0\.5 mm, against 99\.5 % at 0\.7 mm; a box of 21\.5 mm square \(the code and its white "
        r"margin\) reads 99 %", warning), warning


def test_a_longer_id_makes_every_code_smaller_and_says_its_band(tmp_path, capsys):
    # one long id puts every code of the game in a larger version (one version for all): 0.58 mm modules
    code, err, _ = validate(tmp_path, capsys, ("  - id: HV-RULES\n", "  - id: HV-RULES-LONG\n"))
    assert code == 0
    [warning] = [line for line in err if "a code in this box" in line]
    assert re.search(r"fruit: code: warning: a code in this box has modules of 0\.58 mm \(HV-APPLE-1\): the camera "
                     r"simulation \(benchmarks/bench_qr\.py\) reads 59–94 % of codes with modules of 0\.5–0\.6 mm, "
                     r"against 99\.5 % at 0\.7 mm; a box of 24\.1 mm square", warning), warning
