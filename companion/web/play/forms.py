"""Score forms → score requests: one naming scheme for every game's form fields.

A field's name is the request path it fills, dotted (`players.0.name`, `attacker.weapon`), with an optional type:
`:int` (a number), `:ints` (numbers separated by spaces or commas), `:bool` (a checkbox), `:list` (every value of a
repeated field, e.g. tapped cards), `:json` (a part of the request as JSON: a sheet's earlier rounds,
`earlier:json`). Empty fields are left out, so the rules' defaults apply. Digit keys become list positions. Names
starting with `_`, and `lang`, belong to the page, not the request. Values that are not what the type asks for are
passed on unchanged, so the rules' own checks name the field, exactly as for the JSON API.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Protocol
from urllib.parse import urlencode

from ...core.schema import whole_number


class MultiDict(Protocol):
    """What the form readers need of a form: its field names and every value of one (werkzeug's MultiDict, the
    request's args, or `Fields` for a form sent to the phone's own Python)."""

    def __iter__(self) -> Iterator[str]: ...

    def getlist(self, key: str) -> list[str]: ...

    def get(self, key: str, default: str | None = None) -> str | None: ...


class Fields:
    """A form's fields from (name, value) pairs, in order (what a page script sends to the static site's worker)."""

    def __init__(self, pairs: Iterable[tuple[str, str]]):
        self._values: dict[str, list[str]] = {}
        for name, value in pairs:
            self._values.setdefault(str(name), []).append(str(value))

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def getlist(self, key: str) -> list[str]:
        return list(self._values.get(key, []))

    def get(self, key: str, default: str | None = None) -> str | None:
        return self._values[key][0] if self._values.get(key) else default

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def items(self, multi: bool = False) -> Iterator[tuple[str, str]]:
        """(name, value) pairs: every value with `multi`, else each name's first (as werkzeug's MultiDict)."""
        for name, values in self._values.items():
            yield from ((name, v) for v in (values if multi else values[:1]))

PAGE_ONLY = ("lang",)
_INT = re.compile(r"[+-]?\d{1,9}")
MAX_JSON = 100_000  # characters of a `:json` field read (a longer one is passed on as text, for the rules to name)
MAX_FIELDS = 400


def _value(raw: str, kind: str) -> Any:
    if kind == "int":
        return int(raw) if _INT.fullmatch(raw) else raw
    if kind == "ints":
        return [int(v) if _INT.fullmatch(v) else v for v in re.split(r"[\s,;]+", raw) if v]
    if kind == "bool":
        return raw.lower() in ("1", "on", "true", "yes")
    if kind == "json" and len(raw) <= MAX_JSON:
        try:
            return _Said(json.loads(raw))
        except (ValueError, RecursionError):
            return raw
    return raw


class _Said:
    """A `:json` field's value while the form's fields are put together: said whole, so no digit key of its own is
    turned into a list position (`_listify` unwraps it as it is)."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value


MAX_INDEX = 199  # no form has more rows than this


def _listify(node: Any) -> Any:
    """Dicts whose keys are all digits become lists by position; a position with no field filled in is None. A
    `:json` field's value is kept as it was written."""
    if isinstance(node, _Said):
        return node.value
    if not isinstance(node, dict):
        return node
    items = {k: _listify(v) for k, v in node.items()}
    positions = [whole_number(k, signed=False, digits=3) for k in items]
    if items and all(p is not None and p <= MAX_INDEX for p in positions):
        out = [None] * (max(map(int, items)) + 1)
        for k, v in items.items():
            out[int(k)] = v
        return out
    return items


def filled(rows: Any) -> list:
    """The rows of a form list that have anything filled in."""
    return [row for row in rows if row is not None] if isinstance(rows, list) else rows


def is_submitted(form: MultiDict) -> bool:
    """Whether a field of the request was sent, filled in or not (the page's own `_…` and `lang` do not count)."""
    return any(name not in PAGE_ONLY and not name.startswith("_") for name in form)


def request_from_form(form: MultiDict) -> dict:
    """The score request a form describes (see the module docstring for the naming scheme)."""
    out: dict = {}
    for name in list(form)[:MAX_FIELDS]:
        if name in PAGE_ONLY or name.startswith("_"):
            continue
        path, _, kind = name.partition(":")
        values = [v.strip() for v in form.getlist(name)]
        if kind == "list":
            value: Any = [v for v in values if v]
            if not value:
                continue
        else:
            raw = next((v for v in reversed(values) if v), "")
            if raw == "":
                continue
            value = _value(raw, kind)
        node = out
        keys = [k for k in path.split(".") if k]
        if not keys:
            continue
        for key in keys[:-1]:
            child = node.setdefault(key, {})
            if not isinstance(child, dict):  # two fields disagree on the shape; the later one is dropped
                break
            node = child
        else:
            node[keys[-1]] = value
    return _listify(out)


def typed_names(form: MultiDict) -> list[str]:
    """The player names typed once at the top of a form (`_names`), in seat order."""
    return [name.strip() for name in form.getlist("_names")]


def count(text: str | None, digits: int = 6) -> int:
    """A count a form field holds: up to `digits` plain digits, else 0 (blank, a word, "²": never an error)."""
    return whole_number(text or "0", signed=False, digits=digits) or 0


