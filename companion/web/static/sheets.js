// Saved sheets on the server: the page's half of issue 6 and 15 (companion.js loads first; this script may also
// be loaded after the page is drawn, to send entries kept on the phone).
"use strict";
// --- Saved sheets: entries are kept on the phone first, then sent; other phones' changes appear by themselves. ---
// An entry leaves the queue only on the server's own JSON answer (the X-Companion header every answer of the app
// carries, and a JSON body): written (the answer names its client_id: 201, or 200 for a replay), or refused for
// good (400 but a stale form token, 403, 404, 409, 413). A refused entry moves to a second list that the sheet
// shows, to copy, try again or remove. Anything else keeps it for the next try: no network, 5xx, a proxy's 408 or
// 429, a captive portal's page or redirect, any answer that is not the server's.
// (QUEUE_KEY and readList are companion.js's: it reads the queue too, to load this script while entries wait.)
const REFUSED_KEY = "companion-refused";
const REFUSED_FOR_GOOD = new Set([400, 403, 404, 409, 413]);
const readQueue = () => readList(QUEUE_KEY);
const writeQueue = (q) => localStorage.setItem(QUEUE_KEY, JSON.stringify(q));
const readRefused = () => readList(REFUSED_KEY);
const writeRefused = (list) => localStorage.setItem(REFUSED_KEY, JSON.stringify(list));
const idOf = (item) => item.fields.client_id;
const dropQueued = (id) => writeQueue(readQueue().filter((item) => idOf(item) !== id));
const newId = () => [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("");

// Redirects are never followed: a portal's redirect is an opaque answer, not the page it leads to.
const send = (url, options = {}) => fetch(url, { credentials: "same-origin", redirect: "manual", ...options,
                                                 headers: { Accept: "application/json", ...options.headers } });
const post = (item) => send(item.action, { method: "POST", body: new URLSearchParams(item.fields) });

// The body of the server's own JSON answer, else null (a portal, a proxy, a redirect, or not JSON).
async function serverJson(r) {
  if (r.type !== "basic" || r.redirected || r.headers.get("X-Companion") !== "1") return null;
  if (!/^application\/json\b/.test(r.headers.get("Content-Type") || "")) return null;
  try { const body = await r.json(); return body && typeof body === "object" ? body : null; } catch { return null; }
}

// Send one queued entry: "written", "refused" (moved to the refused list) or "kept" (still queued).
async function sendOne(item) {
  let r = await post(item);
  let body = await serverJson(r);
  if (r.status === 400 && body && body.field === "csrf") {  // perhaps a new session: a fresh form token, once more
    const fresh = await serverJson(await send("/api/v1/csrf"));
    if (!fresh || typeof fresh.csrf !== "string") return "kept";
    item.fields._csrf = fresh.csrf;
    writeQueue(readQueue().map((x) => (idOf(x) === idOf(item) ? item : x)));
    r = await post(item);
    body = await serverJson(r);
  }
  if (!body) return "kept";
  if (r.ok && body.change && body.change.client_id === idOf(item)) {
    dropQueued(idOf(item));
    return "written";
  }
  if (REFUSED_FOR_GOOD.has(r.status) && body.field !== "csrf") {
    const refused = { status: r.status, message: String(body.message || body.error || ""),
                      problems: Array.isArray(body.problems) ? body.problems.map(String) : [],
                      at: new Date().toISOString() };
    writeRefused([...readRefused().filter((x) => idOf(x) !== idOf(item)), { ...item, refused }]);
    dropQueued(idOf(item));  // only once it is kept in the refused list
    return "refused";
  }
  return "kept";
}

// Send what is waiting, oldest first. Returns what became of `mine` (a client_id): "written", "refused" or null.
let flushing = Promise.resolve();
function flushQueue(mine) {
  const run = flushing.then(async () => {
    let outcome = null;
    for (const item of readQueue()) {
      const result = await sendOne(item).catch(() => "kept");  // offline, or the answer was cut: keep it
      if (idOf(item) === mine) outcome = result === "kept" ? null : result;
      if (result === "kept") break;  // keep it and all after it for the next try
    }
    showQueue();
    showRefused();
    return outcome;
  });
  flushing = run.catch(() => null);  // one failed round never stops the next
  return run;
}

function showQueue() {
  const box = document.getElementById("queue");
  if (!box) return;
  const n = readQueue().length;
  box.hidden = n === 0;
  box.textContent = box.dataset.waiting.replace("{n}", n);
}

// A queued entry as the player typed it: points per player (a scored entry: each seat's points), note, sheet.
function entryShown(form, fields) {
  const points = [];
  for (const input of form.querySelectorAll("input[name^='points.']")) {
    const label = input.closest("label")?.querySelector("span");
    points.push([label ? label.textContent.trim() : input.name, input.value.trim() || "0"]);
  }
  for (const select of form.querySelectorAll("select[name^='seats.']")) points.push([select.value, select.closest("label")?.dataset.points || ""]);
  return { title: form.dataset.title || "", points, scored: Boolean(fields.request), at: new Date().toISOString() };
}

// A refused entry in plain words, for the box and the clipboard (heading, note and reason may be "").
function describe(item, box) {
  const shown = item.shown || { points: Object.entries(item.fields).filter(([k]) => k.startsWith("points."))
    .map(([k, v]) => [`#${Number(k.slice(7)) + 1}`, v || "0"]) };
  const when = new Date(shown.at || item.refused.at);
  const time = isNaN(when) ? "" : when.toLocaleTimeString(document.documentElement.lang || undefined,
                                                          { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const heading = [shown.title ? box.dataset.sheet.replace("{title}", shown.title) : "", time].filter(Boolean).join(" · ");
  const scored = shown.scored ? ` (${box.dataset.scored})` : "";
  const note = item.fields.note ? box.dataset.note.replace("{note}", item.fields.note) : "";
  const reason = [item.refused.message, ...(item.refused.problems || [])].filter(Boolean).join(" ");
  return { heading, points: shown.points, scored, note, reason };
}
const copyText = (item, box) => {
  const { heading, points, scored, note, reason } = describe(item, box);
  return [heading, points.map(([name, n]) => `${name} ${n}`).join(" · ") + scored, note,
          reason && `${box.dataset.notSaved}: ${reason}`].filter(Boolean).join("\n");
};

function showRefused() {
  const box = document.getElementById("refused");
  if (!box) return;
  const items = readRefused();
  const key = JSON.stringify(items);
  if (box.dataset.drawn === key) return;  // unchanged: leave the buttons alone
  box.dataset.drawn = key;
  const list = box.querySelector(".refused-list");
  const template = box.querySelector("template");
  list.replaceChildren(...items.map((item) => {
    const li = template.content.firstElementChild.cloneNode(true);
    const { heading, points, scored, note, reason } = describe(item, box);
    li.dataset.id = idOf(item);
    const line = (tag, text) => { const el = document.createElement(tag); el.textContent = text; return el; };
    const what = li.querySelector(".what");
    if (heading) what.append(line("span", heading));
    const pts = line("strong", "");  // each name isolated, so a right-to-left name cannot reorder the numbers
    points.forEach(([name, n], i) => pts.append(...(i ? [" · "] : []), line("bdi", name), ` ${n}`));
    pts.append(scored);
    what.append(pts);
    if (note) what.append(line("span", note));
    li.querySelector(".reason").textContent = reason;
    li.querySelector("[data-act=copy]").hidden = !navigator.clipboard;
    return li;
  }));
  box.hidden = items.length === 0;
}

async function onRefused(event) {
  const button = event.target.closest("button[data-act]");
  const li = button && button.closest("li[data-id]");
  if (!li) return;
  const box = document.getElementById("refused");
  const item = readRefused().find((x) => idOf(x) === li.dataset.id);
  if (!item) { showRefused(); return; }
  if (button.dataset.act === "copy") {
    try {
      await navigator.clipboard.writeText(copyText(item, box));
      const label = button.textContent;
      button.textContent = box.dataset.copied;
      setTimeout(() => { button.textContent = label; }, 2000);
    } catch {}
    return;
  }
  if (button.dataset.act === "retry") {  // back in the queue with the same client_id: never written twice
    const { refused, ...queued } = item;
    writeQueue([...readQueue().filter((x) => idOf(x) !== idOf(item)), queued]);
    writeRefused(readRefused().filter((x) => idOf(x) !== idOf(item)));  // only once it is queued again
    showQueue();
    showRefused();
    if (await flushQueue(idOf(item)) !== "written") return;
    const form = document.querySelector("form[data-queue][data-after]");  // saved from a scoring page: to the sheet
    if (form && form.action === item.action) { location.href = form.dataset.after; return; }
    await refreshSheet().catch(() => {});
    return;
  }
  writeRefused(readRefused().filter((x) => idOf(x) !== idOf(item)));
  showRefused();
}

async function refreshSheet() {
  const live = document.getElementById("live");
  if (!live || forgetting) return;
  const r = await fetch(location.pathname + location.search,  // the page of entries being looked at
                        { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (!r.ok) return;
  const fresh = new DOMParser().parseFromString(await r.text(), "text/html").getElementById("live");
  if (fresh) { live.replaceWith(fresh); localTimes(fresh); }
}

// --- Forget a sheet on this phone: the server takes it off the session's list and names its pages; here go the
// service worker's copies of those pages and of any page that holds their links (the list of sheets, a calculator
// saving to it), and the entries kept for it (still waiting, or refused). Needs the connection (the list is the
// server's); the sheet itself stays on the server. ---
let forgetting = false;
let polling = Promise.resolve();

async function forgetCopies(paths) {
  const holds = (text) => paths.some((p) => text.includes(p));
  const mine = (item) => holds(new URL(item.action, location.href).pathname + "/");
  writeQueue(readQueue().filter((item) => !mine(item)));
  writeRefused(readRefused().filter((item) => !mine(item)));
  if (!("caches" in window)) return;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const path = new URL(request.url).pathname;
      let drop = paths.some((p) => path === p || path.startsWith(`${p}/`));
      if (!drop) {
        const copy = await cache.match(request);
        drop = Boolean(copy && /^text\/html\b/.test(copy.headers.get("Content-Type") || "") && holds(await copy.text()));
      }
      if (drop) await cache.delete(request);
    }
  }
}

async function onForget(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const status = form.querySelector("[data-forget-status]");
  forgetting = true;  // no live redraw may put a copy back meanwhile
  await polling.catch(() => {});
  let body = null;
  try {
    const r = await send(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)) });
    body = r.ok ? await serverJson(r) : null;
  } catch {}
  if (!body || !Array.isArray(body.forgotten)) {
    forgetting = false;
    if (status) { status.textContent = form.dataset.offline; status.hidden = false; }
    return;
  }
  await forgetCopies(body.forgotten.map(String));
  location.replace(form.dataset.after);
}

