"""A component's name written as a template of its fields (`name: "{rank} {suit}"`), filled in once when its file is
loaded, in each language it writes: every page, the print and Tabletop Simulator then read the name as any other."""
from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import replace

from .core.schema import Texts
from .layouts import PLACEHOLDER

OWN = ("id", "qty", "type", "set")  # a component's own keys a name may use besides its fields
LEFT = ("icon", "colour")  # `{icon:heart}` stays markup; `{colour:...}` means nothing in a name and stays


def fill(components: list, header: Mapping, languages: tuple[str, ...], errors: list[str], filename: str) -> list:
    """The components with each name that names fields (`{rank}`, `{label:suit}`) filled in, a field of choices by
    its word in `labels:` (else the value as written); a line in `errors` for a name that names a field its
    component lacks."""
    labels = header.get("labels") or {}
    out = []
    for c in components:
        if c.name is None or not any(PLACEHOLDER.search(text) for _lang, text in c.name.items()):
            out.append(c)
            continue
        values = {**{key: getattr(c, key) for key in OWN}, **c.data}
        try:
            name = Texts(**{lang: _filled(c.name.get(lang), values, labels, lang) for lang in languages})
        except _Unknown as e:
            near = difflib.get_close_matches(e.args[0], list(values), 1, 0.6)
            hint = f"; did you mean {near[0]!r}?" if near else f" (it has: {', '.join(sorted(values))})"
            errors.append(f"{c.where(filename)}: {c.id}: name: names {{{e.args[0]}}}, which this component does not "
                          f"have{hint}")
            out.append(c)
            continue
        out.append(replace(c, name=name))
    return out


class _Unknown(Exception):
    """A placeholder naming no value of the component."""


def _filled(text: str, values: Mapping, labels: Mapping, lang: str) -> str:
    def one(m) -> str:
        key = m.group(1)
        prefix, _, rest = key.partition(":")
        if rest and prefix in LEFT:
            return m.group(0)
        field = rest if prefix == "label" else key
        if field not in values:
            raise _Unknown(field)
        return _said(values[field], labels, lang)

    return PLACEHOLDER.sub(one, text)


def _said(value, labels: Mapping, lang: str) -> str:
    """A field's value in words: a translated text in `lang`, a word by its label, a list's items by commas."""
    if isinstance(value, Texts):
        return value.get(lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(_said(v, labels, lang) for v in value)
    if isinstance(value, str) and value in labels:
        return labels[value].get(lang)
    return str(value)
