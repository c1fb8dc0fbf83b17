// The screen a phone chose with the bar's switch, set before the page is drawn (no flash of the other one);
// without a choice, the phone's own light or dark setting (companion.css) decides.
"use strict";
try {
  const chosen = localStorage.getItem("companion-theme");
  if (chosen === "dark" || chosen === "light") document.documentElement.dataset.theme = chosen;
} catch {}
