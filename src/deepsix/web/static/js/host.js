// The host's controls (protocol 2): make the table private, set the turn clock, give a
// seat a new key (the old one stops working) or hand it to a bot, end the table.

import { api } from "./api.js";
import { SEATS, SEAT_NAMES } from "./cards.js";
import { h } from "./dom.js";
import { openDialog } from "./dialogs.js";

export function hostKey(page) {
  const t = page.model.table;
  return [page.host, t.private, t.clock, t.status, t.seats.map((s) => [s.kind, s.name])];
}

export function hostPanel(page) {
  const table = page.model.table;
  if (!page.host) return [];
  const id = encodeURIComponent(page.tableId);
  const call = async (method, path, body) => {
    try {
      return await api(method, `/api/tables/${id}${path}`, body);
    } catch (error) {
      page.toast(error.message);
      return null;
    }
  };
  const clocks = [["", "no clock"], ["30", "30 s a move"], ["60", "1 min a move"], ["120", "2 min a move"]];
  const current = table.clock ? String(Math.round(table.clock)) : "";
  const clock = h("select", { id: "host-clock", dataset: { key: "host-clock" }, onchange: (e) => call("POST", "/settings", { clock: e.target.value ? Number(e.target.value) : null }) },
    clocks.map(([value, label]) => h("option", { value, selected: value === current }, label)));
  if (current && !clocks.some(([value]) => value === current)) clock.append(h("option", { value: current, selected: true }, `${current} s a move`));
  const rows = SEATS.map((seat, index) => {
    const slot = table.seats[index];
    if (slot.kind !== "human" || seat === page.seat) return null;
    return h("li", {}, h("span", { text: `${SEAT_NAMES[seat]}: ${slot.name}` }), " ",
      h("button", { type: "button", class: "small-button", dataset: { key: `reissue-${seat}`, seat }, onclick: async () => {
        const made = await call("POST", `/seats/${seat}/credential`);
        if (made) newKeyDialog(page, seat, made.token);
      } }, "New key"),
      " ",
      h("button", { type: "button", class: "small-button", dataset: { key: `to-bot-${seat}`, seat }, onclick: () => call("POST", `/seats/${seat}/bot`, {}) }, "Give to a bot"));
  }).filter(Boolean);
  return [
    h("h3", { text: "Host" }),
    h("label", { class: "check" }, h("input", { type: "checkbox", id: "host-private", dataset: { key: "host-private" }, checked: table.private, onchange: (e) => call("POST", "/settings", { private: e.target.checked }) }),
      " Private: not in the lobby, invite link only"),
    h("div", { class: "field-inline" }, h("label", { for: "host-clock", text: "Turn clock " }), clock),
    rows.length ? h("ul", { class: "host-seats" }, rows) : null,
    table.status !== "finished"
      ? h("button", { type: "button", class: "danger", dataset: { key: "abandon" }, onclick: () => confirmDialog("End this table for everyone?", "End the table", () => call("POST", "/abandon")) }, "End the table")
      : null,
  ];
}

/** A new key for a seat, shown once to the host as a link to hand to its player. */
function newKeyDialog(page, seat, token) {
  const link = `${location.origin}/table/${page.tableId}#seat=${seat}&token=${token}`;
  openDialog({
    title: `A new key for ${SEAT_NAMES[seat]}`,
    body: [h("p", { text: "The old key no longer works. Give this link to the seat's player, privately: it seats whoever opens it." }),
      h("input", { class: "key-link", readonly: true, value: link, "aria-label": "The seat's new link", onfocus: (e) => e.target.select() })],
    actions: [h("button", { type: "button", class: "primary", onclick: (e) => e.target.closest("dialog").close() }, "Done")],
  });
}

export function confirmDialog(question, yes, action) {
  openDialog({
    title: question,
    body: [],
    actions: [
      h("button", { type: "button", dataset: { key: "confirm-no" }, onclick: (e) => e.target.closest("dialog").close() }, "Cancel"),
      h("button", { type: "button", class: "danger", dataset: { key: "confirm-yes" }, onclick: (e) => { e.target.closest("dialog").close(); action(); } }, yes),
    ],
  });
}
