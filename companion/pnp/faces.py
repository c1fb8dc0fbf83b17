"""What each printed component shows, as plain data (a Face); one renderer draws every face."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..cards import CardSet, Component
from ..i18n import N_, _
from .icons import SUIT_COLOURS, SUIT_SHAPES, Icon


@dataclass(frozen=True)
class Face:
    title: str
    accent: str  # hex colour of the header band and frame
    icons: tuple[Icon, ...] = ()  # the main art, laid out in a grid
    captions: tuple[str, ...] = ()  # one under each icon
    big: str | None = None  # a large value or letter in the middle (+30, J, 7)
    tag: str | None = None  # a letter in the header's corner that says what the band colour says
    lower_label: str | None = None  # a panel at the bottom (the Duquesa's wish)
    lower_icons: tuple[Icon, ...] = ()
    lower_value: str | None = None
    lower_unit: str | None = None
    text: str | None = None
    track: tuple[str, ...] = ()  # price steps down the right edge
    corner: str | None = None  # playing-card index
    corner_icon: Icon | None = None
    background: str = "#fbf7ee"


@dataclass(frozen=True)
class Back:
    title: str
    accent: str
    emblem: tuple[Icon, ...] = field(default_factory=tuple)


ACCENTS = {"duquesa": "#5b2a6e", "queens-necklace": "#1f3a5f", "gemas": "#0f6e6e", "nobles": "#7a1f2b",
           "duplicon": "#2f3b45"}
GENERIC_ACCENT = "#3b4a3f"
GOLD_TABLE = N_("Gold by accumulation, in florins. 1 ingot: 5 · 2: 14 · 3: 27 · 4: 44")

STONES = {  # each stone its own shape and colour
    "pearl": ("circle", "#f4efe6"), "jet": ("square", "#2b2b2b"), "amethyst": ("triangle", "#8e44ad"),
    "diamond": ("diamond", "#d6eef8"), "emerald": ("hexagon", "#1e9e5a"), "ruby": ("heart", "#c0392b"),
    "sapphire": ("octagon", "#2e5fb8"), "amber": ("star", "#f0a202"), "rainbow": ("circle", "rainbow"),
    "gold": ("ingot", "#d4af37"),
}
GEMAS = {"green": ("hexagon", "#2e9e4f"), "blue": ("circle", "#2e6fd1"), "violet": ("triangle", "#8e44ad"),
         "orange": ("square", "#f07f13")}
OKABE_ITO = {"vermilion": "#D55E00", "orange": "#E69F00", "yellow": "#F0E442", "bluish-green": "#009E73",
             "sky-blue": "#56B4E9", "blue": "#0072B2", "reddish-purple": "#CC79A7", "black": "#000000"}
QN_COLOURS = {"blue": "#2f5d9e", "purple": "#6d3a8c", "grey": "#6b6b6b"}  # each also tagged by its label's initial


def stone(name: str) -> Icon:
    shape, fill = STONES[name]
    return Icon(shape, fill)


def _title(c: Component, lang: str, fallback: str) -> str:
    return c.name.get(lang) if c.name else fallback


def _text(c: Component, lang: str) -> str | None:
    return c.text.get(lang) if c.text else None


def duquesa(c: Component, s: CardSet, lang: str) -> Face:
    accent = ACCENTS["duquesa"]
    if c.type != "necklace":
        return Face(_title(c, lang, c.id), accent, text=_text(c, lang))
    stones = c.data["stones"]
    icons = tuple(stone(x) for x in stones)
    captions = tuple(s.label(x, lang) for x in stones)
    wish = c.data.get("wish")
    if wish is None:  # a gold card: the gold table replaces the wish
        return Face(s.label("gold", lang), accent, icons, captions, text=_(GOLD_TABLE, lang))
    title = s.label(wish["stone"], lang) if wish["stone"] != "rainbow" else s.label("rainbow", lang)
    return Face(
        f"{wish['count']} × {title}" if wish["stone"] != "rainbow" else title, accent, icons, captions,
        lower_label=_("The Duchess wishes", lang),
        lower_icons=tuple(stone(wish["stone"]) for _i in range(wish["count"])),
        lower_value=str(wish["florins"]), lower_unit=_("florins", lang),
        text=_("Rainbow stone: wild or itself", lang) if "rainbow" in stones else None,
    )


QN_GEMS = {"diamond": ("diamond", "#cfe8f5"), "emerald": ("hexagon", "#1e9e5a"), "ruby": ("heart", "#c0392b"),
           "amber": ("star", "#f0a202")}


def queens_necklace(c: Component, s: CardSet, lang: str) -> Face:
    from ..games.queens_necklace import CHARACTERS

    accent = ACCENTS["queens-necklace"]
    track = tuple(str(p) for p in c.data.get("prices", ())) + (("×",) if c.data.get("prices") else ())
    if c.type in ("gem", "gem-tile"):
        shape, fill = QN_GEMS[c.data["gem"]]
        n = c.data.get("gems", 1)
        return Face(s.label(c.data["gem"], lang), accent, tuple(Icon(shape, fill) for _i in range(n)), track=track,
                    captions=(f"{n} × {s.label(c.data['gem'], lang)}",) if c.type == "gem" else ())
    if c.type in ("fashion-tile", "rarity-tile"):
        label = _("Fashion", lang) if c.type == "fashion-tile" else _("Rarity", lang)
        return Face(label, accent, big=f"+{c.data['value']}" if c.data["value"] else "0")
    colour = CHARACTERS.get(c.data.get("character"), c.data.get("colour"))
    band = QN_COLOURS.get(colour, accent)
    tag = s.label(colour, lang)[0] if colour else None
    text = _text(c, lang) if c.type != "blank" else _("Write your own card here", lang)
    return Face(_title(c, lang, c.id), band, tag=tag, text=text, track=track,
                icons=(Icon("circle", "#d4af37"),) if c.type == "price-marker" else ())


def gemas(c: Component, s: CardSet, lang: str) -> Face:
    accent = ACCENTS["gemas"]
    if "colour" in c.data:
        shape, fill = GEMAS[c.data["colour"]]
        return Face(s.label(c.data["colour"], lang), accent, (Icon(shape, fill),))
    art = {"thief": Icon("diamond", "#444444", "?"), "chipote": Icon("burst", "#f5c542", "!"),
           "healing": Icon("cross", "#e8e8e8", ""), "bandaid": Icon("square", "#f2c9a0"),
           "heart": Icon("heart", "#d6336c")}.get(c.type)
    return Face(_title(c, lang, c.id), accent, (art,) if art else (), text=_text(c, lang))


def nobles(c: Component, s: CardSet, lang: str) -> Face:
    from ..games.nobles import BASE, NOBLE_RANKS, WOUNDS

    accent = ACCENTS["nobles"]
    if c.type in ("number", "noble"):
        suit, rank = c.data["suit"], c.data["rank"]
        pip = Icon(SUIT_SHAPES[suit], SUIT_COLOURS[suit])
        index = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
        if c.type == "noble":
            kind = NOBLE_RANKS[rank]
            title = f"{s.label(kind, lang)} · {s.label(suit, lang)}"
            text = _("Strength %(s)s · %(w)s wounds", lang, s=BASE[kind], w=WOUNDS[kind])
        else:
            title = s.label(suit, lang)
            text = (_("Critical hit: wins the duel", lang) if rank == 1
                    else _("Permanent weapon +%(n)s", lang, n=rank) if rank in (2, 3)
                    else _("Adds %(n)s in a duel", lang, n=rank))
        return Face(title, accent, (pip,), big=index, text=text, corner=index, corner_icon=pip)
    art = {"joker": Icon("star", "#d4af37"), "resource": Icon("octagon", "#d4af37"),
           "wound": Icon("burst", "#c0392b")}.get(c.type)
    return Face(_title(c, lang, c.id), accent, (art,) if art else (), text=_text(c, lang))


def duplicon(c: Component, s: CardSet, lang: str) -> Face:
    accent = ACCENTS["duplicon"]
    if c.type == "pair-card":
        shape, colour = c.data["shape"], c.data["colour"]
        return Face(f"{s.label(shape, lang)} · {s.label(colour, lang)}", accent,
                    (Icon(shape, OKABE_ITO[colour]),), text=_("Pairs with another like it", lang))
    return Face(_title(c, lang, c.id), accent, text=_text(c, lang))


def generic(c: Component, s: CardSet, lang: str) -> Face:
    """A game with no code of its own: title, icons, a value and a text, all from its data."""
    palette = list(OKABE_ITO.values())[:7]  # one colour per card, the same on every build
    colour = palette[sum(map(ord, c.id)) % len(palette)]
    icons = tuple(Icon(shape, colour) for shape in c.data.get("icons", ()))
    value = c.data.get("value")
    return Face(_title(c, lang, c.id), GENERIC_ACCENT, icons, big=None if value is None else str(value),
                text=_text(c, lang))


BUILDERS: dict[str, Callable[[Component, CardSet, str], Face]] = {
    "duquesa": duquesa, "queens-necklace": queens_necklace, "gemas": gemas, "nobles": nobles, "duplicon": duplicon,
}
EMBLEMS = {
    "duquesa": (stone("ruby"), stone("emerald"), stone("sapphire")),
    "queens-necklace": (Icon("diamond", "#cfe8f5"), Icon("heart", "#c0392b"), Icon("hexagon", "#1e9e5a")),
    "gemas": tuple(Icon(*GEMAS[x]) for x in ("green", "blue", "violet", "orange")),
    "nobles": tuple(Icon(SUIT_SHAPES[x], SUIT_COLOURS[x]) for x in ("hearts", "spades", "diamonds", "clubs")),
    "duplicon": (Icon("circle", OKABE_ITO["vermilion"]), Icon("circle", OKABE_ITO["vermilion"])),
}


def face(c: Component, s: CardSet, lang: str) -> Face:
    return BUILDERS.get(s.game, generic)(c, s, lang)


def back(c: Component, s: CardSet, lang: str) -> Back:
    title = c.name.get(lang) if c.name else s.title.get(lang)
    return Back(title, ACCENTS.get(s.game, GENERIC_ACCENT), EMBLEMS.get(s.game, (Icon("star", "#d4af37"),)))
