// An experiment for benchmarks/bench_site.py (issue 38, item 10), not part of the build: precompiles the modules a
// built site's phone imports before its first answer, by Node with the very Pyodide the phones run (so the bytecode
// is their Python's). It starts our code as the
// worker does (worker.js), draws each game's scoring page once, and in the standard library's zip and our code's zip
// replaces each module so imported by its .pyc (sourceless: imported as it is, nothing compiled on the phone); the
// modules nothing imported by then stay source (a .pyc weighs twice its source in the download).
// With "all" for the games, every module is precompiled. Both zips are rewritten in place (a built site's
// py/pyodide-<version>/python_stdlib.zip and py/companion.zip; the runtime folder must hold pyodide-lock.json too).
// Usage: node benchmarks/precompile_site.mjs <pyodide folder> <stdlib.zip> <code.zip> <games, comma-separated|all>
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [dir, stdlib, code, games] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
const lock = JSON.parse(readFileSync(`${dir}/pyodide-lock.json`, "utf8")).info;
const py = await loadPyodide({ indexURL: `${dir}/`, lockFileContents: { info: lock, packages: {} } });
py.FS.writeFile("/tmp/stdlib.zip", readFileSync(stdlib));
py.FS.writeFile("/tmp/code.zip", readFileSync(code));
py.globals.set("GAMES", games);
py.runPython(`
import importlib._bootstrap_external as external, json, sys, zipfile
zipfile.ZipFile("/tmp/code.zip").extractall("/tmp/site")
sys.path.insert(0, "/tmp/site")
import companion.browser
companion.browser.warm()
for game in [] if GAMES == "all" else GAMES.split(","):
    for lang in ("es", "en"):
        companion.browser.call("page", json.dumps({"endpoint": "scoring.score", "values": {"game": game}, "lang": lang,
                                                   "fields": []}))
        companion.browser.call("score_form", json.dumps({"game": game, "lang": lang, "fields": []}))
used = {m.__file__ for m in list(sys.modules.values()) if isinstance(getattr(m, "__file__", None), str)}
stdlib_dir = next(p for p in sys.path if p.endswith(".zip"))
for path, prefix in (("/tmp/stdlib.zip", stdlib_dir + "/"), ("/tmp/code.zip", "/tmp/site/")):
    wanted = {f[len(prefix):] for f in used if f.startswith(prefix)}
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(path + ".out", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for item in source.infolist():
            data = source.read(item)
            if (GAMES == "all" or item.filename in wanted) and item.filename.endswith(".py"):
                compiled = compile(data, item.filename, "exec", dont_inherit=True)
                item = zipfile.ZipInfo(item.filename + "c", item.date_time)
                data = bytes(external._code_to_timestamp_pyc(compiled, 0, 0))
            out.writestr(item, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
`);
writeFileSync(stdlib, py.FS.readFile("/tmp/stdlib.zip.out"));
writeFileSync(code, py.FS.readFile("/tmp/code.zip.out"));
