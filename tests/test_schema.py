"""The field checks on plain data: each problem is named by its path, all are reported at once."""
from companion.schema import INVALID, Bool, Enum, Int, ListOf, MapOf, Problems, Record, Str, Texts, TextsField, fmt_path


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


def test_map_of_and_texts():
    value, problems = run(MapOf(Str(r"[a-z]+"), Int(0, 5)), {"ok": 1, "BAD": 2})
    assert value is INVALID and problems == ["x.BAD: 'BAD' is not valid: [a-z]+"]
    assert run(TextsField(), {"es": "Hola", "en": "Hi"})[0] == Texts("Hola", "Hi")
    assert run(TextsField(), {"es": "Hola"})[1] == ["x.en: is missing"]
    assert Texts("Hola", "Hi").get("fr") == "Hi"
