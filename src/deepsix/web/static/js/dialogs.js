// Dialogs: the end-of-hand summary, the last trick, and the rules.  Native <dialog>
// elements: modal, keyboard-trapped, closed by Escape, focus returned where it was.

import { SEATS, SEAT_NAMES, TEAM_NAMES, cardFace, cardName, num, signed, suitMark, teamOf } from "./cards.js";
import { h } from "./dom.js";
import { api } from "./api.js";
import { analysisSection } from "./analysis.js";

export function openDialog({ title, body, actions = [], onClose = null, cls = "" }) {
  const returnTo = document.activeElement;
  const heading = h("h2", { id: `dialog-title-${Date.now()}`, text: title });
  const dialog = h("dialog", { class: `dialog ${cls}`, "aria-labelledby": heading.id },
    h("div", { class: "dialog-head" }, heading,
      h("button", { type: "button", class: "close", "aria-label": "Close", onclick: () => dialog.close() }, "×")),
    h("div", { class: "dialog-body", tabindex: "0", role: "group", "aria-label": title }, body), // scrollable: reachable by keyboard
    actions.length ? h("div", { class: "dialog-actions buttons" }, actions) : null);
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (onClose) onClose(dialog.returnValue);
    if (returnTo && document.contains(returnTo) && !returnTo.disabled) returnTo.focus({ preventScroll: true });
  });
  document.body.append(dialog);
  dialog.showModal();
  const first = dialog.querySelector(".dialog-actions button") || dialog.querySelector("button");
  if (first) first.focus();
  return dialog;
}

/** A trick as four cards in play order, the leader and the winner marked. */
export function trickRow(page, trick, sunk) {
  return h("ol", { class: "trick-row", "aria-label": `Trick ${trick.number}` }, trick.plays.map(([seat, card], i) => {
    const won = seat === trick.winner;
    return h("li", { class: `trick-play${won ? " won" : ""}` },
      cardFace(card, { sunk, cls: won ? "winning" : "", props: { "data-card": card, "data-seat": seat } }),
      h("span", { class: "who", text: page.name(seat) }),
      h("span", { class: "note", text: `${i === 0 ? "led" : `${i + 1}${["st", "nd", "rd", "th"][i]}`}${won ? " · took it" : ""}` }),
      h("span", { class: "visually-hidden", text: `${cardName(card)}` }));
  }));
}

export function showLastTrick(page, trick) {
  const v = page.model.view;
  const story = page.model.hands.get(trick.hand);
  const sunk = story ? story.sunk : v.sunk_suit;
  openDialog({
    title: `Last trick: trick ${trick.number}${trick.hand !== v.hand_number ? ` of hand ${trick.hand}` : ""}`,
    cls: "last-trick-dialog",
    body: [trickRow(page, trick, sunk),
      h("p", { text: `${page.name(trick.winner)} took it${trick.points ? `, with ${trick.points} points` : ", no points"}.` })],
    actions: [h("button", { type: "button", class: "primary", dataset: { key: "close-last" }, onclick: (e) => e.target.closest("dialog").close() }, "Back to the table")],
  });
}

