// Progressive help for the score forms; every page also works without it.
"use strict";
// A list kept in the phone's storage (names, entries waiting to be sent…); a missing or damaged one is empty.
const readList = (key) => {
  try { const list = JSON.parse(localStorage.getItem(key) || "[]"); return Array.isArray(list) ? list : []; }
  catch { return []; }
};
const QUEUE_KEY = "companion-queue";  // saved-sheet entries kept on this phone until sent (sheets.js)
// --- Card pickers by the keys (issue 46): a grid of cards (a hand's pickers, a group of chips to tick; the players'
// counts too) is one stop
// of Tab (the card last chosen or focused); the arrows move through it as it is laid out (up and down by a row; a
// one-card pick chooses as it moves, as a radio group does), Home and End to its ends, and a card's number typed
// (5, or 1 then 8) goes to that card; Space takes or leaves a card of a hand. ---
const cardKeys = (() => {
  let keyAt = -1e9, pointerAt = -1e9, typed = "", typedAt = 0;
  addEventListener("keydown", (e) => { keyAt = e.timeStamp; }, true);
  addEventListener("pointerdown", (e) => { pointerAt = e.timeStamp; }, true);
  const boxes = (grid) => [...grid.querySelectorAll(grid.matches(".seats") ? "button" : "input[type=checkbox], input[type=radio]")];
  const top = (box) => (box.closest("label") || box).getBoundingClientRect().top;
  const columns = (list) => Math.max(1, list.filter((b) => Math.abs(top(b) - top(list[0])) < 2).length);
  const number = (box) => Number.parseInt(box.value.replace(/^\D+/, ""), 10);
  const rove = (grid, to) => {  // one box of the grid in the Tab order: `to`, else the focused, chosen or first
    const list = boxes(grid);
    const stop = to || list.find((b) => b === document.activeElement) || list.find((b) => b.checked)
      || list.find((b) => !b.disabled) || list[0];
    for (const b of list) b.tabIndex = b === stop ? 0 : -1;
  };
  const go = (grid, box) => {
    if (!box || box.disabled) return;
    rove(grid, box);
    box.focus();
    if (box.type === "radio" && !box.checked) box.click();  // (its change says it came from the keys: byKey)
  };
  const on = (grid) => {
    if (grid.dataset.keys) return;
    grid.dataset.keys = "1";
    rove(grid);
    grid.addEventListener("focusin", (e) => { if (boxes(grid).includes(e.target)) rove(grid, e.target); });
    grid.addEventListener("keydown", (e) => {
      const list = boxes(grid), at = list.indexOf(e.target);
      if (at < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
      const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns(list), ArrowUp: -columns(list) }[e.key];
      let to = null;
      if (step) {  // the next card that can be taken, that way
        for (let i = at + step; i >= 0 && i < list.length && !to; i += step) if (!list[i].disabled) to = list[i];
        to = to || list[at];
      } else if (e.key === "Home" || e.key === "End") {
        to = (e.key === "Home" ? list : [...list].reverse()).find((b) => !b.disabled);
      } else if (/^[0-9]$/.test(e.key)) {  // a card's number: its digits typed within a second
        typed = e.timeStamp - typedAt < 1000 ? typed + e.key : e.key;
        typedAt = e.timeStamp;
        to = list.find((b) => number(b) === Number(typed)) || list.find((b) => number(b) === Number(e.key));
        if (to && number(to) === Number(e.key)) typed = e.key;
      } else return;
      e.preventDefault();
      go(grid, to);
    });
  };
  return { on, rove: (grid) => rove(grid), byKey: () => keyAt > pointerAt };
})();

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
      for (const g of grids) cardKeys.rove(g);  // (a card taken here may be greyed in another grid)
      const section = grid.closest("details");
      // (a choice made with the keys keeps its section open and the focus on it: the player goes on with Tab)
      if (!full || !section || cardKeys.byKey()) return;
      const next = grids.slice(grids.indexOf(grid) + 1).map((g) => g.closest("details"))
        .find((d) => d && Number(d.querySelector(".cards").dataset.max) > d.querySelectorAll("input:checked").length);
      section.open = false;
      if (next) { next.open = true; next.scrollIntoView({ block: "start", behavior: "instant" }); }
    });
    update(grid);
    cardKeys.on(grid);
  }
  // a fieldset of chips to tick (several checkboxes of one name), and the players' counts
  for (const group of page.querySelectorAll("form fieldset, form .seats")) {
    const ticks = [...group.querySelectorAll("input[type=checkbox]")];
    if (group.matches(".seats") || (ticks.length > 1 && ticks.every((b) => b.name === ticks[0].name)
                                    && !group.querySelector("fieldset, [data-keys]"))) cardKeys.on(group);
  }
  // Cards counted by a tap each: a field of gems per card ("3 2") has a button per kind of card (`data-add`) and
  // one to take the last back (`data-take-back`), sent with the page (shown only with scripts on, so that nothing
  // shifts as it loads) and made to work here (a phone's number pad has no space, and a tap is quicker than typing).
  for (const field of page.querySelectorAll("input[data-cards]")) {
    if (field.dataset.tapped) continue;
    field.dataset.tapped = "1";
    const put = (text) => { field.value = text; field.dispatchEvent(new Event("input", { bubbles: true })); };
    const box = field.closest(".txt");  // the field's box: its label, the field, ⌫ and the +N
    // (taps for a thumb: the keys type the numbers in the field, so Tab goes from field to field)
    for (const b of box.querySelectorAll("button[data-add], button[data-take-back]")) b.tabIndex = -1;
    for (const add of box.querySelectorAll("button[data-add]")) {
      add.addEventListener("click", () => put(`${field.value} ${add.dataset.add}`.trim()));
    }
    box.querySelector("button[data-take-back]")?.addEventListener(
      "click", () => put(field.value.trim().split(/[\s,;]+/).slice(0, -1).join(" ")));
  }
  rememberNames(page);
  for (const form of page.querySelectorAll("form[data-setup]")) setupLinks(form);
  steppers(page);
  for (const form of page.querySelectorAll("form.form")) {  // a page sent back refused: each reason by its field
    for (const note of sayBeside(form, page.querySelector(".problems"), false)) note.closest("details")?.setAttribute("open", "");
  }
  for (const track of page.querySelectorAll("[data-track]")) slidingTrack(track);
  localTimes(page);
  for (const form of page.querySelectorAll("form[data-live]")) live(form);
  // A photo chosen on a field the phone's Python has meanwhile drawn anew (the picker was open while the page was
  // being drawn for its address): the change of a field no longer in the page reaches no document listener, so
  // the field hears it itself (photoChosen then puts it on the page as drawn).
  for (const field of page.querySelectorAll(".photo-scan input[type=file]")) {
    field.addEventListener("change", () => { if (!field.isConnected) photoChosen(field); });
  }
  // Copy buttons (shareable setup links).
  for (const button of page.querySelectorAll("[data-copy]")) {
    button.hidden = !navigator.clipboard;
    button.addEventListener("click", () => navigator.clipboard.writeText(button.dataset.copy));
  }
}
window.companionEnhance = enhance;

