"""Declarative checks on plain data (from YAML or JSON) that report every problem with its field path."""
from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from .i18n import LANGS, _, translations

Path = tuple  # of str keys and int indices
INVALID = object()  # what a check returns after recording a problem


def fmt_path(path: Path) -> str:
    """`("players", 0, "hand", 2)` → `players[0].hand[2]`; a key that could not be read back (empty, with a line
    break, a tab or another unprintable character, or with space at an end) quoted as Python writes it:
    `title['\\n']`, so that the problem stays one line and says exactly which key."""
    out = ""
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]"
        elif not _plain(key):
            out += f"[{str(key)!r}]"
        else:
            out += f".{key}" if out else str(key)
    return out


def _plain(key: Any) -> bool:
    text = str(key)
    return bool(text) and text.isprintable() and text == text.strip()


class Term(str):
    """A game word as a message's parameter (a gem, a stone, a piece, a suit, a card kind): the card data's id,
    said in English as it is; `Problem.say` names it in the page's language through the `term` it is given."""


class Word(str):
    """One of our English words as a message's parameter (what an Enum checks: "stone", "gem"; a Str's hint):
    `Problem.say` translates it through the catalogue. Mark it for `make messages` where it is written
    (Word("...") and an Enum's second argument are extracted)."""


class Value:
    """Any input value as a message's parameter: `str()` names it in English as `describe` does; `say` names it
    in another language."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __str__(self) -> str:
        return describe(self.value)

    def __repr__(self) -> str:
        return f"Value({self.value!r})"

    def say(self, lang: str) -> str:
        value = self.value
        if value is None:
            return _("nothing", lang)
        if isinstance(value, bool):
            return _("true", lang) if value else _("false", lang)
        if isinstance(value, Mapping):
            return _("a mapping", lang)
        if isinstance(value, (list, tuple)):
            return _("a list", lang)
        if isinstance(value, str):
            # TRANSLATORS: a text someone typed, in quotes: text 'abc'
            return _("text %(quoted)s", lang, quoted=repr(value))
        if type(value) is int:
            # TRANSLATORS: a whole number someone typed where another kind of value was expected: int 3
            return _("int %(number)s", lang, number=repr(value))
        if type(value) is float:
            # TRANSLATORS: a number with decimals someone typed where another kind of value was expected: float 2.5
            return _("float %(number)s", lang, number=repr(value))
        return describe(value)


class Either:
    """Alternatives as a message's parameter: `str()` says "2 or 3" (or "0 or 2 or 3"); `say` in another language."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Any]):
        self.items = tuple(items)

    def __str__(self) -> str:
        return " or ".join(map(str, self.items))

    def __repr__(self) -> str:
        return f"Either({self.items!r})"

    def say(self, lang: str) -> str:
        *head, out = map(str, self.items)
        for item in reversed(head):
            # TRANSLATORS: two alternatives, or the first of several and the rest: 0 or 2 or 3
            out = _("%(either)s or %(other)s", lang, either=item, other=out)
        return out


def _said(param: Any, lang: str, term: Callable[[str], str]) -> Any:
    """One parameter of a message as said in `lang`."""
    if isinstance(param, Term):
        return term(str(param))
    if isinstance(param, Word):
        return _(str(param), lang)
    if isinstance(param, (Value, Either)):
        return param.say(lang)
    if isinstance(param, Texts):  # a designer's own words, in the file's languages
        return param.get(lang)
    return param


@dataclass(frozen=True)
class Problem:
    """One thing wrong in the input: which field, and what.

    `message` is the English text; `template` the English template it was filled from (the catalogue's msgid;
    empty: `message` is its own) and `params` what filled it, so `say` can give it in another language."""

    path: Path
    message: str
    template: str = field(default="", compare=False)
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self):
        if not isinstance(self.params, MappingProxyType):
            object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __reduce__(self):  # a mappingproxy does not pickle (nor copy.deepcopy)
        return Problem, (self.path, self.message, self.template, dict(self.params))

    def __str__(self) -> str:
        return f"{fmt_path(self.path) or 'request'}: {self.message}"

    def say(self, lang: str, term: Callable[[str], str] = lambda word: word) -> str:
        """The message in `lang`: `Term` parameters named by `term`, `Word`s translated, `Value`s said in `lang`.
        A message the catalogue lacks is said in English, its parameters too (no sentence in two languages)."""
        template = self.template or self.message
        said = translations(lang).gettext(template)
        if not self.params:
            return said
        if said == template:
            lang = "en"
        return said % {k: _said(v, lang, term) for k, v in self.params.items()}

    def under(self, *prefix: Any) -> Problem:
        """The same problem, its path under `prefix` (a request inside a sheet's entry, a change in a log)."""
        return replace(self, path=(*prefix, *self.path))


