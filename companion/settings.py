"""Every `COMPANION_*` environment variable, read here and nowhere else (a test reads the package's source for any
other place that does).

`environment()` reads them all at once: a mapping from each setting's name (the variable without `COMPANION_`) to
its text as set (an empty variable is "") or None when unset. The web app (`create_app`) and the command line
take their settings from it; where an app's config names the same key, the config wins (`create_app({"DATABASE_URL":
...})`, `companion serve --base-url`). What each means, and what holds when it is unset:

| setting | unset | what it is |
|---|---|---|
| BASE_URL | `serve`: this machine's address | the address phones open: share links (and the session cookie's |
| | | `Secure`, for https) come from it, never from a request's Host header |
| INSTANCE_PATH | Flask's instance folder | the folder holding `companion.sqlite` and `secret_key` |
| DATABASE_URL | SQLite in the instance folder | the saved sheets' database, any SQLAlchemy URL |
| | | (`postgresql+psycopg://…`) |
| SECRET_KEY | the instance folder's own key | the key sessions and form tokens are signed with, the same on every |
| | | server of a fleet; 32 characters or more |
| SECRET_KEY_FILE | — | a file holding that key (read when SECRET_KEY is unset) |
| WRITE_LIMIT | `sheets=30/1h changes=600/10m` (a TESTING app: none) | writes per client address |
| | | (companion/web/shell/limits.py), or `off` |
| TRUST_PROXY | 0 | how many proxies in front set `X-Forwarded-For` (0: the header is never believed) |
| CACHE | `~/.cache/companion` | where `companion site` keeps the Pyodide it fetched |
| CMYK_PROFILE | Debian's Ghostscript's `default_cmyk.icc` | the CMYK profile `build --service drivethrucards` |
| | | converts into and embeds (a `.icc` file) |

(`COMPANION_URL` is not one of them: it is the key of a static site's app config that `companion site
--companion-url` sets. The tests read a few variables of their own, in tests/.)
"""
from __future__ import annotations

import os
from collections.abc import Mapping

PREFIX = "COMPANION_"
SETTINGS = ("BASE_URL", "INSTANCE_PATH", "DATABASE_URL", "SECRET_KEY", "SECRET_KEY_FILE", "WRITE_LIMIT",
            "TRUST_PROXY", "CACHE", "CMYK_PROFILE")


def variable(name: str) -> str:
    """The environment variable of a setting: `COMPANION_<name>`."""
    return PREFIX + name


def environment(environ: Mapping[str, str] | None = None) -> dict[str, str | None]:
    """Every setting as the environment (by default the process's, read now) gives it: its text, or None if unset."""
    source = os.environ if environ is None else environ
    return {name: source.get(variable(name)) for name in SETTINGS}
