// A static site's computing pages (scoring, setup, solo): the phone's own Python draws them. The form and links
// work at once; the page's Python (Pyodide, in a Web Worker) starts when such a page opens, with a progress bar
// the first time, and then draws the page for its form exactly as the server would (companion.web.site.browser.page).
"use strict";
(() => {
  const root = document.documentElement;
  if (root.dataset.leaving) return;  // theme.js is opening this page in the phone's language
  const config = JSON.parse(document.getElementById("companion-python").textContent);
  const here = location.pathname;
  const SHEETS = config.endpoint === "phone_sheets.index";
  const SCORING = config.endpoint === "scoring.score";
  const main = document.querySelector("main");
  const status = document.createElement("div");
  status.className = "python-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  main.before(status);

  let seen = false;
  try { seen = localStorage.getItem("companion-python") === "ready"; } catch {}
  const bar = document.createElement("progress");
  const words = document.createElement("span");
  status.append(words, bar);
  words.textContent = config.words.ready;
  bar.hidden = seen;

  const early = window.companionWorker;  // (started by theme.js in the head, with what it said since)
  const worker = early?.worker ?? new Worker(config.worker, { type: "module" });
  const waiting = new Map();
  let next = 0;
  let ready = false;
  // Taps that need this phone's Python, made before it is up (a first visit's download; an offline reload's
  // restore, the page from the phone's copy being there at once): kept in order, said, and done once it is up.
  const keptTaps = [];
  function once(act) {
    if (ready) return act();
    keptTaps.push(act);
    keptSaid();
  }
  function keptSaid() {
    if (ready || status.dataset.reason) return;  // (a failure said stays said)
    words.textContent = config.words.kept;
    status.dataset.kept = "";  // (in sight wherever the tap was: companion.css)
  }
  // A photo chosen before this phone's Python is up is read once it is (companion.js waits on this).
  let photoReady;
  window.companionPhotoReady = new Promise((resolve, reject) => { photoReady = { resolve, reject }; });
  window.companionPhotoReady.catch(() => {});  // (a start that failed is said on the page; the photo says its own)

  // Hex from the phone's own randomness: a seed (4 bytes, as the server's) or a sheet's id (8).
  function randomId(bytes = 8) {
    return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  function ask(call, args) {
    const id = ++next;
    worker.postMessage({ id, call, args: { lang: config.lang, ...args } });  // (refusals are said in the page's language)
    return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
  }

  worker.onmessage = ({ data }) => {
    if ("progress" in data) {
      if (!seen && !status.dataset.reason) {  // (a failure said stays said, and a tap kept: the bar goes on)
        const mb = data.transfer_mb[config.lang] ?? Math.max(...Object.values(data.transfer_mb));
        const said = config.words.download.replace("%(mb)s", mb.toLocaleString(config.lang, { maximumFractionDigits: 1 }));
        if (!("kept" in status.dataset)) words.textContent = said;
        bar.max = data.total;
        bar.value = data.progress;
      }
      return;
    }
    if ("snapshot" in data) {  // (the next start restores this Python's memory: see worker.js)
      root.dataset.pythonSnapshot = String(data.snapshot);
      return;
    }
    if ("ready" in data) {
      if (!data.ready) return failed(data.failure, true);
      ready = true;
      status.hidden = true;
      delete status.dataset.kept;
      // live totals (companion.js) ask this phone's Python for the page, as the Score button does
      window.companionPage = async (query) => {
        const answer = await askPage(query);
        return answer.error ? null : answer.result.html;
      };
      // a photo of the cards (companion.js reads its codes with zxing-wasm in the page) fills the form here
      window.companionPhoto = { zxing: data.zxing, drawn: () => drawing,
                                fill: (args) => ask("photo_fill", { ...args, lang: config.lang }) };
      photoReady.resolve(window.companionPhoto);
      try { localStorage.setItem("companion-python", "ready"); } catch {}
      // The site's service worker keeps the runtime now (this first visit's downloads did not pass through it).
      navigator.serviceWorker?.ready.then((r) => r.active?.postMessage({ keep: data.files })).catch(() => {});
      root.dataset.pythonFiles = JSON.stringify(data.files || []);  // (what the service worker is asked to keep)
      root.dataset.pythonReady = String(data.ms);
      root.dataset.pythonReadyAt = String(Math.round(performance.now()));  // (ms since the page was asked for)
      root.dataset.pythonPhases = JSON.stringify(data.phases || {});
      const query = location.search.slice(1);
      const touched = main.querySelector("form[data-live][data-touched]");
      const filled = [...main.querySelectorAll("form[data-touched]:not([data-live])")].find(ownForm);
      if (keptTaps.length) doKept();  // (each draws the page)
      else if (touched) {  // taps made while Python started: their answer now, by the live form (the page stays as tapped)
        touched.dispatchEvent(new Event("change", { bubbles: true }));
        keepSite();
      } else if (SHEETS) showSheets();  // (what was typed meanwhile is put back: draw)
      else if (filled) {  // a form changed while Python started (a setup's count): drawn, and addressed, so
        const asked = asItStands(filled);
        history.replaceState(null, "", `${here}?${asked}`);
        show(asked);
      }
      else if (query || config.endpoint === "setup.setup") show(query);
      else ask("page", { endpoint: config.endpoint, values: config.values, lang: config.lang, fields: [] })
        .catch(() => {}).finally(keepSite);  // the templates compiled now, so the first answer is as quick as the next
      return;
    }
    const pending = waiting.get(data.id);
    waiting.delete(data.id);
    if (pending) ("answer" in data ? pending.resolve(data.answer) : pending.reject(new Error(data.failure)));
  };
  worker.onerror = (event) => failed(event.message || "the worker did not load", true);
  // what it said before this script ran, once all of this script is set up (and before anything it says next)
  queueMicrotask(() => {
    for (const event of early?.held.splice(0) ?? []) (event.type === "error" ? worker.onerror : worker.onmessage)(event);
  });

  // The site's service worker, registered once this page has answered (or failed): at a first visit, keeping the
  // site's pages would take the processor from Python while it starts.
  let keeping = false;
  function keepSite() {
    if (keeping || !config.service_worker || !("serviceWorker" in navigator) || !window.isSecureContext) return;
    keeping = true;
    navigator.serviceWorker.register(config.service_worker.url, { scope: config.service_worker.scope })
      .catch(() => {});
  }

  async function doKept() {
    for (const act of keptTaps.splice(0)) {
      try { await act(); } catch (e) { failed(e.message); }
    }
    keepSite();
  }

  // Said in plain words: a runtime that did not arrive (no connection at a first visit, a host that lost a file)
  // says so and what to do; a refusal from the rules names its problem. (The technical reason: data-reason.)
  function failed(reason, unloaded = false) {
    keepSite();
    if (unloaded) photoReady.reject(new Error(String(reason)));
    status.hidden = false;
    bar.hidden = true;
    status.dataset.reason = String(reason);
    words.textContent = navigator.onLine === false ? config.words.offline
      : unloaded ? config.words.unloaded : `${config.words.failed} ${reason}`;
  }

  function pairs(query) {
    return [...new URLSearchParams(query)].filter(([name]) => name !== "lang");
  }
  const fieldsOf = (form, submitter) => [...new FormData(form, submitter)].filter(([, v]) => typeof v === "string");
  // This page's own form (drawn here when sent), and the query it sends as it stands, with what the address says
  // beside it (a setup's seed: the deal of the link opened).
  const ownForm = (form) => new URL(form.action, location.href).pathname === here && form.method.toLowerCase() === "get";
  function asItStands(form) {
    const fields = fieldsOf(form);
    const besides = pairs(location.search).filter(([name]) => !fields.some(([own]) => own === name));
    return new URLSearchParams([...fields, ...besides]).toString();
  }

  // A scoring page opened from a sheet kept on this phone (`_sheet`: its id) saves its answers there for as long as
  // this tab is open (as the server's session does), whatever the form sends next: the page asks with `_sheet`.
  const SAVING = "companion-saving-to";
  if (SCORING) {
    const id = new URLSearchParams(location.search).get("_sheet");
    try {
      if (id) sessionStorage.setItem(SAVING, JSON.stringify({ game: config.values.game, id }));
    } catch {}
  }
  function savingTo(kept) {
    try {
      const to = JSON.parse(sessionStorage.getItem(SAVING) || "null");
      return to && to.game === config.values.game && kept[to.id] ? to.id : null;
    } catch { return null; }
  }
  // The page for a form (saving to the sheet this tab saves to, if any), with the players of the kept sheet it
  // saves to (its save box lets them choose seats). The phone's sheets are read once for both.
  function askPage(query) {
    let fields = pairs(query);
    const kept = SCORING ? keptSheets() : {};
    const to = SCORING ? savingTo(kept) : null;
    if (to && !fields.some(([name]) => name === "_sheet")) fields = [...fields, ["_sheet", to]];
    const id = fields.find(([name]) => name === "_sheet")?.[1];
    const players = id ? kept[id]?.sheet?.players : null;
    return ask("page", { endpoint: config.endpoint, values: config.values, lang: config.lang, fields,
                         sheet_players: Array.isArray(players) ? players : [] });
  }

  // A setup opened without a seed gets one first, so its link deals the same game on another phone.
  function seeded(query) {
    if (config.endpoint !== "setup.setup" || new URLSearchParams(query).get("seed")) return query;
    const params = new URLSearchParams(query);
    params.set("seed", randomId(4));
    history.replaceState(null, "", `${here}?${params}`);
    return params.toString();
  }

  let drawing = Promise.resolve();  // the page being drawn for its address (a photo reads the form once it is)
  async function show(query, scroll = false) {
    if (!ready) return once(() => show(query, scroll));
    let drawn;
    drawing = new Promise((resolve) => { drawn = resolve; });
    // (a link of the answer tapped meanwhile waits for it: companion.js; the answer it replaces is dimmed)
    window.companionOnItsWay?.(drawing);
    document.getElementById("result")?.classList.add("stale");
    try {
      query = seeded(query);
      const started = performance.now();
      let answer;
      try {
        answer = await askPage(query);
      } catch (e) {
        return failed(e.message);
      }
      if (answer.error) return failed(answer.error);
      draw(answer.result, started);
      if (scroll) (document.getElementById("result") || main).scrollIntoView({ block: "start" });
    } finally {
      drawn();
    }
  }

  function draw(result, started) {
    const drawn = new DOMParser().parseFromString(result.html, "text/html");
    const typed = [...main.querySelectorAll("form[data-touched]")].map((form) => [formKey(form), fieldsOf(form)]);
    main.replaceChildren(...drawn.querySelector("main").childNodes);
    for (const [key, fields] of typed) putBack(main.querySelector(`form${key}`), fields);
    document.title = drawn.title;
    for (const link of document.querySelectorAll(".langs a[hreflang]")) {
      const other = drawn.querySelector(`.langs a[hreflang="${link.hreflang}"]`);
      if (other) link.href = other.getAttribute("href");
    }
    window.companionEnhance?.(main);
    fresh();
    root.dataset.drawnIn = String(Math.round(performance.now() - started));
    root.dataset.drawnAt = String(Math.round(performance.now()));  // (ms since the page was asked for)
    root.dataset.drawnStatus = String(result.status);
    root.dataset.drawn = String(Number(root.dataset.drawn || 0) + 1);
    keepSite();
  }

  // What was typed into the page as sent before its Python drew it anew (a form touched while Python started) is put
  // back into the same form drawn: a name typed meanwhile is not lost.
  const formKey = (form) => (form.dataset.phone ? `[data-phone="${form.dataset.phone}"]`
    : `[action="${form.getAttribute("action")}"]`);
  function putBack(form, fields) {
    if (!form) return;
    const seen = {};
    for (const field of form.elements) {
      if (!field.name || ["hidden", "file", "submit", "button"].includes(field.type)) continue;
      const values = fields.filter(([name]) => name === field.name).map(([, v]) => v);
      const value = values[seen[field.name] = (seen[field.name] ?? -1) + 1];
      if (field.type === "checkbox" || field.type === "radio") field.checked = values.includes(field.value);
      else if (value === undefined || field.tagName === "FIELDSET") continue;
      else if (field.tagName !== "SELECT" || [...field.options].some((option) => option.value === value)) field.value = value;
    }
  }

  function go(query) {
    history.pushState(null, "", query ? `${here}?${query}` : here);
    show(query, true);
  }

  // A dice seed baked into the frozen page would roll the same dice for everyone: each phone gets its own.
  function fresh() {
    for (const input of main.querySelectorAll("input[data-fresh-seed]")) input.value = randomId(4);
  }
  fresh();

  // A form changed before Python is ready: a live form's answer is asked for as soon as it is, another's typing is
  // kept when the page is drawn (no tap is lost). (A photo chosen meanwhile changes no field: it waits for Python and
  // fills the form as drawn.)
  for (const kind of ["input", "change"]) {
    main.addEventListener(kind, ({ target }) => {
      if (ready || !target.form || target.type === "file") return;
      target.form.dataset.touched = "1";
      if ("live" in target.form.dataset) keptSaid();
    });
  }

  // This page's own forms and links are drawn here, not fetched: the static host would send the empty form back.
  main.addEventListener("submit", (event) => {
    const form = event.target;
    if (SHEETS || !ownForm(form)) return;
    event.preventDefault();
    go(new URLSearchParams(fieldsOf(form, event.submitter)).toString());
  });
  main.addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    if (SHEETS && link && new URL(link.href, location.href).pathname === here) {
      event.preventDefault();  // a sheet of this phone, or the list: drawn here
      history.pushState(null, "", link.href);
      return showSheets();
    }
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || url.pathname !== here || url.hash) return;
    event.preventDefault();
    go(url.search.slice(1));
  });
  window.addEventListener("popstate", () => (SHEETS ? showSheets() : show(location.search.slice(1))));

  // --- Sheets kept on this phone: its storage holds each sheet and its log; every change is made by the same
  // sheet rules as the server's, in the phone's Python, and the sheet exports in the server's format. ---
  const KEY = "companion-phone-sheets";
  function keptSheets() {
    try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
  }
  function keep(all) { localStorage.setItem(KEY, JSON.stringify(all)); }
  const opened = () => new URLSearchParams(location.search).get("id");

  async function showSheets(problems = []) {
    if (!ready) return once(() => showSheets(problems));
    const started = performance.now();
    const all = keptSheets();
    const kept = Object.entries(all).map(([id, k]) => ({ id, sheet: k.sheet, log: k.log }));
    let answer;
    try {
      answer = await ask("phone_sheets", { lang: config.lang, kept, open: opened(), problems });
    } catch (e) {
      return failed(e.message);
    }
    if (answer.error) return failed(answer.error);
    draw(answer.result, started);
  }

  function refused(answer) {
    return answer.problems && answer.problems.length ? answer.problems : [answer.error];
  }

  async function change(action, data, target) {
    const all = keptSheets();
    const id = opened();
    const k = all[id];
    if (!k) return showSheets();
    const answer = await ask("sheet_change", { sheet: k.sheet, log: k.log, action, target, data });
    if (answer.error) return showSheets(refused(answer));
    all[id] = { sheet: answer.result.sheet, log: answer.result.log };
    keep(all);
    return showSheets();
  }

  if (SHEETS) {
    // (what a form says is read at the tap: the page may be drawn anew before Python does it)
    main.addEventListener("submit", (event) => {
      const form = event.target.closest("form[data-phone]");
      if (!form) return;
      event.preventDefault();
      const kind = form.dataset.phone, data = new FormData(form);
      const points = {};  // (an entry's points: by player)
      for (const input of form.querySelectorAll("input[data-player]")) {
        const typed = input.value.trim();
        points[input.dataset.player] = typed === "" ? 0 : (/^[+-]?\d{1,9}$/.test(typed) ? Number(typed) : typed);
      }
      once(() => sent(kind, data, points));
    });
    async function sent(kind, data, points) {
      if (kind === "new") {
        const names = [...data].filter(([name]) => /^players\.\d+$/.test(name)).map(([, v]) => String(v).trim());
        const sheet = { game: data.get("game"), players: names.filter(Boolean) };
        if (String(data.get("title") || "").trim()) sheet.title = data.get("title");
        const answer = await ask("sheet_new", { sheet });
        if (answer.error) return showSheets(refused(answer));
        return made(answer.result);
      }
      if (kind === "import") {
        const file = data.get("file");
        const text = file && file.size ? await file.text() : "";
        const answer = await ask("sheet_import", { text });
        if (answer.error) return showSheets(refused(answer));
        return made(answer.result);
      }
      if (kind === "add") {
        const entry = { points, client_id: randomId() };
        if (String(data.get("note") || "").trim()) entry.note = data.get("note");
        return change("add", entry);
      }
    }
    main.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-phone]");
      if (!button) return;
      if (button.dataset.confirm && !confirm(button.dataset.confirm)) return;
      once(() => pressed(button));
    });
    async function pressed(button) {
      const kind = button.dataset.phone;
      if (kind === "change") {
        const base = button.dataset.base ? Number(button.dataset.base) : undefined;
        return change(button.dataset.action, base === undefined ? {} : { base },
                      button.dataset.target ? Number(button.dataset.target) : undefined);
      }
      if (kind === "delete") {
        const all = keptSheets();
        delete all[button.dataset.id || opened()];
        keep(all);
        history.pushState(null, "", here);
        return showSheets();
      }
      if (kind === "export") {
        const k = keptSheets()[opened()];
        const answer = await ask("sheet_export", { sheet: k.sheet, log: k.log });
        if (answer.error) return showSheets(refused(answer));
        const blob = new Blob([JSON.stringify(answer.result, null, 1)], { type: "application/json" });
        const link = document.createElement("a");
        link.href = URL.createObjectURL(blob);
        link.download = `${(k.sheet.title || k.sheet.game).replace(/[^\p{L}\p{N}_-]+/gu, "-")}-${k.sheet.updated.slice(0, 10)}.json`;
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 1000);
      }
    }
  }

  // The answer saved into the sheet kept on this phone, by the same sheet rules as a typed entry; then the sheet.
  // What is saved is the answer to the form as it is at the tap: the live answer still on its way is waited for
  // (the box it draws anew is the one saved), and a form still being filled in is answered as it stands.
  if (SCORING) {
    let saving = false;  // (a double tap saves once)
    main.addEventListener("click", (event) => {
      const tapped = event.target.closest("button[data-phone-save-request]");
      if (!tapped || tapped.disabled || saving) return;
      saving = true;
      once(save);
    });
    async function save() {
      const waited = performance.now();
      await window.companionAnswered({ asItStands: true });
      root.dataset.saveWaited = String(Math.round(performance.now() - waited));  // (ms: what the tap waited for)
      const box = main.querySelector("[data-phone-save]");
      const button = box?.querySelector("button[data-phone-save-request]");
      const all = keptSheets();
      const k = box && all[box.dataset.phoneSave];
      saving = Boolean(button && k);
      if (!saving) return;  // nothing to save as the form stands (refused: said beside its fields)
      button.disabled = true;
      const data = { request: JSON.parse(button.dataset.phoneSaveRequest), client_id: randomId() };
      const seats = [...box.querySelectorAll("select[name^='seats.']")].map((select) => select.value);
      if (seats.length) data.seats = seats;  // (who sat where, as chosen)
      const edit = button.dataset.edit ? Number(button.dataset.edit) : undefined;  // (correcting that entry)
      if (edit !== undefined && button.dataset.base) data.base = Number(button.dataset.base);
      const answer = await ask("sheet_change", { sheet: k.sheet, log: k.log, action: edit === undefined ? "add" : "edit",
                                                 target: edit, data });
      if (answer.error) {
        const said = box.querySelector("[data-phone-save-problems]");
        said.querySelector("ul").replaceChildren(...refused(answer).map((text) => {
          const item = document.createElement("li");
          item.textContent = text;
          return item;
        }));
        said.hidden = false;
        button.disabled = false;
        saving = false;
        return;
      }
      all[box.dataset.phoneSave] = { sheet: answer.result.sheet, log: answer.result.log };
      keep(all);
      location.href = button.dataset.after;
    }
    // the box follows the live answer: what it saves is what the page shows
    document.addEventListener("companion:redrawn", (event) => {
      const fresh = event.detail.querySelector("[data-phone-save]");
      const old = main.querySelector("[data-phone-save]");
      if (fresh && old) window.companionReplaceKeepingChoices(old, fresh);  // (seats chosen stay chosen)
    });
  }

  function made(state) {
    const all = keptSheets();
    const id = randomId();
    all[id] = { sheet: state.sheet, log: state.log };
    keep(all);
    history.pushState(null, "", `${here}?id=${id}`);
    return showSheets();
  }
})();
