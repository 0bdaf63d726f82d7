"use strict";
const $ = (id) => document.getElementById(id);
const fps = 30;
const state = { stored: null, session: null, inputs: -1, body: null, duration: 0, time: 0, playing: false, loading: false, wanted: null, cache: new Map(), last: 0 };

function frameURL(time) {
  const t = time.toFixed(3);
  const scale = Math.min(2, Math.max(1, Math.round(window.devicePixelRatio || 1)));
  if (state.session) return `/v1/sessions/${encodeURIComponent(state.session)}/frames?format=png&time=${t}&scale=${scale}`;
  return state.stored
    ? `/v1/scenes/${encodeURIComponent(state.stored)}/frames?format=png&time=${t}&scale=${scale}`
    : `/v1/render?format=png&time=${t}&scale=${scale}`;
}

async function request(url, asBlob) {
  const init = state.stored || state.session ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: state.body };
  const response = await fetch(url, init);
  if (!response.ok) {
    let text = `${response.status}`;
    try { const problem = await response.json(); text = [problem.detail, ...(problem.errors || []).map((e) => `${e.path}: ${e.message}`)].join("\n"); } catch (_) {}
    throw new Error(text);
  }
  return asBlob ? response.blob() : response.json();
}

async function show(time) {
  const t = Math.round(Math.min(Math.max(time, 0), state.duration) * fps) / fps;
  state.time = t;
  $("scrub").value = t;
  $("clock").textContent = `${t.toFixed(3)} s`;
  if (state.cache.has(t)) { $("frame").src = state.cache.get(t); return; }
  if (state.loading) { state.wanted = t; return; }
  state.loading = true;
  try {
    const url = URL.createObjectURL(await request(frameURL(t), true));
    if (state.cache.size > 400) { const [first, old] = state.cache.entries().next().value; URL.revokeObjectURL(old); state.cache.delete(first); }
    state.cache.set(t, url);
    $("frame").src = url;
    $("frame").dataset.time = t;
  } catch (error) {
    $("errors").textContent = error.message;
  } finally {
    state.loading = false;
    if (state.wanted !== null && state.wanted !== t) { const next = state.wanted; state.wanted = null; show(next); }
  }
}

// The source of an imported scene: its code, and the line each action of the scene came from.
const source = { map: new Map(), actions: [] };

/// Walks the scene's actions with their JSON paths, as the import's source map names them.
function indexActions(scene, sourceMap) {
  source.map = new Map(sourceMap.map((m) => [m.path, m.line]));
  source.actions = [];
  const walk = (list, path) => (list || []).forEach((action, i) => {
    const p = `${path}[${i}]`;
    const line = source.map.get(p);
    if (action.add) source.actions.push({ layer: action.layer, key: action.add.key, line });
    if (action.addAgain) source.actions.push({ layer: action.layer, key: action.addAgain, line });
    if (action.mark !== undefined) source.actions.push({ name: action.mark, line });
    for (const kind of ["animate", "transition", "animateKeyframes"]) {
      const block = action[kind];
      if (!block) continue;
      source.actions.push({ kind, line });
      // A view transition's own animation is the layer's "transition".
      if (kind === "transition") source.actions.push({ layer: block.layer, key: "transition", line });
      const changes = [block.changes, ...(block.keyframes || []).map((k) => k.changes)];
      for (const set of changes) for (const [layer, properties] of Object.entries(set || {})) {
        for (const key of Object.keys(properties)) source.actions.push({ layer, key, line });
      }
      walk(block.completion, `${p}.${kind}.completion`);
    }
    if (action.add) { walk(action.add.onStart, `${p}.add.onStart`); walk(action.add.onStop, `${p}.add.onStop`); }
    if (action.transaction) { source.actions.push({ kind: "transaction", line }); walk(action.transaction.do, `${p}.transaction.do`); walk(action.transaction.completion, `${p}.transaction.completion`); }
    if (action.after !== undefined) walk(action.do, `${p}.do`);
    if (action.if) walk(action.do, `${p}.do`);
    if (action.performWithoutAnimation) walk(action.performWithoutAnimation, `${p}.performWithoutAnimation`);
  });
  (scene.script || []).forEach((turn, i) => walk(turn.do, `$.script[${i}].do`));
}

