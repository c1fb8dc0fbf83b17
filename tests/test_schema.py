"""The field checks on plain data: each problem is named by its path, all are reported at once."""
import pytest

from companion.core.schema import (
    INVALID,
    Bool,
    Enum,
    Int,
    ListOf,
    MapOf,
    Problems,
    Record,
    Str,
    Texts,
    TextsField,
    fmt_path,
)


def run(field, value):
    problems = Problems()
    return field.check(value, ("x",), problems), [str(p) for p in problems]


def test_fmt_path():
    assert fmt_path(("players", 0, "hand", 2, "wish", "count")) == "players[0].hand[2].wish.count"
    assert fmt_path(()) == ""


def test_int_rejects_bools_text_and_out_of_range():
    assert run(Int(1, 4), 3) == (3, [])
    assert run(Int(1, 4), True)[1] == ["x: must be a whole number, got true"]
    assert run(Int(1, 4), "3")[1] == ["x: must be a whole number, got text '3'"]
    assert run(Int(1, 4), 5)[1] == ["x: must be from 1 to 4, got 5"]
    assert run(Int(1, 4, allowed=(2, 3, 4)), 1)[1] == ["x: must be 2, 3 or 4, got 1"]


def test_str_enum_bool():
    assert run(Str(r"[A-Z]+", hint="capitals"), "ab")[1] == ["x: 'ab' is not valid: capitals"]
    assert run(Str(), "  ")[1] == ["x: must be a non-empty text, got text '  '"]
    assert run(Enum(("a", "b"), "stone"), "c")[1] == ["x: unknown stone 'c'; expected one of: a, b"]
    assert run(Enum(("a", "b"), "stone"), 3)[1] == ["x: unknown stone int 3; expected one of: a, b"]
    assert run(Bool(), "yes")[1] == ["x: must be true or false, got text 'yes'"]


def test_list_reports_every_bad_item():
    value, problems = run(ListOf(Int(0, 9), 1, 3), [1, "a", 12])
    assert value is INVALID
    assert problems == ["x[1]: must be a whole number, got text 'a'", "x[2]: must be from 0 to 9, got 12"]
    assert run(ListOf(Int(0, 9), 2, 2), [1])[1] == ["x: must have 2 items, has 1"]


def test_record_unknown_and_missing_keys():
    rec = Record({"a": Int(0, 1), "b": Int(0, 1)}, required=("a", "b"))
    value, problems = run(rec, {"a": 1, "c": 2})
    assert value is INVALID
    assert problems == ["x.c: unknown key; expected one of: a, b", "x.b: is missing"]
    assert dict(run(rec, {"a": 1, "b": 0})[0]) == {"a": 1, "b": 0}
    assert run(rec, [1])[1] == ["x: must be a mapping, got a list"]


@pytest.mark.parametrize("typed, meant", [("sut", "suit"), ("Suit", "suit"), ("suits", "suit"), ("flavor", "flavour"),
                                           ("rnak", "rank")])
def test_an_unknown_key_names_the_closest_known_one(typed, meant):
    rec = Record({"suit": Int(0, 1), "rank": Int(0, 1), "flavour": Int(0, 1)})
    problems = run(rec, {typed: 1})[1]
    assert problems == [f"x.{typed}: unknown key; did you mean '{meant}'? Expected one of: suit, rank, flavour"]


def test_an_unknown_key_far_from_every_known_one_gets_the_list_alone():
    assert run(Record({"suit": Int(0, 1)}), {"colour": 1})[1] == ["x.colour: unknown key; expected one of: suit"]


def test_map_of_and_texts():
    value, problems = run(MapOf(Str(r"[a-z]+"), Int(0, 5)), {"ok": 1, "BAD": 2})
    assert value is INVALID and problems == ["x.BAD: 'BAD' is not valid: [a-z]+"]
    assert run(TextsField(), {"es": "Hola", "en": "Hi"})[0] == Texts("Hola", "Hi")
    assert run(TextsField(), {"es": "Hola"})[1] == ["x.en: is missing"]
    assert Texts("Hola", "Hi").get("fr") == "Hi"


