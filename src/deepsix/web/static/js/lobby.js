// The lobby: make a table, or join or watch one.

import { api } from "./api.js";
import { SEATS, SEAT_NAMES } from "./cards.js";
import { Connection } from "./connection.js";
import { h } from "./dom.js";
import { PROTOCOL, lobbySocket } from "./protocol.js";
import { allSeats, keepName, myName, noteSeat } from "./seats.js";
import { PHASE_NAMES } from "./words.js";

function toast(message) {
  const node = document.getElementById("toast");
  node.textContent = message;
  node.className = "toast error";
  node.hidden = false;
  setTimeout(() => (node.hidden = true), 8000);
}

/** Open a table at its plain address: the seat's key is in the cookie the answer set. */
function enter(tableId, seat) {
  noteSeat(tableId, seat);
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
  const privacy = h("input", { type: "checkbox", id: "private" });
  const hints = h("input", { type: "checkbox", id: "hints" });
  const create = h("button", { class: "primary", id: "create", type: "submit" }, "Create table");
  const form = h("form", { class: "panel new-table", "aria-labelledby": "new-table-title", onsubmit: async (event) => {
    event.preventDefault();
    create.disabled = true;
    keepName(name.value);
    const seats = {};
    for (const [s, select] of Object.entries(others)) if (s !== mine.value) seats[s] = select.value;
    try {
      const body = { seats, me: mine.value, name: name.value };
      body.private = privacy.checked;
      if (hints.checked) body.hint = true;
      const made = await api("POST", "/api/tables", body);
      enter(made.table.id, made.seat);
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
  h("label", { class: "check", for: "private" }, privacy, " Private: not listed here, invite link only"),
  h("label", { class: "check", for: "hints" }, hints, " Hints: a player may ask the quick search bot what it would do on their turn"),
  h("p", { class: "hint", text: "Open seats wait for friends: the table page gives you an invite link. You can fill them with bots at any time." }),
  create);

  const list = h("section", { class: "panel tables", "aria-labelledby": "tables-title", "aria-live": "polite" }, h("h2", { id: "tables-title", text: "Tables" }));
  root.replaceChildren(h("div", { class: "lobby" }, form, list));
  // live: the server pushes the lobby whenever a listed table changes
  const more = { tables: [], next: undefined };
  const socket = new Connection(lobbySocket(), () => ({ op: "hello", protocol: PROTOCOL }), {
    message: (frame) => {
      if (frame.op === "lobby") drawTables(list, frame, name, more);
    },
    status: () => {},
  }, { heartbeat: true }); // a silent socket is closed by the server after a while
  socket.open();
}

function drawTables(list, frame, name, more) {
  const ours = allSeats();
  const finished = [...frame.finished, ...(more ? more.tables.filter((t) => !frame.finished.some((f) => f.id === t.id)) : [])];
  const groups = [
    ["open", "Open: seats waiting for players", frame.open],
    ["running", "Running", frame.running],
    ["finished", "Finished", finished],
  ];
  list.querySelectorAll(".group").forEach((n) => n.remove());
  if (!frame.open.length && !frame.running.length && !finished.length) list.append(h("p", { class: "hint group", text: "No tables yet: create one." }));
  for (const [kind, title, rows] of groups) {
    if (!rows.length) continue;
    const group = h("div", { class: `group ${kind}`, dataset: { group: kind } }, h("h3", { text: title }));
    for (const table of rows) group.append(tableRow(table, ours[table.id], name));
    list.append(group);
  }
  if (more && frame.finished.length && more.next !== null) {
    list.append(h("div", { class: "group" }, h("button", { type: "button", id: "more-finished", onclick: async () => {
      const last = finished[finished.length - 1];
      const cursor = more.next || `${last.created}:${last.id}`;
      try {
        const page = await api("GET", `/api/tables?status=finished&before=${encodeURIComponent(cursor)}`);
        more.tables.push(...page.tables);
        more.next = page.next;
        drawTables(list, frame, name, more);
      } catch (error) {
        toast(error.message);
      }
    } }, "Older finished tables")));
  }
  if (frame.quarantined && frame.quarantined.length) {
    list.append(h("div", { class: "group quarantined" }, h("h3", { text: "Kept aside (could not be restored)" }),
      h("ul", {}, frame.quarantined.map((q) => h("li", { text: `Table ${q.id}: ${q.reason}` })))));
  }
}

function tableRow(table, own, name) {
  let status = !table.started ? "waiting for players" : PHASE_NAMES[table.phase] || table.phase;
  if (table.result && table.result.reason !== "game-over") status = table.result.reason;
  if (table.seeded) status += " · seeded deals";
  if (table.clock) status += ` · ${Math.round(table.clock)} s clock`;
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
          const joined = await api("POST", `/api/tables/${encodeURIComponent(table.id)}/join`, { seat: slot.seat, name: name.value });
          enter(table.id, joined.seat);
        } catch (error) {
          toast(error.message);
        }
      } }, `Sit ${SEAT_NAMES[slot.seat]}`));
    } else {
      seats.append(h("span", { class: `seat-tag ${slot.kind}` }, `${slot.seat}: ${seatWords(slot)}`));
    }
  }
  seats.append(own
    ? h("a", { class: "button primary", href: `/table/${table.id}` }, `Return as ${SEAT_NAMES[own] || "your seat"}`)
    : h("a", { class: "button", href: `/table/${table.id}` }, table.phase === "game-over" ? "Look at it" : "Watch"));
  if (table.phase === "game-over" || table.status === "finished") seats.append(h("a", { class: "button", href: `/replay/${table.id}` }, "Replay"));
  row.append(seats);
  return row;
}

/** Who holds a seat, and who held it before when it changed hands ("Bob, then the heuristic bot"). */
function seatWords(slot) {
  const played = slot.played || [];
  if (played.length > 1) return played.map((holder) => (holder.kind === "human" ? holder.name : `the ${holder.name} bot`)).join(", then ");
  if (slot.kind === "open") return "open";
  return `${slot.name}${slot.kind === "bot" ? ` (${slot.bot} bot)` : ""}`;
}