/// The source line an event came from: the action that added its animation, made its mark, or
/// ran its block.
function eventLine(event) {
  if (!source.actions.length) return undefined;
  const key = (event.key || "").replace(/-\d+$/, "");
  const found = source.actions.find((a) =>
    (event.type === "marker" && a.name === event.name) ||
    (event.layer !== undefined && a.layer === event.layer && a.key !== undefined && (a.key === key || a.key === event.key)) ||
    (event.type === "animateCompleted" && a.kind === "animate") || (event.type === "transactionCompleted" && a.kind === "transaction"));
  return found?.line;
}

/// Selects a line of the code and shows it.
function showLine(line) {
  const code = $("code");
  const lines = code.value.split("\n");
  const start = lines.slice(0, line - 1).reduce((n, text) => n + text.length + 1, 0);
  selectTab("code");
  code.focus();
  code.setSelectionRange(start, start + (lines[line - 1] || "").length);
  code.scrollTop = Math.max(0, (line - 5) * 16);
}

function lineLink(line) { return line ? ` <a class="line" data-line="${line}">line ${line}</a>` : ""; }

function item(list, time, html, className) {
  const li = document.createElement("li");
  if (className) li.className = className;
  li.innerHTML = html;
  li.addEventListener("click", (e) => {
    if (e.target.dataset.line) { showLine(Number(e.target.dataset.line)); return; }
    pause(); show(time);
  });
  list.appendChild(li);
}

function escapeHTML(text) { return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }

function mark(time, className, title) {
  const span = document.createElement("span");
  span.className = className;
  span.title = title;
  span.style.left = state.duration > 0 ? `${(time / state.duration) * 100}%` : "0";
  $("marks").appendChild(span);
}

async function load() {
  pause();
  $("errors").textContent = "";
  for (const url of state.cache.values()) URL.revokeObjectURL(url);
  state.cache.clear();
  for (const id of ["events", "diagnostics", "marks"]) $(id).replaceChildren();
  $("status").textContent = "rendering…";
  let doc;
  try {
    const numbers = state.session
      ? `/v1/sessions/${encodeURIComponent(state.session)}/frames?times=0`
      : state.stored ? `/v1/scenes/${encodeURIComponent(state.stored)}/frames?times=0` : "/v1/render?times=0";
    doc = await request(numbers, false);
  } catch (error) {
    $("errors").textContent = error.message;
    $("status").textContent = "";
    return;
  }
  state.duration = doc.duration;
  $("scrub").max = doc.duration;
  $("scrub").disabled = $("play").disabled = false;
  for (const event of doc.events) {
    const what = [event.type, event.layer, event.key, event.name, event.state].filter((x) => x !== undefined).join(" ");
    const flag = event.finished === undefined ? "" : ` finished=${event.finished}`;
    item($("events"), event.time, `<span class="time">${event.time.toFixed(3)} s</span> ${escapeHTML(what + flag)}${lineLink(eventLine(event))}`, "event");
    mark(event.time, "event", what);
  }
  for (const d of doc.diagnostics) {
    item($("diagnostics"), d.time, `<span class="time">${d.time.toFixed(3)} s</span> <b class="code">${escapeHTML(d.code)}</b> ${escapeHTML(d.message)}<div class="fix">Fix: ${escapeHTML(d.fix)}</div>`, `diagnostic ${d.severity}`);
    mark(d.time, "diagnostic", d.code);
  }
  $("status").textContent = `${doc.duration} s, ${doc.events.length} events, ${doc.diagnostics.length} diagnostics`;
  await show(0);
}