# --- Problems said in the page's language -------------------------------------------------------------------

import ast  # noqa: E402
import copy  # noqa: E402
import pickle  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from companion import service, sheets  # noqa: E402
from companion.core import i18n  # noqa: E402
from companion.core.schema import Either, InputError, Problem, Term, Value, Word, problem  # noqa: E402
from companion.translations import update  # noqa: E402
from helpers import sources  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def problems_of(call, *args):
    with pytest.raises(InputError) as e:
        call(*args)
    return e.value.problems


def test_a_scoring_problem_is_said_in_spanish_with_its_values_and_in_english_as_before():
    round_ = [{"name": "Ana", "won": 200, "hand": 0, "zone": 0}, {"name": "Bo", "won": 2, "hand": 0, "zone": 0}]
    [p] = problems_of(service.score, "duplicon", {"rounds": [round_]})
    assert str(p) == "rounds[0][0].won: must be from 0 to 96, got 200"
    assert p.template == "must be from %(lo)s to %(hi)s, got %(got)s" and dict(p.params) == {"lo": 0, "hi": 96,
                                                                                            "got": 200}
    assert p.say("es") == "debe estar entre 0 y 96 (hay 200)"
    assert p.say("en") == p.message


def test_a_card_used_twice_is_said_in_spanish():
    hand = {"common": "DQ01", "players": [{"name": "A", "hand": ["DQ02", "DQ03", "DQ04", "DQ01"]}]}
    [p] = problems_of(service.score, "duquesa", hand)
    assert str(p) == "players[0].hand[3]: DQ01 is used more often than the game has it (1 copy)"
    assert p.say("es") == "DQ01 se usa más veces de las que trae el juego (1 copia)"
    assert p.say("en") == p.message


def test_game_words_go_through_term_and_values_are_said_in_spanish():
    sale = {"fashion": ["diamond", "emerald", "ruby", "amber"], "players": [
        {"name": "A", "shown": {"diamond": [1]}, "rings": {"ruby": 1}}, {"name": "B", "shown": {"amber": [1]}}]}
    [p] = problems_of(service.score, "queens-necklace", sale)
    assert p.message == "a Ring must be played with at least one ruby card" and p.params["gem"] == Term("ruby")
    assert p.say("es", term={"ruby": "rubí"}.get) == "un Anillo se juega con al menos una carta de rubí"
    assert p.say("es") == "un Anillo se juega con al menos una carta de ruby"
    assert p.say("en", term={"ruby": "Ruby"}.get) == "a Ring must be played with at least one Ruby card"
    problems = Problems()
    Int(1, 4).check("3", ("x",), problems)
    Enum(("a", "b"), "stone").check(None, ("y",), problems)
    ListOf(Int(0, 9)).check({"a": 1}, ("z",), problems)
    Bool().check(2.5, ("w",), problems)
    assert [p.say("es") for p in problems] == [
        "debe ser un número entero, no el texto '3'", "un valor vacío no vale como piedra; elige entre: a, b",
        "debe ser una lista, no un grupo de campos", "debe ser verdadero o falso, no 2.5"]
    assert [p.say("en") for p in problems] == [p.message for p in problems] == [
        "must be a whole number, got text '3'", "unknown stone nothing; expected one of: a, b",
        "must be a list, got a mapping", "must be true or false, got float 2.5"]


