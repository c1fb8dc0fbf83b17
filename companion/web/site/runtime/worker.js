// The static site's Python: Pyodide in a Web Worker, so the page stays responsive while it loads. It runs the same
// rules modules as the server (companion.web.site.browser.call) and answers {id, answer} or {id, failure}; while the
// runtime downloads it reports {progress, total, transfer_mb}, then {ready, ms}; {snapshot: bytes} once its memory
// is kept (see below).
//
// Each runtime file is fetched once per phone: every file is asked for at the worker's start, all at once, and kept
// in the site's runtime cache as it arrives; the service worker keeps the same files under the same lock (Web Locks),
// so whichever asks first downloads a file and the other finds it kept.
const started = performance.now();
const phases = {};  // when the runtime, our code and the entry were up (ms after the worker started)
const TOTAL = __RUNTIME_BYTES__;  // what the runtime and our code weigh unpacked (the bar's end)
const FIRST_VISIT_MB = __FIRST_VISIT_MB__;  // what a first visit downloads in each language, compressed (the banner)
const RUNTIME_CACHE = "companion-runtime";  // shared with the site's service worker (site-sw.js)
const here = (path) => new URL(path, import.meta.url).href;
const DIR = here("./__PYODIDE_DIR__/");
const CODE = here("./companion.zip?v=__CODE_VERSION__");
// What the page asks the site's service worker to keep (it keeps them anyway: a check that nothing is missing).
const FILES = [...__RUNTIME_FILES__.map((name) => DIR + name), CODE, self.location.href];
// zxing-wasm's reader: the page loads it itself when a player chooses a photo of the cards (not at a first visit).
const ZXING = Object.fromEntries(Object.entries(__ZXING__).map(([k, v]) => [k, Array.isArray(v) ? v.map(here) : here(v)]));

const fetchFile = self.fetch.bind(self);
let loaded = 0;
let told = 0;

// A runtime file: the kept copy, else downloaded once and kept (under a lock the service worker takes too).
function kept(url) {
  if (!self.caches || !navigator.locks) return fetchFile(url);
  return new Promise((resolve, reject) => {
    navigator.locks.request(`companion-keep ${url}`, async () => {
      const cache = await caches.open(RUNTIME_CACHE);
      const hit = await cache.match(url);
      if (hit) return resolve(counted(hit));
      const fresh = await fetchFile(url);
      if (!fresh.ok) return resolve(fresh);
      resolve(counted(fresh.clone()));
      await cache.put(url, fresh).catch(() => {});  // (no room: it still runs, and is fetched again next time)
    }).catch(reject);
  });
}

// A download counted as it arrives, for the page's progress bar (a body read through, not a second download).
function counted(response) {
  if (!response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) { controller.close(); return; }
      loaded += value.byteLength;
      if (performance.now() - told > 100) {
        told = performance.now();
        postMessage({ progress: Math.min(loaded, TOTAL), total: TOTAL, transfer_mb: FIRST_VISIT_MB });
      }
      controller.enqueue(value);
    },
    cancel(reason) { return reader.cancel(reason); },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

// Every file at once (the runtime, the standard library and our code download side by side, not one after another).
const asked = new Map(FILES.slice(0, -1).map((url) => [url, kept(url)]));
self.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input, import.meta.url).href;
  return asked.get(url) ?? fetchFile(input, init);
};

// A module from its kept copy (Pyodide's two scripts), so that it too is downloaded only once.
async function imported(url) {
  const response = await asked.get(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const source = URL.createObjectURL(new Blob([await response.text()], { type: "text/javascript" }));
  try {
    return await import(source);
  } finally {
    URL.revokeObjectURL(source);
  }
}

// A picture of this Python's memory once it has answered (Pyodide's memory snapshot), kept on the phone for this
// worker's version: the next start restores it instead of starting Python and importing everything again (a
// tenth of the time). Its files live outside that memory, so our code is unpacked again. Made on the phone, never
// downloaded; anything wrong with it and Python starts as the first time.
const SNAPSHOTS = "companion-python-memory";
const SNAPSHOT = self.location.href;  // (kept under the worker's own address, which names its version)
let snapshotWanted = false;
let startedPython = null;  // (the Python a snapshot is taken of)

async function keptSnapshot() {
  try {
    const hit = await (await caches.open(SNAPSHOTS)).match(SNAPSHOT);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

function unpack(py, code) {
  py.unpackArchive(code, "zip", { extractDir: __SITE_DIR__ });
}

const python = (async () => {
  const [{ loadPyodide }, asm, snapshot] = await Promise.all([
    imported(DIR + "pyodide.mjs"), imported(DIR + "pyodide.asm.mjs"), self.caches ? keptSnapshot() : null]);
  phases.scripts = Math.round(performance.now() - started);  // Pyodide's two scripts downloaded and loaded
  const code = fetch(CODE).then((r) => {
    if (!r.ok) throw new Error(`companion.zip: ${r.status}`);
    return r.arrayBuffer();
  });
  const options = { indexURL: DIR, createPyodideModule: asm.default,
                    lockFileContents: { info: __LOCK_INFO__, packages: {} } };
  if (snapshot) {
    try {
      const py = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      phases.runtime = Math.round(performance.now() - started);
      unpack(py, await code);
      phases.code = Math.round(performance.now() - started);
      const entry = py.pyimport("companion.web.site.browser");
      phases.imported = Math.round(performance.now() - started);
      phases.restored = true;
      return entry;
    } catch {
      await caches.delete(SNAPSHOTS).catch(() => {});
    }
  }
  const py = await loadPyodide({ ...options, _makeSnapshot: Boolean(self.caches) });
  phases.runtime = Math.round(performance.now() - started);
  unpack(py, await code);
  phases.unpacked = Math.round(performance.now() - started);
  // The card data as the site's build read it (no YAML parsed on the phone; each game's read when first asked for),
  // before anything asks for it (site_runtime.START_PYTHON).
  py.runPython(__START__);
  phases.cards = Math.round(performance.now() - started);  // the card data read (companion.cards imported)
  py.runPython("import companion.web.site.browser");
  phases.code = Math.round(performance.now() - started);
  const entry = py.pyimport("companion.web.site.browser");
  phases.imported = Math.round(performance.now() - started);
  snapshotWanted = Boolean(self.caches);
  startedPython = py;
  return entry;
})();
python.then(() => postMessage({ ready: true, ms: Math.round(performance.now() - started), files: FILES, phases,
                               zxing: ZXING }),
            (e) => postMessage({ ready: false, failure: String(e) }));

// Taken after the first answer (its page's templates are compiled by then), while the phone reads it.
function takeSnapshot() {
  if (!snapshotWanted) return;
  snapshotWanted = false;
  setTimeout(async () => {
    try {
      const memory = startedPython.makeMemorySnapshot();
      await caches.delete(SNAPSHOTS);  // (another version's)
      await (await caches.open(SNAPSHOTS)).put(SNAPSHOT, new Response(memory));
      postMessage({ snapshot: memory.length });
    } catch (e) {
      postMessage({ snapshot: 0, failure: String(e) });
    }
  }, 0);
}

self.onmessage = async ({ data }) => {
  const { id, call, args } = data;
  try {
    const browser = await python;
    postMessage({ id, answer: JSON.parse(browser.call(call, JSON.stringify(args))) });
  } catch (e) {
    postMessage({ id, failure: String(e) });
  }
  takeSnapshot();
};
