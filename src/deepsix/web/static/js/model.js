// What the page knows about its table: the latest frame, and each hand's story from events.
//
// Every update frame carries the seat's own view (deepsix.view) and the public events of
// the step.  The events are kept per hand -- the melds declared, every trick taken, the
// engine's score line -- so the end-of-hand summary and the score sheet can show any hand
// again.  Nothing here applies a rule: who won a trick and what a hand scored come from
// the server (events and records); only the running count of points taken in the hand in
// progress is added up here.

import { cardPoints } from "./cards.js";

export class HandStory {
  constructor(number) {
    this.number = number;
    this.melds = [[], [], [], []]; // meld codes per seat, as declared
    this.meldValues = [0, 0, 0, 0];
    this.tricks = []; // {number, plays, winner, points}
    this.record = null; // the engine's HandRecord, once scored
    this.auction = null; // {bidder, bid, forced}
    this.sunk = null;
  }

  get lastTrick() {
    return this.tricks.length ? this.tricks[this.tricks.length - 1] : null;
  }
}

const SEAT_INDEX = { N: 0, E: 1, S: 2, W: 3 };

export class Model {
  constructor() {
    this.view = null;
    this.table = null;
    this.seq = -1;
    this.legend = {};
    this.hands = new Map(); // hand number -> HandStory
    this.log = []; // {seq, text, event}
    this.winning = null; // the seat winning the trick in progress, when the server says
    this.clock = null; // {seat, reason, limit, until (this page's clock, ms)}
    this.dealt = null; // the number of the last hand dealt that the events told of
  }

  story(number) {
    let story = this.hands.get(number);
    if (!story) {
      story = new HandStory(number);
      this.hands.set(number, story);
    }
    return story;
  }

  /** The hand the next events belong to. */
  get current() {
    return this.view ? this.view.hand_number : 1;
  }

  /** Fold one event into the hand stories (`number`: the hand it belongs to). */
  absorb(event, number) {
    switch (event.type) {
      case "HandDealt":
        this.dealt = event.number;
        this.story(event.number);
        break;
      case "AuctionWon":
        this.story(number).auction = { bidder: event.bidder, bid: event.bid, forced: !!event.forced };
        break;
      case "SunkSuitNamed":
        this.story(number).sunk = event.suit;
        break;
      case "MeldsDeclared": {
        const story = this.story(number);
        story.melds[SEAT_INDEX[event.seat]] = event.melds.slice();
        story.meldValues[SEAT_INDEX[event.seat]] = event.value;
        break;
      }
      case "TrickWon": {
        const story = this.story(number);
        if (!story.tricks.some((t) => t.number === event.number)) {
          story.tricks.push({ number: event.number, plays: event.trick.plays, winner: event.trick.winner, points: event.points });
        }
        break;
      }
      case "HandScored":
        this.story(event.record.number).record = event.record;
        break;
      default:
        break;
    }
  }

  /**
   * Take in an update frame; returns the events that are new.  Events in a frame belong to
   * the hand of the view *before* it (the last trick's events arrive with the next hand's
   * deal phase), so the hand number is read before the view is replaced.
   */
  update(frame) {
    if (frame.seq < this.seq) return null; // an older frame, overtaken
    const fresh = frame.seq > this.seq ? frame.events || [] : [];
    for (const event of fresh) this.absorb(event, this.handOfEvents(frame));
    this.seq = frame.seq;
    this.view = frame.view;
    this.table = frame.table;
    this.winning = frame.winning === undefined ? null : frame.winning;
    const clock = frame.clock;
    this.clock = clock ? { seat: clock.seat, reason: clock.reason, limit: clock.limit, until: Date.now() + clock.remaining * 1000 } : null;
    this.seedFromView();
    return fresh;
  }

  /** The hand that a step's events (other than a deal) belong to. */
  handOfEvents(frame) {
    if (this.dealt !== null) return this.dealt;
    return this.view ? this.view.hand_number : frame.view.hand_number;
  }

  /**
   * Take in the events of past steps (a hello's history); returns them, each with its seq.
   * The steps' seq only moves forward: a frame seen already is not taken twice.
   */
  history(frame) {
    const out = [];
    for (const step of frame.steps || []) {
      if (step.seq <= this.seq) continue;
      for (const event of step.events) {
        this.absorb(event, event.type === "HandDealt" ? event.number : this.dealt ?? 1);
        out.push({ ...event, seq: step.seq });
      }
    }
    if (frame.seq > this.seq && this.view === null) this.seq = frame.seq;
    return out;
  }

  /** A page opened mid-hand has no events for what came before: take them from the view. */
  seedFromView() {
    const v = this.view;
    if (!v || v.phase === "deal" || v.phase === "game-over") return;
    const story = this.story(v.hand_number);
    v.melds.forEach((codes, index) => {
      if (codes.length && !story.melds[index].length) {
        story.melds[index] = codes.slice();
        story.meldValues[index] = codes.reduce((sum, code) => sum + ((this.legend[code] || {}).value || 0), 0);
      }
    });
    v.tricks.forEach((trick, index) => {
      if (!story.tricks.some((t) => t.number === index + 1)) {
        story.tricks.push({ number: index + 1, plays: trick.plays, winner: trick.winner, points: cardPoints(trick.plays.map((p) => p[1])) });
      }
    });
    story.tricks.sort((a, b) => a.number - b.number);
    if (v.bidder && v.phase !== "bidding" && !story.auction) story.auction = { bidder: v.bidder, bid: v.bid, forced: forcedAuction(v.bids, v.dealer) };
    if (v.sunk_suit && !story.sunk) story.sunk = v.sunk_suit;
  }

  /** Card points each side has taken in the hand in progress (from its tricks). */
  takenThisHand() {
    const taken = [0, 0];
    const v = this.view;
    if (!v) return taken;
    const story = this.hands.get(v.hand_number);
    if (!story) return taken;
    for (const trick of story.tricks) taken[trick.winner === "N" || trick.winner === "S" ? 0 : 1] += trick.points;
    return taken;
  }

  /** The most recent finished trick: of this hand, or else the last of the previous hand. */
  lastTrick() {
    const v = this.view;
    if (!v) return null;
    if (v.tricks.length) {
      const story = this.hands.get(v.hand_number);
      const trick = v.tricks[v.tricks.length - 1];
      const known = story && story.tricks.find((t) => t.number === v.tricks.length);
      return { number: v.tricks.length, hand: v.hand_number, plays: trick.plays, winner: trick.winner, points: known ? known.points : cardPoints(trick.plays.map((p) => p[1])) };
    }
    const previous = this.hands.get(v.hand_number - 1);
    if (previous && previous.lastTrick) return { ...previous.lastTrick, hand: previous.number };
    return null;
  }
}

/** Whether an auction was the dealer's forced bid: three passes, then the dealer's bid. */
export function forcedAuction(bids, dealer) {
  return bids.length === 4 && bids.slice(0, 3).every((b) => b.type === "Pass") && bids[3].type === "Bid" && bids[3].seat === dealer;
}
