// The static site's service worker: at the first visit of any page it keeps the site's pages in the visitor's
// language (registered as sw.js?lang=…; another language's page registers it again for that language) and the
// phones' Python, so afterwards every page, scoring, setup and the solo helper included, opens with no network.
// Pages are served from this copy first, then from the network.
"use strict";
const VERSION = "__VERSION__";
const ROOT = "__ROOT__";
const PAGES = __PAGES__;  // each language's pages and files, as site paths
const RUNTIME_FILES = __RUNTIME__;  // the phones' Python (py/), each named by its version
const LATER_FILES = __LATER__;  // more of py/ that a page loads only when needed: kept once it has been asked for
const TREES = __TREES__;  // each language's tree ("/" or "/en/" at a host's root)
const OFFLINE = __OFFLINE__;  // each language's page saying a page was never kept
const LANG = new URL(self.location.href).searchParams.get("lang");
const KEPT = LANG in PAGES ? LANG : Object.keys(PAGES)[0];  // the language kept
const CACHE = `companion-site-${VERSION}-${KEPT}`;
const RUNTIME = "companion-runtime";  // shared with the Python worker (py/worker.js), which keeps the same files
const runtimeURLs = RUNTIME_FILES.map((path) => new URL(path, self.location.href).href);
const laterURLs = LATER_FILES.map((path) => new URL(path, self.location.href).href);

// A runtime file kept once: under the lock the Python worker takes for the same file, so that a scoring page opened
// at the first visit and this service worker never both download it.
function keep(cache, url) {
  const work = async () => {
    if (await cache.match(url)) return;
    const fresh = await fetch(url);
    if (!fresh.ok) throw new Error(`${url}: ${fresh.status}`);
    await cache.put(url, fresh);
  };
  return self.navigator.locks ? self.navigator.locks.request(`companion-keep ${url}`, work) : work();
}

self.addEventListener("install", (event) => {
  // The pages first (the Python worker of a scoring page opened now is downloading the runtime meanwhile), a few
  // at a time; then the runtime. (What this visit's page already loaded comes from the browser's own cache.)
  event.waitUntil((async () => {
    const pages = await caches.open(CACHE);
    const todo = [...PAGES[KEPT]];
    await Promise.all(Array.from({ length: 6 }, async () => {
      for (let path = todo.shift(); path !== undefined; path = todo.shift()) {
        if (!(await pages.match(path))) await pages.add(path);
      }
    }));
    const runtime = await caches.open(RUNTIME);
    await Promise.all(runtimeURLs.map((url) => keep(runtime, url)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("companion-site-") && key !== CACHE) await caches.delete(key);
    }
    const runtime = await caches.open(RUNTIME);  // another version's runtime files: not needed any more
    for (const request of await runtime.keys()) {
      if (!runtimeURLs.includes(request.url) && !laterURLs.includes(request.url)) await runtime.delete(request);
    }
    await self.clients.claim();
  })());
});

// A page names the runtime's files it loaded before this worker was there to see them (a first visit's Python,
// or the photo reader loaded at a first visit's photo): kept if missing.
self.addEventListener("message", (event) => {
  const files = (event.data && event.data.keep) || [];
  const ours = files.filter((f) => typeof f === "string" && (runtimeURLs.includes(f) || laterURLs.includes(f)));
  event.waitUntil(caches.open(RUNTIME).then((cache) => Promise.all(ours.map((url) => keep(cache, url))))
    .catch(() => {}));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(ROOT + "py/")) {
    event.respondWith(caches.open(RUNTIME).then(async (cache) => {
      const hit = await cache.match(event.request);
      if (hit) return hit;
      if (runtimeURLs.includes(url.href) || laterURLs.includes(url.href)) {
        await keep(cache, url.href);
        return (await cache.match(url.href)) || fetch(event.request);
      }
      return fetch(event.request);
    }));
    return;
  }
  // A printed code says BASE/C/<ID>: its page only leads to the card's own page, BASE/c/<game>/<ID>/, so it is not
  // kept; the card's page in the language kept is opened straight away. (Other pages are kept as folders.)
  const code = url.pathname.match(/\/C\/([^/]+)\/?$/);
  const card = code && PAGES[KEPT].find((path) => path.startsWith(TREES[KEPT] + "c/")
                                                  && path.endsWith(`/${decodeURIComponent(code[1])}/`));
  if (card) {
    event.respondWith(Response.redirect(card, 302));
    return;
  }
  const folder = url.pathname.endsWith("/") ? null : url.pathname + "/";
  event.respondWith(caches.open(CACHE).then(async (cache) =>
    (await cache.match(url.pathname)) || (folder && await cache.match(folder)) ||
    fetch(event.request).catch(async () => {
      const twin = twinKept(folder || url.pathname);  // (online, theme.js would have opened it)
      if (twin && event.request.mode === "navigate") return Response.redirect(twin + url.search + url.hash, 302);
      return (await cache.match(OFFLINE[KEPT])) || Response.error();
    })));
});

// A page of another language's tree (a shared link: /score/<game>/ on a phone that keeps /en/): the same page in
// the language kept, where the visit online went.
function twinKept(path) {
  for (const [lang, pages] of Object.entries(PAGES)) {
    if (lang === KEPT || !pages.includes(path) || !path.startsWith(TREES[lang])) continue;
    const twin = TREES[KEPT] + path.slice(TREES[lang].length);
    if (PAGES[KEPT].includes(twin)) return twin;
  }
  return null;
}
