// The side panels and the bar at the top: the state of the game at a glance.

import { SEATS, SEAT_NAMES, TEAM_NAMES, cardFace, num, seatAfter, signed, suitMark, teamOf } from "./cards.js";
import { h } from "./dom.js";
import { forcedAuction } from "./model.js";
import { PHASE_NAMES, forcedSentence, sunkSentence } from "./words.js";

/** The bar: both totals against the target, the hand, the contract and the points taken. */
export function glanceKey(page) {
  const v = page.model.view;
  const t = page.model.table;
  return [page.seat, t.started, t.seats.map((s) => s.kind), page.summaryHand || null, v.scores, v.hand_number, v.dealer, v.phase, v.bidder, v.bid, v.sunk_suit, page.model.takenThisHand(), v.tricks.length, v.rules.target_score, v.bids.length];
}

export function glance(page) {
  const v = page.model.view;
  const mine = page.seat ? teamOf(page.seat) : null;
  const target = v.rules.target_score;
  const team = (i) => h("div", { class: `score${mine === i ? " ours" : ""}` },
    h("span", { class: "label", text: `${i === 0 ? "N–S" : "E–W"}${mine === i ? " (you)" : ""}` }),
    h("strong", { class: "total", text: String(v.scores[i]) }),
    h("span", { class: "of", text: `of ${target}` }));
  if (v.phase === "game-over") {
    const winner = v.winner === "NS" ? "North–South" : "East–West";
    return [team(0), h("div", { class: "facts" },
      h("div", { class: "fact-row" }, h("span", { class: "phase", text: `Game over after ${v.completed_hands.length} hands` })),
      h("p", { class: "explain", text: `${winner} win with the lower score, ${Math.min(...v.scores)} to ${Math.max(...v.scores)}.` })), team(1)];
  }
  if (!page.model.table.started) {
    // nothing is dealt until every seat is taken: say what the table waits for
    const taken = page.model.table.seats.filter((s) => s.kind !== "open").length;
    return [team(0), h("div", { class: "facts" },
      h("div", { class: "fact-row" }, h("span", { class: "phase", text: "Waiting for players" }), h("span", { text: `${taken} of 4 seats taken` })),
      h("p", { class: "explain", text: "The first hand is dealt when every seat is taken." })), team(1)];
  }
  if (page.summaryHand) {
    // the summary of a hand is open: the bar behind it stays on that hand
    return [team(0), h("div", { class: "facts" },
      h("div", { class: "fact-row" }, h("span", { class: "phase", text: `Hand ${page.summaryHand} · Scored` })),
      h("p", { class: "explain", text: `The next hand is dealt when everyone has read the summary.` })), team(1)];
  }
  const facts = [h("span", { class: "phase", text: `Hand ${v.hand_number} · ${PHASE_NAMES[v.phase] || v.phase}` }),
    h("span", { text: v.dealer === page.seat ? "You dealt" : `${page.name(v.dealer)} dealt` })];
  const lines = [];
  if (v.bidder && v.phase !== "bidding" && v.phase !== "deal") {
    const side = teamOf(v.bidder);
    const taken = page.model.takenThisHand();
    facts.push(h("span", { class: "contract" }, v.bidder === page.seat ? `Your contract: ${num(v.bid)}` : `Contract: ${page.name(v.bidder)}, ${num(v.bid)}`));
    if (v.sunk_suit) facts.push(h("span", { class: "sunk-fact" }, "Sunk ", suitMark(v.sunk_suit), ` ${v.sunk_suit === "C" ? "clubs" : v.sunk_suit === "D" ? "diamonds" : v.sunk_suit === "H" ? "hearts" : "spades"}`));
    if (v.phase === "play") {
      facts.push(h("span", { class: "taken" }, `Points taken: N–S ${taken[0]} · E–W ${taken[1]}`));
      const meld = sideMeld(page, side);
      lines.push(`${side === 0 ? "North–South" : "East–West"} bid ${num(v.bid)}: their points taken plus meld must end at most ${num(v.bid)} (now ${taken[side]} ${meld < 0 ? "−" : "+"} ${Math.abs(meld)} = ${num(taken[side] + meld)}).`);
    }
    if (forcedAuction(v.bids, v.dealer)) lines.push(forcedSentence(page.name(v.dealer), num(v.bid)));
    if (v.sunk_suit && v.phase !== "play") lines.push(sunkSentence(v.sunk_suit));
  } else if (v.phase === "bidding" && v.bidder) {
    facts.push(h("span", { class: "contract" }, v.bidder === page.seat ? `Your high bid: ${num(v.bid)}` : `High bid: ${page.name(v.bidder)}, ${num(v.bid)}`));
  }
  if (!lines.length) lines.push(`First side to ${target} loses: the lower score wins.`);
  return [team(0), h("div", { class: "facts" }, h("div", { class: "fact-row" }, facts), h("p", { class: "explain", text: lines.join(" ") })), team(1)];
}

