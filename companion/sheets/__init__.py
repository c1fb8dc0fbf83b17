"""Saved score sheets: the package the rest of the code imports.

A sheet is an append-only log of changes folded into its state (`model`), written to and read from JSON and CSV
files (`files`), kept in SQLite or PostgreSQL (`storage`, SQLAlchemy) and changed through one service that the API,
the pages and the command line share (`service`). The model and the files are pure Python, so a static site's phones
run them; the store and the service load SQLAlchemy, so this face imports them only when one of their names is
first asked for (`core.faces.lazy`): the phone's Python never does."""
from __future__ import annotations

from ..core.faces import lazy
from .files import CSV_HEAD, Moment, export_csv, export_json, import_csv, import_json
from .model import (
    ACTIONS,
    CLIENT_ID,
    FORMAT,
    MAX_LOG,
    MAX_PLAYERS,
    NEW_SHEET,
    POINTS,
    TARGETED,
    WITH_BODY,
    Conflict,
    NotFound,
    Replay,
    add_points,
    calculator_fields,
    changed_entry,
    check_change,
    check_end,
    checked_change,
    correcting_of,
    default_seats,
    entry_body,
    entry_view,
    fold,
    game_end,
    new_record,
    new_sheet,
    next_round,
    now,
    replayed,
    seat_choices,
    seat_points,
    standing,
    tally,
    with_round,
)

_STORED = {  # what needs SQLAlchemy: the store and the service over it
    **{name: f".storage:{name}" for name in ("TOKEN", "RATE_BUCKETS", "Access", "CannotWrite", "Store",
                                             "view_token")},
    **{name: f".service:{name}" for name in ("IMPORT_LIMIT", "create", "change", "import_sheet", "export_all",
                                             "import_files", "read_export")},
    # the playtest figures (statistics, which the phone's Python does not need)
    "playtest_report": ".playtest:from_store", "playtest_csv": ".playtest:csv_rows",
}
__getattr__ = lazy(__name__, _STORED)

__all__ = ["ACTIONS", "CLIENT_ID", "CSV_HEAD", "FORMAT", "MAX_LOG", "MAX_PLAYERS", "NEW_SHEET", "POINTS", "TARGETED",
           "WITH_BODY", "Conflict", "Moment", "NotFound", "Replay", "add_points", "changed_entry", "check_change",
           "check_end", "checked_change", "default_seats", "entry_body", "entry_view", "export_csv", "export_json",
           "fold", "game_end", "import_csv", "import_json", "new_record", "new_sheet", "next_round", "now",
           "replayed", "seat_choices", "calculator_fields", "correcting_of", "seat_points", "standing", "tally",
           "with_round", *_STORED]
