"""Declarative checks on plain data (from YAML or JSON) that report every problem with its field path."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Iterable, Mapping

Path = tuple  # of str keys and int indices
INVALID = object()  # what a check returns after recording a problem


def fmt_path(path: Path) -> str:
    """`("players", 0, "hand", 2)` → `players[0].hand[2]`."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


@dataclass(frozen=True)
class Problem:
    """One thing wrong in the input: which field, and what."""

    path: Path
    message: str

    def __str__(self) -> str:
        return f"{fmt_path(self.path) or 'request'}: {self.message}"


class Problems(list):
    """The problems found so far; checks append and carry on, so all are reported at once."""

    def add(self, path: Path, message: str) -> object:
        self.append(Problem(tuple(path), message))
        return INVALID


class InputError(ValueError):
    """Raised by rules code given bad input; carries every problem found."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(map(str, self.problems)))

    @property
    def field(self) -> str:
        return fmt_path(self.problems[0].path) if self.problems else ""


def describe(value: Any) -> str:
    """How a value is named in a message."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, str):
        return f"text {value!r}"
    return f"{type(value).__name__} {value!r}"


class Field:
    """A check for one value; `check` returns the accepted value or INVALID."""

    def check(self, value: Any, path: Path, problems: Problems) -> Any:
        raise NotImplementedError


class Int(Field):
    def __init__(self, lo: int, hi: int, allowed: Iterable[int] | None = None):
        self.lo, self.hi = lo, hi
        self.allowed = tuple(allowed) if allowed is not None else None

    def check(self, value, path, problems):
        if not isinstance(value, int) or isinstance(value, bool):
            return problems.add(path, f"must be a whole number, got {describe(value)}")
        if self.allowed is not None and value not in self.allowed:
            *head, last = map(str, self.allowed)
            return problems.add(path, f"must be {', '.join(head)} or {last}, got {value}")
        if not self.lo <= value <= self.hi:
            return problems.add(path, f"must be from {self.lo} to {self.hi}, got {value}")
        return value


class Bool(Field):
    def check(self, value, path, problems):
        if not isinstance(value, bool):
            return problems.add(path, f"must be true or false, got {describe(value)}")
        return value


def whole_number(text: str, signed: bool = True, digits: int = 9) -> int | None:
    """`text` as a whole number when it is plain ASCII digits (an optional leading "-" when signed), else None:
    int() alone would also take "1_000", full-width digits and, after str.isdigit(), fail on "²"."""
    pattern = rf"{'-?' if signed else ''}[0-9]{{1,{digits}}}"
    return int(text) if re.fullmatch(pattern, text) else None


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")  # NUL and unpaired surrogates: no database keeps them


class Str(Field):
    def __init__(self, pattern: str | None = None, max_len: int = 400, hint: str = ""):
        self.pattern = re.compile(pattern) if pattern else None
        self.max_len, self.hint = max_len, hint

    def check(self, value, path, problems):
        if not isinstance(value, str) or not value.strip():
            return problems.add(path, f"must be a non-empty text, got {describe(value)}")
        if _UNSTORABLE.search(value):
            return problems.add(path, "must be text without NUL characters or unpaired surrogates")
        if len(value) > self.max_len:
            return problems.add(path, f"is {len(value)} characters long; at most {self.max_len}")
        if self.pattern and not self.pattern.fullmatch(value):
            return problems.add(path, f"{value!r} is not valid: {self.hint or self.pattern.pattern}")
        return value


