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
const source = { map: new Map(), actions: [], scene: null };

/// Walks the scene's actions with their JSON paths, as the import's source map names them.
function indexActions(scene, sourceMap) {
  source.map = new Map(sourceMap.map((m) => [m.path, m.line]));
  source.actions = [];
  source.scene = scene;
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

/// The property names a UIView block's change animates under (its animations' keys).
const animatedKeys = { frame: ["position", "bounds"], center: ["position"], alpha: ["opacity"], size: ["bounds"] };

/// The source line of each event, found by running the scene's actions along its events: an
/// entry's actions at its time; an animation is the first of its layer and key to start then or
/// later, and ends at the next stop of that key; a completion, `onStart`, `onStop` or `after` runs
/// at the event that calls it, so what an inner block causes links to the inner block's line,
/// each round of a loop to the line that starts it. An event this finds no action for is left
/// to ``eventLine``.
function linkEvents(scene, events) {
  const lines = new Array(events.length);
  const used = new Array(events.length).fill(false);
  const bare = (key) => (key || "").replace(/-\d+$/, "");
  const take = (from, test) => {
    for (let i = 0; i < events.length; i++) {
      if (!used[i] && events[i].time >= from - 1e-6 && test(events[i])) { used[i] = true; return i; }
    }
    return -1;
  };
  const queue = [];
  let sequence = 0;
  let budget = 4 * events.length + 1000;
  const later = (time, list, path, finished) => { if (list && list.length) queue.push({ time, list, path, finished, order: sequence++ }); };
  const added = new Map();
  // One animation of `layer` under one of `keys`: its start at or after `from`, its stop, and
  // its delegate's callbacks at those times; the time it stopped (or `from`).
  const animation = (layer, keys, from, line, callbacks) => {
    const start = take(from, (e) => e.type === "animationDidStart" && e.layer === layer && (keys.includes(bare(e.key)) || keys.includes(e.key || "")));
    if (start < 0) return from;
    if (line !== undefined) lines[start] = line;
    const begun = events[start].time;
    if (callbacks) later(begun, callbacks.onStart, callbacks.onStartPath);
    const stop = take(begun, (e) => e.type === "animationDidStop" && e.layer === layer && e.key === events[start].key);
    if (stop < 0) return begun;
    if (line !== undefined) lines[stop] = line;
    if (callbacks) later(events[stop].time, callbacks.onStop, callbacks.onStopPath, events[stop].finished);
    return events[stop].time;
  };
  // A completion event (`animateCompleted`, `transactionCompleted`) at or after `from`, its line,
  // and the completion's actions then.
  const completion = (type, name, from, line, list, path) => {
    const index = take(from, (e) => e.type === type && (name === undefined || e.name === name));
    if (index < 0) return;
    if (line !== undefined) lines[index] = line;
    later(events[index].time, list, path, events[index].finished);
  };
  // Runs a list at `time`; the latest time one of its animations stopped.
  const run = (list, path, time, finished) => {
    let end = time;
    (list || []).forEach((action, i) => {
      if (--budget < 0) return;
      const p = `${path}[${i}]`;
      const line = source.map.get(p);
      if (action.add) {
        const callbacks = { onStart: action.add.onStart, onStartPath: `${p}.add.onStart`, onStop: action.add.onStop, onStopPath: `${p}.add.onStop` };
        added.set(`${action.layer} ${action.add.key || ""}`, callbacks);
        end = Math.max(end, animation(action.layer, [action.add.key || ""], time, line, callbacks));
      } else if (action.addAgain !== undefined) {
        end = Math.max(end, animation(action.layer, [action.addAgain], time, line, added.get(`${action.layer} ${action.addAgain}`)));
      } else if (action.mark !== undefined) {
        const index = take(time, (e) => e.type === "marker" && e.name === action.mark);
        if (index >= 0 && line !== undefined) lines[index] = line;
      } else if (action.animate || action.animateKeyframes || action.transition) {
        const kind = action.animate ? "animate" : action.animateKeyframes ? "animateKeyframes" : "transition";
        const block = action[kind];
        let blockEnd = time;
        const changes = [block.changes, ...(block.keyframes || []).map((k) => k.changes)];
        const seen = new Set();
        for (const set of changes) for (const [layer, properties] of Object.entries(set || {})) {
          for (const property of Object.keys(properties)) {
            for (const key of animatedKeys[property] || [property]) {
              if (seen.has(`${layer} ${key}`)) continue;
              seen.add(`${layer} ${key}`);
              blockEnd = Math.max(blockEnd, animation(layer, [key], time, line));
            }
          }
        }
        if (kind === "transition" && block.layer !== undefined) blockEnd = Math.max(blockEnd, animation(block.layer, ["transition"], time, line));
        end = Math.max(end, blockEnd);
        completion("animateCompleted", block.name, blockEnd, line, block.completion, `${p}.${kind}.completion`);
      } else if (action.transaction) {
        const inner = run(action.transaction.do, `${p}.transaction.do`, time, finished);
        end = Math.max(end, inner);
        completion("transactionCompleted", action.transaction.name, inner, line, action.transaction.completion, `${p}.transaction.completion`);
      } else if (action.after !== undefined) {
        later(time + action.after, action.do, `${p}.do`, finished);
      } else if (action.if !== undefined) {
        const test = { finished: true, "!finished": false }[action.if];
        if (test === undefined || finished === undefined || test === finished) end = Math.max(end, run(action.do, `${p}.do`, time, finished));
      } else if (action.performWithoutAnimation) {
        end = Math.max(end, run(action.performWithoutAnimation, `${p}.performWithoutAnimation`, time, finished));
      }
    });
    return end;
  };
  (scene.script || []).forEach((turn, i) => later(turn.at, turn.do, `$.script[${i}].do`));
  while (queue.length && budget > 0) {
    let next = 0;
    for (let i = 1; i < queue.length; i++) if (queue[i].time < queue[next].time - 1e-9) next = i;
    const [turn] = queue.splice(next, 1);
    run(turn.list, turn.path, turn.time, turn.finished);
  }
  return lines;
}

/// The source line an event came from when ``linkEvents`` found none: the first action that
/// added an animation of its layer and key, made its mark, or ran a block of its kind.
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
  const lines = source.actions.length && source.scene ? linkEvents(source.scene, doc.events) : [];
  doc.events.forEach((event, index) => {
    const what = [event.type, event.layer, event.key, event.name, event.state].filter((x) => x !== undefined).join(" ");
    const flag = event.finished === undefined ? "" : ` finished=${event.finished}`;
    item($("events"), event.time, `<span class="time">${event.time.toFixed(3)} s</span> ${escapeHTML(what + flag)}${lineLink(lines[index] ?? eventLine(event))}`, "event");
    mark(event.time, "event", what);
  });
  for (const d of doc.diagnostics) {
    item($("diagnostics"), d.time, `<span class="time">${d.time.toFixed(3)} s</span> <b class="code">${escapeHTML(d.code)}</b> ${escapeHTML(d.message)}<div class="fix">Fix: ${escapeHTML(d.fix)}</div>`, `diagnostic ${d.severity}`);
    mark(d.time, "diagnostic", d.code);
  }
  $("status").textContent = `${doc.duration} s, ${doc.events.length} events, ${doc.diagnostics.length} diagnostics`;
  // On a phone the columns are stacked: the picture comes into view.
  if (matchMedia("(max-width: 760px)").matches) $("stage").scrollIntoView({ block: "start" });
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
$("run").addEventListener("click", () => { source.actions = []; source.scene = null; state.stored = null; state.session = null; state.body = $("scene").value; load(); });

function selectTab(name) {
  for (const tab of ["scene", "code"]) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(`${tab}-pane`).hidden = tab !== name;
  }
}
$("tab-scene").addEventListener("click", () => selectTab("scene"));
$("tab-code").addEventListener("click", () => selectTab("code"));

