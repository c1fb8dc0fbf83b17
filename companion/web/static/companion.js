// Progressive help for the score forms; every page also works without it.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // Card pickers: show how many are picked, and stop at the most a hand holds.
  for (const grid of document.querySelectorAll(".cards[data-max]")) {
    const max = Number(grid.dataset.max);
    const boxes = [...grid.querySelectorAll("input")];
    const counter = grid.parentElement.querySelector(".count");
    const update = () => {
      const picked = boxes.filter((b) => b.checked).length;
      if (counter) counter.textContent = `${picked}/${max}`;
      if (boxes[0] && boxes[0].type === "checkbox") {
        for (const b of boxes) b.disabled = !b.checked && picked >= max;
      }
    };
    grid.addEventListener("change", update);
    update();
  }
  // Copy buttons (shareable setup links).
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.hidden = !navigator.clipboard;
    button.addEventListener("click", () => navigator.clipboard.writeText(button.dataset.copy));
  }
});

// --- Offline: once visited, pages keep working without signal (service workers need localhost or https). ---
const root = document.documentElement;
if ("serviceWorker" in navigator && window.isSecureContext && root.dataset.sw) {
  navigator.serviceWorker.register(root.dataset.sw, { scope: root.dataset.swScope }).catch(() => {});
}

// --- A static site has one copy of each page per language: open the phone's (or the chosen) one. ---
if (root.dataset.static) {
  for (const link of document.querySelectorAll(".langs a[hreflang]")) {
    link.addEventListener("click", () => { try { localStorage.setItem("companion-lang", link.hreflang); } catch {} });
  }
  let wanted = null;
  try { wanted = localStorage.getItem("companion-lang"); } catch {}
  wanted = wanted || (navigator.language || "").slice(0, 2);
  const other = document.querySelector(`link[rel=alternate][hreflang="${wanted}"]`);
  if (other && wanted !== root.lang) location.replace(other.href);
}

// --- Saved sheets: entries are kept on the phone first, then sent; other phones' changes appear by themselves. ---
const QUEUE_KEY = "companion-queue";
const readQueue = () => { try { return JSON.parse(localStorage.getItem(QUEUE_KEY) || "[]"); } catch { return []; } };
const writeQueue = (q) => localStorage.setItem(QUEUE_KEY, JSON.stringify(q));
const dropQueued = (id) => writeQueue(readQueue().filter((item) => item.fields.client_id !== id));
const newId = () => [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("");

async function post(item) {
  return fetch(item.action, { method: "POST", body: new URLSearchParams(item.fields), credentials: "same-origin",
                              headers: { Accept: "application/json" } });
}

// Send what is waiting, oldest first. Returns the answer to `mine` (a client_id) if it was sent now.
let flushing = null;
function flushQueue(mine) {
  flushing = (flushing || Promise.resolve()).then(async () => {
    let answer = null;
    for (const item of readQueue()) {
      let r;
      try { r = await post(item); } catch { break; }  // still offline: keep everything
      if (r.status === 400) {  // perhaps a new session: take a fresh form token and try once more
        const body = await r.clone().json().catch(() => ({}));
        if (body.field === "csrf") {
          const fresh = await fetch("/api/v1/csrf", { credentials: "same-origin" }).then((x) => x.json());
          item.fields._csrf = fresh.csrf;
          try { r = await post(item); } catch { break; }
        }
      }
      if (r.status >= 500) break;  // the server is unwell: try later
      dropQueued(item.fields.client_id);  // written (201), already written (200), or refused for good (4xx)
      if (item.fields.client_id === mine) answer = r;
    }
    showQueue();
    return answer;
  });
  return flushing;
}

function showQueue() {
  const box = document.getElementById("queue");
  if (!box) return;
  const n = readQueue().length;
  box.hidden = n === 0;
  box.textContent = box.dataset.waiting.replace("{n}", n);
}

async function refreshSheet() {
  const live = document.getElementById("live");
  if (!live) return;
  const r = await fetch(location.pathname, { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (!r.ok) return;
  const fresh = new DOMParser().parseFromString(await r.text(), "text/html").getElementById("live");
  if (fresh) live.replaceWith(fresh);
}

document.addEventListener("DOMContentLoaded", () => {
  for (const form of document.querySelectorAll("form[data-queue]")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const fields = Object.fromEntries(new FormData(form));
      fields.client_id = newId();
      writeQueue([...readQueue(), { action: form.action, fields }]);  // kept before it is sent: never lost
      const answer = await flushQueue(fields.client_id);
      if (answer && answer.status >= 400) {  // refused: let the server's page say why
        form.querySelector("[name=client_id]").value = fields.client_id;
        form.submit();
        return;
      }
      if (answer && form.dataset.after) { location.href = form.dataset.after; return; }
      for (const input of form.querySelectorAll("input[type=number], input[name=note]")) input.value = "";
      await refreshSheet().catch(() => {});
    });
  }
  showQueue();

  const sheet = document.getElementById("sheet");
  if (!sheet) { if (readQueue().length) flushQueue(); return; }
  const poll = async () => {
    const live = document.getElementById("live");
    try {
      const r = await fetch(`${sheet.dataset.poll}?since=${live.dataset.version}`,
                            { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (r.ok && (await r.json()).changed !== false) await refreshSheet();
      sheet.dataset.online = "yes";
    } catch { sheet.dataset.online = "no"; }
    if (readQueue().length) {
      const before = readQueue().length;
      await flushQueue();
      if (readQueue().length < before) await refreshSheet().catch(() => {});
    }
  };
  setInterval(poll, Number(sheet.dataset.every || 3) * 1000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
  window.addEventListener("online", poll);

  // Keep the screen on while a sheet is open (asked again when the page comes back into view).
  const keepAwake = async () => {
    if (!("wakeLock" in navigator)) { sheet.dataset.awake = "unavailable"; return; }
    if (document.hidden) return;
    try { await navigator.wakeLock.request("screen"); sheet.dataset.awake = "on"; }
    catch { sheet.dataset.awake = "refused"; }
  };
  keepAwake();
  document.addEventListener("visibilitychange", keepAwake);
});
