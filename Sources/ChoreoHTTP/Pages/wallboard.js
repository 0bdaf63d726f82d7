"use strict";
const $ = (id) => document.getElementById(id);
let roundShown = null;
let phaseShown = null;

function text(tag, className, value) {
  const element = document.createElement(tag);
  element.className = className;
  element.textContent = value;
  return element;
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
  const figures = document.createElement("div");
  figures.className = "figures";
  figures.append(
    text("span", "latency", node.latencyMs === null ? "— ms" : `${Math.round(node.latencyMs)} ms`),
    text("span", "uptime", node.uptime === null ? "—" : `${(node.uptime * 100).toFixed(1)}% up`));
  div.append(figures);
  if (node.reason) div.append(text("div", "reason", node.reason));
  const checked = text("div", "checked", "not checked yet");
  if (node.checked !== null) checked.dataset.checked = node.checked;
  div.append(checked);
  return div;
}

// "checked N s ago", kept current between updates (the server's clock, by its offset).
let clockOffset = 0;
function ages() {
  const now = Date.now() / 1000 - clockOffset;
  for (const element of document.querySelectorAll(".checked[data-checked]")) {
    element.textContent = `checked ${Math.max(0, Math.round(now - Number(element.dataset.checked)))} s ago`;
  }
}

async function refresh() {
  const response = await fetch("/v1/arena");
  if (!response.ok) { $("summary").textContent = `arena: ${response.status}`; return; }
  show(await response.json());
}

function show(doc) {
  const probed = doc.nodes.find((n) => n.checked !== null && n.checkedAgo !== null);
  if (probed) clockOffset = Date.now() / 1000 - (probed.checked + probed.checkedAgo);
  const champion = doc.round && doc.round.phase === "running" ? null : doc.round && doc.round.champion;
  $("cards").replaceChildren(...doc.nodes.map((node) => card(node, champion)));
  const up = doc.nodes.filter((n) => n.status === "up").length;
  $("summary").textContent = `${up}/${doc.nodes.length} up` + (doc.round ? ` · round ${doc.round.id} ${doc.round.phase}` : "");
  $("round-empty").hidden = Boolean(doc.round);
  if (doc.round) {
    const phase = doc.round.phase;
    if (doc.round.id !== roundShown || phase !== phaseShown) loadRound(doc.round.id, phase, doc.round.duration);
  }
  ages();
}

// A running round plays as an animated PNG; a finished one rests on its last frame, the
// champion crowned, instead of looping the fight.
async function loadRound(id, phase, duration) {
  roundShown = id;
  phaseShown = phase;
  const query = phase === "finished" ? `format=png&time=${duration}` : "format=apng&fps=15";
  const response = await fetch(`/v1/arena/rounds/current/frames?${query}`);
  if (!response.ok) return;
  const img = $("round-frames");
  const old = img.src;
  img.src = URL.createObjectURL(await response.blob());
  img.dataset.round = id;
  img.dataset.phase = phase;
  img.hidden = false;
  if (old.startsWith("blob:")) URL.revokeObjectURL(old);
}

function listen() {
  const events = new EventSource("/v1/arena/events");
  events.addEventListener("snapshot", (e) => show(JSON.parse(e.data)));
  events.addEventListener("health", refresh);
  events.addEventListener("round", (e) => {
    const data = JSON.parse(e.data);
    if (data.phase) refresh();
  });
  events.onopen = () => { $("offline").hidden = true; };
  events.onerror = () => { $("offline").hidden = false; };
}

refresh();
listen();
setInterval(refresh, 10000);
setInterval(ages, 1000);
