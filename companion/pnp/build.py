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
          warn: Callable[[str], None] | None = None, only: list[str] | None = None) -> list[tuple[Path, int]]:
    """Write one PDF per game (a known game's id, or a card data file's path) into `out_dir`. Every setting and the
    folder are checked before anything is written; each PDF is rendered to a temporary file and all are renamed only
    when every one succeeded. `only`: a proof of just those components (a face with its back, a back alone, each
    once, a card a page), for the games that have them."""
    card_sets = _checked_games(game_ids, settings, warn)
    proofs = proof_components(card_sets, only) if only is not None else None
    if proofs is not None:
        card_sets = [s for s in card_sets if proofs[s.game]]
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
                if proofs is None:
                    results.append((out / f"{card_set.game}.pdf", render(card_set, settings, f)))
                else:
                    results.append((out / f"{card_set.game}.pdf", _proof(card_set, settings, proofs[card_set.game], f)))
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


def proof_components(card_sets: list, only: list[str]) -> dict[str, list]:
    """Each game's components named by `only` (ids, in any case), in the order named; InputError naming an id that
    none of the games has, with the ids it most likely meant."""
    from difflib import get_close_matches

    wanted = [i.strip().upper() for i in only if i.strip()]
    if not wanted:
        raise InputError([Problem(("only",), "names no component: give ids such as --only HV-APPLE-1,HV-BACK")])
    by_id = {c.id: (s.game, c) for s in card_sets for c in s.components}
    problems = []
    for card_id in dict.fromkeys(wanted):
        if card_id not in by_id:
            near = get_close_matches(card_id, by_id, n=3)
            problems.append(Problem(("only",), f"no component {card_id} in {', '.join(s.game for s in card_sets)}"
                                               + (f"; did you mean {' or '.join(near)}?" if near else "")))
    if problems:
        raise InputError(problems)
    out: dict[str, list] = {s.game: [] for s in card_sets}
    for card_id in dict.fromkeys(wanted):
        game, component = by_id[card_id]
        out[game].append(component)
    return out


def _proof(card_set, settings: BuildSettings, components: list, target) -> int:
    """A proof: each named face (with its back) and each named back, once each, a card a page with the build's
    bleed around it (TrimBox the card, BleedBox the page). Its page count."""
    from .export import _card_pages

    fronts = [c for c in components if c.kind != "back"]
    backs = {c.back for c in fronts if c.back and settings.backs}
    alone = [c for c in components if c.kind == "back" and c.id not in backs]
    data, plan = _card_pages(card_set, settings, fronts, bleed=settings.bleed, backs=alone)
    target.write(data)
    return len(plan)


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
