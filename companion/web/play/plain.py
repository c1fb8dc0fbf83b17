"""A problem in a player's input said as a player reads it: where (the player, round, sale or card, by name) and
what, in the page's language, never a field path. The JSON API keeps its `field` and English messages."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core import i18n
from ...core.i18n import N_
from ...core.schema import Problem

# A field left out of a longer path, said when it is the whole path ("players: must be 1 or 2" is the count).
ALONE = {"players": N_("number of players")}
LENGTH = {"must have %(lo)s to %(hi)s items, has %(has)s": N_("must be from %(lo)s to %(hi)s, got %(got)s"),
          "must have %(n)s items, has %(has)s": N_("must be %(n)s, got %(got)s")}


@dataclass(frozen=True)
class Words:
    """What a table calls a request's fields, to say a problem in plain words: the shared ones (SHARED), to which
    a game's glue adds its own (`GamePages.words`). Texts are N_-marked English, said in the page's language."""

    fields: Mapping[str, str] = field(default_factory=dict)  # a field's word ("" leaves the step out: a player's
    # name says more than "players")
    counted: Mapping[str, str] = field(default_factory=dict)  # lists whose items a player counts ("Round %(k)s");
    # the list's own word is then left out
    count_of: Mapping[str, str] = field(default_factory=dict)  # a list of the wrong length said as a count of what
    # it holds ("number of players: must be from 1 to 10, got 0", never "must have 1 to 10 items"); "list[]" is a
    # list's item that is itself a list

    def __or__(self, other: Words) -> Words:
        return Words({**self.fields, **other.fields}, {**self.counted, **other.counted},
                     {**self.count_of, **other.count_of})


SHARED = Words(
    fields={"players": "", "request": "", "name": N_("name"), "points": N_("points"), "note": N_("note"),
            "title": N_("title"), "seats": N_("seats"), "game": N_("game")},
    count_of={"players": N_("number of players"), "seats": N_("seats")})


def _child(node: Any, key: Any) -> Any:
    if isinstance(key, int) and isinstance(node, list) and 0 <= key < len(node):
        return node[key]
    if isinstance(key, str) and isinstance(node, Mapping):
        return node.get(key)
    return None


def where(path: tuple, request: Any, lang: str, term: Callable[[str], str] = lambda w: w,
          words: Words = SHARED, first: int = 1) -> list[str]:
    """The steps of a field's path as a player names them: a player by name ("Ana"), a round or sale by number
    ("Round 2": the request's first round is round `first`, a saved sheet's), a card by its id, a field by its
    word, a game word ("Amber") by the page's `term`."""
    steps, node = [], request
    for i, key in enumerate(path):
        child = _child(node, key)
        if isinstance(key, int):
            parent = path[i - 1] if i else None
            if parent in words.counted:
                steps.append(i18n._(words.counted[parent], lang, k=key + (first if i == 1 else 1)))
            elif isinstance(child, Mapping) and isinstance(child.get("name"), str) and child["name"].strip():
                steps.append(child["name"].strip())
            elif parent == "players":
                steps.append(i18n._("Player %(n)s", lang, n=key + 1))
            elif isinstance(child, str):
                steps.append(child)  # a card in a list, by its id
            else:
                steps.append(str(key + 1))
        elif key in words.counted and i + 1 < len(path) and isinstance(path[i + 1], int):
            pass  # said with its number by the next step
        elif isinstance(child, Mapping) and isinstance(child.get("name"), str) and child["name"].strip():
            steps.append(child["name"].strip())  # a side keyed by name (`attacker`) that names its player
        elif key in words.fields:
            word = words.fields[key] or (ALONE.get(key, "") if i == len(path) - 1 else "")
            if word:
                steps.append(i18n._(word, lang))
        else:
            steps.append(term(str(key)))  # a gem or stone by the page's word, a player's points by name
        node = child
    return steps


def _counted(path: tuple) -> str:
    """The `Words.count_of` key of the list at `path`: its field's name, or "parent[]" for a list inside a list."""
    if not path:
        return ""
    if isinstance(path[-1], str):
        return path[-1]
    return f"{path[-2]}[]" if len(path) > 1 else ""


def said(problem: Problem, lang: str, request: Any = None, term: Callable[[str], str] = lambda w: w,
         words: Words = SHARED, first: int = 1) -> str:
    """One problem as a sentence of the page's language: "Ana · hand: DQ01 is used more often than the game has
    it (1 copy)". A step the message already names (the card) is not said twice."""
    path = tuple(problem.path)
    counted = _counted(path)
    if problem.template in LENGTH and counted in words.count_of:
        values = {k: v for k, v in problem.params.items() if k != "has"}
        what = i18n._(LENGTH[problem.template], lang, got=problem.params["has"], **values)
        inside = path[:-1] if isinstance(path[-1], str) else path
        steps = [*where(inside, request, lang, term, words, first), i18n._(words.count_of[counted], lang)]
    else:
        what = problem.say(lang, term)
        steps = where(path, request, lang, term, words, first)
    steps = [s for s in steps if s and s not in what]
    text = f"{' · '.join(steps)}: {what}" if steps else what
    return text[:1].upper() + text[1:]


class Said:
    """A problem as a page shows it: its path (to mark the field) and its sentence in the page's language."""

    __slots__ = ("path", "text")

    def __init__(self, path: tuple, text: str):
        self.path, self.text = path, text

    def __str__(self) -> str:
        return self.text


def said_all(problems: list[Problem], lang: str, request: Any = None, card_set=None,
             words: Words = Words(), first: int = 1) -> list[Said]:
    """Every problem of a page said in its language, its fields by the shared words and the game's `words`; a
    game's terms (a gem, a stone) named as its card data names them; the request's first round is round `first`."""
    term = (lambda w: card_set.label(w, lang)) if card_set is not None else (lambda w: w)
    words = SHARED | words
    return [Said(tuple(p.path), said(p, lang, request, term, words, first)) for p in problems]
