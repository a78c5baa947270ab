// The lobby: make a table, or join or watch one.

import { api } from "./api.js";
import { SEATS, SEAT_NAMES } from "./cards.js";
import { h } from "./dom.js";
import { allSeats, keepName, keepSeat, myName } from "./seats.js";
import { PHASE_NAMES } from "./words.js";

function toast(message) {
  const node = document.getElementById("toast");
  node.textContent = message;
  node.className = "toast error";
  node.hidden = false;
  setTimeout(() => (node.hidden = true), 8000);
}

/** Open a table at its plain address: the seat's key stays in this browser's storage. */
function enter(tableId, seat, token) {
  keepSeat(tableId, seat, token);
  location.assign(`/table/${encodeURIComponent(tableId)}`);
}

export async function lobby(root) {
  document.getElementById("where").textContent = "Lobby";
  let bots = ["heuristic", "random"];
  try {
    bots = (await api("GET", "/api/bots")).bots;
  } catch (error) {
    toast(`Could not reach the server: ${error.message}`);
  }
  const mine = h("select", { id: "my-seat" }, SEATS.map((s) => h("option", { value: s, selected: s === "S" }, SEAT_NAMES[s])));
  const name = h("input", { id: "my-name", maxlength: "24", autocomplete: "nickname", placeholder: "Your name", value: myName() });
  const others = {};
  const seatRows = h("div", { class: "seat-choices" });
  function drawSeatRows() {
    seatRows.replaceChildren();
    for (const s of SEATS) {
      if (s === mine.value) continue;
      others[s] = h("select", { id: `seat-${s}` },
        h("option", { value: "open" }, "a person (open seat)"),
        bots.map((b) => h("option", { value: b, selected: b === "heuristic" }, `${b} bot`)));
      seatRows.append(h("div", { class: "seat-choice" }, h("label", { for: `seat-${s}`, text: `${SEAT_NAMES[s]} is played by` }), others[s]));
    }
  }
  mine.addEventListener("change", drawSeatRows);
  drawSeatRows();
  const create = h("button", { class: "primary", id: "create", type: "submit" }, "Create table");
  const form = h("form", { class: "panel new-table", "aria-labelledby": "new-table-title", onsubmit: async (event) => {
    event.preventDefault();
    create.disabled = true;
    keepName(name.value);
    const seats = {};
    for (const [s, select] of Object.entries(others)) if (s !== mine.value) seats[s] = select.value;
    try {
      const made = await api("POST", "/api/tables", { seats, me: mine.value, name: name.value });
      enter(made.table.id, made.seat, made.token);
    } catch (error) {
      toast(error.message);
      create.disabled = false;
    }
  } },
  h("h2", { id: "new-table-title", text: "New table" }),
  h("div", { class: "field-row" },
    h("div", { class: "field" }, h("label", { for: "my-name", text: "Your name" }), name),
    h("div", { class: "field" }, h("label", { for: "my-seat", text: "Your seat" }), mine)),
  seatRows,
  h("p", { class: "hint", text: "Open seats wait for friends: the table page gives you an invite link. You can fill them with bots at any time." }),
  create);

  const list = h("section", { class: "panel tables", "aria-labelledby": "tables-title" }, h("h2", { id: "tables-title", text: "Tables" }));
  let tables = [];
  try {
    tables = (await api("GET", "/api/tables")).tables;
  } catch (error) {
    toast(error.message);
  }
  drawTables(list, tables, name);
  root.replaceChildren(h("div", { class: "lobby" }, form, list));
}

function drawTables(list, tables, name) {
  const ours = allSeats();
  const groups = [
    ["open", "Open: seats waiting for players", tables.filter((t) => !t.started)],
    ["running", "Running", tables.filter((t) => t.started && t.phase !== "game-over")],
    ["finished", "Finished", tables.filter((t) => t.phase === "game-over")],
  ];
  list.querySelectorAll(".group").forEach((n) => n.remove());
  if (!tables.length) list.append(h("p", { class: "hint group", text: "No tables yet: create one." }));
  for (const [kind, title, rows] of groups) {
    if (!rows.length) continue;
    const group = h("div", { class: `group ${kind}`, dataset: { group: kind } }, h("h3", { text: title }));
    for (const table of rows) group.append(tableRow(table, ours[table.id], name));
    list.append(group);
  }
}

function tableRow(table, own, name) {
  const status = !table.started ? "waiting for players" : PHASE_NAMES[table.phase] || table.phase;
  const row = h("div", { class: "table-row", dataset: { table: table.id } },
    h("div", { class: "table-title" },
      h("strong", { text: `Table ${table.id}` }),
      h("span", { class: "muted", text: ` · ${status} · hand ${table.hand_number} · N–S ${table.scores[0]} · E–W ${table.scores[1]}` })));
  const seats = h("div", { class: "table-seats" });
  for (const slot of table.seats) {
    if (slot.kind === "open" && !own) {
      seats.append(h("button", { type: "button", class: "join", dataset: { seat: slot.seat, table: table.id }, onclick: async () => {
        try {
          keepName(name.value);
          const joined = await api("POST", `/api/tables/${table.id}/join`, { seat: slot.seat, name: name.value });
          enter(table.id, joined.seat, joined.token);
        } catch (error) {
          toast(error.message);
        }
      } }, `Sit ${SEAT_NAMES[slot.seat]}`));
    } else {
      seats.append(h("span", { class: `seat-tag ${slot.kind}` }, `${slot.seat}: ${slot.kind === "open" ? "open" : slot.name}${slot.kind === "bot" ? ` (${slot.bot} bot)` : ""}`));
    }
  }
  seats.append(own
    ? h("a", { class: "button primary", href: `/table/${table.id}` }, `Return as ${SEAT_NAMES[own.seat] || "your seat"}`)
    : h("a", { class: "button", href: `/table/${table.id}` }, table.phase === "game-over" ? "Look at it" : "Watch"));
  row.append(seats);
  return row;
}
