// A static site's computing pages (scoring, setup, solo): the phone's own Python draws them. The form and links
// work at once; the page's Python (Pyodide, in a Web Worker) starts when such a page opens, with a progress bar
// the first time, and then draws the page for its form exactly as the server would (companion.browser.page).
"use strict";
(() => {
  const root = document.documentElement;
  const config = JSON.parse(root.dataset.python);
  const here = location.pathname;
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

  const worker = new Worker(config.worker, { type: "module" });
  const waiting = new Map();
  let next = 0;
  let ready = false;
  let wanted = null;  // the last form asked for before Python was ready

  function ask(call, args) {
    const id = ++next;
    worker.postMessage({ id, call, args });
    return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
  }

  worker.onmessage = ({ data }) => {
    if ("progress" in data) {
      if (!seen) {
        words.textContent = config.words.download.replace("%(mb)s", data.transfer_mb.toLocaleString(config.lang, { maximumFractionDigits: 1 }));
        bar.max = data.total;
        bar.value = data.progress;
      }
      return;
    }
    if ("ready" in data) {
      if (!data.ready) return failed(data.failure);
      ready = true;
      status.hidden = true;
      try { localStorage.setItem("companion-python", "ready"); } catch {}
      root.dataset.pythonReady = String(data.ms);
      const query = wanted ?? location.search.slice(1);
      if (query || config.endpoint === "setup.setup") show(query);
      else ask("page", { endpoint: config.endpoint, values: config.values, lang: config.lang, fields: [] })
        .catch(() => {});  // the templates compiled now, so the first answer is as quick as the next
      return;
    }
    const pending = waiting.get(data.id);
    waiting.delete(data.id);
    if (pending) ("answer" in data ? pending.resolve(data.answer) : pending.reject(new Error(data.failure)));
  };
  worker.onerror = (event) => failed(event.message || "worker");

  function failed(reason) {
    status.hidden = false;
    bar.hidden = true;
    words.textContent = navigator.onLine === false ? config.words.offline : `${config.words.failed} ${reason}`;
  }

  function pairs(query) {
    return [...new URLSearchParams(query)].filter(([name]) => name !== "lang");
  }

  // A setup opened without a seed gets one first, so its link deals the same game on another phone.
  function seeded(query) {
    if (config.endpoint !== "setup.setup" || new URLSearchParams(query).get("seed")) return query;
    const bytes = crypto.getRandomValues(new Uint8Array(4));
    const params = new URLSearchParams(query);
    params.set("seed", [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(""));
    history.replaceState(null, "", `${here}?${params}`);
    return params.toString();
  }

  async function show(query, scroll = false) {
    if (!ready) { wanted = query; return; }
    query = seeded(query);
    const started = performance.now();
    let answer;
    try {
      answer = await ask("page", { endpoint: config.endpoint, values: config.values, lang: config.lang,
                                   fields: pairs(query) });
    } catch (e) {
      return failed(e.message);
    }
    if (answer.error) return failed(answer.error);
    const drawn = new DOMParser().parseFromString(answer.result.html, "text/html");
    main.replaceChildren(...drawn.querySelector("main").childNodes);
    document.title = drawn.title;
    for (const link of document.querySelectorAll(".langs a[hreflang]")) {
      const other = drawn.querySelector(`.langs a[hreflang="${link.hreflang}"]`);
      if (other) link.href = other.getAttribute("href");
    }
    window.companionEnhance?.(main);
    fresh();
    root.dataset.drawnIn = String(Math.round(performance.now() - started));
    root.dataset.drawnStatus = String(answer.result.status);
    if (scroll) (document.getElementById("result") || main).scrollIntoView({ block: "start" });
  }

  function go(query) {
    history.pushState(null, "", query ? `${here}?${query}` : here);
    show(query, true);
  }

  // A dice seed baked into the frozen page would roll the same dice for everyone: each phone gets its own.
  function fresh() {
    for (const input of main.querySelectorAll("input[data-fresh-seed]")) {
      const bytes = crypto.getRandomValues(new Uint8Array(4));
      input.value = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    }
  }
  fresh();

  // This page's own forms and links are drawn here, not fetched: the static host would send the empty form back.
  main.addEventListener("submit", (event) => {
    const form = event.target;
    if (new URL(form.action, location.href).pathname !== here || form.method.toLowerCase() !== "get") return;
    event.preventDefault();
    const data = new FormData(form, event.submitter);
    go(new URLSearchParams([...data].filter(([, v]) => typeof v === "string")).toString());
  });
  main.addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || url.pathname !== here || url.hash) return;
    event.preventDefault();
    go(url.search.slice(1));
  });
  window.addEventListener("popstate", () => show(location.search.slice(1)));
})();
