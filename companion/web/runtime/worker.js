// The static site's Python: Pyodide in a Web Worker, so the page stays responsive while it loads. It runs the same
// rules modules as the server (companion.browser.call) and answers {id, answer} or {id, failure}.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const started = performance.now();
const python = (async () => {
  const py = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
  const code = await fetch(new URL("./companion.zip?v=__CODE_VERSION__", import.meta.url));
  if (!code.ok) throw new Error(`companion.zip: ${code.status}`);
  py.unpackArchive(await code.arrayBuffer(), "zip", { extractDir: "/home/pyodide/companion-site" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/companion-site')");
  return py.pyimport("companion.browser");
})();
python.then(() => postMessage({ ready: true, ms: Math.round(performance.now() - started) }),
            (e) => postMessage({ ready: false, failure: String(e) }));

self.onmessage = async ({ data }) => {
  const { id, call, args } = data;
  try {
    const browser = await python;
    postMessage({ id, answer: JSON.parse(browser.call(call, JSON.stringify(args))) });
  } catch (e) {
    postMessage({ id, failure: String(e) });
  }
};
