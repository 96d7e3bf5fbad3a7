"""The replay page's HTML, CSS and script (``python -m dimsum replay``): one self-contained file.
``__TITLE__`` and ``__DATA__`` are filled in by dimsum.cli.replay; nothing is loaded from the
network. The data holds every step's pictures as lists of piece numbers (each distinct SVG piece
stored once), the action that led to each step as each view tells it (a seat's view: only what that
seat saw), and for a timed game its time and hourglass."""

PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
  body { font-family: sans-serif; margin: 0; background: #efe6d6; color: #2b2118; }
  header { padding: 10px 16px; background: #2b2118; color: #fbf6ec; }
  header h1 { font-size: 18px; margin: 0; }
  #controls { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; padding: 10px 16px; }
  #controls button { font-size: 14px; padding: 4px 10px; }
  #slider { flex: 1 1 300px; }
  #action { padding: 0 16px 8px; font-weight: bold; min-height: 1.2em; }
  #returns { margin: 0 16px 8px; padding: 8px; background: #fff; border: 2px solid #d9480f; border-radius: 6px; }
  #returns[hidden] { display: none; }
  #glass { font-variant-numeric: tabular-nums; }
  #glass-bar { display: inline-block; width: 120px; height: 10px; border: 1px solid #2b2118; vertical-align: middle; }
  #glass-sand { display: block; height: 100%; background: #e0b05a; }
  #board { padding: 0 16px 16px; }
  #board svg { max-width: 100%; height: auto; box-shadow: 0 1px 4px rgba(0,0,0,.2); }
</style>
</head>
<body>
<header><h1 id="title"></h1></header>
<div id="controls">
  <button id="first" title="first step (Home)">|&lt;</button>
  <button id="prev" title="previous step (left arrow)">&lt;</button>
  <input id="slider" type="range" min="0" value="0" aria-label="step">
  <button id="next" title="next step (right arrow)">&gt;</button>
  <button id="last" title="last step (End)">&gt;|</button>
  <span id="step-label"></span>
  <label>view <select id="view"></select></label>
  <span id="timed" hidden>
    <button id="play" title="play in real time (space)">play</button>
    <label>speed <select id="speed"><option value="1">1×</option><option value="2">2×</option>
      <option value="5">5×</option><option value="20">20×</option></select></label>
    <span id="glass"><span id="glass-bar"><span id="glass-sand"></span></span> <span id="glass-text"></span></span>
  </span>
</div>
<div id="action"></div>
<div id="returns" hidden></div>
<div id="board"></div>
<script type="application/json" id="replay-data">__DATA__</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("replay-data").textContent);
const last = data.steps.length - 1;
const $ = (id) => document.getElementById(id);
let step = 0, view = 0, playing = false, playStart = 0, playFrom = 0;

function picture(k, v) {
  return data.steps[k].views[v].map((i) => data.pieces[i]).join("");
}

function showGlass(k, elapsed) {
  const c = data.steps[k].clock;
  if (!c) return;
  const [top, capacity, lying] = c;
  // elapsed may come out below 0: a frame's timestamp can precede the performance.now() read when
  // play started, so it is clamped, and the sand with it
  const left = lying ? top : Math.min(top, Math.max(0, top - Math.max(0, elapsed)));
  $("glass-sand").style.width = (100 * left / Math.max(1, capacity)).toFixed(1) + "%";
  $("glass-text").textContent = (left / data.ticks_per_second).toFixed(1) + " s left" + (lying ? " (lying down)" : "");
  // the hourglass in the picture runs too: its sand (the picture's data-sand elements) is scaled about fixed points
  const part = Math.min(1, left / Math.max(1, capacity));
  document.querySelectorAll("#board [data-sand]").forEach((el) => {
    const x = Number(el.getAttribute("data-cx")), y = Number(el.getAttribute("data-cy"));
    const amount = Math.sqrt(el.getAttribute("data-sand") === "top" ? part : 1 - part);
    el.setAttribute("transform", "translate(" + x + " " + y + ") scale(" + amount.toFixed(3) + ") translate("
      + (-x) + " " + (-y) + ")");
  });
  const seconds = document.querySelector("#board [data-glass]");
  if (seconds) seconds.textContent = seconds.textContent.replace(/^[0-9.]+ s/, (left / data.ticks_per_second).toFixed(1) + " s");
}

function show(k) {
  step = Math.max(0, Math.min(last, k));
  $("board").innerHTML = picture(step, view);
  $("slider").value = String(step);
  $("step-label").textContent = "step " + step + " of " + last;
  $("action").textContent = (step === 0 ? "" : "step " + step + ": ") + data.steps[step].action[view];
  const over = step === last && data.returns !== null;
  $("returns").hidden = !over;
  if (over) {
    $("returns").textContent = "Returns: " + data.returns.map((r, p) => "seat " + p + " " + r).join(", ")
      + (data.ending ? ". " + data.ending : "");
  }
  if (data.timed && !playing) showGlass(step, 0);
}

function tick(now) {
  if (!playing) return;
  const speed = Number($("speed").value);
  const t = data.steps[playFrom].time + (now - playStart) / 1000 * data.ticks_per_second * speed;
  let k = step;
  while (k < last && data.steps[k + 1].time <= t) k++;
  if (k !== step) show(k);
  showGlass(step, t - data.steps[step].time);
  if (step === last) { setPlaying(false); return; }
  requestAnimationFrame(tick);
}

function setPlaying(on) {
  playing = on && data.timed;
  $("play").textContent = playing ? "pause" : "play";
  if (playing) {
    if (step === last) show(0);
    playFrom = step;
    playStart = performance.now();
    requestAnimationFrame(tick);
  }
}

function go(k) { setPlaying(false); show(k); }

$("title").textContent = data.title;
$("slider").max = String(last);
data.views.forEach((name, v) => {
  const option = document.createElement("option");
  option.value = String(v);
  option.textContent = name;
  $("view").appendChild(option);
});
$("slider").addEventListener("input", () => go(Number($("slider").value)));
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(step - 1));
$("next").addEventListener("click", () => go(step + 1));
$("last").addEventListener("click", () => go(last));
$("view").addEventListener("change", () => { view = Number($("view").value); show(step); });
$("play").addEventListener("click", () => setPlaying(!playing));
document.addEventListener("keydown", (e) => {
  if (e.target && e.target.tagName === "SELECT") return;
  const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last };
  if (e.key in moves) { e.preventDefault(); go(moves[e.key]); }
  else if (e.key === " " && data.timed) { e.preventDefault(); setPlaying(!playing); }
});
$("timed").hidden = !data.timed;
show(0);
</script>
</body>
</html>
"""
