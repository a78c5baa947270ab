// What the table says: phases, events and refused moves in plain language.

import { SEAT_NAMES, SUIT_NAMES, SUITS, TEAM_NAMES, cardName, cardsText, num, signed } from "./cards.js";

export const PHASE_NAMES = {
  deal: "Dealing",
  bidding: "Auction",
  "sunk-suit": "Naming the sunk suit",
  invitation: "Invitation",
  "partner-pass": "Partner's pass",
  "bidder-meld": "Bidder's meld",
  "bidder-pass": "Bidder's pass back",
  melding: "Melding",
  play: "Play",
  "game-over": "Game over",
};

/** One line for the log (and the screen reader) per event; `who(seat)` names a seat. */
export function describe(event, who, meldName) {
  switch (event.type) {
    case "HandDealt":
      return `Hand ${event.number} dealt by ${who(event.dealer)}.`;
    case "AuctionWon":
      return event.forced
        ? `${who(event.bidder)} is the dealer and must bid ${num(event.bid)}: the other three passed.`
        : `${who(event.bidder)} wins the auction at ${num(event.bid)}.`;
    case "SunkSuitNamed":
      return `${who(event.bidder)} sinks ${SUIT_NAMES[event.suit]} ${SUITS[event.suit]}.`;
    case "InvitationMade":
      return event.cards.length
        ? `${who(event.bidder)} invites with ${cardsText(event.cards)}.`
        : `${who(event.bidder)} shows no invitation.`;
    case "CardsPassed":
      return `${who(event.giver)} passes ${event.count} cards to ${who(event.receiver)}.`;
    case "MeldsDeclared":
      return event.melds.length
        ? `${who(event.seat)} melds ${event.melds.map(meldName).join(", ")} (${signed(event.value)}).`
        : `${who(event.seat)} has no meld.`;
    case "TrickWon":
      return `${who(event.trick.winner)} takes trick ${event.number}${event.points ? ` with ${event.points} points` : ", no points"}.`;
    case "HandScored": {
      const r = event.record;
      return `Hand ${r.number} scored: North–South ${signed(r.scores[0])}, East–West ${signed(r.scores[1])}; the bid of ${num(r.bid)} by ${who(r.bidder)} was ${r.made ? "made" : "set"}.`;
    }
    case "GameOver":
      return `Game over: ${TEAM_NAMES[event.winner]} win, ${event.scores[0]} to ${event.scores[1]}.`;
    default:
      return event.type;
  }
}

/** Plain sentences for the engine's reasons (deepsix.errors.Reason), by name. */
const REASONS = {
  GAME_OVER: "The game is over.",
  CHANCE_STEP: "The cards have not been dealt yet.",
  NOT_CHANCE_STEP: "Cards are dealt only at the start of a hand.",
  BAD_DEAL: "That deal is not a whole deck.",
  WRONG_PHASE: "That move does not belong to this part of the hand.",
  NOT_YOUR_TURN: "It is not your turn.",
  NOT_YOUR_SEAT: "You can only move for your own seat.",
  BID_NOT_MULTIPLE: "Bids go in steps of 10.",
  BID_ABOVE_OPENING: "The first bid can be at most 120.",
  BID_NOT_LOWER: "Each bid must be lower than the one standing: bids go down.",
  BID_BELOW_FLOOR: "That bid is below the lowest bid allowed.",
  DEALER_MUST_BID: "The other three passed, so the dealer must bid 120.",
  CARD_NOT_IN_HAND: "You do not hold that card (or not that many copies of it).",
  NOT_MELDABLE: "Only cards that could be part of a meld can be shown in an invitation.",
  CARD_MELDED: "Cards melded on the table cannot be passed back.",
  MELD_UNAVAILABLE: "Your cards cannot make that meld beside the melds already declared.",
  RUN_IN_SUNK_SUIT: "Runs cannot be melded in the sunk suit.",
  TOO_FEW_UNMELDED: "As bidder you must keep three unmelded cards to pass back.",
  MUST_FOLLOW_SUIT: "You must follow the suit that was led when you can.",
  MUST_PLAY_OVER: "When you follow suit you must play a card that wins the trick, if you have one.",
  UNKNOWN_ACTION: "That is not a move in this game.",
};

const CODES = {
  stale: "The table moved on before your move arrived, so it was not played. Here is the table as it is now.",
  "not-started": "The game has not started: seats are still open.",
  spectator: "You are watching this table: take a seat to play.",
  "rate-limited": "Too many messages at once: slow down a little.",
  "too-large": "That message was too long.",
  "bad-message": "The server did not understand that message.",
  unauthorized: "This browser's seat key is not valid at this table any more.",
  "no-such-table": "There is no such table.",
};

/** The sentence to show for an error frame, and the rule to link to (or null). */
export function explain(frame) {
  if (frame.reason && REASONS[frame.reason]) return { text: REASONS[frame.reason], rule: frame.rule || null };
  if (frame.code && CODES[frame.code]) return { text: CODES[frame.code], rule: frame.rule || null };
  return { text: frame.message || "Something went wrong.", rule: frame.rule || null };
}

export function sunkSentence(suit) {
  const name = SUIT_NAMES[suit];
  return `${name[0].toUpperCase()}${name.slice(1)} are sunk: a ${name.slice(0, -1)} never takes a trick from another suit, and there are no runs in ${name}.`;
}

export function forcedSentence(dealer, amount) {
  return `The other three passed, so ${dealer} (the dealer) had to bid ${amount}.`;
}

export { cardName, SEAT_NAMES };
