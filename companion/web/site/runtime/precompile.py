"""Run by precompile.mjs inside the phones' own Pyodide (never imported by the companion): starts our code as the
worker does, draws every computing page once in each language, then rewrites the standard library's zip and our
code's zip so that each module imported by then is its .pyc alone (bytecode of the phones' own Python, docstrings
left out, source dropped) and every other module stays source. Globals set by the caller: STDLIB, CODE (zip paths
in Pyodide's file system), SITE (where the worker unpacks our code) and START (the worker's start-up Python)."""
import ast
import importlib._bootstrap_external as external
import json
import sys
import zipfile


def draw_every_page() -> None:
    """Each computing page (every game's where it takes one) and the phone's sheets, empty, in each language: what
    a phone may ask first."""
    import inspect

    from companion import service
    from companion.core import i18n
    from companion.web.games import glue
    from companion.web.site import browser

    games = [s.game for s in service.catalogue()]
    for lang in i18n.LANGS:
        browser.call("phone_sheets", json.dumps({"lang": lang, "kept": []}))
        for endpoint, view in glue.VIEWS.items():
            takes_game = "game" in inspect.signature(view).parameters
            for game in games if takes_game else [None]:
                values = {"game": game} if game else {}
                browser.call("page", json.dumps({"endpoint": endpoint, "values": values, "lang": lang, "fields": []}))
                if endpoint == "scoring.score":
                    browser.call("score_form", json.dumps({"game": game, "lang": lang, "fields": []}))


class Undocumented(ast.NodeTransformer):
    """A module without its docstrings (as `python -OO` leaves them out; asserts are kept)."""

    def generic_visit(self, node):
        super().generic_visit(node)
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body \
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
        return node


def bytecode(source: bytes, name: str) -> bytes:
    """A sourceless .pyc of `source` (its timestamp unchecked: nothing to compare it with)."""
    tree = Undocumented().visit(ast.parse(source, name))
    return bytes(external._code_to_timestamp_pyc(compile(tree, name, "exec", dont_inherit=True), 0, 0))


def rewritten(path: str, wanted: set[str]) -> dict:
    """The zip at `path` with each module in `wanted` (names inside the zip) replaced by its .pyc; what it did."""
    done = {"compiled": 0, "source_bytes": 0, "pyc_bytes": 0}
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(path + ".out", "w", zipfile.ZIP_DEFLATED,
                                                          compresslevel=9) as out:
        for item in source.infolist():
            data = source.read(item)
            if item.filename in wanted and item.filename.endswith(".py"):
                compiled = bytecode(data, item.filename)
                done["compiled"] += 1
                done["source_bytes"] += item.compress_size
                item = zipfile.ZipInfo(item.filename + "c", item.date_time)
                out.writestr(item, compiled, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
                done["pyc_bytes"] += out.getinfo(item.filename).compress_size
                continue
            out.writestr(item, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return done


def main() -> str:
    opened = set()  # every file read (our modules and the page templates Jinja imports, then drops from sys.modules)
    sys.addaudithook(lambda event, args: event == "open" and isinstance(args[0], str)
                     and not set(str(args[1] or "")) & set("wax+") and opened.add(args[0]))
    zipfile.ZipFile(CODE).extractall(SITE)  # noqa: F821 (set by precompile.mjs)
    exec(START, {})  # noqa: F821
    import companion.web.site.browser  # noqa: F401 (as the worker does)

    draw_every_page()
    used = opened | {m.__file__ for m in list(sys.modules.values()) if isinstance(getattr(m, "__file__", None), str)}
    stdlib = next(p for p in sys.path if p.endswith(".zip"))
    report = {}
    for name, path, prefix in (("python_stdlib.zip", STDLIB, stdlib + "/"), ("companion.zip", CODE, SITE + "/")):  # noqa: F821
        report[name] = rewritten(path, {f.removeprefix(prefix) for f in used if f.startswith(prefix)})
    return json.dumps(report)
