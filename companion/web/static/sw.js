// The companion's service worker: pages once opened keep working without signal.
// Pages: the network first (a few seconds at most), else the copy kept from the last visit, else the offline page.
// Writes are never cached here: the page keeps unsent entries and sends them when the connection returns.
"use strict";
const CACHE = "companion-__VERSION__";
const SHELL = ["/", "/offline", "/static/companion.css", "/static/companion.js", "/static/sheets.js",
               "/static/theme.js", "/manifest.webmanifest", "/static/icon.svg"];
const WAIT_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // (a request that asks for no cached answer, as the preview's check for changed files does, is left alone too)
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")
      || request.cache === "no-store") return;
  const network = fetch(request).then((response) => {
    if (response.ok && response.type === "basic") {
      const copy = response.clone();
      caches.open(CACHE).then((c) => c.put(request, copy));
    }
    return response;
  });
  const slow = new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  event.respondWith(Promise.race([network, slow.then(() => cached(request))]).then((r) => r || network)
    .catch(() => cached(request).then((r) => r || Promise.reject(new Error("offline"))))
    .catch(() => request.mode === "navigate" ? caches.match("/offline", { ignoreVary: true }) : Response.error()));
});

// Pages ask for files at addresses carrying their version (?v=, the file's hash); the worker keeps the shell's files
// at their plain addresses, the same files (a new version of any of them is a new worker): a versioned file this
// worker has not fetched yet is answered with the plain copy.
// (A page's answer varies by the language its cookie or the browser asks for: this phone's copy is the one it last
// saw, whatever the headers, so `ignoreVary`.)
function cached(request) {
  return caches.match(request, { ignoreVary: true }).then((hit) => hit
    || (new URL(request.url).searchParams.has("v") ? caches.match(request, { ignoreSearch: true, ignoreVary: true })
      : null))
    .then((hit) => hit || null);
}
