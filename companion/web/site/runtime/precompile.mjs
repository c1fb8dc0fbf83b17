// Run by the site's build when Node is at hand (site_runtime.precompiled): the very Pyodide the phones run starts our
// code as their worker does and draws every computing page once (precompile.py); each module imported by then is
// replaced by its .pyc in the standard library's zip and in our code's zip, so that a phone compiles none of them
// before its first answer (most of a cold first score on a slow phone). Both zips are rewritten in place.
// Usage: node precompile.mjs <runtime folder: pyodide.mjs, pyodide.asm.*, python_stdlib.zip> <plan.json>
//   plan.json: {lock: pyodide-lock.json's info, stdlib: zip path, code: zip path, start: Python, site: folder}
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [dir, planFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, "utf8"));
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
// (no column positions in the bytecode: a third smaller, only a traceback's carets are lost)
const py = await loadPyodide({ indexURL: `${dir}/`, lockFileContents: { info: plan.lock, packages: {} },
                               env: { PYTHONNODEBUGRANGES: "1", HOME: "/home/pyodide" }, stdout: () => {} });
py.FS.writeFile("/tmp/stdlib.zip", readFileSync(plan.stdlib));
py.FS.writeFile("/tmp/code.zip", readFileSync(plan.code));
const scope = py.globals.get("dict")();
for (const [name, value] of Object.entries({ STDLIB: "/tmp/stdlib.zip", CODE: "/tmp/code.zip", SITE: plan.site,
                                             START: plan.start })) scope.set(name, value);
py.runPython(readFileSync(new URL("./precompile.py", import.meta.url), "utf8"), { globals: scope });
const report = scope.get("main")();
writeFileSync(plan.stdlib, py.FS.readFile("/tmp/stdlib.zip.out"));
writeFileSync(plan.code, py.FS.readFile("/tmp/code.zip.out"));
process.stdout.write(report + "\n");
