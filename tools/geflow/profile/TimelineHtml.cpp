//===- TimelineHtml.cpp - A self-contained timeline page ------------------===//
//
// The page needs no network: the tasks are embedded as JSON and a small
// script draws one lane per stream on a canvas. After drawing, <body> carries
// data-lanes and data-tasks so a headless browser test can check the picture.
//
//===----------------------------------------------------------------------===//
#include "tools/geflow/profile/Profile.h"

namespace geflow::profile {
namespace {

using nlohmann::json;
using rt::TaskKind;

const char *kPageHead = R"page(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>geflow profile</title>
<style>
body { font: 13px sans-serif; margin: 16px; color: #222; }
canvas { border: 1px solid #ccc; }
.key { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 12px; }
#tip { position: fixed; display: none; background: #fffbe6; border: 1px solid #aaa;
       padding: 4px 6px; pointer-events: none; white-space: pre; }
table { border-collapse: collapse; margin-top: 12px; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
.overlapping { background: #d8f5d0; } .partial { background: #fdf1c7; }
.false { background: #f8d4d0; }
</style></head>
<body>
<h3 id="title"></h3>
<div id="legend"></div>
<canvas id="timeline"></canvas>
<div id="tip"></div>
<table id="pairs"></table>
<script type="application/json" id="profile-data">)page";

// Colours follow the engine, so cube and vector work read apart at a glance.
const char *kPageTail = R"page(</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("profile-data").textContent);
const colours = { AI_CORE: "#4e79a7", AI_VECTOR_CORE: "#59a14f", MIX: "#b07aa1",
                  AI_CPU: "#f28e2b", DVPP: "#9c755f", MEMCPY: "#bab0ac",
                  EVENT: "#e15759" };
const canvas = document.getElementById("timeline");
const tip = document.getElementById("tip");
const laneHeight = 28, labelWidth = 90, axisHeight = 24;
let scale = 1;

function laneY(stream) { return axisHeight + stream * laneHeight; }

function draw() {
  canvas.width = Math.max(640, window.innerWidth - 40);
  canvas.height = axisHeight + laneHeight * data.streams + 8;
  const ctx = canvas.getContext("2d");
  scale = (canvas.width - labelWidth - 10) / Math.max(data.makespan_us, 1e-6);
  ctx.font = "11px sans-serif";
  ctx.fillStyle = "#666";
  for (let i = 0; i <= 10; ++i) {
    const t = data.makespan_us * i / 10, x = labelWidth + t * scale;
    ctx.fillRect(x, axisHeight - 4, 1, 4);
    ctx.fillText(t.toFixed(1) + " us", Math.min(x, canvas.width - 50), axisHeight - 8);
  }
  for (let s = 0; s < data.streams; ++s) {
    ctx.fillStyle = s % 2 ? "#f4f4f4" : "#fafafa";
    ctx.fillRect(labelWidth, laneY(s), canvas.width - labelWidth, laneHeight);
    ctx.fillStyle = "#222";
    ctx.fillText("stream " + s, 6, laneY(s) + laneHeight / 2 + 4);
  }
  for (const [stream, start, duration, name, type] of data.tasks) {
    const x = labelWidth + start * scale, w = Math.max(1, duration * scale);
    const y = laneY(stream) + 3, h = laneHeight - 6;
    ctx.fillStyle = colours[type] || "#888";
    if (type === "EVENT") { ctx.fillRect(x, y, 1, h); continue; }
    ctx.fillRect(x, y, w, h);
    if (w > 40) {
      ctx.save(); ctx.beginPath(); ctx.rect(x, y, w, h); ctx.clip();
      ctx.fillStyle = "#fff"; ctx.fillText(name, x + 3, y + h / 2 + 4);
      ctx.restore();
    }
  }
  document.body.dataset.lanes = String(data.streams);
  document.body.dataset.tasks = String(data.tasks.length);
}

function taskAt(px, py) {
  const stream = Math.floor((py - axisHeight) / laneHeight), t = (px - labelWidth) / scale;
  const slack = 2 / scale;
  return data.tasks.find(([s, start, duration]) =>
      s === stream && t >= start - slack && t <= start + duration + slack);
}

canvas.addEventListener("mousemove", (e) => {
  const r = canvas.getBoundingClientRect();
  const task = taskAt(e.clientX - r.left, e.clientY - r.top);
  if (!task) { tip.style.display = "none"; return; }
  const [stream, start, duration, name, type, opType] = task;
  tip.textContent = name + (opType ? " (" + opType + ")" : "") + "\n" + type +
      " on stream " + stream + "\nstart " + start.toFixed(3) + " us, " +
      duration.toFixed(3) + " us";
  tip.style.left = (e.clientX + 12) + "px";
  tip.style.top = (e.clientY + 12) + "px";
  tip.style.display = "block";
});

function fillPairs() {
  const table = document.getElementById("pairs");
  if (!data.pairs.length) return;
  table.innerHTML = "<tr><th>streams</th><th>both busy (us)</th>" +
      "<th>overlap_pct</th><th>verdict</th></tr>";
  for (const p of data.pairs) {
    const row = table.insertRow();
    row.className = p.verdict.split(" ")[0];
    for (const cell of [p.streams.join("-"), p.both_busy_us.toFixed(3),
                        p.overlap_pct.toFixed(2), p.verdict])
      row.insertCell().textContent = cell;
  }
}

document.getElementById("title").textContent = data.model + " on " + data.soc +
    ": makespan " + data.makespan_us.toFixed(3) + " us, " + data.streams +
    " stream(s)";
for (const [type, colour] of Object.entries(colours)) {
  const key = document.createElement("span");
  key.className = "key";
  key.style.background = colour;
  document.getElementById("legend").append(key, type);
}
fillPairs();
draw();
window.addEventListener("resize", draw);
</script>
</body></html>
)page";

} // namespace

std::string timelineHtml(const Timeline &timeline, const json &summary) {
  json tasks = json::array();
  for (const rt::TaskRecord &r : timeline.records)
    tasks.push_back({r.stream, r.startNs / 1000.0,
                     (r.endNs - r.startNs) / 1000.0, taskLabel(r), taskType(r),
                     r.opType});
  json data = {{"model", timeline.model},
               {"soc", timeline.soc},
               {"makespan_us", summary.value("makespan_us", 0.0)},
               {"streams", timeline.streamCount},
               {"tasks", tasks},
               {"pairs", summary.value("stream_pairs", json::array())}};
  // "</" would end the <script> element early; JSON lets '/' be escaped.
  std::string embedded = data.dump(-1, ' ', /*ensure_ascii=*/true);
  for (size_t at = embedded.find("</"); at != std::string::npos;
       at = embedded.find("</", at + 3))
    embedded.replace(at, 2, "<\\/");
  return kPageHead + embedded + kPageTail;
}

} // namespace geflow::profile
