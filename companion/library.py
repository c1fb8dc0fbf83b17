"""The games one app or one command knows: the shipped card sets and the card data files added by path, as a
`Library` its owner builds, instead of a module global every app in the process would share.

How code finds the library in use: one `contextvars.ContextVar`. `current()` is the library bound in the running
context, else the shipped-only library (which refuses `add`: nothing leaks into it). Code that needs card data
(companion.service, companion.sheets, the web pages, the rules glue) asks `current()` and nothing else.
- The web app (`companion.web.create_app`) builds its Library from its config's CARD_FILES, keeps it in
  `app.extensions["companion.library"]`, binds it whenever one of its app contexts is pushed (every request, and
  any `with app.app_context()`), and unbinds it at that context's teardown. Two apps in one process, or in one
  test, each see their own games only, whichever order their requests come in.
- The command line (`companion.cli.main`) binds a fresh Library for the command it runs; a card data file named
  on the command line (`companion score my-game.yaml`) is added to it.
- Anything else (the static site's phones, a test, a script) gets the shipped games; `using(Library(files))` binds
  another for a block.

The shipped card sets are read once per process (`cards.load_shipped`: they are package files). An added file is
live: `refresh()` (the web app calls it at the start of every request) stats the files it was made from (its
`sources`: the data file and the spreadsheets it reads) and the art and font files it names, about 2 µs each, and
reads it again when one of them changed. A file that changed into one with errors keeps its last good card set,
served as before, and the errors are kept beside it (`Added.errors`, for the preview page) until it is fixed.
"""
from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from types import MappingProxyType

from . import cards, placeholders
from .cards import CardSet, Component, DataError

_log = logging.getLogger(__name__)
EXTENSION = "companion.library"  # where a web app keeps its Library (app.extensions)