function startSheets() {
  for (const form of document.querySelectorAll("form[data-forget]")) form.addEventListener("submit", onForget);
  // (any form of the page that queues, one drawn anew by a live answer included)
  document.addEventListener("submit", async (event) => {
    const tapped = event.target.closest?.("form[data-queue]");
    if (!tapped) return;
    event.preventDefault();
    // A scoring page's save right after a tap: the live answer to it first, and the save box it draws is the one
    // sent (companion.js); none if the form as it stands has nothing to save.
    await window.companionAnswered?.({ asItStands: true });
    const form = tapped.isConnected ? tapped : document.querySelector("main > section.save form[data-queue]");
    if (!form) return;
    const fields = Object.fromEntries(new FormData(form));
    fields.client_id = newId();
    writeQueue([...readQueue(), { action: form.action, fields, shown: entryShown(form, fields) }]);  // kept first
    const outcome = await flushQueue(fields.client_id);
    if (outcome === "written" && form.dataset.after) { location.href = form.dataset.after; return; }
    if (outcome === "refused") document.getElementById("refused")?.scrollIntoView({ block: "nearest" });
    for (const input of form.querySelectorAll("input[type=number], input[name=note]")) input.value = "";
    await refreshSheet().catch(() => {});
  });
  // A scoring page opened from a sheet: its save box follows the live answer (companion.js), so what "Save to the
  // sheet" sends is the answer on the screen, not the last one the page was loaded with; seats chosen stay chosen.
  // (a seat being chosen is left alone; a focused Save button is no reason to keep a stale answer)
  document.addEventListener("companion:redrawn", (event) => {
    const old = document.querySelector("main > section.save");
    const fresh = event.detail.querySelector("main > section.save");
    if (!old || !fresh || (old.contains(document.activeElement) && document.activeElement.matches("select"))) return;
    const refused = old.querySelector("#refused");
    if (refused) fresh.querySelector("#refused")?.replaceWith(refused);  // (its list as drawn, and its buttons)
    window.companionReplaceKeepingChoices(old, fresh);
  });
  showQueue();
  showRefused();
  document.getElementById("refused")?.addEventListener("click", onRefused);
  window.addEventListener("storage", () => { showQueue(); showRefused(); });  // another tab of the companion

  const sheet = document.getElementById("sheet");
  if (!sheet) { if (readQueue().length) flushQueue(); return; }
  const poll = () => { if (!forgetting) polling = pollOnce(); return polling; };
  const pollOnce = async () => {
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
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startSheets);
else startSheets();
