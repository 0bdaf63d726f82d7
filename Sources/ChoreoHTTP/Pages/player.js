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

function item(list, time, html, className) {
  const li = document.createElement("li");
  if (className) li.className = className;
  li.innerHTML = html;
  li.addEventListener("click", () => { pause(); show(time); });
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
    item($("events"), event.time, `<span class="time">${event.time.toFixed(3)} s</span> ${escapeHTML(what + flag)}`, "event");
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
$("run").addEventListener("click", () => { state.stored = null; state.session = null; state.body = $("scene").value; load(); });
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
