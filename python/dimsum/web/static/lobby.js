"use strict";
// The lobby: a game, its options and who sits where (humans, and the operator's bots by name).
const $ = (id) => document.getElementById(id);
let info = null;

function seatRows() {
  const n = Math.max(1, Math.min(16, Number($("players").value) || 1));
  const box = $("seats");
  const old = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.textContent = "";
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.textContent = "Seat " + i + " ";
    const select = document.createElement("select");
    select.className = "seat";
    for (const name of ["human"].concat(info.bots)) {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = name === "human" ? "a human (a link)" : "bot: " + name;
      select.appendChild(option);
    }
    select.value = old[i] || (i === 0 ? "human" : (info.bots.includes("random") ? "random" : info.bots[0]));
    label.appendChild(select);
    box.appendChild(label);
  }
}

function chooseGame() {
  const game = info.games[$("game").value];
  const small = Object.assign({}, game.small);
  $("players").value = String(small.players || game.players);
  delete small.players;
  $("options").value = JSON.stringify(small);
  seatRows();
}

async function openTable() {
  $("lobby-error").textContent = "";
  $("links").textContent = "";
  let options;
  try { options = JSON.parse($("options").value || "{}"); } catch (e) {
    $("lobby-error").textContent = "Options are JSON, e.g. {\"rounds\": 1}";
    return;
  }
  const seats = Array.from(document.querySelectorAll("#seats select")).map((s) => s.value);
  options.players = seats.length;
  const response = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({game: $("game").value, options: options, seats: seats})});
  const made = await response.json();
  if (!response.ok) { $("lobby-error").textContent = made.error; return; }
  made.seats.forEach((link, i) => {
    if (!link) return;
    const item = document.createElement("li");
    const a = document.createElement("a");
    a.href = link; a.textContent = "seat " + i; a.className = "seat-link"; a.dataset.seat = String(i);
    item.appendChild(a);
    item.appendChild(document.createTextNode(" (" + location.origin + link + ")"));
    $("links").appendChild(item);
  });
  const item = document.createElement("li");
  const a = document.createElement("a");
  a.href = made.spectator; a.textContent = "spectator"; a.id = "spectator-link";
  item.appendChild(a);
  $("links").appendChild(item);
}

fetch("/api/lobby").then((r) => r.json()).then((data) => {
  info = data;
  for (const name of Object.keys(info.games)) {
    const option = document.createElement("option");
    option.value = name; option.textContent = info.games[name].title;
    $("game").appendChild(option);
  }
  $("game").addEventListener("change", chooseGame);
  $("players").addEventListener("change", seatRows);
  $("open").addEventListener("click", openTable);
  chooseGame();
  document.body.dataset.ready = "1";
});
