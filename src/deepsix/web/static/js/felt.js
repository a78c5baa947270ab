// The felt: the four seats around the trick in progress.
//
// The trick shows each card at its player's place with its place in the order of play;
// the leader is marked, and so is the card winning the trick as it stands (the server's
// answer, from the library's rule of the last suit introduced) -- the thing players most
// need to see.  A finished trick stays, with its winner, until the next lead, and the last
// trick can be looked at again at any time.

import { SEATS, SEAT_NAMES, cardFace, cardName, num, partnerOf, teamOf } from "./cards.js";
import { h, region, reducedMotion, setText } from "./dom.js";
import { PHASE_NAMES } from "./words.js";

const PLACES = ["bottom", "left", "top", "right"];

export function place(seat, viewer) {
  const me = SEATS.indexOf(viewer || "S");
  return PLACES[(SEATS.indexOf(seat) - me + 4) % 4];
}

export class Felt {
  constructor(page) {
    this.page = page; // the TablePage: model, names, actions
    this.seats = {};
    for (const seat of SEATS) this.seats[seat] = h("div", { class: "seat", dataset: { seat } });
    this.slots = {};
    for (const seat of SEATS) this.slots[seat] = h("div", { class: "slot", dataset: { seat } });
    this.trick = h("div", { class: "trick", role: "group", "aria-label": "The trick" }, SEATS.map((s) => this.slots[s]));
    this.caption = h("p", { class: "caption", id: "trick-caption" });
    this.lastButton = h("button", { type: "button", class: "last-trick-button", dataset: { key: "last-trick" }, onclick: () => page.showLastTrick() }, "Last trick");
    this.invitation = h("div", { class: "invitation" });
    this.center = h("div", { class: "center" }, this.trick, this.caption, this.invitation);
    this.node = h("section", { class: "felt", "aria-label": "The table" }, SEATS.map((s) => this.seats[s]), this.center, h("div", { class: "felt-tools" }, this.lastButton));
    this.shown = new Map(); // seat -> key of the card drawn in its slot
  }

  update() {
    const model = this.page.model;
    const v = model.view;
    const viewer = this.page.seat;
    for (const seat of SEATS) {
      const node = this.seats[seat];
      node.className = `seat ${place(seat, viewer)}${v.to_act === seat ? " to-act" : ""}${seat === viewer ? " me" : ""}`;
      region(node, this.seatKey(seat), () => this.seatBox(seat));
    }
    this.updateTrick();
    const last = model.lastTrick();
    this.lastButton.disabled = !last;
    const inviting = ["partner-pass", "bidder-meld", "bidder-pass", "melding"].includes(v.phase);
    region(this.invitation, inviting ? [v.invitation, v.sunk_suit] : null, () =>
      inviting && v.invitation.length
        ? [h("span", { class: "label", text: `${this.page.name(v.bidder)} ${v.bidder === this.page.seat ? "invite" : "invites"}` }), v.invitation.map((c) => cardFace(c, { sunk: v.sunk_suit, cls: "small" }))]
        : []);
  }

  seatKey(seat) {
    const model = this.page.model;
    const v = model.view;
    const index = SEATS.indexOf(seat);
    const slot = model.table.seats[index];
    const calls = v.bids.filter((b) => b.seat === seat);
    return [seat, this.page.seat, slot, v.to_act === seat, v.dealer, v.hand_sizes[index], v.phase === "bidding" ? calls[calls.length - 1] || null : null,
      v.bidder === seat && v.phase !== "bidding" ? v.bid : null, v.melds[index], !!this.page.clockFor(seat)];
  }

  seatBox(seat) {
    const page = this.page;
    const v = page.model.view;
    const index = SEATS.indexOf(seat);
    const slot = page.model.table.seats[index];
    const viewer = page.seat;
    let relation = null;
    if (viewer) relation = seat === viewer ? "you" : seat === partnerOf(viewer) ? "partner" : "opponent";
    const calls = v.bids.filter((b) => b.seat === seat);
    const last = calls[calls.length - 1];
    const clock = page.clockFor(seat);
    const presence = slot.kind === "bot" ? "online" : slot.presence || (slot.online ? "online" : "offline");
    const label = slot.kind === "open" ? "open seat" : presence === "away" ? "connected, silent" : presence;
    return [
      h("div", { class: "who" },
        h("span", { class: `dot ${presence}`, role: "img", "aria-label": label, title: label }),
        h("strong", { class: "name", text: page.name(seat, false) }),
        relation ? h("span", { class: `tag rel-${relation}`, text: relation }) : h("span", { class: "tag", text: teamOf(seat) === 0 ? "N–S" : "E–W" }),
        slot.kind === "bot" ? h("span", { class: "tag", title: `played by the ${slot.bot} bot`, text: `${slot.bot} bot` }) : null,
        slot.kind === "open" ? h("span", { class: "tag open", text: "open seat" }) : null,
        slot.standin ? h("span", { class: "tag standin", text: `${slot.standin} bot standing in` }) : null,
        v.dealer === seat ? h("span", { class: "tag dealer", title: "the dealer", text: "dealer" }) : null),
      h("div", { class: "meta" },
        h("span", { text: `${v.hand_sizes[index]} cards` }),
        last && v.phase === "bidding" ? h("span", { class: "call", text: last.type === "Pass" ? "passed" : `bid ${num(last.amount)}` }) : null,
        v.bidder === seat && v.phase !== "bidding" && v.phase !== "deal" ? h("span", { class: "call", text: `contract ${num(v.bid)}` }) : null,
        v.to_act === seat ? h("span", { class: "turn", text: seat === viewer ? "your turn" : "to act" }) : null,
        clock ? h("span", { class: "clock", dataset: { clock: seat }, text: "" }) : null),
      v.melds[index].length ? h("div", { class: "melds" }, v.melds[index].map((code) => h("span", { class: "meld-chip", text: page.meldName(code) }))) : null,
    ];
  }