function tick(now) {
  if (!state.playing) return;
  const elapsed = (now - state.last) / 1000;
  state.last = now;
  const next = state.time + elapsed;
  if (next >= state.duration) { show(state.duration); pause(); return; }
  if (!state.loading) show(next); else state.time = next;
  requestAnimationFrame(tick);
}
function play() {
  if (state.time >= state.duration) state.time = 0;
  state.playing = true; state.last = performance.now(); $("play").textContent = "Pause";
  requestAnimationFrame(tick);
}
function pause() { state.playing = false; $("play").textContent = "Play"; }

$("play").addEventListener("click", () => (state.playing ? pause() : play()));
$("scrub").addEventListener("input", (e) => { pause(); show(Number(e.target.value)); });
$("run").addEventListener("click", () => { source.actions = []; state.stored = null; state.session = null; state.body = $("scene").value; load(); });

function selectTab(name) {
  for (const tab of ["scene", "code"]) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(`${tab}-pane`).hidden = tab !== name;
  }
}
$("tab-scene").addEventListener("click", () => selectTab("scene"));
$("tab-code").addEventListener("click", () => selectTab("code"));

/// Imports the code (POST /v1/import), lists its diagnostics by line, and renders the scene.
async function importCode() {
  $("errors").textContent = "";
  $("source-diagnostics").replaceChildren();
  $("status").textContent = "importing…";
  const language = $("language").value;
  const entry = $("entry").value.trim();
  const url = `/v1/import?language=${language}` + (entry ? `&entry=${encodeURIComponent(entry)}` : "");
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": language === "swift" ? "text/x-swift" : "text/x-objective-c" }, body: $("code").value });
  let doc;
  try { doc = await response.json(); } catch (_) { doc = { detail: `${response.status}` }; }
  for (const d of doc.diagnostics || []) {
    const li = document.createElement("li");
    li.className = `diagnostic ${d.severity}`;
    li.innerHTML = `<a class="line" data-line="${d.line}">${d.line}:${d.column}</a> <b class="code">${escapeHTML(d.severity)}</b> ${escapeHTML(d.message)}${d.fix ? `<div class="fix">${escapeHTML(d.fix)}</div>` : ""}`;
    li.addEventListener("click", () => showLine(d.line));
    $("source-diagnostics").appendChild(li);
  }
  if (!response.ok) {
    $("errors").textContent = doc.detail || `${response.status}`;
    $("status").textContent = "";
    return;
  }
  indexActions(doc.scene, doc.sourceMap || []);
  $("scene").value = JSON.stringify(doc.scene, null, 2);
  state.stored = null; state.session = null; state.body = JSON.stringify(doc.scene);
  await load();
}
$("import").addEventListener("click", importCode);
$("file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  $("scene").value = await file.text();
  state.stored = null; state.session = null; state.body = $("scene").value; load();
});
document.addEventListener("keydown", (e) => { if (e.key === " " && e.target.tagName !== "TEXTAREA") { e.preventDefault(); state.playing ? pause() : play(); } });

// A live session (/?session=ses_…) is watched: when its inputs grow, its timeline reloads.
async function watchSession() {
  try {
    const response = await fetch(`/v1/sessions/${encodeURIComponent(state.session)}`);
    if (!response.ok) throw new Error(`no session ${state.session}`);
    const doc = await response.json();
    const inputs = doc.inputs ?? doc.inputCount ?? 0;
    if (inputs !== state.inputs) {
      state.inputs = inputs;
      const time = state.time;
      await load();
      if (time > 0) show(time);
    }
  } catch (error) {
    $("errors").textContent = error.message;
  }
}
const session = new URLSearchParams(location.search).get("session");
if (session) {
  state.session = session;
  $("scene").value = `Session ${session}: its frames as its inputs arrive.`;
  watchSession();
  setInterval(watchSession, 1000);
}

const stored = new URLSearchParams(location.search).get("scene");
if (stored) {
  fetch(`/v1/scenes/${encodeURIComponent(stored)}`).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`no stored scene ${stored}`))))
    .then((text) => { $("scene").value = text; state.stored = stored; load(); })
    .catch((error) => { $("errors").textContent = error.message; });
}
