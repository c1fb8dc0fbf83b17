// The static site's service worker: it keeps every page of the site at its first visit (the site is small), so
// afterwards any card page opens with no network. Pages are served from this copy first, then from the network.
"use strict";
const CACHE = "companion-site-__VERSION__";
const ROOT = "__ROOT__";
const FILES = __FILES__;
const RUNTIME = "companion-runtime";  // files named by version (Pyodide's folder, the code's ?v=) outlive site versions

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("companion-site-") && k !== CACHE)
      .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// A scoring page, once its Python is up, names the runtime's files: kept now, so the next visit needs no network.
self.addEventListener("message", (event) => {
  const files = (event.data && event.data.keep) || [];
  const ours = files.filter((f) => typeof f === "string" && new URL(f).origin === self.location.origin
                                   && new URL(f).pathname.startsWith(ROOT + "py/"));
  event.waitUntil(caches.open(RUNTIME).then(async (cache) => {
    for (const file of ours) {
      if (!(await cache.match(file))) {
        const fresh = await fetch(file, { cache: "force-cache" });  // the browser's copy of this visit's download
        if (fresh.ok) await cache.put(file, fresh);
      }
    }
  }).catch(() => {}));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  // The phones' Python (py/: 6 MB) is not kept at the first visit of a card page, only once a scoring page has
  // loaded it; from then on it comes from this copy, so scoring works with no network.
  if (url.pathname.startsWith(ROOT + "py/")) {
    event.respondWith(caches.open(RUNTIME).then(async (cache) => {
      const kept = await cache.match(event.request);
      if (kept) return kept;
      const fresh = await fetch(event.request);
      if (fresh.ok) cache.put(event.request, fresh.clone());
      return fresh;
    }));
    return;
  }
  // A printed code says BASE/C/<ID>; the page is kept as BASE/C/<ID>/ (a folder), so try both.
  const folder = url.pathname.endsWith("/") ? null : url.pathname + "/";
  event.respondWith(caches.open(CACHE).then(async (cache) =>
    (await cache.match(url.pathname)) || (folder && await cache.match(folder)) ||
    fetch(event.request).catch(async () => (await cache.match(ROOT + "offline/")) || Response.error())));
});
