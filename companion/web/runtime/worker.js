// The static site's Python: Pyodide in a Web Worker, so the page stays responsive while it loads. It runs the same
// rules modules as the server (companion.browser.call) and answers {id, answer} or {id, failure}; while the
// runtime downloads it reports {progress, total, transfer_mb}, then {ready, ms}.
import { loadPyodide } from "./__PYODIDE_DIR__/pyodide.mjs";

const started = performance.now();
const phases = {};  // when the runtime, our code and the entry were up (ms after the worker started)
const TOTAL = __RUNTIME_BYTES__;  // what the runtime and our code weigh unpacked (the bar's end)
const TRANSFER_MB = __TRANSFER_MB__;  // about what the first visit downloads, compressed

// Every file the runtime fetches is counted as it arrives (a body read through, not a second download).
const fetchFile = self.fetch.bind(self);
let loaded = 0;
let told = 0;
self.fetch = async (input, init) => {
  const response = await fetchFile(input, init);
  if (!response.ok || !response.body) return response;
  const reader = response.body.getReader();
  const counted = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) { controller.close(); return; }
      loaded += value.byteLength;
      if (performance.now() - told > 100) {
        told = performance.now();
        postMessage({ progress: Math.min(loaded, TOTAL), total: TOTAL, transfer_mb: TRANSFER_MB });
      }
      controller.enqueue(value);
    },
    cancel(reason) { return reader.cancel(reason); },
  });
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
};

const python = (async () => {
  const py = await loadPyodide({ indexURL: new URL("./__PYODIDE_DIR__/", import.meta.url).href });
  phases.runtime = Math.round(performance.now() - started);
  const code = await fetch(new URL("./companion.zip?v=__CODE_VERSION__", import.meta.url));
  if (!code.ok) throw new Error(`companion.zip: ${code.status}`);
  py.unpackArchive(await code.arrayBuffer(), "zip", { extractDir: "/home/pyodide/companion-site" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/companion-site')");
  phases.code = Math.round(performance.now() - started);
  const entry = py.pyimport("companion.browser");
  phases.imported = Math.round(performance.now() - started);
  return entry;
})();
// What the page asks the site's service worker to keep, so the next visit scores with no network at all.
const FILES = [...__RUNTIME_FILES__.map((name) => `./__PYODIDE_DIR__/${name}`), "./companion.zip?v=__CODE_VERSION__",
               "./worker.js"]
  .map((path) => new URL(path, import.meta.url).href);
python.then(() => postMessage({ ready: true, ms: Math.round(performance.now() - started), files: FILES, phases }),
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
