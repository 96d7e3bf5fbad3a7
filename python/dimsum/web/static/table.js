"use strict";
// A table page: draws the seat's view the server sends, sends moves by id, runs the glass between
// messages, and reconnects (the same link resumes the seat).
const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/");  // /table/{id}/{token}
const socketUrl = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + parts[2] + "/" + parts[3];
let socket = null, last = null, received = 0, legendShown = false;

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function seatName(p, me) { return p === me ? "you (seat " + p + ")" : "seat " + p; }  // as dimsum.play.events.seat_words

function showGlass() {
  const sand = last && last.sand, glass = last && last.view.glass;
  $("glass").hidden = !glass;
  if (!glass) return;
  let left = glass.top;
  if (sand && sand.running) left = Math.max(0, sand.left - (performance.now() - received) / 1000 * glass.tps);
  $("glass-sand").style.width = (100 * left / Math.max(1, glass.capacity)).toFixed(1) + "%";
  $("glass-text").textContent = (left / glass.tps).toFixed(1) + " s of sand left"
    + (glass.lying ? " (the glass lies down: paused)" : (sand && sand.running ? " (running)" : " (paused)"));
  const part = Math.min(1, left / Math.max(1, glass.capacity));
  document.querySelectorAll("#board [data-sand]").forEach((el) => {  // the picture's hourglass runs too
    const x = Number(el.getAttribute("data-cx")), y = Number(el.getAttribute("data-cy"));
    const amount = Math.sqrt(el.getAttribute("data-sand") === "top" ? part : 1 - part);
    el.setAttribute("transform", "translate(" + x + " " + y + ") scale(" + amount.toFixed(3) + ") translate(" + (-x) + " " + (-y) + ")");
  });
}

function tick() {
  if (last && last.sand && last.sand.running) showGlass();
  requestAnimationFrame(tick);
}

function show(m) {
  last = m; received = performance.now();
  const v = m.view, me = v.seat;
  $("title").textContent = v.game.replace(/_/g, " ") + (me === null ? " (spectator)" : " · seat " + me);
  $("board").innerHTML = v.svg;  // drawn by the server from this seat's view only
  addTooltips(m.legend);
  $("text").textContent = v.text;
  let status;
  if (v.outcome) status = "the game is over";
  else if (v.to_act === null) status = "chance acts";
  else status = v.to_act === me ? "your turn" : seatName(v.to_act, me) + " (" + m.names[v.to_act] + ") to act";
  $("status").textContent = status;
  const moves = $("moves");
  moves.textContent = "";
  for (const [id, name] of v.moves) {
    const button = document.createElement("button");
    button.textContent = name; button.dataset.id = String(id); button.className = "move";
    button.addEventListener("click", () => { $("message").textContent = ""; send({type: "move", id: id}); });
    moves.appendChild(button);
  }
  if (!v.moves.length) {
    const none = document.createElement("span");
    none.className = "none"; none.textContent = me === null ? "(a spectator only watches)" : "(not your turn)";
    moves.appendChild(none);
  }
  $("undo").hidden = !m.undo || !!v.outcome;
  const log = $("log");
  log.textContent = "";
  for (const line of m.log) {
    const item = document.createElement("li");
    item.textContent = line;
    if (line.startsWith("COMPLAINT")) item.className = "complaint";
    log.appendChild(item);
  }
  log.scrollTop = log.scrollHeight;
  if (!legendShown && m.legend) {
    legendShown = true;
    for (const [term, meaning] of m.legend) {
      const dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = term; dd.textContent = meaning;
      $("legend").appendChild(dt); $("legend").appendChild(dd);
    }
  }
  const over = $("over");
  over.hidden = !v.outcome;
  if (v.outcome) {
    over.textContent = "";
    const p = document.createElement("p");
    p.id = "outcome";
    p.textContent = "Game over: " + v.outcome.description + " Returns: "
      + v.outcome.returns.map((r, s) => seatName(s, me) + " " + r).join(", ")
      + ". Winners: " + (v.outcome.winners.map((s) => seatName(s, me)).join(", ") || "nobody") + ".";
    over.appendChild(p);
    for (const [name, text] of [["replay.html", "the replay page"], ["record.json", "the record (JSON)"]]) {
      const a = document.createElement("a");
      a.href = location.pathname + "/" + name; a.textContent = text; a.className = "after";
      over.appendChild(a);
    }
  }
  if (m.error) $("message").textContent = "The table stopped: " + m.error;
  showGlass();
  document.body.dataset.step = String(m.step);
  document.body.dataset.toAct = v.to_act === null ? "" : String(v.to_act);
}

function addTooltips(legend) {
  // a component whose label starts with a legend's word (XLB, Small, Tea...) tells its meaning on hover
  if (!legend) return;
  const meaning = new Map(legend.map(([term, text]) => [term.split(/[ /]/)[0], term + ": " + text]));
  document.querySelectorAll("#board svg text").forEach((el) => {
    const word = (el.textContent || "").trim().split(/[ ·]/)[0];
    if (meaning.has(word)) {
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      title.textContent = meaning.get(word);
      el.appendChild(title);
    }
  });
}

function connect() {
  socket = new WebSocket(socketUrl);
  socket.addEventListener("open", () => { document.body.dataset.connected = "1"; });
  socket.addEventListener("message", (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "state") show(m);
    else if (m.type === "error") $("message").textContent = m.message;
  });
  socket.addEventListener("close", () => {
    document.body.dataset.connected = "";
    setTimeout(connect, 1000);  // the same link resumes the seat
  });
}

$("undo").addEventListener("click", () => send({type: "undo"}));
connect();
requestAnimationFrame(tick);