def players_of(form: MultiDict) -> list[tuple[int, str]]:
    """(index, name) of a form's players: names typed per player (`players.N.name`) or once (`_names`); where a
    scanned card can go on the page a phone has open."""
    if "_names" in form:
        return [(i, name or str(i + 1)) for i, name in enumerate(form.getlist("_names"))]
    out, i = [], 0
    while f"players.{i}.name" in form:
        out.append((i, form.get(f"players.{i}.name") or str(i + 1)))
        i += 1
    return out


def named_rows(names: list[str], rows: Any, **defaults: Any) -> list[dict]:
    """One row per typed name, matched by position: each gets its name and the defaults, under whatever the player
    filled in; a row nobody filled in is all defaults."""
    rows = rows if isinstance(rows, list) else []
    rows = rows + [None] * (len(names) - len(rows))
    return [{"name": name, **defaults, **(row if isinstance(row, dict) else {})}
            for name, row in zip(names, rows, strict=False)]


def carried(form: MultiDict, drop: Callable[[str], bool] = lambda _name: False,
            changes: Mapping[str, str] | None = None) -> str:
    """The query string of a form's next page (the next turn, a choice made): every field of `form`
    in its order, except the page's own (`lang`, `_seats`) and those `drop` names, with `changes` put in (a
    field's values replaced where it was, or the field added at the end)."""
    changes = dict(changes or {})
    pairs = []
    for name in form:
        if name in PAGE_ONLY or name == "_seats" or (drop(name) and name not in changes):
            continue
        values = [changes.pop(name)] if name in changes else form.getlist(name)
        pairs.extend((name, v) for v in values)
    pairs.extend(changes.items())
    return urlencode(pairs)


# --- The inverse: a score request → the form fields that describe it ----------------------------------------------

_KEY = re.compile(r"[^.:\s][^.:]*")  # a mapping key a field name can hold (no dot, no type, not blank)


def fields_of(request: Mapping, by_position: Iterable[str] = ()) -> list[tuple[str, str]]:
    """The form fields (name, value) whose request (`request_from_form`) is `request`: the one inverse of the naming
    scheme, for every game (a sheet's round opened again in its game's calculator). A number is an `:int` field, a
    yes/no a `:bool`, a text a plain field; a list of texts one repeated `:list` field and a list of numbers one
    `:ints` field, unless its path is one of `by_position` (dotted, `*` for any list position: "order",
    "rounds.*.order": the page has a field a position); any other list a field a position. What no field can say
    as it is (a blank or padded text, an empty list or mapping, a mapping whose keys are positions or hold a dot)
    is a `:json` field; so are whole parts past MAX_FIELDS fields. ValueError for what no form gives back: not a
    mapping, or a key of its own the page keeps (`lang`, `_…`)."""
    if not isinstance(request, Mapping) or any(not isinstance(k, str) or not _KEY.fullmatch(k) or k in PAGE_ONLY
                                               or k.startswith("_") for k in request):
        raise ValueError("a form gives back only a mapping whose keys are field names")
    patterns = [tuple(p.split(".")) for p in by_position]
    parts = {k: _fields(k, v, (k,), patterns) for k, v in request.items()}
    for k in sorted(parts, key=lambda k: -len(parts[k])):  # too many fields: the largest parts said as JSON
        if sum(map(len, parts.values())) <= MAX_FIELDS:
            break
        parts[k] = [(f"{k}:json", _json(request[k]))]
    out = [pair for part in parts.values() for pair in part]
    if len(out) > MAX_FIELDS or any(len(v) > MAX_JSON for n, v in out if n.endswith(":json")):
        raise ValueError("the request is too large for a form")
    return out


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _plain(text: Any) -> bool:
    """A text a plain field gives back as it is (the form strips what is typed and drops a blank)."""
    return isinstance(text, str) and text != "" and text == text.strip()


def _matches(path: tuple, patterns: list[tuple]) -> bool:
    return any(len(p) == len(path) and all(a in ("*", b) for a, b in zip(p, path, strict=True)) for p in patterns)


def _fields(name: str, value: Any, path: tuple, patterns: list[tuple]) -> list[tuple[str, str]]:
    if isinstance(value, bool):
        return [(f"{name}:bool", "1" if value else "0")]
    if isinstance(value, int) and _INT.fullmatch(str(value)):
        return [(f"{name}:int", str(value))]
    if _plain(value):
        return [(name, value)]
    if isinstance(value, Mapping) and value and all(isinstance(k, str) and _KEY.fullmatch(k) for k in value) \
            and not all(whole_number(k, signed=False, digits=3) is not None for k in value):
        return [pair for k, v in value.items() for pair in _fields(f"{name}.{k}", v, (*path, k), patterns)]
    if isinstance(value, list) and value and len(value) <= MAX_INDEX + 1:
        star = tuple("*" if isinstance(k, int) else k for k in path)
        if not _matches(star, patterns):
            if all(_plain(v) for v in value):
                return [(f"{name}:list", v) for v in value]
            if all(isinstance(v, int) and not isinstance(v, bool) and _INT.fullmatch(str(v)) for v in value):
                return [(f"{name}:ints", " ".join(map(str, value)))]
        return [pair for i, v in enumerate(value) for pair in _fields(f"{name}.{i}", v, (*path, i), patterns)]
    return [(f"{name}:json", _json(value))]
