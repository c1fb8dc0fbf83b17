"""A probe game of rounds scored from data, written with the sheet ending under test."""
from __future__ import annotations

GAME = """\
game: {game}
title: {{es: Prueba, en: Probe}}
prefix: PR
players: [2, 4]
fields:
  colour: {{choices: [red, blue]}}
  number: {{number: [1, 9]}}
components:
  - {{id: PR-R, type: card, qty: 20, colour: red, number: 2, name: {{es: R, en: R}}}}
  - {{id: PR-B, type: card, qty: 20, colour: blue, number: 5, name: {{es: B, en: B}}}}
scoring:
  counters:
    bonus: {{name: {{es: Extra, en: Bonus}}, number: [0, 9]}}
  rules:
    - id: cards
      name: {{es: Cartas, en: Cards}}
      points: "sum(number)"
    - id: reds
      name: {{es: Rojas, en: Reds}}
      each: colour
      points: "most(count(), [3, 1]) if count() else 0"
    - id: final
      name: {{es: Final, en: Final}}
      when: last
      points: "bonus"
{end}
"""



def game_file(tmp_path, end, game="probe"):
    path = tmp_path / f"{game}.yaml"
    path.write_text(GAME.format(game=game, end=end), encoding="utf-8")
    return path