_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")  # bidi controls, zero-width
# Free text keeps the zero-width joiner and non-joiner (emoji sequences, Persian and Indic spelling need them).
_HIDDEN_IN_TEXT = re.compile("[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


class Text(Str):
    """Free text players read (a sheet's title, an entry's note): NFC, trimmed, and with no bidi control (which
    could make a line read otherwise, e.g. a score shown reversed) or invisible character."""

    hidden = _HIDDEN_IN_TEXT

    def check(self, value, path, problems):
        if isinstance(value, str):
            if self.hidden.search(value):
                return problems.add(path, "must not hide direction marks or zero-width characters")
            value = unicodedata.normalize("NFC", value).strip()
        return super().check(value, path, problems)


class Name(Text):
    """A person's name as players see it: as Text, and no zero-width character at all (two names that look alike
    would count as two players)."""

    hidden = _INVISIBLE

    def __init__(self, max_len: int = 40):
        super().__init__(max_len=max_len)


class Enum(Field):
    def __init__(self, values: Iterable[str], what: str = "value"):
        self.values, self.what = tuple(values), what

    def check(self, value, path, problems):
        if not isinstance(value, str) or value not in self.values:
            shown = repr(value) if isinstance(value, str) else describe(value)
            return problems.add(path, f"unknown {self.what} {shown}; expected one of: {', '.join(self.values)}")
        return value


class ListOf(Field):
    def __init__(self, item: Field, min_len: int = 0, max_len: int = 10_000):
        self.item, self.min_len, self.max_len = item, min_len, max_len

    def check(self, value, path, problems):
        if not isinstance(value, (list, tuple)):
            return problems.add(path, f"must be a list, got {describe(value)}")
        if not self.min_len <= len(value) <= self.max_len:
            span = str(self.min_len) if self.min_len == self.max_len else f"{self.min_len} to {self.max_len}"
            return problems.add(path, f"must have {span} items, has {len(value)}")
        items = [self.item.check(v, (*path, i), problems) for i, v in enumerate(value)]
        return INVALID if any(v is INVALID for v in items) else tuple(items)


class Record(Field):
    """A mapping with known keys: unknown and missing required keys are problems."""

    def __init__(self, fields: Mapping[str, Field], required: Iterable[str] = ()):
        self.fields = dict(fields)
        self.required = tuple(required)

    def check(self, value, path, problems):
        if not isinstance(value, Mapping):
            return problems.add(path, f"must be a mapping, got {describe(value)}")
        result, ok = {}, True
        for key, item in value.items():
            field = self.fields.get(key)
            if field is None:
                problems.add((*path, key), f"unknown key; expected one of: {', '.join(self.fields)}")
                ok = False
                continue
            checked = field.check(item, (*path, key), problems)
            ok &= checked is not INVALID
            result[key] = checked
        for key in self.required:
            if key not in value:
                problems.add((*path, key), "is missing")
                ok = False
        return MappingProxyType(result) if ok else INVALID


class MapOf(Field):
    """A mapping from free keys (each checked by `key`) to values of one field."""

    def __init__(self, key: Field, value: Field):
        self.key, self.value = key, value

    def check(self, value, path, problems):
        if not isinstance(value, Mapping):
            return problems.add(path, f"must be a mapping, got {describe(value)}")
        result, ok = {}, True
        for key, item in value.items():
            name = self.key.check(key, (*path, key), problems)  # the key as checked (a Name comes back normalised)
            if name is INVALID:
                ok = False
                continue
            if name in result:
                problems.add((*path, key), f"is the same as {name!r}, given before")
                ok = False
                continue
            checked = self.value.check(item, (*path, key), problems)
            ok &= checked is not INVALID
            result[name] = checked
        return MappingProxyType(result) if ok else INVALID


LANGS = ("es", "en")


@dataclass(frozen=True)
class Texts:
    """A text in every language we ship."""

    es: str
    en: str

    def get(self, lang: str) -> str:
        return getattr(self, lang) if lang in LANGS else self.en


class TextsField(Field):
    """`{es: ..., en: ...}`, both required."""

    def __init__(self, max_len: int = 400):
        self.record = Record({lang: Str(max_len=max_len) for lang in LANGS}, required=LANGS)

    def check(self, value, path, problems):
        checked = self.record.check(value, path, problems)
        return INVALID if checked is INVALID else Texts(**checked)