/// What only Objective-C has, and what only Swift has, each with the words the notice uses.
const languageSigns = {
  objc: [
    [/^[ \t]*#[ \t]*(import|include)\b/m, "#import"],
    [/^[ \t]*@(interface|implementation|protocol)\b/m, "@interface / @implementation"],
    [/^[ \t]*[-+][ \t]*\([^)\n]*\)[ \t]*\w+/m, "- (void)method declarations"],
    [/\[[ \t]*(\[[^\]\n]*\]|[A-Za-z_][\w.]*)[ \t]+[A-Za-z_]\w*[ \t]*[:\]]/, "[receiver message] sends"],
    [/\b[A-Z][A-Za-z0-9_]*[ \t]*\*[ \t]*[A-Za-z_]\w*[ \t]*[=;,)]/, "NSString * declarations"],
    [/@"/, "@\"…\" strings"],
  ],
  swift: [
    [/^[ \t]*import[ \t]+[A-Z]\w*[ \t]*$/m, "import"],
    [/\bfunc[ \t]+\w+[ \t]*[(<]/, "func"],
    [/\b(let|var)[ \t]+\w+[ \t]*(:[^=\n]+)?=/, "let / var"],
    [/\b(override|@objc|guard|extension)\b/, "Swift keywords"],
  ],
};

/// The language the code is in, with the signs seen: Objective-C when only its signs show (or
/// more of them), Swift likewise; null when the code says neither.
function detectLanguage(code) {
  const text = code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
  const seen = {};
  for (const [language, signs] of Object.entries(languageSigns)) seen[language] = signs.filter(([pattern]) => pattern.test(text)).map(([, words]) => words);
  if (seen.objc.length > seen.swift.length) return { language: "objc", signs: seen.objc };
  if (seen.swift.length > seen.objc.length) return { language: "swift", signs: seen.swift };
  return null;
}

const languageNames = { swift: "Swift", objc: "Objective-C" };
/// Whether the language was chosen by hand since the code was last pasted: then it stays.
let languageChosen = false;

/// Sets the language the code is in, as detected, and says so.
function followLanguage() {
  const found = detectLanguage($("code").value);
  const notice = $("language-notice");
  if (!found || languageChosen) return;
  if (found.language === $("language").value) { notice.hidden = true; return; }
  $("language").value = found.language;
  notice.textContent = `This looks like ${languageNames[found.language]} (${found.signs.join(", ")}): it is imported as ${languageNames[found.language]}. Choose the language to change it.`;
  notice.hidden = false;
}
$("language").addEventListener("change", () => { languageChosen = true; $("language-notice").hidden = true; });
$("code").addEventListener("paste", () => { languageChosen = false; setTimeout(followLanguage, 0); });
$("code").addEventListener("input", () => followLanguage());
// Code pasted into the scene's box goes to the code tab.
$("scene").addEventListener("paste", (e) => {
  const text = e.clipboardData?.getData("text") || "";
  if (/^\s*[{[]/.test(text) || !detectLanguage(text)) return;
  e.preventDefault();
  $("code").value = text;
  languageChosen = false;
  selectTab("code");
  followLanguage();
});

/// Imports the code (POST /v1/import), lists its diagnostics by line, and renders the scene.
async function importCode() {
  $("errors").textContent = "";
  $("source-diagnostics").replaceChildren();
  $("status").textContent = "importing…";
  followLanguage();
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
  source.actions = []; source.scene = null;
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