def problem(path: Path, template: str, **params: Any) -> Problem:
    """A problem from an English template with %(name)s parameters (wrap game words in Term, our words in Word,
    input values in Value): its message is the template filled in English."""
    return Problem(tuple(path), template % params if params else template, template, params)


class Problems(list):
    """The problems found so far; checks append and carry on, so all are reported at once."""

    def add(self, path: Path, template: str, **params: Any) -> object:
        """Record a problem (see `problem`); returns INVALID, for a check to return."""
        self.append(problem(path, template, **params))
        return INVALID


class InputError(ValueError):
    """Raised by rules code given bad input; carries every problem found."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(map(str, self.problems)))

    @property
    def field(self) -> str:
        """The path of the first problem as text (`players[0].name`); "" when there is none."""
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
        """The value as accepted (some fields convert it), or INVALID once its problems are added at `path`."""
        raise NotImplementedError


class Int(Field):
    def __init__(self, lo: int, hi: int, allowed: Iterable[int] | None = None):
        self.lo, self.hi = lo, hi
        self.allowed = tuple(allowed) if allowed is not None else None

    def check(self, value, path, problems):
        if not isinstance(value, int) or isinstance(value, bool):
            return problems.add(path, "must be a whole number, got %(got)s", got=Value(value))
        if self.allowed is not None and value not in self.allowed:
            *head, last = map(str, self.allowed)
            return problems.add(path, "must be %(head)s or %(last)s, got %(got)s", head=", ".join(head), last=last,
                                got=value)
        if not self.lo <= value <= self.hi:
            return problems.add(path, "must be from %(lo)s to %(hi)s, got %(got)s", lo=self.lo, hi=self.hi, got=value)
        return value


class Bool(Field):
    def check(self, value, path, problems):
        if not isinstance(value, bool):
            return problems.add(path, "must be true or false, got %(got)s", got=Value(value))
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
        """A text: not blank, without NUL or unpaired surrogates, at most `max_len` long, matching `pattern` if any."""
        if not isinstance(value, str) or not value.strip():
            return problems.add(path, "must be a non-empty text, got %(got)s", got=Value(value))
        if _UNSTORABLE.search(value):
            return problems.add(path, "must be text without NUL characters or unpaired surrogates")
        if len(value) > self.max_len:
            return problems.add(path, "is %(length)s characters long; at most %(most)s", length=len(value),
                                most=self.max_len)
        if self.pattern and not self.pattern.fullmatch(value):
            return problems.add(path, "%(got)s is not valid: %(hint)s", got=repr(value),
                                hint=Word(self.hint) if self.hint else self.pattern.pattern)
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
        self.values, self.what = tuple(values), Word(what)

    def check(self, value, path, problems):
        if not isinstance(value, str) or value not in self.values:
            shown = repr(value) if isinstance(value, str) else Value(value)
            near = closest(value, self.values)
            if near:
                return problems.add(path, "unknown %(what)s %(got)s; did you mean %(near)s? Expected one of: "
                                          "%(expected)s", what=self.what, got=shown, near=repr(near),
                                    expected=", ".join(self.values))
            return problems.add(path, "unknown %(what)s %(got)s; expected one of: %(expected)s", what=self.what,
                                got=shown, expected=", ".join(self.values))
        return value


class ListOf(Field):
    def __init__(self, item: Field, min_len: int = 0, max_len: int = 10_000):
        self.item, self.min_len, self.max_len = item, min_len, max_len

    def check(self, value, path, problems):
        """The items, each checked, as a tuple."""
        if not isinstance(value, (list, tuple)):
            return problems.add(path, "must be a list, got %(got)s", got=Value(value))
        if not self.min_len <= len(value) <= self.max_len:
            if self.min_len == self.max_len:
                return problems.add(path, "must have %(n)s items, has %(has)s", n=self.min_len, has=len(value))
            return problems.add(path, "must have %(lo)s to %(hi)s items, has %(has)s", lo=self.min_len,
                                hi=self.max_len, has=len(value))
        items = [self.item.check(v, (*path, i), problems) for i, v in enumerate(value)]
        return INVALID if any(v is INVALID for v in items) else tuple(items)


def closest(word: Any, known: Iterable[str]) -> str | None:
    """The known name a mistyped one most likely meant ('sut', 'Suit', 'suits' → 'suit'), or None."""
    if not isinstance(word, str):
        return None
    known = list(known)
    by_case = {name.lower(): name for name in known}
    if word.lower() in by_case:
        return by_case[word.lower()]
    found = difflib.get_close_matches(word.lower(), list(by_case), n=1, cutoff=0.6)
    return by_case[found[0]] if found else None


class Record(Field):
    """A mapping with known keys: unknown and missing required keys are problems."""

    def __init__(self, fields: Mapping[str, Field], required: Iterable[str] = ()):
        self.fields = dict(fields)
        self.required = tuple(required)

    def check(self, value, path, problems):
        """The checked value of each key given, as a read-only mapping."""
        if not isinstance(value, Mapping):
            return problems.add(path, "must be a mapping, got %(got)s", got=Value(value))
        result, ok = {}, True
        for key, item in value.items():
            field = self.fields.get(key)
            if field is None:
                near = closest(key, self.fields)
                if near:
                    problems.add((*path, key), "unknown key; did you mean %(near)s? Expected one of: %(expected)s",
                                 near=repr(near), expected=", ".join(self.fields))
                else:
                    problems.add((*path, key), "unknown key; expected one of: %(expected)s",
                                 expected=", ".join(self.fields))
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
        """Checked key → checked value, as a read-only mapping; two keys that check to the same one are a problem."""
        if not isinstance(value, Mapping):
            return problems.add(path, "must be a mapping, got %(got)s", got=Value(value))
        result, ok = {}, True
        for key, item in value.items():
            name = self.key.check(key, (*path, key), problems)  # the key as checked (a Name comes back normalised)
            if name is INVALID:
                ok = False
                continue
            if name in result:
                problems.add((*path, key), "is the same as %(name)s, given before", name=repr(name))
                ok = False
                continue
            checked = self.value.check(item, (*path, key), problems)
            ok &= checked is not INVALID
            result[name] = checked
        return MappingProxyType(result) if ok else INVALID


LANG_CODE = Str(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})?", max_len=12, hint="a language code such as en, es, fr or pt-BR")
WRITTEN: ContextVar[tuple[str, ...]] = ContextVar("written", default=LANGS)  # the languages a data file writes


@contextmanager
def written_in(langs: Iterable[str]):
    """Check texts (`TextsField`) as written in `langs` (a data file's `languages:`) inside this block."""
    token = WRITTEN.set(tuple(langs))
    try:
        yield
    finally:
        WRITTEN.reset(token)


class Texts:
    """A text in the languages its file writes: `Texts("Hola", "Hi")` (Spanish, English), `Texts(fr="Salut")`, or
    `Texts.every("Hi")` (one text for every language)."""

    __slots__ = ("by_lang",)

    def __init__(self, es: str | None = None, en: str | None = None, /, **more: str):
        by_lang = {lang: text for lang, text in (("es", es), ("en", en)) if text is not None}
        object.__setattr__(self, "by_lang", MappingProxyType({**by_lang, **more}))

    def __setattr__(self, name, value):
        raise AttributeError("Texts is read-only")

    @classmethod
    def every(cls, text: str) -> Texts:
        """One text for every language (a plain string in the file)."""
        return cls(**{"*": text})

    def get(self, lang: str) -> str:
        """The text in `lang`; where the file does not write that language, English, else its first."""
        by = self.by_lang
        return by[lang] if lang in by else by["en"] if "en" in by else next(iter(by.values()))

    @property
    def es(self) -> str:
        return self.get("es")

    @property
    def en(self) -> str:
        return self.get("en")

    def items(self):
        """(language, text) pairs as written (`*` for a plain string: every language)."""
        return self.by_lang.items()

    def map(self, change) -> Texts:
        """The same languages, each text changed by `change`."""
        return Texts(**{lang: change(text) for lang, text in self.by_lang.items()})

    def __eq__(self, other):
        return isinstance(other, Texts) and dict(self.by_lang) == dict(other.by_lang)

    def __hash__(self):
        return hash(tuple(sorted(self.by_lang.items())))

    def __repr__(self):
        return f"Texts({', '.join(f'{k}={v!r}' for k, v in self.by_lang.items())})"

    def __reduce__(self):  # a mappingproxy does not pickle
        return _texts, (dict(self.by_lang),)


def _texts(by_lang: dict) -> Texts:
    return Texts(**by_lang)


class TextsField(Field):
    """A text in every language the file writes (`WRITTEN`: `{es: ..., en: ...}` by default, each required), or a
    plain string: the same text in every language."""

    def __init__(self, max_len: int = 400):
        self.max_len = max_len

    def check(self, value, path, problems):
        """The texts as a `Texts`."""
        if isinstance(value, str):
            checked = Str(max_len=self.max_len).check(value, path, problems)
            return INVALID if checked is INVALID else Texts.every(checked)
        langs = WRITTEN.get()
        record = Record({lang: Str(max_len=self.max_len) for lang in langs}, required=langs)
        checked = record.check(value, path, problems)
        return INVALID if checked is INVALID else Texts(**checked)