function sideMeld(page, side) {
  const v = page.model.view;
  let total = 0;
  v.melds.forEach((codes, index) => {
    if (teamOf(SEATS[index]) !== side) return;
    for (const code of codes) total += (page.model.legend[code] || {}).value || 0;
  });
  return total;
}

/** The auction as a grid: one column per seat, from the dealer's left, one row per round. */
export function auction(page) {
  const v = page.model.view;
  const first = seatAfter(v.dealer, 1);
  const order = [0, 1, 2, 3].map((i) => seatAfter(first, i));
  const rows = [];
  let row = [];
  for (const call of v.bids) {
    row.push(call);
    if (row.length === 4) {
      rows.push(row);
      row = [];
    }
  }
  if (row.length) rows.push(row);
  const cell = (call) => call
    ? h("td", { class: call.type === "Pass" ? "pass" : "bid", text: call.type === "Pass" ? "pass" : num(call.amount) })
    : h("td", { class: "empty", text: "" });
  return [
    h("h3", { text: "Auction" }),
    v.bids.length || v.phase === "bidding"
      ? h("table", { class: "auction-grid" },
        h("thead", {}, h("tr", {}, order.map((s) => h("th", { scope: "col", title: SEAT_NAMES[s], text: page.short(s) })))),
        h("tbody", {}, (rows.length ? rows : [[]]).map((r) => h("tr", {}, [0, 1, 2, 3].map((i) => cell(r[i]))))))
      : h("p", { class: "muted", text: "No auction yet." }),
  ];
}

export function passes(page) {
  const v = page.model.view;
  const out = [h("h3", { text: "Invitation and passes" })];
  if (!v.bidder || v.phase === "bidding" || v.phase === "sunk-suit" || v.phase === "deal") {
    out.push(h("p", { class: "muted", text: "After the auction." }));
    return out;
  }
  out.push(h("div", {}, h("span", { class: "label", text: "Invitation " }), v.invitation.length ? v.invitation.map((c) => cardFace(c, { sunk: v.sunk_suit, cls: "small" })) : h("span", { class: "muted", text: v.phase === "invitation" ? "not yet" : "none" })));
  out.push(h("div", { class: "muted", text: `Partner to bidder ${v.pass_counts[0]}/3 · bidder to partner ${v.pass_counts[1]}/3` }));
  if (v.passed.length) out.push(h("div", {}, h("span", { class: "label", text: "You passed " }), v.passed.map((c) => cardFace(c, { sunk: v.sunk_suit, cls: "small" }))));
  if (v.received.length) out.push(h("div", {}, h("span", { class: "label", text: "You received " }), v.received.map((c) => cardFace(c, { sunk: v.sunk_suit, cls: "small" }))));
  return out;
}

export function melds(page) {
  const v = page.model.view;
  const value = (codes) => codes.reduce((t, code) => t + ((page.model.legend[code] || {}).value || 0), 0);
  return [h("h3", { text: "Melds on the table" }), h("table", {}, h("tbody", {}, SEATS.map((s, i) => h("tr", {},
    h("th", { scope: "row", text: page.short(s) }),
    h("td", { text: v.melds[i].length ? v.melds[i].map((c) => page.meldName(c)).join(", ") : "—" }),
    h("td", { class: "num", text: signed(value(v.melds[i])) })))))];
}

export function sheet(page) {
  const v = page.model.view;
  const out = [h("h3", { text: "Score sheet" })];
  if (!v.completed_hands.length) {
    out.push(h("p", { class: "muted", text: "No hand scored yet." }));
    return out;
  }
  const head = h("tr", {}, ["#", "Bid", "Sunk", "N–S", "E–W", "Totals", ""].map((t) => h("th", { scope: "col", text: t })));
  const rows = v.completed_hands.map((r) => h("tr", {},
    h("td", { text: String(r.number) }),
    h("td", { text: `${r.bidder} ${num(r.bid)}${r.made ? "" : " set"}`, title: r.made ? "made" : "set" }),
    h("td", {}, suitMark(r.sunk_suit), h("span", { class: "visually-hidden", text: r.sunk_suit })),
    h("td", { class: "num", text: num(r.scores[0]), title: `cards ${r.card_points[0]}, meld ${num(r.meld[0])}` }),
    h("td", { class: "num", text: num(r.scores[1]), title: `cards ${r.card_points[1]}, meld ${num(r.meld[1])}` }),
    h("td", { class: "num", text: `${num(r.totals[0])}–${num(r.totals[1])}` }),
    h("td", {}, h("button", { type: "button", class: "link", dataset: { key: `summary-${r.number}`, hand: String(r.number) }, "aria-label": `Summary of hand ${r.number}`, onclick: () => page.showSummary(r.number) }, "view"))));
  out.push(h("table", {}, h("thead", {}, head), h("tbody", {}, rows)));
  return out;
}

export function logLines(page) {
  const lines = page.model.log.slice(-60).reverse();
  return [h("h3", { text: "What happened" }),
    lines.length ? h("ol", { class: "log-lines", reversed: true }, lines.map((line) => h("li", { text: page.lineText(line) }))) : h("p", { class: "muted", text: "Nothing yet." })];
}

export { TEAM_NAMES };
