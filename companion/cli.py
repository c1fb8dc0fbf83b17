"""The `companion` command line: `main(argv)` parses, dispatches and returns an exit code."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from . import __version__, cards

EXIT_OK, EXIT_BAD_INPUT = 0, 2


class UsageError(Exception):
    """Bad arguments or input: printed as one clear message, exit 2."""


def cmd_validate(args: argparse.Namespace) -> int:
    files = args.files or [_shown(p) for p in cards.shipped_files()]
    if not files:
        raise UsageError("no card data files found")
    failed = False
    for name in files:
        card_set, errors = cards.check_file(name)
        for line in errors:
            print(line, file=sys.stderr)
        if card_set:
            printed = sum(c.qty for c in card_set.components if c.kind != "back")
            print(f"{name}: ok — {len(card_set.components)} entries, {printed} printed components")
        failed |= bool(errors)
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _shown(path) -> str:
    """A path as a user would type it: relative to the current folder when it lies below it."""
    rel = os.path.relpath(path)
    return str(path) if rel.startswith("..") else rel


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Print-and-play PDFs and a phone companion for five card games."
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("validate", help="check card data files (default: every shipped file)")
    p.add_argument("files", nargs="*", metavar="FILE")
    p.set_defaults(func=cmd_validate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse's own --help (0) and usage errors (2)
        return int(e.code or 0)
    try:
        return args.func(args)
    except UsageError as e:
        print(f"companion {args.command}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