def test_values_words_and_alternatives():
    assert [str(Value(v)) for v in (None, True, [1], {}, "a", 3, 1.5)] == [
        "nothing", "true", "a list", "a mapping", "text 'a'", "int 3", "float 1.5"]
    assert [Value(v).say("es") for v in (None, False, [1], {}, "a", 3, 1.5)] == [
        "un valor vacío", "falso", "una lista", "un grupo de campos", "el texto 'a'", "3", "1.5"]
    assert str(Either((0, 2, 3))) == "0 or 2 or 3" and Either((0, 2, 3)).say("es") == "0 o 2 o 3"
    duel = {"attacker": {"noble": "queen", "suit": "hearts", "weapon": 4},
            "defender": {"noble": "joker", "suit": "clubs"}}
    attacker, joker = problems_of(service.score, "nobles", duel)
    assert (attacker.message, attacker.say("es")) == ("must be 0 or 2 or 3", "debe ser 0 o 2 o 3")
    assert (joker.message, joker.say("es")) == ("a Joker has no suit", "un Comodín no tiene palo")
    assert isinstance(joker.params["part"], Word)


def test_a_problem_moved_under_a_prefix_keeps_its_template_and_params():
    p = problem(("won",), "cards are won in pairs: %(won)s is odd", won=3)
    moved = p.under("rounds", 0)
    assert moved.path == ("rounds", 0, "won") and moved.message == p.message and moved.params == p.params
    assert moved.say("es") == "las cartas se ganan por parejas: 3 es impar"
    with pytest.raises(InputError) as e:  # a sheet's entry scores its request: the request's problems move under it
        sheets.entry_body("duplicon", ["Ana", "Bo"], {"request": {"rounds": [[
            {"name": "Ana", "won": 3, "hand": 0, "zone": 0}, {"name": "Bo", "won": 2, "hand": 0, "zone": 0}]]}})
    [p] = e.value.problems
    assert str(p) == "request.rounds[0][0].won: cards are won in pairs: 3 is odd"
    assert p.say("es") == "las cartas se ganan por parejas: 3 es impar"


def test_a_problem_stays_a_plain_value():
    p = problem(("x",), "must be a whole number, got %(got)s", got=Value([1]))
    assert p == Problem(("x",), "must be a whole number, got a list") and hash(p) == hash(Problem(("x",), p.message))
    with pytest.raises(TypeError):
        p.params["got"] = 1
    for twin in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p)):
        assert (twin, twin.template, twin.say("es")) == (p, p.template, "debe ser un número entero, no una lista")
    assert Problem(("x",), "is missing").say("es") == "falta"  # a message without template is its own
    assert Problem(("x",), "not in the catalogue").say("es") == "not in the catalogue"
    untranslated = problem(("x",), "not in the catalogue: %(got)s", got=Value(None))  # all in English, not mixed
    assert untranslated.say("es") == untranslated.message == "not in the catalogue: nothing"


def _problem_calls():
    """Every Problems.add / problem / Problem call with a message, in the code whose problems players meet."""
    skipped = {"companion/sheets/service.py"}  # written for the command line; left in English
    for path, tree in sources.trees().items():
        name = path.relative_to(ROOT).as_posix()
        if name in skipped or name.startswith(tuple(p.rstrip("*") for p in update.DESIGNERS_ONLY)):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and len(node.args) >= 2 and (
                    isinstance(node.func, ast.Attribute) and node.func.attr == "add"
                    or isinstance(node.func, ast.Name) and node.func.id in ("problem", "Problem")):
                yield f"{name}:{node.lineno}", node.args[1]


def test_every_problem_template_in_the_code_is_translated():
    es = i18n.catalog("es")
    calls = list(_problem_calls())
    assert len(calls) > 120
    f_strings = [where for where, arg in calls if isinstance(arg, ast.JoinedStr)]
    assert not f_strings, f"a problem's message is a template with %(name)s parameters: {f_strings}"
    templates = {arg.value for _, arg in calls if isinstance(arg, ast.Constant) and isinstance(arg.value, str)}
    assert len(templates) > 110
    extracted = {m.id for m in update.template()}
    missing = [t for t in templates if t not in extracted or not (es.get(t) and es.get(t).string)]
    assert not missing, f"run `make messages` and translate: {missing[:5]}"
