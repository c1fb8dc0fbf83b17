"""A layout's texts: placeholders filled in for one component (`{name}`, `{colour:suit}`, `{label:suit}`), the
markup of a text (`**bold**`, `*italic*`, `{icon:name}`, line breaks) read into runs, and the problems of both."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.schema import Path, Problems, Texts, closest
from .schema import PLACEHOLDER, Design


class Missing(Exception):
    """A placeholder names a field the component does not have: the element is not drawn."""


def value_of(key: str, values: Mapping[str, Any], lang: str) -> Any:
    """A component's value for a placeholder's key (`name`, `suit`, `flavour.en`); Missing when it has none."""
    head, _, tail = key.partition(".")
    if head not in values or values[head] is None:
        raise Missing(key)
    value = values[head]
    if isinstance(value, Texts):
        return value.get(tail or lang)
    if tail:
        raise Missing(key)
    return value


def fill(template: str, values: Mapping[str, Any], lang: str, design: Design | None = None) -> str:
    """A text with every `{field}` replaced by the component's value, `{colour:field}` by the colour `colours:`
    gives that value and `{label:field}` by the word `labels:` gives it in `lang`; `{icon:...}` is left for the
    markup. Missing when a field is absent (or has no colour)."""
    def one(match: re.Match) -> str:
        key = match.group(1)
        prefix, _, name = key.rpartition(":")
        if prefix == "icon":
            return match.group(0)
        value = value_of(name, values, lang)
        if isinstance(value, (list, tuple)):
            value = ", ".join(map(str, value))
        if prefix == "colour":
            found = design.colours.get(name, {}).get(str(value)) if design else None
            if found is None:
                raise Missing(key)
            return found
        if prefix == "label":
            texts = design.labels.get(str(value)) if design else None
            return texts.get(lang) if texts else str(value)
        return str(value)

    return PLACEHOLDER.sub(one, template)


def fill_list(template: str, values: Mapping[str, Any], lang: str) -> list:
    """An `icons:`/`track:` element's list: `{field}` alone names a list field (a text is split at commas)."""
    match = PLACEHOLDER.fullmatch(template.strip())
    if match:
        value = value_of(match.group(1), values, lang)
    else:
        value = template
    if isinstance(value, (list, tuple)):
        return list(value)
    return [part.strip() for part in str(value).split(",") if part.strip()]


def placeholders(template: str) -> list[str]:
    """The field names a template uses (`colour:suit` → `suit`; inline icons name no field)."""
    names = []
    for key in PLACEHOLDER.findall(template):
        if key.startswith("icon:"):
            continue
        names.append(key.split(":", 1)[-1].split(".", 1)[0])
    return names


# --- Text markup ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Run:
    """A piece of a text line: words in one style, or one inline icon (a term or shape's name)."""

    text: str = ""
    bold: bool = False
    italic: bool = False
    icon: str | None = None


_TOKEN = re.compile(r"\\[*\\{]|\*\*|\*|\{icon:([a-z0-9_-]+)\}|\n")


def markup(text: str, bold: bool = False, italic: bool = False) -> list[list[Run]]:
    """Lines of runs from a text with `**bold**`, `*italic*`, `{icon:name}` and line breaks (`\\*` is a star).
    An unclosed `*` or `**` styles to the end of the text, as a reader would expect from a half-typed one."""
    lines: list[list[Run]] = [[]]
    b, i = bold, italic
    pos = 0
    buf = ""

    def flush():
        nonlocal buf
        if buf:
            lines[-1].append(Run(buf, b, i))
            buf = ""

    for m in _TOKEN.finditer(text):
        buf += text[pos:m.start()]
        pos = m.end()
        token = m.group(0)
        if token.startswith("\\"):
            buf += token[1]
        elif token == "**":
            flush()
            b = not b
        elif token == "*":
            flush()
            i = not i
        elif token == "\n":
            flush()
            lines.append([])
        else:
            flush()
            lines[-1].append(Run(icon=m.group(1), bold=b, italic=i))
    buf += text[pos:]
    flush()
    return lines


def plain(text: str) -> str:
    """A marked-up text as plain words (for the phone's alt text and for checking a font's characters)."""
    return "\n".join("".join(r.text for r in line) for line in markup(text))


def check_markup(text: str, icon_names, path: Path, problems: Problems) -> None:
    """One problem at most for a marked-up text: an inline icon that is no term or shape in `icon_names` (drawn as
    a gap), else a `**` or `*` nothing closes (`check_closed`)."""
    for m in _TOKEN.finditer(text):
        if m.group(1) is not None and m.group(1) not in icon_names:
            check_icon(m.group(1), icon_names, path, problems)
            return
    check_closed(text, path, problems)


def check_icon(name: str, icon_names, path: Path, problems: Problems) -> None:
    """A problem for an icon name that is no term or shape, naming the closest known one (else all of them)."""
    if name in icon_names:
        return
    near = closest(name, icon_names)
    if near:
        problems.add(path, "names the icon %(name)s, which is neither a term in look.terms nor a shape; did you "
                           "mean %(near)s?", name=repr(name), near=repr(near))
    else:
        problems.add(path, "names the icon %(name)s, which is neither a term in look.terms nor a shape "
                           "(%(shapes)s)", name=repr(name), shapes=", ".join(sorted(icon_names)))


def check_closed(text: str, path: Path, problems: Problems) -> None:
    """A problem for a `**` or `*` that nothing closes (the rest of the text would print bold or italic)."""
    opened: dict[str, int | None] = {"**": None, "*": None}  # each style's opening star while it is open
    for m in _TOKEN.finditer(text):
        if m.group(0) in opened:
            opened[m.group(0)] = m.start() if opened[m.group(0)] is None else None
    for stars, style in (("**", "bold"), ("*", "italic")):
        if opened[stars] is not None:
            at = text[opened[stars]:opened[stars] + 24].replace("\n", " ")
            problems.add(path, "opens %(style)s with %(stars)s at %(at)s and nothing closes it, so the rest of the "
                               "text prints %(style)s: close it with %(stars)s (a star that is a star: \\*)",
                         style=style, stars=stars, at=repr(at))
            return



def list_items(text: str) -> list[tuple[int, str]]:
    """A reference text as list items (level, text) for a layout's list: one a sentence; a sentence of four or more
    clauses split at its semicolons into sub-items under its first."""
    out = []
    for sentence in re.split(r"(?<=\.)\s+(?=\S)", text.strip()):
        clauses = sentence.split("; ")
        if len(clauses) >= 4:
            out.append((0, clauses[0]))
            out += [(1, clause) for clause in clauses[1:]]
        else:
            out.append((0, sentence))
    return out
