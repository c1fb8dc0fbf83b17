// Progressive help for the score forms; every page also works without it.
"use strict";
// What a page's forms get once shown; again for a static site's page that its own Python has just drawn anew.
function enhance(page) {
  // Card pickers: show how many are picked, and stop at the most a hand holds; a full section closes and the
  // next opens. In a form of one copy of each card (data-one-of-each), a card taken elsewhere is greyed here.
  const grids = [...page.querySelectorAll(".cards[data-max]")];
  const update = (grid) => {
    const max = Number(grid.dataset.max);
    const boxes = [...grid.querySelectorAll("input")];
    const picked = boxes.filter((b) => b.checked).length;
    const counter = grid.parentElement.querySelector(".count");
    if (counter) counter.textContent = `${picked}/${max}`;
    const unique = grid.closest("form[data-one-of-each]");
    const elsewhere = new Set(unique ? grids.filter((g) => g !== grid && unique.contains(g))
      .flatMap((g) => [...g.querySelectorAll("input:checked")].map((b) => b.value)) : []);
    for (const b of boxes) {
      b.disabled = !b.checked && (elsewhere.has(b.value) || (b.type === "checkbox" && picked >= max));
    }
    return picked >= max;
  };
  for (const grid of grids) {
    grid.addEventListener("change", () => {
      const full = update(grid);
      for (const other of grids) if (other !== grid) update(other);
      const section = grid.closest("details");
      if (!full || !section) return;
      const next = grids.slice(grids.indexOf(grid) + 1).map((g) => g.closest("details"))
        .find((d) => d && Number(d.querySelector(".cards").dataset.max) > d.querySelectorAll("input:checked").length);
      section.open = false;
      if (next) { next.open = true; next.scrollIntoView({ block: "start", behavior: "instant" }); }
    });
    update(grid);
  }
  // Cards counted by a tap each: a field of gems per card ("3 2") gets a button per kind of card and one to take
  // the last back (a phone's number pad has no space, and a tap is quicker than typing).
  for (const field of page.querySelectorAll("input[data-cards]")) {
    if (field.dataset.tapped) continue;
    field.dataset.tapped = "1";
    const row = document.createElement("span");
    row.className = "taps";
    const put = (text) => { field.value = text; field.dispatchEvent(new Event("input", { bubbles: true })); };
    for (const n of field.dataset.cards.split(" ")) {
      const add = Object.assign(document.createElement("button"), { type: "button", textContent: `+${n}` });
      add.setAttribute("aria-label", `${field.getAttribute("aria-label")}: ${n}`);
      add.addEventListener("click", () => put(`${field.value} ${n}`.trim()));
      row.append(add);
    }
    const back = Object.assign(document.createElement("button"), { type: "button", textContent: "⌫", className: "light" });
    back.setAttribute("aria-label", field.dataset.take);
    back.addEventListener("click", () => put(field.value.trim().split(/[\s,;]+/).slice(0, -1).join(" ")));
    const entry = document.createElement("span");
    entry.className = "entry";
    field.replaceWith(entry);
    entry.append(field, back);
    entry.after(row);
  }
  rememberNames(page);
  localTimes(page);
  for (const form of page.querySelectorAll("form[data-live]")) live(form);
  // Copy buttons (shareable setup links).
  for (const button of page.querySelectorAll("[data-copy]")) {
    button.hidden = !navigator.clipboard;
    button.addEventListener("click", () => navigator.clipboard.writeText(button.dataset.copy));
  }
}
window.companionEnhance = enhance;

// --- Live totals: a scoring form's answer is redrawn as cards are tapped or numbers change, by the same page
// the Score button would bring (the server's, or on a static site the phone's own Python: window.companionPage),
// so the words and the rule links are the page's own. Problems wait for the button: a half-filled form is no
// error. The sticky bar under the form says who leads, for a thumb far down the cards. ---
const pageFor = async (form, query) => {
  if (window.companionPage) return window.companionPage(query);
  if (root.dataset.static) return null;  // a static page before its Python is up: the Score button will do
  const r = await fetch(`${new URL(form.action, location.href).pathname}?${query}`,
                        { credentials: "same-origin", headers: { Accept: "text/html" } });
  return r.ok || r.status === 400 ? r.text() : null;
};
function live(form) {
  if (form.dataset.liveOn) return;
  form.dataset.liveOn = "1";
  const bar = form.querySelector(".go");
  let said = bar && bar.querySelector("output.live");
  if (bar && !said) {
    said = document.createElement("output");
    said.className = "live";
    said.setAttribute("aria-live", "polite");
    bar.prepend(said);
  }
  const summary = (result) => {  // the answer's first line, without its rule link
    const line = result?.querySelector(".winner")?.cloneNode(true);
    line?.querySelectorAll(".why").forEach((a) => a.remove());
    return (line?.textContent || "").replace(/\s+/g, " ").trim();
  };
  if (said) said.textContent = summary(document.getElementById("result"));
  let timer = null;
  let asked = 0;
  const redraw = async () => {
    const started = performance.now();
    const mine = ++asked;
    const query = new URLSearchParams([...new FormData(form)].filter(([, v]) => typeof v === "string")).toString();
    let html = null;
    try { html = await pageFor(form, query); } catch {}
    if (html === null || mine !== asked) return;  // offline, or a newer change is on its way
    const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("result");
    const old = document.getElementById("result");
    if (fresh) { fresh.classList.add("live-result"); if (old) old.replaceWith(fresh); else form.before(fresh); }
    else if (old) old.remove();
    document.querySelector("main > .problems")?.remove();
    if (said) said.textContent = summary(fresh);
    history.replaceState(history.state, "", `${location.pathname}?${query}`);
    root.dataset.liveIn = String(Math.round(performance.now() - started));
    root.dataset.live = String(Number(root.dataset.live || 0) + 1);
  };
  const soon = () => { clearTimeout(timer); timer = setTimeout(redraw, 120); };
  form.addEventListener("change", soon);
  form.addEventListener("input", (event) => { if (event.target.type !== "checkbox" && event.target.type !== "radio") soon(); });
}

