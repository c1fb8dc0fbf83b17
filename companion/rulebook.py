"""The rules reference as data, for the phone pages and the printed booklet alike: a section's paragraphs and
lists, the component inventory counted from the card data, and which sections apply to a printed card."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from .cards import REQUIRED_SECTIONS, CardSet, Component

REQUIRED = REQUIRED_SECTIONS  # every game with rules of its own explains at least these (validate warns)
Block = tuple[str, object]  # ("p", text) or ("ul", [item, ...])


def blocks(text: str) -> list[Block]:
    """A section's text as blocks: paragraphs are separated by a blank line; lines starting with "- " are a list."""
    out: list[Block] = []
    for chunk in (c.strip() for c in text.replace("\r\n", "\n").split("\n\n")):
        if not chunk:
            continue
        lines = [line.strip() for line in chunk.split("\n")]
        if all(line.startswith("- ") for line in lines):
            out.append(("ul", [line[2:].strip() for line in lines]))
        else:
            items = [line[2:].strip() for line in lines if line.startswith("- ")]
            head = " ".join(line for line in lines if not line.startswith("- "))
            out.append(("p", head))
            if items:
                out.append(("ul", items))
    return out


def inventory(card_set: CardSet, lang: str) -> list[dict]:
    """What the box holds, counted from the card data, by set: each entry's name and how many are printed."""
    groups: dict[str, Counter] = {}
    for c in card_set.components:
        if c.kind != "back":
            groups.setdefault(c.set, Counter())[component_label(card_set, c, lang)] += c.qty
    return [{"set": card_set.sets[s].get(lang) if s in card_set.sets else s,
             "items": list(counts.items()), "total": sum(counts.values())} for s, counts in groups.items()]


def component_label(card_set: CardSet, c: Component, lang: str) -> str:
    """A component's name for a list: its own name, or its type's label, or its type."""
    return c.name_in(lang) or card_set.label(c.type, lang)


def sections_for(card_set: CardSet, c: Component) -> list[Mapping]:
    """The rules sections that apply to a printed component: those that name its id (the most specific, first),
    then those that name its type."""
    own = [s for s in card_set.rules if c.id in s.get("cards", ())]
    return own + [s for s in card_set.rules if c.type in s.get("cards", ()) and s not in own]