// --- What the rules refused, said beside the field it names (the problem's path, `data-path` on the page's list of
// problems, as the API's `field`): a field's own label, a stepper's box, or the smallest part of the form holding
// every field under the path (a radio row, a track's rows). Redrawn live: the notes of the form's last answer
// go. Returns the problems of no field of this form; at a page's load (`live` false), the notes placed. ---
function besideOf(form, path) {
  if (!path) return null;
  const fields = [...form.elements].filter((f) => f.name && f.type !== "hidden"
    && (f.name.split(":")[0] === path || f.name.startsWith(`${path}.`)));
  if (!fields.length) return null;
  if (fields.length === 1) return fields[0].closest(".num, label, div.txt") || fields[0];
  let at = fields[0].parentElement;
  while (at && !fields.every((f) => at.contains(f))) at = at.parentElement;
  return at && at !== form && form.contains(at) ? at : null;
}
function sayBeside(form, box, live = true) {
  if (live) for (const note of form.querySelectorAll(".said")) note.remove();
  const rest = [], placed = [];
  for (const item of box ? box.querySelectorAll("li") : []) {
    const text = item.textContent.trim();
    const at = besideOf(form, item.dataset.path);
    if (!at) { rest.push(item); continue; }
    if ([...form.querySelectorAll(".said")].some((s) => s.textContent.trim() === text)) continue;  // (drawn there)
    const note = Object.assign(document.createElement("small"), { className: "said", textContent: text });
    note.setAttribute("role", "alert");
    at.after(note);
    placed.push(note);
  }
  return live ? rest : placed;
}

// --- A track (`data-track`: rows of radio chips, each value once, the top row first): a value put in a row takes
// it and the values between slide one row, keeping their order, as tiles on a track are moved. A later track on the
// page that still showed this one's order follows it (each starts from the order the one before left); one changed
// since keeps its own. ---
const trackOrder = (track) => [...track.querySelectorAll(":scope > fieldset")]
  .map((row) => row.querySelector("input:checked")?.value ?? "");
function setTrack(track, order) {
  [...track.querySelectorAll(":scope > fieldset")].forEach((row, i) => {
    for (const chip of row.querySelectorAll("input")) chip.checked = chip.value === order[i];
  });
  track.dataset.order = JSON.stringify(order);
}
function slidingTrack(track) {
  if (track.dataset.order) return;
  track.dataset.order = JSON.stringify(trackOrder(track));
  track.addEventListener("change", (event) => {
    const rows = [...track.querySelectorAll(":scope > fieldset")];
    const i = rows.indexOf(event.target.closest("fieldset"));
    const before = JSON.parse(track.dataset.order);
    const value = event.target.value, from = before.indexOf(value);
    const after = [...before];
    if (i >= 0 && from >= 0 && from !== i) { after.splice(from, 1); after.splice(i, 0, value); }
    else after[i] = value;
    setTrack(track, after);
    const all = [...document.querySelectorAll("[data-track]")];
    for (const later of all.slice(all.indexOf(track) + 1)) {
      if (later.dataset.order !== JSON.stringify(before)) break;
      setTrack(later, after);
    }
  });
}

