"""Building print-and-play files: one PDF per game (and per-card PNGs), every setting checked first and every file
written whole or not at all."""
from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Callable
from pathlib import Path

from .. import cards, service
from ..core.files import folder_problems, shown
from ..core.schema import InputError, Problem
from .document import BuildSettings, render


def build(game_ids: list[str], out_dir: str | Path, settings: BuildSettings, png: bool = False,
          warn: Callable[[str], None] | None = None) -> list[tuple[Path, int]]:
    """Write one PDF per game (a known game's id, or a card data file's path) into `out_dir`. Every setting and the
    folder are checked before anything is written; each PDF is rendered to a temporary file and all are renamed only
    when every one succeeded."""
    card_sets = _checked_games(game_ids, settings, warn)
    out = Path(os.path.abspath(out_dir))  # "." and relative paths: from the current folder, resolved once
    if out.exists() and not out.is_dir():
        raise InputError([Problem(("out",), f"{shown(out)} is a file, not a folder")])
    if png:  # each game's PNG folder: a folder or nothing, found out before any PDF is replaced
        problems = [p for card_set in card_sets for p in folder_problems(out / f"{card_set.game}-png")]
        if problems:
            raise InputError(problems)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = tempfile.TemporaryFile(dir=out)
        probe.close()
    except OSError as e:
        raise InputError([Problem(("out",), f"cannot write to {shown(out)}: {e.strerror or e}")]) from None
    temps: list[Path] = []
    results: list[tuple[Path, int]] = []  # final path and page count, one per game
    try:
        for card_set in card_sets:
            with os.fdopen(_part_file(out, card_set.game, temps), "wb") as f:
                results.append((out / f"{card_set.game}.pdf", render(card_set, settings, f)))
        umask = os.umask(0)
        os.umask(umask)
        for tmp, (final, _) in zip(temps, results, strict=True):
            os.chmod(tmp, 0o666 & ~umask)  # a temporary file is private; the PDF is not
            os.replace(tmp, final)
    except BaseException:
        for tmp in temps:
            tmp.unlink(missing_ok=True)
        raise
    if png:  # after the PDFs: each game's folder of per-card PNGs, keeping what the export did not make
        from .export import many_card_pngs

        many_card_pngs([(card_set, out / f"{card_set.game}-png") for card_set in card_sets], settings)
    return results


def _checked_games(game_ids: list[str], settings: BuildSettings, warn: Callable[[str], None] | None) -> list:
    """The games' card sets, with the settings, each game's language, art, fonts and colours checked before
    anything is written; a code that a long address makes smaller than validate checked it at is warned of."""
    problems = settings.problems()
    if problems:
        raise InputError(problems)
    card_sets = [cards.load_file(g) if g.endswith((".yaml", ".yml")) else service.card_set(g) for g in game_ids]
    problems = [p for card_set in card_sets for p in settings.game_problems(card_set)]
    if problems:
        raise InputError(problems)
    from .design_check import check_art, check_colours, check_fonts, small_codes

    art_errors = [line for card_set in card_sets
                  for line in (*check_art(card_set)[0], *check_fonts(card_set), *check_colours(card_set))]
    if art_errors:  # named like any card data error, before anything is written
        raise cards.DataError(art_errors)
    if warn is not None and settings.qr != "none":
        for card_set in card_sets:
            for line in small_codes(card_set, settings.base_url, settings.card_size):
                warn(line)
    return card_sets


def _part_file(out: Path, game: str, temps: list[Path]) -> int:
    """A new private `.<game>.<random>.pdf.part` in `out`, opened for writing, listed in `temps` before it exists:
    a signal (SIGTERM, Ctrl+C) that stops the build while it is made still finds it to remove. (Not mkstemp: the
    file exists there before its name is known to us.)"""
    tmp = out / f".{game}.{secrets.token_hex(8)}.pdf.part"
    temps.append(tmp)
    try:
        return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    except FileExistsError:  # not ours to remove
        temps.remove(tmp)
        raise