// The bar's light / dark switch: the choice is kept on this phone (theme.js applies it before drawing).
document.addEventListener("DOMContentLoaded", () => {
  const button = document.querySelector("[data-theme-switch]");
  if (!button) return;
  const root = document.documentElement;
  const now = () => root.dataset.theme || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  const show = () => button.setAttribute("aria-pressed", String(now() === "dark"));
  button.hidden = false;
  show();
  button.addEventListener("click", () => {
    root.dataset.theme = now() === "dark" ? "light" : "dark";
    try { localStorage.setItem("companion-theme", root.dataset.theme); } catch {}
    show();
  });
});

// Stored times are UTC; each phone shows them in its own time zone, in the page's language.
const TIME_STYLES = { time: { hour: "2-digit", minute: "2-digit" }, date: { dateStyle: "medium" },
                      datetime: { dateStyle: "medium", timeStyle: "short" } };
function localTimes(root) {
  for (const el of root.querySelectorAll("time[data-local]")) {
    const when = new Date(el.dateTime);
    if (isNaN(when)) continue;
    try { el.textContent = when.toLocaleString(document.documentElement.lang || undefined, TIME_STYLES[el.dataset.local] || TIME_STYLES.time); }
    catch {}
  }
}

// --- The table remembers: names typed once on this phone fill every page's players, in seat order. ---
// A name field still showing its "Player k" takes the name kept for its seat; typing keeps it for the next page,
// and the page's headings and choices for that seat ("Hand of Ana", Who / Against) follow as it is typed.
const NAMES_KEY = "companion-names";
function keptNames() {
  try { const names = JSON.parse(localStorage.getItem(NAMES_KEY) || "[]"); return Array.isArray(names) ? names : []; }
  catch { return []; }
}
function rememberNames(page) {
  const fields = [...page.querySelectorAll("input[data-name-of]")];
  const shown = (seat, name) => {
    for (const el of page.querySelectorAll(`[data-seat="${seat}"]`)) el.textContent = name;
    for (const option of page.querySelectorAll(`option[value="#${seat}"]`)) option.textContent = name;
  };
  const kept = keptNames();
  for (const field of fields) {
    const seat = Number(field.dataset.nameOf);
    const name = kept[seat];
    if (field.value === field.dataset.default && typeof name === "string" && name.trim()) {
      field.value = name.slice(0, 40);
      shown(seat, field.value);
    }
    field.addEventListener("input", () => {
      const typed = field.value.trim();
      shown(seat, typed || field.dataset.default);
      const names = keptNames();
      while (names.length < seat) names.push("");
      names[seat] = typed;
      try { localStorage.setItem(NAMES_KEY, JSON.stringify(names.slice(0, 12))); } catch {}
    });
  }
}
document.addEventListener("DOMContentLoaded", () => enhance(document));

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
  // (keeping the query: a shared setup's seed, a scoring page's form)
  if (other && wanted !== root.lang) location.replace(other.href.split("?")[0] + location.search + location.hash);
}

// --- Saved sheets: entries are kept on the phone first, then sent; other phones' changes appear by themselves. ---
// An entry leaves the queue only on the server's own JSON answer (the X-Companion header every answer of the app
// carries, and a JSON body): written (the answer names its client_id: 201, or 200 for a replay), or refused for
// good (400 but a stale form token, 403, 404, 409, 413). A refused entry moves to a second list that the sheet
// shows, to copy, try again or remove. Anything else keeps it for the next try: no network, 5xx, a proxy's 408 or
// 429, a captive portal's page or redirect, any answer that is not the server's.
const QUEUE_KEY = "companion-queue";
const REFUSED_KEY = "companion-refused";
const REFUSED_FOR_GOOD = new Set([400, 403, 404, 409, 413]);
const readList = (key) => {
  try { const list = JSON.parse(localStorage.getItem(key) || "[]"); return Array.isArray(list) ? list : []; }
  catch { return []; }
};
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
  if (!live) return;
  const r = await fetch(location.pathname + location.search,  // the page of entries being looked at
                        { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (!r.ok) return;
  const fresh = new DOMParser().parseFromString(await r.text(), "text/html").getElementById("live");
  if (fresh) { live.replaceWith(fresh); localTimes(fresh); }
}

document.addEventListener("DOMContentLoaded", () => {
  for (const form of document.querySelectorAll("form[data-queue]")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const fields = Object.fromEntries(new FormData(form));
      fields.client_id = newId();
      writeQueue([...readQueue(), { action: form.action, fields, shown: entryShown(form, fields) }]);  // kept first
      const outcome = await flushQueue(fields.client_id);
      if (outcome === "written" && form.dataset.after) { location.href = form.dataset.after; return; }
      if (outcome === "refused") document.getElementById("refused")?.scrollIntoView({ block: "nearest" });
      for (const input of form.querySelectorAll("input[type=number], input[name=note]")) input.value = "";
      await refreshSheet().catch(() => {});
    });
  }
  showQueue();
  showRefused();
  document.getElementById("refused")?.addEventListener("click", onRefused);
  window.addEventListener("storage", () => { showQueue(); showRefused(); });  // another tab of the companion

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
