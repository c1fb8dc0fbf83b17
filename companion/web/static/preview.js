// The preview page of a game served with `companion serve --cards FILE`: it asks the companion every second whether
// the game's files changed (the version of /preview/<game>/version), and loads the page again when they did, keeping
// where the reader had scrolled to. A companion that does not answer (stopped, restarting) is asked again.
"use strict";
(() => {
  const box = document.querySelector("[data-preview-url]");
  if (!box) return;
  const url = box.dataset.previewUrl;
  const shown = box.dataset.previewVersion;
  const EVERY_MS = 1000;
  const KEY = "companion-preview-scroll";
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEY) || "null");
    sessionStorage.removeItem(KEY);
    if (kept && kept.path === location.pathname) window.scrollTo(0, kept.y);
  } catch { /* no storage: the page opens at its top */ }
  const ask = () => {
    fetch(url, { cache: "no-store", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : r.status === 404 ? { version: null } : Promise.reject(r.status)))
      .then((answer) => {
        if (answer.version === shown) return setTimeout(ask, EVERY_MS);
        try { sessionStorage.setItem(KEY, JSON.stringify({ path: location.pathname, y: window.scrollY })); } catch { }
        location.reload();
      })
      .catch(() => setTimeout(ask, EVERY_MS));
  };
  setTimeout(ask, EVERY_MS);
})();