def _signature(path: str) -> tuple[int, int] | None:
    """What tells a file changed without reading it: its modification time (ns) and size; None when it is gone."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def files_used(card_set: CardSet) -> tuple[str, ...]:
    """Every file a card set was made from or draws with: its sources (the data file, then its spreadsheets), the
    art of its components, terms and back, the pictures its layouts name (a `{field}` in the name filled in for
    each component), and its font files. Paths as the card set holds them; files that do not exist included."""
    from .layouts import Missing, fill

    found = dict.fromkeys(card_set.sources or (card_set.path,))
    design = card_set.design
    found.update(dict.fromkeys(c.art.path for c in card_set.components if c.art is not None))
    found.update(dict.fromkeys(t.art.path for t in card_set.look.terms.values() if t.art is not None))
    if design.back_art:
        found[design.back_art] = None
    folder = os.path.dirname(os.path.abspath(card_set.path))
    named = [e.props["art"] for elements in design.layouts.values() for e in elements
             if e.kind == "art" and isinstance(e.props.get("art"), str)]
    for given in named:
        if "{" not in given:
            found[os.path.join(folder, os.path.normpath(given))] = None
            continue
        for c in card_set.components:
            for lang in card_set.languages:
                try:
                    filled = fill(given, placeholders.values(c, card_set, lang), lang, design)
                    found[os.path.join(folder, os.path.normpath(filled))] = None
                except (Missing, KeyError, ValueError, TypeError):
                    pass  # a component without that field draws no picture there
    for family in design.fonts.values():
        found.update(dict.fromkeys(p for p in (family.regular, family.bold, family.italic, family.bold_italic) if p))
    return tuple(found)


@dataclass
class Added:
    """A card data file added by path, as the library serves it: its last good card set; the `file:line` errors of
    the file as it is now, if it changed into a broken one (empty when the card set is its current state); the files
    watched for changes, and their signatures when last read."""

    path: str
    card_set: CardSet
    errors: tuple[str, ...] = ()
    watched: tuple[str, ...] = ()
    stamp: tuple = ()
    withheld: bool = False  # its art or font files fail validate's checks as they are now: not served until fixed
    print_check: tuple | None = None  # (version, what the print check found): kept by the preview page
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def game(self) -> str:
        return self.card_set.game

    @property
    def version(self) -> str:
        """Changes whenever one of the watched files does (the preview page reloads when it changes)."""
        return hashlib.sha256(repr(self.stamp).encode()).hexdigest()[:16]

    def changed(self) -> bool:
        """Whether one of the watched files changed since it was last read (one stat each)."""
        return tuple(map(_signature, self.watched)) != self.stamp


class Library:
    """The games known to one app or command: the shipped ones and card data files added by path (`add`), by game
    id; an added file's game may not take a shipped game's id, nor print an id another game prints."""

    def __init__(self, files: Iterable[str | os.PathLike] = (), *, shipped: Callable[[], Mapping[str, CardSet]] =
                 cards.load_shipped, frozen: bool = False, eager: bool = True,
                 check_files: Callable[[CardSet], list[str]] | None = None):
        self._shipped = shipped
        self._frozen = frozen
        # an added file's art and fonts read as validate reads them (pnp.design_check.check_files, handed down by
        # the web app, a layer above; none for a command that reads no art or checks it itself before drawing)
        self._check_files = check_files
        self._added: dict[str, Added] = {}  # by the file's real path
        self._lock = threading.Lock()
        if eager and not frozen:
            shipped()  # broken shipped data is a DataError now, before anything is served (a command that never
            # asks for a game, like validate, passes eager=False and reads no shipped file it does not name)
        for path in files:
            self.add(path)

    # what the games are
    def all(self) -> Mapping[str, CardSet]:
        """Every known card set by game id: the shipped ones, then the added ones."""
        added = {a.game: a.card_set for a in list(self._added.values()) if not a.withheld}
        # (nothing added: the shipped mapping itself, unread, so that the static site's phones, whose shipped card
        # sets are read one game at a time as asked for, read only those asked for)
        return MappingProxyType({**self._shipped(), **added} if added else self._shipped())

    def get(self, game: str) -> CardSet | None:
        return self.all().get(game)

    def __getitem__(self, game: str) -> CardSet:
        return self.all()[game]

    def __contains__(self, game: object) -> bool:
        return game in self.all()

    def find_component(self, card_id: str) -> tuple[CardSet, Component] | None:
        """The known game and component that print this id (ids are unique across games), or None."""
        for card_set in self.all().values():
            for c in card_set.components:
                if c.id == card_id:
                    return card_set, c
        return None

    def added(self, game: str | None = None):
        """The files added by path (`Added`), or the one serving `game` (None if the game is not an added one)."""
        entries = list(self._added.values())
        if game is None:
            return entries
        return next((a for a in entries if a.game == game), None)

    # adding files and keeping them current
    def add(self, path: str | os.PathLike) -> CardSet:
        """Load a card data file from anywhere and make its game known beside the shipped ones (DataError if it is
        broken, its art or font files fail validate's checks, its game id is a shipped game's or another added
        file's, or it prints an id another game prints)."""
        if self._frozen:
            raise RuntimeError("the shipped-only library takes no files: bind a Library of your own "
                               "(companion.library.using)")
        real, given = os.path.realpath(path), str(path)
        before = _signature(given)  # before reading: a write during the read shows as a change at the next refresh
        card_set = cards.load_file(path)
        with self._lock:
            self._check_new(card_set, path, real)  # who it is first, then what it reads
        problems = self._file_problems(card_set)
        if problems:
            raise DataError(problems)
        with self._lock:
            self._check_new(card_set, path, real)
            watched = files_used(card_set)
            self._added[real] = Added(given, card_set, (), watched,
                                      tuple(before if p == given else _signature(p) for p in watched))
        return card_set

    def _check_new(self, card_set: CardSet, path, real: str) -> None:
        shipped = self._shipped()
        taken = shipped.get(card_set.game)
        if taken is not None and os.path.realpath(taken.path) != real:
            raise DataError([f"{path}:1: -: game: {card_set.game!r} is already a shipped game; choose another id"])
        other = next((a for r, a in self._added.items() if r != real and a.game == card_set.game), None)
        if other is not None:
            raise DataError([f"{path}:1: -: game: {card_set.game!r} is already the game of {other.path}; choose "
                             f"another id"])
        cards._check_ids_are_new(card_set, [*shipped.values(),
                                            *(a.card_set for r, a in self._added.items() if r != real)])

    def _file_problems(self, card_set: CardSet) -> list[str]:
        """The errors validate finds in a card set's art and font files as they are now (none when not checked)."""
        return self._check_files(card_set) if self._check_files is not None else []

    def refresh(self) -> list[Added]:
        """Read again each added file one of whose watched files changed since it was read (one stat each); a
        file now broken keeps its last good card set and records its errors. Returns the entries read again."""
        read = []
        for real, entry in list(self._added.items()):
            if not entry.changed():
                continue
            with entry._lock:  # one thread reads a changed file; a request arriving meanwhile waits for it
                if entry.changed():
                    self._reload(real, entry)
                    read.append(entry)
        return read

    def _reload(self, real: str, entry: Added) -> None:
        before = dict(zip(entry.watched, map(_signature, entry.watched), strict=True))  # before reading: a write
        card_set, errors = cards.check_file(entry.path)        # during the read shows as a change next time
        if errors:
            card_set = None
        if card_set is not None:
            errors = self._file_problems(card_set)
            if errors:
                entry.watched = tuple(dict.fromkeys((*entry.watched, *files_used(card_set))))  # its new files too
                before.update((p, _signature(p)) for p in entry.watched if p not in before)
                card_set = None
        if card_set is not None:
            try:
                with self._lock:
                    self._check_new(card_set, entry.path, real)
            except DataError as e:
                card_set, errors = None, e.errors
        if card_set is None:
            entry.errors = tuple(errors)
            entry.stamp = tuple(before[p] for p in entry.watched)
            entry.withheld = bool(self._file_problems(entry.card_set))  # its last good cards, with the files now
            _log.warning("%s has errors%s:\n%s", entry.path, "; its game is not served until they are fixed"
                         if entry.withheld else "; its last version without errors is served", "\n".join(errors))
            return
        watched = files_used(card_set)
        entry.card_set, entry.errors, entry.watched, entry.withheld = card_set, (), watched, False
        entry.stamp = tuple(before[p] if p in before else _signature(p) for p in watched)


_SHIPPED = Library(frozen=True)
_current: ContextVar[Library | None] = ContextVar("companion_library", default=None)


def current() -> Library:
    """The library of the app serving this request or of the command running, else the shipped games."""
    bound = _current.get()
    return _SHIPPED if bound is None else bound


def shipped() -> Library:
    """The shipped games alone: what is served outside any app or command."""
    return _SHIPPED


def bind(library: Library) -> Token:
    """Make `library` current in this context until `unbind(token)`."""
    return _current.set(library)


def unbind(token: Token) -> None:
    """Undo `bind`: the library current before it is current again (a token from another context changes nothing)."""
    try:
        _current.reset(token)
    except ValueError:  # a token made in another context (a context popped elsewhere): nothing of ours is bound here
        pass


@contextmanager
def using(library: Library) -> Iterator[Library]:
    """`library` as the current one inside the `with` block, unbound on the way out."""
    token = bind(library)
    try:
        yield library
    finally:
        unbind(token)


# The same, by the names tests and tools call them with: the current library's games.


def load_game(game_id: str) -> CardSet:
    """A known game's card set (KeyError if none): `current()`'s."""
    return current()[game_id]


def load_all() -> Mapping[str, CardSet]:
    """Every known card set by game id: `current()`'s (the shipped ones, and the files its owner added)."""
    return current().all()


def add_file(path: str | os.PathLike) -> CardSet:
    """Add a card data file to `current()` (see `Library.add`)."""
    return current().add(path)


def find_component(card_id: str) -> tuple[CardSet, Component] | None:
    """The known game and component that print this id, in `current()`, or None."""
    return current().find_component(card_id)
