// Cards, suits and seats: how they are named and drawn.

import { h } from "./dom.js";

export const SEATS = ["N", "E", "S", "W"];
export const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
export const TEAMS = ["NS", "EW"];
export const TEAM_NAMES = { NS: "North–South", EW: "East–West" };
export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const SUIT_ORDER = ["C", "D", "H", "S"];

/** 0 for North–South, 1 for East–West. */
export function teamOf(seat) {
  return seat === "N" || seat === "S" ? 0 : 1;
}

export function partnerOf(seat) {
  return SEATS[(SEATS.indexOf(seat) + 2) % 4];
}

/** The seat `steps` places clockwise of `seat`. */
export function seatAfter(seat, steps = 1) {
  return SEATS[(SEATS.indexOf(seat) + steps) % 4];
}

export function cardName(code) {
  return `${code[0]} of ${SUIT_NAMES[code[1]]}`;
}

export function cardText(code) {
  return `${code[0]}${SUITS[code[1]]}`;
}

export function cardsText(cards) {
  return cards.map(cardText).join(" ");
}

/** A card face: rank and suit symbol, the sunk suit shaded. */
export function cardFace(code, { sunk = null, tag = "span", cls = "", props = {} } = {}) {
  const isSunk = sunk === code[1];
  return h(
    tag,
    {
      class: `card suit-${code[1]}${isSunk ? " sunk" : ""}${cls ? " " + cls : ""}`,
      title: `${cardName(code)}${isSunk ? " (sunk suit)" : ""}`,
      "aria-label": `${cardName(code)}${isSunk ? ", sunk" : ""}`,
      role: tag === "span" ? "img" : null,
      ...props,
    },
    h("span", { class: "rank", "aria-hidden": "true", text: code[0] }),
    h("span", { class: "pip", "aria-hidden": "true", text: SUITS[code[1]] }),
  );
}

export function suitMark(suit) {
  return h("span", { class: `suit-${suit} suit-mark`, "aria-hidden": "true", text: SUITS[suit] });
}

/** A number as the page writes it: a negative one with the minus sign (U+2212), never a hyphen. */
export function num(n) {
  return n < 0 ? `−${-n}` : String(n);
}

export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/**
 * Card points of some cards, from the scoring table (R-SCORE-1: a 2 takes 20, a 3 takes 10).
 * Used only for the running count of a hand in progress; every score shown at the end of a
 * hand is the engine's own (its HandScored record).
 */
export function cardPoints(cards) {
  let total = 0;
  for (const code of cards) total += code[0] === "2" ? 20 : code[0] === "3" ? 10 : 0;
  return total;
}
