"""A problem in a player's input said as a player reads it: where (the player, round, sale or card, by name) and
what, in the page's language, never a field path. The JSON API keeps its `field` and English messages."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from .. import i18n
from ..i18n import N_
from ..schema import Problem

# A field left out of a longer path, said when it is the whole path ("players: must be 1 or 2" is the count).
ALONE = {"players": N_("number of players")}
# What a player calls a request's fields ("" leaves a step out: a player's name says more than "players").
FIELD_WORDS = {
    "players": "", "request": "", "rounds": "", "sales": "", "name": N_("name"),
    # the Duquesa
    "common": N_("common card"), "hand": N_("hand"), "florins": N_("florins"), "seen": N_("card turned up"),
    "gone": N_("cards already gone"), "drawn": N_("card drawn"), "turn": N_("turn"),
    # Duplicon
    "won": N_("cards won"), "zone": N_("cards in the play zone"),
    # Gemas
    "gems": "", "bandaids": N_("band-aids"), "heart": N_("heart"), "lay_down": N_("set laid down"),
    "player": N_("who"), "target": N_("against"), "set": N_("set"), "cards": N_("cards"), "choice": N_("choice"),
    # Queen's Necklace
    "fashion": N_("fashion"), "shown": "", "rings": N_("Rings"), "king": N_("King"),
    "necklace": N_("Necklace"), "bankers": N_("Bankers"), "alchemist": N_("Alchemist"), "from": N_("from"),
    "to": N_("to"),
    # Nobles en duelo
    "attacker": N_("attacker"), "defender": N_("defender"), "noble": N_("noble"), "version": N_("version"),
    "suit": N_("suit"), "weapon": N_("weapon"), "dice": N_("dice"), "wounds": N_("wounds"),
    "resources": N_("resources"), "courts": "", "nobles": "", "at": N_("noble"), "versions": N_("versions"),
    "redirected": N_("change of target"),
    # sheets
    "points": N_("points"), "note": N_("note"), "title": N_("title"), "seats": N_("seats"), "game": N_("game"),
}
# lists whose items a player counts ("Round 2"); the list's own word is then left out
COUNTED = {"rounds": N_("Round %(k)s"), "sales": N_("Sale %(k)s"), "dice": N_("die %(k)s"),
           "nobles": N_("Noble %(k)s")}
# a list of the wrong length said as a count of what it holds ("number of players: must be from 1 to 10, got 0"),
# never as "must have 1 to 10 items"
COUNT_OF = {"players": N_("number of players"), "hand": N_("cards in the hand"), "dice": N_("number of dice"),
            "cards": N_("number of cards"), "rounds": N_("number of rounds"), "sales": N_("number of sales"),
            "nobles": N_("number of nobles"), "fashion": N_("gems in the fashion order"), "seats": N_("seats"),
            "rounds[]": N_("number of players")}  # "list[]": a list's item that is a list (a Duplicon round's seats)
LENGTH = {"must have %(lo)s to %(hi)s items, has %(has)s": N_("must be from %(lo)s to %(hi)s, got %(got)s"),
          "must have %(n)s items, has %(has)s": N_("must be %(n)s, got %(got)s")}


def _child(node: Any, key: Any) -> Any:
    if isinstance(key, int) and isinstance(node, list) and 0 <= key < len(node):
        return node[key]
    if isinstance(key, str) and isinstance(node, Mapping):
        return node.get(key)
    return None


def where(path: tuple, request: Any, lang: str, term: Callable[[str], str] = lambda w: w) -> list[str]:
    """The steps of a field's path as a player names them: a player by name ("Ana"), a round or sale by number
    ("Round 2"), a card by its id, a field by its word, a game word ("Amber") by the page's `term`."""
    steps, node = [], request
    for i, key in enumerate(path):
        child = _child(node, key)
        if isinstance(key, int):
            parent = path[i - 1] if i else None
            if parent in COUNTED:
                steps.append(i18n._(COUNTED[parent], lang, k=key + 1))
            elif isinstance(child, Mapping) and isinstance(child.get("name"), str) and child["name"].strip():
                steps.append(child["name"].strip())
            elif parent == "players":
                steps.append(i18n._("Player %(n)s", lang, n=key + 1))
            elif isinstance(child, str):
                steps.append(child)  # a card in a list, by its id
            else:
                steps.append(str(key + 1))
        elif key in COUNTED and i + 1 < len(path) and isinstance(path[i + 1], int):
            pass  # said with its number by the next step
        elif isinstance(child, Mapping) and isinstance(child.get("name"), str) and child["name"].strip():
            steps.append(child["name"].strip())  # a side that names its player (a Nobles duel at court)
        elif key in FIELD_WORDS:
            word = FIELD_WORDS[key] or (ALONE.get(key, "") if i == len(path) - 1 else "")
            if word:
                steps.append(i18n._(word, lang))
        else:
            steps.append(term(str(key)))  # a gem or stone by the page's word, a player's points by name
        node = child
    return steps


def _counted(path: tuple) -> str:
    """The COUNT_OF key of the list at `path`: its field's name, or "parent[]" for a list inside a list."""
    if not path:
        return ""
    if isinstance(path[-1], str):
        return path[-1]
    return f"{path[-2]}[]" if len(path) > 1 else ""


def said(problem: Problem, lang: str, request: Any = None, term: Callable[[str], str] = lambda w: w) -> str:
    """One problem as a sentence of the page's language: "Ana · hand: DQ01 is used more often than the game has
    it (1 copy)". A step the message already names (the card) is not said twice."""
    path = tuple(problem.path)
    counted = _counted(path)
    if problem.template in LENGTH and counted in COUNT_OF:
        values = {k: v for k, v in problem.params.items() if k != "has"}
        what = i18n._(LENGTH[problem.template], lang, got=problem.params["has"], **values)
        inside = path[:-1] if isinstance(path[-1], str) else path
        steps = [*where(inside, request, lang, term), i18n._(COUNT_OF[counted], lang)]
    else:
        what = problem.say(lang, term)
        steps = where(path, request, lang, term)
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


def said_all(problems: list[Problem], lang: str, request: Any = None, card_set=None) -> list[Said]:
    """Every problem of a page said in its language; a game's words named as its card data names them."""
    term = (lambda w: card_set.label(w, lang)) if card_set is not None else (lambda w: w)
    return [Said(tuple(p.path), said(p, lang, request, term)) for p in problems]