// --- Answers on their way: a live form's change (waiting for its pause, or for its page) and a page the phone's
// Python is drawing anew (site-python.js). A tap that carries the answer on the screen (a save to a sheet, a link of
// the answer) waits for them first (companionAnswered), so it carries the answer to every tap before it: a save
// right after the last "+" saved the answer from before that "+". ---
const onTheWay = new Set();  // each { done: settled once drawn, hurry: asks for it at once }
window.companionOnItsWay = (done, hurry = () => {}) => {
  const item = { done: Promise.resolve(done).catch(() => {}), hurry };
  onTheWay.add(item);
  item.done.then(() => onTheWay.delete(item));
};
const answeredAsItStands = new WeakMap();  // a live form → answers it as it stands if its answer was not asked for
// Settles once none is on its way (nor any set off meanwhile). `asItStands`: a live form still being filled in (its
// answer dimmed, not asked for) is answered as it stands, refused if need be, so nothing stale is left to carry.
window.companionAnswered = async ({ asItStands = false } = {}) => {
  while (onTheWay.size) {
    const now = [...onTheWay];
    for (const item of now) item.hurry();
    await Promise.all(now.map((item) => item.done));
  }
  if (!asItStands) return;
  for (const form of document.querySelectorAll("form[data-live]")) await answeredAsItStands.get(form)?.();
};
// A link of the answer (a setup's "open the scoring", its new sheet) tapped while an answer is on its way is followed
// as that answer draws it: it carries the deal on the screen, never the one before. (A link no longer drawn: none.)
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("#result a[href]");
  if (!link || !onTheWay.size || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey
      || event.shiftKey || event.altKey) return;
  event.preventDefault();
  const links = () => [...document.querySelectorAll("#result a[href]")];
  const at = links().indexOf(link), text = link.textContent.trim();
  window.companionAnswered().then(() => {
    const now = links();
    (now.find((a) => a.textContent.trim() === text) ?? now[at])?.click();
  });
});