  /** The plays on the felt: the trick in progress, or the one just finished (until the next lead). */
  shownTrick() {
    const v = this.page.model.view;
    if (v.trick.length) return { plays: v.trick, finished: false, number: v.tricks.length + 1, winner: this.page.model.winning };
    if (v.phase === "play" && v.tricks.length) {
      const last = v.tricks[v.tricks.length - 1];
      return { plays: last.plays, finished: true, number: v.tricks.length, winner: last.winner };
    }
    if (v.phase === "deal" || v.phase === "game-over") {
      const last = this.page.model.lastTrick();
      if (last && (last.hand === v.hand_number - 1 || v.phase === "game-over")) return { plays: last.plays, finished: true, number: last.number, winner: last.winner };
    }
    return { plays: [], finished: false, number: v.tricks.length + 1, winner: null };
  }

  updateTrick() {
    const page = this.page;
    const v = page.model.view;
    const shown = this.shownTrick();
    this.trick.classList.toggle("finished", shown.finished);
    const order = new Map(shown.plays.map(([seat, card], i) => [seat, { card, i }]));
    for (const seat of SEATS) {
      const slot = this.slots[seat];
      slot.className = `slot ${place(seat, page.seat)}`;
      const play = order.get(seat);
      // the mark says "winning" in a trick in progress and "took it" in a finished one
      const key = play ? `${v.hand_number}:${shown.number}:${play.card}:${play.i}:${shown.winner === seat ? (shown.finished ? "took" : "w") : ""}` : "";
      if (this.shown.get(seat) === key) continue;
      const fresh = play && (this.shown.get(seat) || "").split(":").slice(0, 3).join(":") !== key.split(":").slice(0, 3).join(":");
      this.shown.set(seat, key);
      if (!play) {
        slot.replaceChildren();
        continue;
      }
      const winning = shown.winner === seat;
      const card = cardFace(play.card, { sunk: v.sunk_suit, cls: `played${winning ? " winning" : ""}${play.i === 0 ? " led" : ""}` });
      card.setAttribute("aria-label", `${page.name(seat)}: ${cardName(play.card)}${play.i === 0 ? ", led" : ""}${winning ? (shown.finished ? ", took the trick" : ", winning") : ""}`);
      const badges = h("span", { class: "order", "aria-hidden": "true", title: play.i === 0 ? "led" : `played ${play.i + 1}${["st", "nd", "rd", "th"][play.i]}`, text: play.i === 0 ? "led" : String(play.i + 1) });
      const mark = winning ? h("span", { class: "winner-mark", "aria-hidden": "true", text: shown.finished ? "took it" : "winning" }) : null;
      slot.replaceChildren(card, badges, mark || "");
      if (fresh && !reducedMotion()) {
        card.classList.add(`from-${place(seat, page.seat)}`);
      }
    }
    let caption = "";
    if (shown.plays.length && shown.finished) caption = `Trick ${shown.number}: ${page.name(shown.winner)} took it.`;
    else if (shown.plays.length) caption = shown.winner ? `${page.name(shown.winner)} ${shown.winner === page.seat ? "are" : "is"} winning the trick.` : `${page.name(shown.plays[0][0])} led.`;
    else if (v.phase === "play" && v.to_act) caption = `${page.name(v.to_act)} ${v.to_act === page.seat ? "lead" : "leads"} trick ${v.tricks.length + 1}.`;
    else if (!page.model.table.started) caption = "Waiting for players to take the open seats.";
    else if (v.phase === "deal" && page.summaryHand) caption = `Hand ${page.summaryHand} is over.`;
    else if (v.phase === "deal") caption = v.completed_hands.length ? "The next hand is dealt when everyone has read the summary." : "Dealing…";
    else if (v.phase !== "game-over" && v.to_act) caption = v.to_act === page.seat ? `${PHASE_NAMES[v.phase]}: your turn.` : `${PHASE_NAMES[v.phase]}: ${page.name(v.to_act)} to act.`;
    setText(this.caption, caption);
  }
}

export { SEAT_NAMES };
