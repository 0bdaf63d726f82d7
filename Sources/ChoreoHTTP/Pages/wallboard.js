"use strict";
const $ = (id) => document.getElementById(id);
let roundShown = null;
let phaseShown = null;
let lastDoc = null;

// Kiosk options from the URL (GET /arena validates them): window, theme, nodes, kiosk.
const params = new URLSearchParams(location.search);
const uptimeWindow = params.get("window") || "24h";
const only = params.get("nodes") ? new Set(params.get("nodes").split(",")) : null;
document.documentElement.dataset.theme = params.get("theme") || "dark";
if (params.get("kiosk") === "1") document.body.classList.add("kiosk");

// Per node, what the status document does not carry: the window's uptime, the last hour's
// response times (a sparkline) and the last incident; refreshed every minute.
const extras = new Map();

function text(tag, className, value) {
  const element = document.createElement(tag);
  element.className = className;
  element.textContent = value;
  return element;
}

function sparkline(points) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "spark");
  svg.setAttribute("viewBox", "0 0 100 24");
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-label", "response times, last hour");
  const values = points.filter((v) => v !== null);
  // One minute so far: a level line.
  if (values.length === 1) points = [values[0], values[0]];
  if (values.length > 0) {
    const top = Math.max(...values) || 1;
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", points.map((v, i) => v === null ? null
      : `${(i / (points.length - 1) * 100).toFixed(2)},${(23 - v / top * 22).toFixed(2)}`).filter(Boolean).join(" "));
    svg.append(line);
  }
  return svg;
}

function ago(seconds) {
  if (seconds < 90) return `${Math.round(seconds)} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 129600) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} d ago`;
}

function card(node, champion) {
  const div = document.createElement("div");
  // The last round's champion is outlined once the round is over, while it stays healthy.
  div.className = `card ${node.status}${node.name === champion && node.status !== "down" ? " champion" : ""}`
    + (node.maintenance ? " maintenance" : "");
  div.dataset.node = node.name;
  div.dataset.status = node.status;
  // A node in maintenance says so beside its status (it is still probed).
  if (node.maintenance) div.dataset.maintenance = "true";
  div.append(text("div", "name", node.name), text("div", "ip", node.ip),
    text("div", "status", node.maintenance ? `${node.status} · maintenance` : node.status));
  const extra = extras.get(node.name) || {};
  const uptime = extra.uptime !== undefined ? extra.uptime : node.uptime;
  const figures = document.createElement("div");
  figures.className = "figures";
  figures.append(
    text("span", "latency", node.latencyMs === null ? "— ms" : `${Math.round(node.latencyMs)} ms`),
    text("span", "uptime", uptime === null || uptime === undefined ? "—"
      : `${(uptime * 100).toFixed(uptime >= 0.999 ? 2 : 1)}% up · ${uptimeWindow}`));
  div.append(figures, sparkline(extra.points || []));
  if (node.reason) div.append(text("div", "reason", node.reason));
  const incident = text("div", "incident", "no incident in the history");
  if (extra.incident) {
    incident.dataset.at = extra.incident.at;
    incident.dataset.reason = extra.incident.reason || "";
  }
  div.append(incident);
  const checked = text("div", "checked", "not checked yet");
  if (node.checked !== null) checked.dataset.checked = node.checked;
  div.append(checked);
  return div;
}

// "checked N s ago" and "last down N min ago", kept current (the server's clock, by its offset).
let clockOffset = 0;
function ages() {
  const now = Date.now() / 1000 - clockOffset;
  for (const element of document.querySelectorAll(".checked[data-checked]")) {
    element.textContent = `checked ${Math.max(0, Math.round(now - Number(element.dataset.checked)))} s ago`;
  }
  for (const element of document.querySelectorAll(".incident[data-at]")) {
    const reason = element.dataset.reason ? ` (${element.dataset.reason})` : "";
    element.textContent = `last down ${ago(Math.max(0, now - Number(element.dataset.at)))}${reason}`;
  }
}

async function refresh() {
  const response = await fetch("/v1/arena");
  if (!response.ok) { $("summary").textContent = `arena: ${response.status}`; return; }
  show(await response.json());
}

function shown(doc) { return only ? doc.nodes.filter((n) => only.has(n.name)) : doc.nodes; }

