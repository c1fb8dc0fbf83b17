// Run in the head, before the page is drawn:
// - the screen a phone chose with the bar's switch (no flash of the other one); without a choice, the phone's own
//   light or dark setting (companion.css) decides;
// - on a static site (one copy of each page per language), the phone's or the chosen language's copy, opened before
//   this one starts anything (its Python worker would be cut off by the move).
"use strict";
(() => {
  const root = document.documentElement;
  root.dataset.js = "1";  // (companion.css lays out now what companion.js shows or hides later: nothing shifts)
  try {
    const chosen = localStorage.getItem("companion-theme");
    if (chosen === "dark" || chosen === "light") root.dataset.theme = chosen;
  } catch {}
  if (!root.dataset.static) return;
  let wanted = null;
  try { wanted = localStorage.getItem("companion-lang"); } catch {}
  // (a language chosen on the switch is told to the host too, whose own files may serve it: docs/hosting.md)
  if (wanted && !document.cookie.includes(`companion-lang=${wanted}`)) {
    document.cookie = `companion-lang=${wanted}; path=/; max-age=31536000; SameSite=Lax`;
  }
  wanted = wanted || (navigator.language || "").slice(0, 2);
  const other = document.querySelector(`link[rel=alternate][hreflang="${wanted}"]`);
  if (other && wanted !== root.lang) {
    root.dataset.leaving = "1";  // (site-python.js starts nothing on a page being left)
    // (its path only: the alternate's address is absolute, on the host the site was built for, and this copy may be
    // served from another, a preview on a laptop; a seed, a form: kept)
    location.replace(new URL(other.href).pathname + location.search + location.hash);
    return;
  }
  // A page the phone's Python draws: its worker starts now, beside the page being parsed and laid out (a slow
  // phone spends over a second on that), and what it says meanwhile is held for site-python.js.
  const python = document.getElementById("companion-python");  // (in the head, above this script)
  if (python) {
    try {
      const worker = new Worker(JSON.parse(python.textContent).worker, { type: "module" });
      const held = [];
      worker.onmessage = (event) => held.push(event);
      worker.onerror = (event) => held.push(event);
      window.companionWorker = { worker, held };
    } catch {}  // (site-python.js starts it itself)
  }
})();
