// The costly moments of a finished hand: the server analyses the hand in a worker process
// (GET /api/tables/ID/analysis/N answers "pending" until it is ready); this module asks
// again every few seconds and shows the decisions that cost points, each with a link to its
// step of the replay when the game is over.

import { api } from "./api.js";
import { SEAT_NAMES, SUIT_NAMES, cardName, num } from "./cards.js";
import { h } from "./dom.js";

const POLL_MS = 2500;
const PHASES = {
  bidding: "auction", "sunk-suit": "sunk suit", invitation: "invitation",
  "partner-pass": "partner's pass", "bidder-meld": "bidder's meld", "bidder-pass": "bidder's pass",
  melding: "melds",
};

/** A choice in words, from the record notation ("E:7S", "S:B90", "N:GIVE:8D", ...). */
export function choiceWords(notation) {
  const body = notation.slice(notation.indexOf(":") + 1);
  if (body === "P") return "pass";
  if (body === "DONE") return "done";
  if (/^B-?\d+$/.test(body)) return `bid ${body.slice(1)}`;
  const [verb, argument] = body.split(":");
  if (verb === "SINK") return `sink ${SUIT_NAMES[argument]}`;
  if (verb === "SHOW" || verb === "GIVE") return `the ${cardName(argument)}`;
  if (verb === "MELD") return `the meld ${argument}`;
  if (/^[2-8][CDHS]$/.test(body)) return `the ${cardName(body)}`;
  return body;
}

/** One costly moment as a list item; `stepLink(step)` gives a link to its replay step. */
function momentItem(moment, name, stepLink) {
  const where = moment.trick ? `Trick ${moment.trick}` : PHASES[moment.phase] || moment.phase;
  const how = moment.method === "exact"
    ? "exact, every hand seen"
    : `estimate over ${moment.fresh} deals, ±${Math.round(2 * moment.margin)}`;
  const cost = Number.isInteger(moment.cost) ? moment.cost : moment.cost.toFixed(1);
  return h("li", { class: "moment", dataset: { step: String(moment.step), seat: moment.seat } },
    h("span", { class: "moment-where", text: `${where}: ` }),
    `${name(moment.seat)} chose ${choiceWords(moment.played)}; best was ${choiceWords(moment.best)} `,
    h("strong", { class: "moment-cost", text: `(cost ${cost})` }),
    h("span", { class: "muted", text: ` · ${how}` }),
    stepLink ? [" ", stepLink(moment.step)] : null);
}

/** The analysis of hand `hand` as a section; filled in when the server has it. */
export function analysisSection(tableId, hand, { name = (s) => SEAT_NAMES[s], stepLink = null } = {}) {
  const body = h("div", { class: "analysis-body", "aria-live": "polite" },
    h("p", { class: "muted", text: "Analysing the hand… (seconds to a few minutes, as busy as the server is)" }));
  const section = h("section", { class: "summary-analysis", dataset: { hand: String(hand), state: "pending" } },
    h("h3", { text: "Costly moments" }), body);
  const show = (data) => {
    section.dataset.state = data.status;
    if (data.status === "failed") {
      body.replaceChildren(h("p", { class: "muted", text: "The analysis of this hand failed." }));
      return;
    }
    const notes = [];
    notes.push(`${data.decisions} decisions analysed, ${data.exact} of them exactly`);
    if (data.hidden) notes.push(`the ${data.hidden} pass decisions are shown after the game`);
    if (data.skipped) notes.push(`${data.skipped} not reached in time`);
    body.replaceChildren(
      data.moments.length
        ? h("ol", { class: "moments" }, data.moments.map((m) => momentItem(m, name, stepLink)))
        : h("p", { text: "No decision cost 10 points or more: well played." }),
      h("p", { class: "muted small", text: `${notes.join("; ")}. The cost is the points given away to the other side against the best choice.` }));
  };
  const poll = async () => {
    if (!section.isConnected && section.dataset.started) return; // the dialog was closed
    section.dataset.started = "yes";
    let data;
    try {
      data = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/analysis/${hand}`);
    } catch {
      data = { status: "failed" };
    }
    if (data.status === "pending") setTimeout(poll, POLL_MS);
    else show(data);
  };
  poll();
  return section;
}

/** What the hint bot would do, in words ("bid 90", "play the 7 of spades"), from the wire form. */
export function hintWords(action, meldName = (code) => code) {
  switch (action.type) {
    case "Bid":
      return `bid ${num(action.amount)}.`;
    case "Pass":
      return "pass.";
    case "NameSunkSuit":
      return `sink ${SUIT_NAMES[action.suit]}.`;
    case "ShowCard":
      return `show the ${cardName(action.card)}.`;
    case "PassCard":
      return `pass the ${cardName(action.card)}.`;
    case "DeclareMeld":
      return `declare ${meldName(action.meld)}.`;
    case "Done":
      return "be done.";
    case "PlayCard":
      return `play the ${cardName(action.card)}.`;
    default:
      return `${action.type}.`;
  }
}
