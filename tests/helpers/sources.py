"""The package's source files parsed once for all the tests that read them (imports, settings, problem texts):
each test module asks here instead of walking and parsing the tree again."""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "companion"


@cache
def trees() -> dict[Path, ast.Module]:
    """Every module of the package (companion/**.py) by path, parsed."""
    return {path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in sorted(PACKAGE.rglob("*.py"))}