function show(doc) {
  lastDoc = doc;
  const nodes = shown(doc);
  const probed = doc.nodes.find((n) => n.checked !== null && n.checkedAgo !== null);
  if (probed) clockOffset = Date.now() / 1000 - (probed.checked + probed.checkedAgo);
  const champion = doc.round && doc.round.phase === "running" ? null : doc.round && doc.round.champion;
  $("cards").replaceChildren(...nodes.map((node) => card(node, champion)));
  const up = nodes.filter((n) => n.status === "up").length;
  $("summary").textContent = `${up}/${nodes.length} up` + (doc.round ? ` · round ${doc.round.id} ${doc.round.phase}` : "");
  $("round-empty").hidden = Boolean(doc.round);
  if (doc.round) {
    const phase = doc.round.phase;
    if (doc.round.id !== roundShown || phase !== phaseShown) loadRound(doc.round.id, phase, doc.round.duration);
  }
  ages();
}

async function json(url) {
  const response = await fetch(url);
  return response.ok ? response.json() : null;
}

// The extras of the shown nodes, a few requests at a time.
async function loadExtras() {
  if (!lastDoc) return;
  const nodes = shown(lastDoc);
  for (let i = 0; i < nodes.length; i += 8) {
    await Promise.all(nodes.slice(i, i + 8).map(async (node) => {
      const name = encodeURIComponent(node.name);
      const [uptime, times, history] = await Promise.all([
        json(`/v1/arena/nodes/${name}/uptime?window=${uptimeWindow}`),
        json(`/v1/arena/nodes/${name}/response-times?resolution=minute`),
        json(`/v1/arena/nodes/${name}/history?limit=500`)]);
      const extra = extras.get(node.name) || {};
      if (uptime) extra.uptime = uptime.uptime;
      if (times) extra.points = times.buckets.map((b) => b.meanMs);
      if (history) {
        const failed = history.probes.filter((p) => p.verdict === "failed");
        if (failed.length) {
          const last = failed[failed.length - 1];
          extra.incident = { at: last.time, reason: last.reason };
        }
      }
      extras.set(node.name, extra);
    }));
  }
  show(lastDoc);
}

// The round drawn at the size of its panel (the scale the screen needs), learnt from a small
// first picture. A running round plays as an animated PNG; a finished one rests on its last
// frame, the champion crowned, instead of looping the fight.
let pointsWide = null;
async function loadRound(id, phase, duration) {
  roundShown = id;
  phaseShown = phase;
  if (pointsWide === null) {
    const probe = await fetch("/v1/arena/rounds/current/frames?format=png&time=0&scale=0.1");
    if (probe.ok) {
      const bitmap = await createImageBitmap(await probe.blob());
      pointsWide = bitmap.width / 0.1;
    }
  }
  const panel = $("round").clientWidth - 24;
  const scale = pointsWide ? Math.min(4, Math.max(0.25, panel * (window.devicePixelRatio || 1) / pointsWide)) : 1;
  const fixed = scale.toFixed(2);
  const query = phase === "finished" ? `format=png&time=${duration}&scale=${fixed}` : `format=apng&fps=15&scale=${fixed}`;
  const response = await fetch(`/v1/arena/rounds/current/frames?${query}`);
  if (!response.ok) return;
  const img = $("round-frames");
  const old = img.src;
  img.src = URL.createObjectURL(await response.blob());
  img.dataset.round = id;
  img.dataset.phase = phase;
  img.dataset.scale = fixed;
  img.hidden = false;
  if (old.startsWith("blob:")) URL.revokeObjectURL(old);
}

function listen() {
  const events = new EventSource("/v1/arena/events");
  events.addEventListener("snapshot", (e) => show(JSON.parse(e.data)));
  events.addEventListener("health", (e) => {
    const data = JSON.parse(e.data);
    if (data.to === "down") {
      const extra = extras.get(data.node) || {};
      extra.incident = { at: data.time, reason: data.reason };
      extras.set(data.node, extra);
    }
    refresh();
  });
  events.addEventListener("round", (e) => {
    const data = JSON.parse(e.data);
    if (data.phase) refresh();
  });
  events.onopen = () => { $("offline").hidden = true; };
  events.onerror = () => { $("offline").hidden = false; };
}

refresh().then(loadExtras);
listen();
setInterval(refresh, 10000);
setInterval(loadExtras, 60000);
setInterval(ages, 1000);