// --- Live totals: a scoring form's answer is redrawn as cards are tapped or numbers change, by the same page
// the Score button would bring (the server's, or on a static site the phone's own Python: window.companionPage),
// so the words and the rule links are the page's own. A form still being filled in asks nothing (below); one the
// rules refuse loses its answer, and each reason is said beside its field. The sticky bar under the form says who leads, for a thumb far down the cards. ---
const pageFor = async (form, query) => {
  if (window.companionPage) return window.companionPage(query);
  if (root.dataset.static) return null;  // a static page before its Python is up: the Score button will do
  const r = await fetch(`${new URL(form.action, location.href).pathname}?${query}`,
                        { credentials: "same-origin", headers: { Accept: "text/html" } });
  return r.ok || r.status === 400 ? r.text() : null;
};
// A form still being filled in asks nothing (a set half tapped in is no request to refuse). A part of a form
// declares it (`data-needs`: the fields that must all be filled once it is in use): in use once any field in it is
// filled, or, with `data-needs-when` ("name=value ..."), once the form has one of those values.
const incomplete = (form, data) => [...form.querySelectorAll("[data-needs]")].some((part) => {
  const filled = (name) => data.getAll(name).some((v) => typeof v === "string" && v !== "");  // (a photo field: no)
  const when = part.dataset.needsWhen;
  const used = when ? when.split(" ").some((pair) => data.getAll(pair.split("=")[0]).includes(pair.split("=")[1]))
    : [...part.querySelectorAll("[name]")].some((field) => filled(field.name));
  return used && !part.dataset.needs.split(" ").every(filled);
});
function live(form) {
  if (form.dataset.liveOn) return;
  form.dataset.liveOn = "1";
  document.scrollingElement.style.overflowAnchor = "none";  // the redraw keeps the form in place itself (below)
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
  // a button that only asks for what the live answer already shows goes (Enter still sends the form)
  // (not on a static site, whose page may be sent before its Python is up)
  if (!root.dataset.static) for (const button of form.querySelectorAll("[data-not-live]")) button.hidden = true;
  let timer = null;
  let asked = 0;
  let unasked = false;  // the form's last change asked for no answer (still being filled in)
  const redraw = async (asItStands = false) => {
    const started = performance.now();
    const mine = ++asked;
    const data = new FormData(form);
    unasked = !asItStands && incomplete(form, data);
    if (unasked) {  // the answer shown is no longer the form's: dimmed until it is complete
      document.getElementById("result")?.classList.add("stale");
      delete root.dataset.livePending;
      return;
    }
    const query = new URLSearchParams([...data].filter(([, v]) => typeof v === "string")).toString();
    let html = null;
    try { html = await pageFor(form, query); } catch {}
    if (mine !== asked) return;  // a newer change is on its way
    if (!form.isConnected) return;  // the page was drawn anew meanwhile: this answer is of a form no longer there
    if (html === null) { delete root.dataset.livePending; return; }  // offline: the Score button will do
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.getElementById("result");
    // The answer above the form grows or shrinks (and a sheet's save box above it: sheets.js, site-python.js); the
    // form stays under the thumb: the page is scrolled by what moved it, and never gets shorter while it is being
    // filled in (a scroll near its end would be cut short).
    const top = form.getBoundingClientRect().top;
    const main = form.closest("main") || document.body;
    main.style.minHeight = `${main.offsetHeight}px`;
    form.dispatchEvent(new CustomEvent("companion:redrawn", { detail: doc, bubbles: true }));
    const old = document.getElementById("result");
    if (fresh) { fresh.classList.add("live-result"); if (old) old.replaceWith(fresh); else form.before(fresh); }
    else if (old) old.remove();  // refused (or no answer yet): no winner of a form that is no longer there
    // a part of the form the answer says (`data-live-part`, e.g. the table's checks under the players) as it says it
    for (const part of form.querySelectorAll("[data-live-part][id]")) {
      const told = doc.getElementById(part.id);
      if (told) part.replaceWith(document.importNode(told, true));
    }
    document.querySelector("main > .problems")?.remove();
    const unsaid = sayBeside(form, doc.querySelector(".problems"));
    if (unsaid.length) {  // a problem of no one field (the players' count…): said above the form, as the page does
      const box = doc.querySelector(".problems");
      box.querySelector("ul").replaceChildren(...unsaid);
      form.before(box);
    }
    const moved = form.getBoundingClientRect().top - top;
    if (moved) window.scrollBy(0, moved);
    // the game's end just reached (its last tap): the winner and the breakdown come into view, not the form
    const ended = (el) => el && !el.classList.contains("stale") && el.querySelector(".winner.final");
    if (ended(fresh) && !ended(old)) fresh.scrollIntoView({ block: "start" });
    if (said) said.textContent = fresh ? summary(fresh) : doc.querySelector(".problems li")?.textContent.trim() || "";
    history.replaceState(history.state, "", `${location.pathname}?${query}`);
    root.dataset.liveIn = String(Math.round(performance.now() - started));
    root.dataset.live = String(Number(root.dataset.live || 0) + 1);
    delete root.dataset.livePending;  // the answer shown is the form's as it is now
  };
  answeredAsItStands.set(form, () => (unasked && form.isConnected ? redraw(true) : null));
  // The form's changes are on their way (companionAnswered) until the answer to the last is drawn; a tap that needs
  // it cuts the pause short (the pause is for a thumb still tapping, not for one that taps Save).
  let running = 0;
  let settle = null;
  const answer = async () => {
    clearTimeout(timer);
    timer = null;
    running++;
    try { await redraw(); } finally {
      running--;
      if (timer === null && !running && settle) { settle(); settle = null; }
    }
  };
  // a change makes any answer still on its way stale: it would redraw the form's parts as they were before it
  const soon = () => {
    asked++;
    root.dataset.livePending = "1";
    clearTimeout(timer);
    timer = setTimeout(answer, 120);
    if (!settle) window.companionOnItsWay(new Promise((resolve) => { settle = resolve; }), () => { if (timer !== null) answer(); });
  };
  // (a photo field is no answer's input: its cards come into the form, and that change asks)
  form.addEventListener("change", (event) => { if (event.target.type !== "file") soon(); });
  form.addEventListener("input", (event) => { if (event.target.type !== "checkbox" && event.target.type !== "radio") soon(); });
}

