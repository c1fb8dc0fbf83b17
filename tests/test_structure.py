"""The package's structure: its imports form layers (no cycle, imports inside functions counted), and no game is
named in the shared web and print code."""

import ast
import importlib
import importlib.util
import re
from pathlib import Path

import pytest

from companion import cards, games

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Every companion module `path` imports, at any depth (inside functions too), relative imports resolved.
    `from a import b` counts as an import of `a.b` when that is a module, else of `a`."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            targets = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in known else stem for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # `import companion.pnp.document as d` imports that module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    """Every companion module's imports of companion modules; with the imports made by name, not by an import
    statement: `companion.web.games.glue` loads each game's web glue from the module its descriptor names (`Game.web`),
    and a lazy face (`core.faces.lazy`) the parts it names."""
    from companion import games

    found = modules()
    known = set(found)
    graph = {name: imports_of(name, path, known) for name, path in found.items()}
    graph["companion.web.games.glue"] |= {rules.web for rules in games.GAMES.values() if rules.web}
    for name in graph:  # a face that imports a part when first asked for (core.faces.lazy)
        if name in LAZY_FACES:
            lazy_names = importlib.import_module(name).__getattr__.lazy_names
            graph[name] |= {importlib.util.resolve_name(where.partition(":")[0], name) for where in lazy_names.values()}
    return graph


LAZY_FACES = ("companion.sheets", "companion.web")


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_imports_inside_functions_relative_imports_and_web_glue_are_read():
    graph = import_graph()
    assert "companion.pnp.build" in graph["companion.cli"]  # (inside cmd_build)
    assert "companion.games.duquesa" in graph["companion.games"]  # (`from . import duplicon, duquesa, ...`)
    assert "companion.web.games.duquesa" in graph["companion.web.games.glue"]  # (by the name Game.web gives)
    assert "companion.sheets.storage" in graph["companion.sheets"]  # (a lazy face's part: `core.faces.lazy`)


def test_no_module_is_imported_by_name_but_the_web_glue():
    """The graph above holds every import: nothing else in the package imports a module by a name it computes."""
    found = [name for name, path in modules().items()
             if re.search(r"\bimport_module\b|__import__\(", path.read_text(encoding="utf-8"))]
    assert found == ["companion.core.faces", "companion.web.games.glue"]


def test_the_package_imports_form_layers():
    """A module imports only from below it, counting the imports made inside functions: no cycle."""
    graph = import_graph()
    found = cycles(graph)
    described = []
    for component in found:
        members = set(component)
        edges = [f"{a} -> {b}" for a in component for b in sorted(graph[a] & members)]
        described.append(f"{', '.join(component)}:\n    " + "\n    ".join(edges))
    assert not found, "import cycles:\n" + "\n".join(described)


# The folders are layers too: the plain helpers (core/) at the bottom; the rules (games/) and what they read (layouts/,
# scoring/, rows/, the top-level look, components, ...) above them; the card data (cards/), the registry and the
# sheets (sheets/) above the rules; the print (pnp/) above those, the web (web/) on top. Only the entry points stand
# above every folder: the command line, the phone's Python (web/site/browser.py, which draws web pages), and the
# simulation a developer runs to write the Duquesa's solo percentiles (it plays games of the shipped deck, so it
# reads the registry; the package never imports it).
ENTRY_POINTS = {"companion.cli", "companion.web.site.browser", "companion.games.duquesa_sim"}


def reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


FOLDERS = ("core", "cards", "games", "layouts", "pnp", "rows", "scoring", "sheets", "web")


def folder(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or parts[-1] in FOLDERS else ""


def test_no_folder_imports_from_a_folder_above_it():
    graph = {name: targets for name, targets in import_graph().items()}
    above_rules = {m for m in graph if any(folder(t) == "games" for t in reaches(graph, m)) and folder(m) != "games"}
    # (the rules and what sits just above or below them: told apart by above_rules)
    rank = {"core": 0, "": 1, "games": 1, "layouts": 1, "rows": 1, "scoring": 1, "cards": 1, "sheets": 1, "pnp": 2,
            "web": 3}
    upward = []
    for a, targets in graph.items():
        if a in ENTRY_POINTS:
            continue
        for b in sorted(targets):
            if rank[folder(b)] > rank[folder(a)] or (folder(a) == "games" and b in above_rules):
                upward.append(f"{a} -> {b}")
    assert not upward, "imports from a layer above:\n" + "\n".join(upward)
    assert {"companion.cards", "companion.library", "companion.sheets.model"} <= above_rules
    assert not {"companion.core.schema", "companion.scoring", "companion.layouts"} & above_rules


# Packages whose `__init__` is their face (docs/code-map.md): the rest of the code imports the package, never a module
# inside it. The others are open shelves whose every module is public: core/ (plain helpers), games/ (a module a
# game), pnp/ (the print's stages, which the command line calls one by one).
CLOSED = ("companion.cards", "companion.layouts", "companion.rows", "companion.scoring", "companion.sheets",
          "companion.web")


def test_nothing_outside_a_package_imports_its_inner_modules():
    inner = []
    for a, targets in import_graph().items():
        for b in sorted(targets):
            for package in CLOSED:
                if b.startswith(package + ".") and not (a == package or a.startswith(package + ".")):
                    inner.append(f"{a} -> {b} (import {package})")
    assert not inner, "imports of a package's inner modules from outside it:\n" + "\n".join(inner)


def test_the_package_shows_its_rooms():
    """At most 12 modules beside the packages at the top (issue 47): the rest live in the room of their family."""
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 12, top
    assert {p.parent.name for p in PACKAGE.glob("*/__init__.py")} >= set(FOLDERS)


# -- no game named in shared code ------------------------------------------------------------------------------------

# Each registered game by the words that name it, derived from the registry so that a game added to it is guarded
# without a line here: its id, its id as a module is named, and its titles of more than one word (lower case; a
# one-word title such as "Gems" is also what the gem games' pieces are called). NICKNAMES adds what the rulebooks
# call a game besides its titles.
NICKNAMES = {"duquesa": ["duchess"], "queens-necklace": ["queen's necklace", "queen’s necklace", "la reina"]}

# ... and by its own things, found as whole words (a plural too): the words its card data labels (`Game.vocabulary`),
# the look terms its faces draw (`Game.terms`) and its kinds of component, but for those that are everyone's words:
# colours, shapes, a deck of playing cards, the kinds of printed piece any game may have (a token's ring), and the
# look format's own words (a term drawn as a `gem`, a `rainbow` fill). OWN_WORDS adds a game's words the registry
# does not list.
GENERIC = {
    "amber", "black", "blue", "green", "grey", "orange", "purple", "violet", "yellow", "vermilion", "bluish-green",
    "sky-blue", "reddish-purple", "gold",
    "circle", "square", "triangle", "diamond", "star", "heart", "hexagon", "cross",
    "hearts", "diamonds", "clubs", "spades", "jack", "queen", "king", "joker", "number",
    "reference", "summary", "help", "blank", "character", "resource", "token", "tile", "marker",
    "gem", "rainbow", "ring",
}
OWN_WORDS = {"nobles": ["court", "duel"], "queens-necklace": ["fashion"], "duquesa": ["wish"]}


def _names(game: str) -> list[str]:
    titles = cards.load_shipped()[game].title if game in cards.load_shipped() else None
    words = [game, game.replace("-", "_"), *NICKNAMES.get(game, ())]
    words += [t.lower() for t in ((titles.es, titles.en) if titles else ()) if " " in t.strip()]
    return list(dict.fromkeys(words))


def _things(game: str) -> list[str]:
    rules = games.GAMES[game]
    found = {*rules.vocabulary, *rules.terms, *rules.component_types, *OWN_WORDS.get(game, ())}
    return sorted(word.lower() for word in found if word.lower() not in GENERIC)


GAMES = {game: _names(game) for game in games.GAMES}
THINGS = {game: _things(game) for game in games.GAMES}


def _pattern(game: str, kept: frozenset[str] = frozenset()) -> re.Pattern:
    """A game's names anywhere (`duquesa_sim`), its things as whole words or plurals ("nobles", not "nobleman"),
    but for the things `kept` (a game's own file says its own necklace, which another game has too)."""
    names = [re.escape(word) for word in GAMES[game]]
    things = [rf"(?<![a-z]){re.escape(word)}(?:s|es)?(?![a-z])" for word in THINGS[game] if word not in kept]
    return re.compile("|".join(names + things))


def test_the_guarded_games_are_the_registrys():
    assert set(GAMES) == set(games.GAMES) == set(THINGS) and all(game in words for game, words in GAMES.items())
    assert {"thief", "chipote"} <= set(THINGS["gemas"]) and "noble" in THINGS["nobles"]
    assert not {word for words in THINGS.values() for word in words} & GENERIC


# Each game's own files, and nothing else: its rules module (and modules named after it: the Duquesa's solo
# simulation and stored games), its web glue and its stylesheet, its scoring templates and their parts. ({game}: its
# id, "queens-necklace"; {module}: the id as a module is named, "queens_necklace".) And the registry, which lists them.
OWN_FILES = [
    "companion/games/{module}*.py",
    "companion/web/games/{module}.py",
    "companion/web/games/{module}.css",
    "templates/score/{game}*.html",
    "templates/score/_{module}_*.html",
]
REGISTRY = "companion/games/__init__.py"

SHARED = [
    "companion/*.py",
    "companion/games/*.py",
    "companion/web/**/*.py",
    "companion/web/**/*.css",
    "companion/web/static/*.js",
    "companion/web/site/runtime/*.js",
    "companion/pnp/**/*.py",
    "templates/**/*.html",
]


def own(path: str, game: str) -> bool:
    module = game.replace("-", "_")
    return any(Path(path).match(pattern.format(game=game, module=module)) for pattern in OWN_FILES)


def shared_files():
    for pattern in SHARED:
        yield from sorted(path for path in ROOT.glob(pattern) if path.relative_to(ROOT).as_posix() != REGISTRY)


def named_in(relative: str, text: str) -> list[str]:
    """Where a shared file names a game that is not its own: `path:line: word (game)` each time."""
    named = []
    owners = [game for game in GAMES if own(relative, game)]
    kept = frozenset(word for game in owners for word in THINGS[game])
    for game in GAMES:
        if game in owners:
            continue
        for match in _pattern(game, kept).finditer(text.lower()):
            line = text.count("\n", 0, match.start()) + 1
            named.append(f"{relative}:{line}: {match.group()} ({game})")
    return named


def test_no_game_is_named_in_shared_code():
    """Shared code names kinds of things (a panel, a track, a fill), not a game nor its things: each game's look,
    words and rules live with the game (its rules module, glue, stylesheet, templates and data)."""
    named = [hit for path in shared_files()
             for hit in named_in(path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8"))]
    assert not named, "a game named outside its own files:\n" + "\n".join(named)


def test_a_games_things_are_found_as_words():
    """Gemas' thief in a stylesheet, Nobles' nobles in a template; not a word that holds one, nor a game's own file."""
    css = "companion/web/static/x.css"
    found = sorted(named_in(css, 'input[value="thief"]'))
    assert found == [f"{css}:1: thief (gemas)", f"{css}:1: thief (queens-necklace)"]
    assert named_in("templates/x.html", "a\n<li class=nobles>") == ["templates/x.html:2: nobles (nobles)"]
    assert named_in("companion/web/games/gemas.css", "a chipote") == []
    assert named_in("companion/games/duquesa.py", "a necklace") == []  # (Queen's Necklace has necklaces too)
    assert named_in("companion/pnp/x.py", "a red triangle, the nobleman's courtesy") == []


@pytest.mark.parametrize("path, game, expected", [
    ("companion/games/duquesa_sim.py", "duquesa", True),
    ("companion/web/games/queens_necklace.py", "queens-necklace", True),
    ("templates/score/queens-necklace.html", "queens-necklace", True),
    ("templates/score/_duquesa_cards.html", "duquesa", True),
    ("templates/score/_queens_necklace_sale.html", "queens-necklace", True),
    ("companion/web/games/nobles.css", "nobles", True),
    ("companion/web/games/nobles.css", "gemas", False),
    ("templates/score/generic.html", "gemas", False),
    ("companion/web/play/views.py", "duquesa", False),
    ("companion/web/games/duquesa.py", "nobles", False),
])
def test_own_files(path, game, expected):
    assert own(path, game) is expected


def test_the_project_cites_nothing_outside_itself():
    """What the code relies on is documented in docs/ in the project's own words: no file names the folder of
    specs and rulebooks beside the checkout (a rulebook is named by its title)."""
    import subprocess

    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    citing = [name for name in tracked if name.endswith((".py", ".md", ".yaml", ".html", ".js", ".toml", ".csv"))
              and re.search(r"\.\./shared|shared/(specs|rulebooks)", (ROOT / name).read_text(encoding="utf-8"))]
    assert not citing, citing


# --- The tests: each module read, moved or deleted alone (issue 47) ---

TESTS = Path(__file__).resolve().parent


def _test_imports(source: str) -> list[str]:
    """The test modules and conftests a test module's source imports (at its top or inside a function)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
        found += [n for n in names if re.fullmatch(r"(tests\.)?(\w+\.)*(test_\w+|conftest)", n)]
    return found


def test_the_test_import_finder_finds_them():
    assert _test_imports("import conftest\ndef f():\n    from test_site import served\n") == ["conftest", "test_site"]
    assert _test_imports("from helpers.site import served\nimport tests.web.test_api\n") == ["tests.web.test_api"]


def test_no_test_module_imports_another_or_a_conftest():
    """What tests share lives in tests/helpers/ (plain modules) or in conftest fixtures, never in a test module."""
    offenders = {str(path.relative_to(TESTS)): names for path in sorted(TESTS.rglob("*.py"))
                 if (names := _test_imports(path.read_text(encoding="utf-8")))}
    assert not offenders, offenders
