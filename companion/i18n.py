"""The translation catalogue for fixed words (card labels, page texts): one entry per message, es and en."""
from __future__ import annotations

LANGS = ("es", "en")

CATALOGUE: dict[str, dict[str, str]] = {
    "wish": {"es": "Deseo de la Duquesa", "en": "The Duchess wishes"},
    "florins": {"es": "florines", "en": "florins"},
    "gold table": {"es": "Oro por acumulación, en florines. 1 lingote: 5 · 2: 14 · 3: 27 · 4: 44",
                   "en": "Gold by accumulation, in florins. 1 ingot: 5 · 2: 14 · 3: 27 · 4: 44"},
    "gold": {"es": "Lingote de oro", "en": "Gold ingot"},
    "rainbow stone": {"es": "Piedra arcoíris: comodín o ella misma", "en": "Rainbow stone: wild or itself"},
    "fashion": {"es": "Moda", "en": "Fashion"},
    "rarity": {"es": "Rareza", "en": "Rarity"},
    "gem": {"es": "Gema", "en": "Gem"},
    "price": {"es": "Precio", "en": "Price"},
    "blank": {"es": "Escribe aquí tu carta", "en": "Write your own card here"},
    "weapon": {"es": "Arma permanente +{n}", "en": "Permanent weapon +{n}"},
    "ace": {"es": "Golpe crítico: gana el duelo", "en": "Critical hit: wins the duel"},
    "noble": {"es": "Fuerza {s} · {w} heridas", "en": "Strength {s} · {w} wounds"},
    "number": {"es": "Suma {n} en un duelo", "en": "Adds {n} in a duel"},
    "pair": {"es": "Forma pareja con otra igual", "en": "Pairs with another like it"},
    "print at 100": {"es": "Imprime al 100 % (sin «ajustar a la página»)", "en": "Print at 100 % (no “fit to page”)"},
    "ruler": {"es": "Esta regla debe medir 100 mm", "en": "This ruler must measure 100 mm"},
    "settings": {"es": "Ajustes", "en": "Settings"},
    "paper": {"es": "Papel", "en": "Paper"},
    "bleed": {"es": "Sangrado", "en": "Bleed"},
    "layout": {"es": "Montaje", "en": "Layout"},
    "card size": {"es": "Tamaño de carta", "en": "Card size"},
    "offset": {"es": "Desplazamiento del reverso", "en": "Back offset"},
    "components": {"es": "Componentes", "en": "Components"},
    "duplex help": {
        "es": "Dúplex: voltear por el borde largo. Comprueba con esta hoja que las cruces del dorso caen sobre las "
              "del frente; si no, corrige con --offset-x/--offset-y.",
        "en": "Duplex: flip on the long edge. Hold this sheet to the light: the crosses on the back must sit on the "
              "front ones; if not, correct with --offset-x/--offset-y.",
    },
    "gutterfold help": {
        "es": "Plegado: corta cada tira, dóblala por la línea central y pega; después corta las cartas.",
        "en": "Gutterfold: cut each strip, fold it on the centre line and glue; then cut out the cards.",
    },
    "back of calibration": {"es": "Reverso de la hoja de calibración", "en": "Back of the calibration sheet"},
    "reconstructed": {"es": "reconstruida", "en": "reconstructed"},
}


def _(key: str, lang: str, **values) -> str:
    """The text for `key` in `lang` (English when a language is missing), with {placeholders} filled in."""
    entry = CATALOGUE[key]
    text = entry.get(lang) or entry["en"]
    return text.format(**values) if values else text