// The bar's light / dark switch: the choice is kept on this phone (theme.js applies it before drawing).
document.addEventListener("DOMContentLoaded", () => {
  const button = document.querySelector("[data-theme-switch]");
  if (!button) return;
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
const TIME_STYLES = { time: { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }, date: { dateStyle: "medium" },
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
const keptNames = () => readList(NAMES_KEY);
function rememberNames(page) {
  for (const field of page.querySelectorAll("input[data-name-of]")) rememberName(page, field);
}
// What heads each seat (its hand, its row, its chip): its name, or where two players are named alike (which the
// rules refuse) the name with its seat, "Ana (Player 2)", so that each hand is still told apart (views.seat_heads).
function seatHeads(page) {
  const names = new Map();
  for (const field of page.querySelectorAll("input[data-name-of]")) {
    names.set(field.dataset.nameOf, [field.value.trim() || field.dataset.default, field.dataset.default]);
  }
  const alike = (name) => [...names.values()].filter(([other]) => other === name).length > 1;
  for (const [seat, [name, word]] of names) {
    const head = alike(name) ? `${name} (${word})` : name;
    for (const el of page.querySelectorAll(`[data-seat="${seat}"]`)) el.textContent = head;
    for (const option of page.querySelectorAll(`option[value="#${seat}"]`)) option.textContent = head;
  }
  nameSteppers(page);  // their buttons say whose number they move
}
function rememberName(page, field) {
  const shown = () => seatHeads(page);
  const seat = Number(field.dataset.nameOf);
  const name = keptNames()[seat];
  if (field.value === field.dataset.default && typeof name === "string" && name.trim()) {
    field.value = name.slice(0, 40);
    shown(seat, field.value);
  }
  // a seat's word ("Player 2") is replaced by what is typed, not added to: tapping in selects it
  field.addEventListener("focus", () => { if (field.value === field.dataset.default) field.select(); });
  field.addEventListener("input", () => {
    const typed = field.value.trim();
    shown(seat, typed || field.dataset.default);
    const names = keptNames();
    while (names.length < seat) names.push("");
    names[seat] = typed;
    try { localStorage.setItem(NAMES_KEY, JSON.stringify(names.slice(0, 12))); } catch {}
  });
}
document.addEventListener("DOMContentLoaded", () => enhance(document));

// --- A setup's player count: its name fields follow at once, each filled as this phone knows its seat (the form
// sent with another count brings the same fields). A field past the count goes; what was typed stays kept. ---
document.addEventListener("change", ({ target }) => {
  if (!target.matches?.("select[name=players]") || !target.form) return;
  const fields = [...target.form.querySelectorAll("input[name=_names][data-name-of]")];
  const want = Number(target.value);
  if (!fields.length || !(want > 0)) return;
  for (const field of fields.slice(want)) field.closest("label").remove();
  let last = fields[Math.min(want, fields.length) - 1].closest("label");
  for (let seat = fields.length; seat < want; seat++) {
    const label = last.cloneNode(true), field = label.querySelector("input"), span = label.querySelector("span");
    const numbered = (text) => text.replace(/\d+/, seat + 1);  // "Player 3" → "Player 4", "Jugador 4"
    span.textContent = numbered(span.textContent);
    field.value = field.dataset.default = numbered(field.dataset.default);
    field.dataset.nameOf = seat;
    last.after(label);
    last = label;
    rememberName(document, field);
  }
});
// A setup's links to the scoring page (its Play button and its tab) and to a new sheet carry the players the form
// shows (a count chosen or a name typed since the deal, a name this phone remembers), not those the deal was drawn
// with: the deal's own parts (its common card…) stay as dealt.
function setupLinks(form) {
  if (!form?.matches("form[data-setup]")) return;
  const count = form.querySelector("select[name=players]")?.value;
  const names = [...form.querySelectorAll("input[name=_names][data-name-of]")]
    .map((field) => field.value.trim() || field.dataset.default);
  const carried = (link, isName, named) => {
    const url = new URL(link.href, location.href);
    const pairs = [];
    for (const [key, value] of url.searchParams) {
      if (!isName(key)) pairs.push([key, key === "_n" && count ? count : value]);
      else if (!pairs.some(([k]) => isName(k))) pairs.push(...names.map(named));
    }
    url.search = new URLSearchParams(pairs).toString();
    link.setAttribute("href", url.pathname + url.search + url.hash);
  };
  for (const link of document.querySelectorAll("#result a[data-play], .tabs a[data-play]")) {
    carried(link, (key) => key === "_names", (name) => ["_names", name]);
  }
  for (const link of document.querySelectorAll("#result a[data-to-sheet]")) {
    carried(link, (key) => /^players\.\d+$/.test(key), (name, i) => [`players.${i}`, name]);
  }
}
// A setup dealt keeps its deal when sent again with a name corrected (its seed is in the form); sent again as it
// was, or with another count or option, it is a new deal: the seed is left out (the server, or the phone's Python,
// draws a fresh one). (Before any other listener: the static site's reads the form as it is sent.)
document.addEventListener("input", ({ target }) => {
  if (target.matches?.("form[data-setup] input[name=_names]")) target.form.dataset.renamed = "1";
});
document.addEventListener("submit", ({ target: form }) => {
  const seed = form?.matches?.("form[data-setup]") && form.querySelector("input[name=seed][data-dealt]");
  if (!seed) return;
  const now = [form.querySelector("select[name=players]")?.value,
    ...[...form.querySelectorAll("input[type=checkbox]:checked")].map((box) => `${box.name}=${box.value}`)];
  const corrected = now.join("&") === seed.dataset.dealt && form.dataset.renamed === "1";
  for (const kept of form.querySelectorAll("input[name=seed][data-dealt], input[data-dealt-part]")) {
    kept.disabled = !corrected;
  }
}, true);
// (after the count's own listener above: its name fields first)
for (const kind of ["input", "change"]) document.addEventListener(kind, ({ target }) => setupLinks(target.form));


// --- A photo of the cards on the table (.photo-scan): once taken it is sent with the form to the part it fills; the
// cards found are outlined on it, the form is filled as the answer says, and the live answer follows. On a static
// site (data-read-here) the page reads the codes itself and the phone's own Python fills the form, with the same
// answer as the server's. ---
document.addEventListener("change", ({ target }) => photoChosen(target));
async function photoChosen(target) {
  let box = target.closest?.(".photo-scan");
  if (!box || target.type !== "file" || !target.files?.length) return;
  let form = target.form;
  const send = box.querySelector("[data-photo-send]"), file = target.files[0];
  let said = box.querySelector("output");
  if (!said) box.append(said = Object.assign(document.createElement("output"), { role: "status" }));
  said.textContent = box.dataset.reading;
  root.dataset.photoPending = "1";
  // the phone's Python drew the page again meanwhile: what is said goes to its own field, the same one drawn anew
  const rehome = () => {
    if (box.isConnected || !twin(box)) return;
    const text = said.textContent;
    [box, form] = [twin(box), twin(box).closest("form")];
    box.querySelector("output")?.remove();
    box.append(said = Object.assign(document.createElement("output"), { role: "status", textContent: text }));
  };
  let answer = null;
  try {
    if ("readHere" in box.dataset) answer = await readHere(box, form, file, rehome);
    else {
      const data = new FormData(form);
      data.delete("_photo");
      data.append("_photo", file);
      data.set("_to", send.value);
      const response = await fetch(send.formAction, { method: "POST", body: data, headers: { Accept: "application/json" } });
      answer = await response.json();
      if (!response.ok) throw answer;
    }
  } catch (e) {
    rehome();
    said.textContent = e?.message || box.dataset.failed;
    delete root.dataset.photoPending;
    return;
  }
  target.value = "";  // the next photo adds to this one
  rehome();
  said.textContent = answer.said;
  await outline(box, file, answer);
  fill(form, new URLSearchParams(answer.query));
  delete root.dataset.photoPending;
}
document.addEventListener("DOMContentLoaded", () => {
  for (const send of document.querySelectorAll("[data-photo-send]")) send.hidden = true;  // a photo sends itself
});
// The codes in a photo read in this page with zxing-wasm (its reader, loaded at the first photo from where the
// phone's Python worker says: the site keeps it for offline use once loaded), each turned into the card it names;
// then the phone's Python fills the form with them (window.companionPhoto, from site-python.js).
let zxing = null;
async function readHere(box, form, file, rehome) {
  // (a photo chosen while the phone's Python starts is read once it is up; one that could not start says so)
  const photo = window.companionPhoto ?? await window.companionPhotoReady?.catch(() => null);
  if (!photo) throw new Error(box.dataset.failed);
  if (!zxing) {
    zxing = await import(photo.zxing.module);
    zxing.prepareZXingModule({ overrides: { locateFile: (name, prefix) => (name.endsWith(".wasm") ? photo.zxing.wasm : prefix + name) } });
    // The site's service worker keeps the reader (a photo at a first visit may come before it was there to see it).
    navigator.serviceWorker?.ready.then((r) => r.active?.postMessage({ keep: photo.zxing.files })).catch(() => {});
  }
  const bitmap = await createImageBitmap(file);  // (turned upright as the photo's EXIF says)
  const canvas = typeof OffscreenCanvas === "function" ? new OffscreenCanvas(bitmap.width, bitmap.height)
    : Object.assign(document.createElement("canvas"), { width: bitmap.width, height: bitmap.height });
  const draw = canvas.getContext("2d", { willReadFrequently: true });
  draw.drawImage(bitmap, 0, 0);
  const pixels = draw.getImageData(0, 0, bitmap.width, bitmap.height);
  const codes = await zxing.readBarcodes(pixels, { formats: ["QRCode"], tryHarder: true, maxNumberOfSymbols: 255 });
  const cards = [];
  for (const code of codes) {
    const id = cardId(code.text, box.dataset.game), at = code.position;
    if (code.isValid && id) {
      cards.push({ id, corners: [at.topLeft, at.topRight, at.bottomRight, at.bottomLeft].map(({ x, y }) => [x, y]) });
    }
  }
  await photo.drawn();  // (a page still being drawn for its address: its form is read as drawn)
  rehome();  // (its field says the photo is still being read)
  const fields = [...new FormData(box.isConnected ? form : twin(box)?.closest("form") ?? form)]
    .filter(([, v]) => typeof v === "string");
  const answer = await photo.fill({ game: box.dataset.game, fields: [...fields, ["_to", box.dataset.to]], cards,
                                    size: [bitmap.width, bitmap.height] });
  if (answer.error) throw new Error(`${box.dataset.failed} ${(answer.problems || [answer.error]).join(" ")}`);
  return answer.result;
}
// A static site's photo field as the page is now, when the phone's Python has drawn it again since `box` was used.
function twin(box) {
  if (!("readHere" in box.dataset)) return null;
  return [...document.querySelectorAll(".photo-scan[data-read-here]")].find((b) => b.dataset.to === box.dataset.to);
}
// The card a printed code names, if it is one of `game`'s (as companion/photo.py's card_id reads it): BASE/C/<ID>
// (any base), or the older BASE/C/<GAME>/<ID> and BASE/c/<game>/<id>; the id in capitals.
function cardId(text, game) {
  let url;
  try { url = new URL(text.trim()); } catch { return null; }
  if (!["http:", "https:"].includes(url.protocol.toLowerCase())) return null;
  let segments;
  try { segments = url.pathname.split("/").map(decodeURIComponent); } catch { return null; }
  const [a, b, c] = [segments.at(-3), segments.at(-2), segments.at(-1)];
  if (segments.length >= 3 && b === "C") return c.toUpperCase() || null;
  if (segments.length >= 4 && (a === "C" || a === "c") && b.toLowerCase() === game) return c.toUpperCase() || null;
  return null;
}
async function outline(box, file, answer) {
  let bitmap;
  try { bitmap = await createImageBitmap(file); } catch { return; }  // (a format this browser cannot show)
  const canvas = document.createElement("canvas"), scale = Math.min(1, 900 / bitmap.width);
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  const draw = canvas.getContext("2d");
  draw.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const [sx, sy] = [canvas.width / answer.size[0], canvas.height / answer.size[1]];
  draw.lineWidth = Math.max(4, canvas.width / 120);
  draw.font = `bold ${Math.max(18, canvas.width / 30)}px sans-serif`;
  for (const card of answer.cards) {  // added: green; found but not added: amber
    draw.strokeStyle = draw.fillStyle = card.added ? "#18a33a" : "#f0a000";
    draw.beginPath();
    card.corners.forEach(([x, y], k) => (k ? draw.lineTo : draw.moveTo).call(draw, x * sx, y * sy));
    draw.closePath();
    draw.stroke();
    const [x, y] = [card.corners[0][0] * sx, card.corners[0][1] * sy - 2 * draw.lineWidth];
    draw.save();
    draw.strokeStyle = "#000";  // the card's name on a dark edge: readable on any table
    draw.strokeText(card.id, x, y);
    draw.restore();
    draw.fillText(card.id, x, y);
  }
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", answer.said);
  const figure = box.querySelector("figure") || box.appendChild(document.createElement("figure"));
  figure.replaceChildren(canvas);
}
// A form set as a query says (a photo's answer): its boxes ticked, its fields filled, each change announced so that
// what follows changes (counts, the live answer); where the query names a field the form has not, the page is opened.
function fill(form, query) {
  if ([...query.keys()].some((name) => !name.startsWith("_") && !form.elements[name])) {
    location.assign(`${form.action}?${query}`);
    return;
  }
  const seen = {};
  for (const field of form.elements) {
    if (!field.name || ["file", "submit", "button"].includes(field.type) || field.tagName === "FIELDSET") continue;
    const values = query.getAll(field.name);
    const before = field.type === "checkbox" || field.type === "radio" ? field.checked : field.value;
    if (field.type === "checkbox" || field.type === "radio") field.checked = values.includes(field.value);
    else if (!field.name.startsWith("_") || values.length) field.value = values[seen[field.name] = (seen[field.name] ?? -1) + 1] ?? "";
    const after = field.type === "checkbox" || field.type === "radio" ? field.checked : field.value;
    if (after !== before) field.dispatchEvent(new Event("change", { bubbles: true }));
  }
}

// --- Offline: once visited, pages keep working without signal (service workers need localhost or https). ---
const root = document.documentElement;
if ("serviceWorker" in navigator && window.isSecureContext && root.dataset.sw) {
  navigator.serviceWorker.register(root.dataset.sw, { scope: root.dataset.swScope }).catch(() => {});
}

// --- A static site has one copy of each page per language: theme.js opens the phone's (or the chosen) one. ---
if (root.dataset.static) {
  for (const link of document.querySelectorAll(".langs a[hreflang]")) {
    link.addEventListener("click", () => {
      try { localStorage.setItem("companion-lang", link.hreflang); } catch {}
      // (and to the host, whose own files may serve the chosen language at any address: docs/hosting.md)
      document.cookie = `companion-lang=${link.hreflang}; path=/; max-age=31536000; SameSite=Lax`;
    });
  }
}

// --- Saved sheets' script (sheets.js) comes with the pages that show a sheet or save to one; any other page
// fetches it only while this phone still keeps entries to send (issue 15: they go as soon as a page is open). ---
if (root.dataset.sheetsJs && !document.querySelector("script[data-sheets]")) {
  if (readList(QUEUE_KEY).length) document.head.append(Object.assign(document.createElement("script"), { src: root.dataset.sheetsJs }));
}

// --- Folds of which one is open at a time (`details[name]`): the one a tap opens comes to the top of the screen,
// as the one before folds above it (the page's own first open fold stays where it is drawn). ---
addEventListener("load", () => document.addEventListener("toggle", (event) => {
  const fold = event.target;
  if (fold.matches?.("details[name]") && fold.open) fold.scrollIntoView({ block: "start", behavior: "instant" });
}, true));
// --- Parts of a live form redrawn with its answer (`data-live-part` with an id): a part that shows what the
// answer works out in the middle of the form, where the table says it (a strength announced between the dice and
// the cards), or rows that follow a choice made above them. A part holding the focus is left as it is: the player
// is in it. ---
document.addEventListener("companion:redrawn", (event) => {
  for (const part of event.target.querySelectorAll("[data-live-part][id]")) {
    const fresh = event.detail.getElementById(part.id);
    if (fresh && !part.contains(document.activeElement)) part.replaceWith(fresh);
  }
});
// A sheet's save box above the form drawn anew with the live answer (sheets.js, site-python.js): the seats the
// player chose in the old one stay chosen where the new one offers them.
window.companionReplaceKeepingChoices = (old, fresh) => {
  const chosen = new Map([...old.querySelectorAll("select")].map((select) => [select.name, select.value]));
  old.replaceWith(fresh);
  for (const select of fresh.querySelectorAll("select")) {
    if ([...select.options].some((option) => option.value === chosen.get(select.name))) {
      select.value = chosen.get(select.name);
    }
  }
};
// --- Steppers: a whole number with − and + (issue 13). Without this script they are plain number fields; here
// each gets a − and a +, named in the page's language from the form's words (data-less / data-more) and what the
// number is: its player (the nearest name shown for a seat, data-seat, followed as it is typed) and its label, or
// the box's own data-said. A tap moves the number one step within the field's min and max and says so as typing
// would (input and change: a live form redraws its answer). A button at its end is greyed. ---
function stepperWhat(box) {
  if (box.dataset.said) return box.dataset.said;
  const field = box.querySelector("input");
  let seat = null;
  for (let el = box.parentElement; el && !seat; el = el.parentElement) seat = el.querySelector(":scope > [data-seat]");
  const label = document.querySelector(`label[for="${field.id}"]`);
  return [seat?.textContent, label?.textContent].map((t) => (t || "").trim()).filter(Boolean).join(" · ");
}
function nameSteppers(page) {
  for (const box of page.querySelectorAll(".steps[data-step-on]")) {
    const what = stepperWhat(box);
    for (const b of box.querySelectorAll("button[data-step]")) b.setAttribute("aria-label", b.dataset.said.replace("{what}", what));
  }
}
function steppers(page) {
  for (const box of page.querySelectorAll(".steps")) {
    if (box.dataset.stepOn) continue;
    box.dataset.stepOn = "1";
    const field = box.querySelector("input");
    const label = box.parentElement.closest("label");
    if (label) {  // the field leaves its label (whose name would take the buttons' in) and is named by `for`
      field.id ||= `f-${field.name.replace(/[.:]/g, "-")}`;
      label.htmlFor = field.id;
      label.after(box);
    }
    const words = box.closest("[data-less]")?.dataset || {};
    const bounds = () => [Number(field.min || 0), Number(field.max || 999)];
    const now = () => { const n = Number.parseInt(field.value, 10); return Number.isNaN(n) ? 0 : n; };
    const button = (step, text, said) => {
      // (out of the Tab order: the keys type the number, or step it with the field's own arrows)
      const b = Object.assign(document.createElement("button"), { type: "button", textContent: text, tabIndex: -1 });
      b.dataset.step = String(step);
      b.dataset.said = said || "{what}";
      b.addEventListener("click", () => {
        const [min, max] = bounds();
        const next = Math.min(max, Math.max(min, now() + step));
        if (String(next) === field.value) return;
        field.value = String(next);
        field.dispatchEvent(new Event("input", { bubbles: true }));
        field.dispatchEvent(new Event("change", { bubbles: true }));
      });
      return b;
    };
    const size = Number(field.step) || 1;  // 2 for cards won in pairs
    const less = button(-size, "−", size === 2 ? words.lessTwo : words.less);
    const more = button(size, "+", size === 2 ? words.moreTwo : words.more);
    box.prepend(less);
    box.append(more);
    const ends = () => { const [min, max] = bounds(); less.disabled = now() <= min; more.disabled = now() >= max; };
    field.addEventListener("input", ends);
    ends();
  }
  nameSteppers(page);
}
// --- A switch that changes what the form offers (`data-redraw`: an expansion whose cards the pickers offer only
// when it is on): switching it brings the page again with everything tapped so far, by the form's own button
// (`data-redraw-button`, "Show their cards", which scores nothing), hidden here since the switch does it. ---
document.addEventListener("change", (event) => {
  const box = event.target.closest && event.target.closest("[data-redraw]");
  const button = box && box.form && box.form.querySelector("[data-redraw-button]");
  if (button) box.form.requestSubmit(button);
});
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-redraw-button]")) button.hidden = true;
});
// --- A move made by the tap that completes it (`data-go` on a part of a form: the values of its field `data-go-by`,
// the kinds of move that need nothing more once the part's needs are met: three cards of one kind, or a card played
// against a player once that player is tapped). The form is sent by its own button, as a tap on it would; a kind not
// listed (one whose parts are checked first) waits for that tap. A row a choice opens (`data-needs-when`) is brought
// above the sticky bar, so that its chips are not under it. ---
document.addEventListener("change", ({ target }) => {
  const part = target.closest?.("fieldset[data-go]");
  const form = target.form;
  if (!part || !form || target.type !== "radio") return;
  const bar = form.querySelector(".go");
  const limit = bar ? bar.getBoundingClientRect().top : innerHeight;
  for (const row of part.querySelectorAll("[data-needs-when]")) {
    if (row.contains(target) || !row.offsetParent) continue;  // (hidden: not opened by this choice)
    if (!row.dataset.needsWhen.split(" ").includes(`${target.name}=${target.value}`)) continue;
    const bottom = row.getBoundingClientRect().bottom;
    if (bottom > limit) window.scrollBy(0, bottom - limit + 8);
  }
  const data = new FormData(form);
  const filled = (name) => (data.get(name) || "") !== "";
  const ready = part.dataset.go.split(" ").includes(data.get(part.dataset.goBy)) &&
    part.dataset.needs.split(" ").every(filled) && !incomplete(form, data);
  if (ready) form.requestSubmit(bar?.querySelector("button[type=submit]") || undefined);
});
