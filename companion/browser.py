"""The rules as the static site's phone runs them: one entry point for the Web Worker that hosts Python
(Pyodide), over the same pure core as the server and the command line (`service`), JSON in and JSON out.

Nothing here is a rule: it only names the service calls the site may make and turns a refusal into the same
answer the API gives (`error`, `field`, `problems`), so the page shows the same words either way.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from . import service
from .schema import InputError, Problem

CALLS: dict[str, Callable[[dict], Any]] = {
    "score": lambda a: service.score(a["game"], a.get("request")),
    "setup": lambda a: service.setup(a["game"], a.get("players"), a.get("seed"), a.get("options") or {}),
    "solo_turn": lambda a: service.solo_turn(a["game"], a.get("request")),
    "catalogue": lambda a: [{"game": s.game, "title": dict(s.title), "players": list(s.players)}
                            for s in service.catalogue()],
}


def call(name: str, arguments: str) -> str:
    """Run one call with JSON `arguments` (e.g. `{"game": "gemas", "request": {...}}`); JSON of `{"result": ...}`,
    or of `{"error", "field", "problems"}` (a 400 on the server) for bad input or an unknown game."""
    try:
        if name not in CALLS:
            raise InputError([Problem((), f"unknown call {name!r}; expected one of: {', '.join(CALLS)}")])
        args = service.parse_json(arguments)
        if not isinstance(args, dict) or not isinstance(args.get("game", ""), str):
            raise InputError([Problem((), "the arguments must be a JSON object naming a game")])
        return json.dumps({"result": CALLS[name](args)}, ensure_ascii=False)
    except InputError as e:
        return json.dumps({"error": str(e), "field": e.field, "problems": [str(p) for p in e.problems]},
                          ensure_ascii=False)
    except service.UnknownGame as e:
        return json.dumps({"error": str(e), "field": "game", "problems": [str(e)]}, ensure_ascii=False)
