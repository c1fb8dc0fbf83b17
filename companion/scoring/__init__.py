"""A designer's scoring, from the `scoring:` section of their card data: counters, named values and rules written
as formulas (`formula`), compiled once at load (`section`) into a scoring that scores a table of hands round by round
(`model`). `check_section` is what validate runs: the section compiled, then what its formulas do on every legal
table proved over the file's domains (`bounds`, `proof`). A file without `scoring:` declares, in effect, one rule:
the sum of `value` (`DEFAULT`). Pure: no Flask, reportlab or file I/O, so the phone's Python runs the scoring too
(it never runs the proof). The package's face: the rest of the code imports these names from here."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..core.schema import Problem
from .deal import HandSize, compile_hand_size, dealt
from .formula import NONE, Formula, FormulaError, Names, compile_formula, place_points
from .model import (
    DEFAULT,
    GAME_STEPS,
    HELD_KINDS,
    CounterSpec,
    Env,
    Rule,
    Scoring,
    Table,
    card_fields,
    one_budget,
    rule_points,
    whole,
)
from .section import MAX_COUNTERS, MAX_ROUNDS, MAX_RULES, MAX_VALUES, SECTION, compile_section, file_names, names_for

__all__ = ["DEFAULT", "GAME_STEPS", "HELD_KINDS", "MAX_COUNTERS", "MAX_ROUNDS", "MAX_RULES", "MAX_VALUES", "NONE",
           "SECTION",
           "CounterSpec", "Env", "Formula", "FormulaError", "HandSize", "Names", "Rule", "Scoring", "Table",
           "card_fields", "check_section", "compile_formula", "compile_hand_size", "compile_section", "dealt",
           "file_names", "names_for", "one_budget", "place_points", "rule_points", "whole"]


def check_section(section: Mapping, types: Mapping[str, Any], sets: Iterable[str], components: Sequence,
                  players: tuple[int, int], hand_size: Any = None
                  ) -> tuple[Scoring | None, list[Problem], list[Problem]]:
    """A file's `scoring:` compiled, then proved over the file's domains (scoring/proof.py): the scoring (None if it
    has errors), its errors and its warnings, each with its path. `hand_size`: the file's `setup.hand_size`, which
    formulas see as `dealt` (its own problems are the setup's to name: see cards/check.py)."""
    from .proof import prove  # (not at load: the phone scores but never proves)

    problems: list[Problem] = []
    scoring = compile_section(section, file_names(types, sets), problems, players)
    if scoring is None:
        return None, problems, []
    if hand_size is not None:
        scoring = replace(scoring, dealt=compile_hand_size(hand_size, players, scoring.rounds, []))
    held = [(card_fields(c), c.qty) for c in components if c.kind in HELD_KINDS]
    errors, warnings = prove(scoring, held, players)
    return (None if errors else scoring), errors, warnings