/** The end-of-hand summary: numbers from the engine's record, melds and tricks from events. */
export function summaryBody(page, story) {
  const r = story.record;
  const bidderSide = teamOf(r.bidder);
  const tricks = [0, 0];
  for (const t of story.tricks) tricks[teamOf(t.winner)] += 1;
  const haveTricks = story.tricks.length === 14;
  const melds = [[], []];
  story.melds.forEach((codes, index) => {
    for (const code of codes) melds[teamOf(SEATS[index])].push(`${page.meldName(code)} (${SEATS[index]})`);
  });
  const target = page.model.view.rules.target_score;
  const head = h("tr", {}, h("th", { scope: "col", text: "" }), [0, 1].map((i) => h("th", { scope: "col", class: "num", text: `${i === 0 ? "N–S" : "E–W"}${page.seat && teamOf(page.seat) === i ? " (you)" : ""}${bidderSide === i ? " · bidder" : ""}` })));
  const row = (label, cells, name, cls = "") => h("tr", { class: cls, dataset: { row: name } }, h("th", { scope: "row", text: label }), cells.map((c, i) => h("td", { class: "num", dataset: { value: String(raw[name] ? raw[name][i] : "") }, text: String(c) })));
  const raw = { card_points: r.card_points, meld: r.meld, net: r.net, scores: r.scores, totals: r.totals, tricks };
  const last = story.lastTrick;
  const side = TEAM_NAMES[bidderSide ? "EW" : "NS"];
  const was = r.bidder === page.seat ? "were" : "was";
  const made = r.made
    ? `${page.name(r.bidder)} bid ${num(r.bid)} and made it: ${side} netted ${num(r.net[bidderSide])}, no more than the bid.`
    : `${page.name(r.bidder)} bid ${num(r.bid)} and ${was} set: ${side} netted ${num(r.net[bidderSide])}, more than the bid, so they score ${r.scores[bidderSide]} (200 − ${num(r.bid)}, meld not counted).`;
  return [
    h("p", { class: `verdict ${r.made ? "made" : "set"}`, text: made }),
    h("p", { class: "muted" }, "Sunk suit ", suitMark(r.sunk_suit), ` · dealer ${page.name(r.dealer)}`),
    h("table", { class: "summary-table" }, h("thead", {}, head), h("tbody", {},
      haveTricks ? row("Tricks taken", tricks, "tricks") : null,
      row("Card points", r.card_points.map(num), "card_points"),
      h("tr", { dataset: { row: "meld" } }, h("th", { scope: "row", text: "Meld" }), [0, 1].map((i) => h("td", { class: "num", dataset: { value: String(r.meld[i]) } },
        h("span", { class: "meld-list", text: melds[i].length ? melds[i].join(", ") : story.melds.some((m) => m.length) ? "none" : "" }), " ", signed(r.meld[i])))),
      row("Net", r.net.map(signed), "net"),
      row("Scored this hand", r.scores.map((s) => `+${s}`), "scores", "scored"),
      row(`Totals (${target} loses)`, r.totals.map(num), "totals", "totals"))),
    last ? h("div", { class: "summary-last" }, h("h3", { text: `Last trick (the 14th: +10 to its taker)` }), trickRow(page, { ...last }, r.sunk_suit)) : null,
  ];
}

export function showSummary(page, number, { live = false, onDismiss = null } = {}) {
  const story = page.model.hands.get(number);
  const record = story && story.record ? story : null;
  const fallback = page.model.view.completed_hands.find((r) => r.number === number);
  const shown = record || Object.assign(Object.create(Object.getPrototypeOf(story || {})), { number, melds: [[], [], [], []], tricks: [], record: fallback, lastTrick: null });
  if (!shown.record) return null;
  const over = page.model.view.phase === "game-over" && number === page.model.view.completed_hands.length;
  return openDialog({
    title: `Hand ${number}: summary`,
    cls: "summary-dialog",
    body: [...summaryBody(page, shown), analysisSection(page.tableId, number, { name: (s) => page.name(s) })],
    actions: [h("button", { type: "button", class: "primary", id: "summary-dismiss", dataset: { key: "summary-dismiss" }, onclick: (e) => e.target.closest("dialog").close("dismissed") },
      live ? (over ? "See the final result" : "Next hand") : "Close")],
    onClose: onDismiss,
  });
}

let rulesText = null;

export async function showRules(page, focusRule = null) {
  if (!rulesText) {
    try {
      rulesText = (await api("GET", "/api/rules")).rules;
    } catch {
      rulesText = {};
    }
  }
  const groups = new Map();
  for (const [id, text] of Object.entries(rulesText)) {
    const group = id.split("-")[1];
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push([id, text]);
  }
  const body = groups.size
    ? h("dl", { class: "rules-list" }, [...groups.values()].flat().map(([id, text]) => [
      h("dt", { id: `rule-${id}`, class: id === focusRule ? "target" : "", text: id }),
      h("dd", { class: id === focusRule ? "target" : "", text })]))
    : h("p", { text: "The rules could not be loaded from the server." });
  const dialog = openDialog({
    title: "Rules of Deep Six",
    cls: "rules-dialog",
    body: [h("p", { class: "hint", text: "Four players, two partnerships. Avoid taking 2s (20 points) and 3s (10); the last trick is worth 10. Lowest score wins once a side reaches 500." }), body],
  });
  if (focusRule) dialog.querySelector(`#rule-${CSS.escape(focusRule)}`)?.scrollIntoView({ block: "center" });
  return dialog;
}

export { SEAT_NAMES };
