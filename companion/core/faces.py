"""A package's face that names parts it loads only when first asked for: the parts that need a library the phone's
Python lacks (SQLAlchemy, Flask, waitress) stay out of what the phone imports, yet the rest of the code still reaches
them through the package, never through its inner modules."""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package`: each of `names` (name → "inner_module:attribute", the module relative to
    the package) imported when first asked for and kept in the package; AttributeError for any other name."""
    def __getattr__(name: str) -> Any:
        where = names.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = where.partition(":")
        value = getattr(importlib.import_module(module, package), attribute)
        setattr(importlib.import_module(package), name, value)
        return value
    __getattr__.lazy_names = dict(names)  # (read by tests/test_structure.py: these imports are in its graph too)
    return __getattr__
