// Your hand: one button per card, kept across updates (so focus stays on the card you were
// on), enabled only for the cards the view's legal actions name.
//
// Plays are one click.  On a touch screen the first tap lifts the card and the second
// plays it, as card sites do on phones; a tap elsewhere lowers it.  In the invitation and
// the passes a click picks or unpicks a card instead: the prompt shows the choice, which
// can be changed until it is confirmed.

import { cardFace, cardName } from "./cards.js";
import { h, setText } from "./dom.js";

export class Hand {
  constructor(page) {
    this.page = page;
    this.cards = h("div", { class: "hand-cards", role: "group", "aria-label": "Your cards" });
    this.count = h("span", { class: "muted" });
    this.note = h("span", { class: "hand-note muted", "aria-live": "off" });
    this.node = h("section", { class: "hand", "aria-label": "Your hand" },
      h("div", { class: "hand-title" }, h("h2", { class: "inline", text: "Your hand" }), " ", this.count, " ", this.note), this.cards);
    this.buttons = new Map(); // key (card#copy) -> button
    this.lifted = null;
    this.lastPointer = "mouse";
    document.addEventListener("pointerdown", (event) => {
      this.lastPointer = event.pointerType || "mouse";
      if (this.lifted && !this.cards.contains(event.target)) this.lower();
    }, true);
  }

  /**
   * Draw the hand.  `mode` is "play" (click plays), "pick" (click picks/unpicks, `picked` the
   * keys picked), or "none".  `legal` is the set of card codes that may be used.
   */
  update({ cards, legal, mode, picked = new Set(), received = [], sunk = null, busy = false }) {
    setText(this.count, `${cards.length} card${cards.length === 1 ? "" : "s"}`);
    const seen = new Map();
    const keys = cards.map((card) => {
      const copy = seen.get(card) || 0;
      seen.set(card, copy + 1);
      return `${card}#${copy}`;
    });
    const focusedKey = this.cards.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const focusedIndex = focusedKey ? [...this.buttons.keys()].indexOf(focusedKey) : -1;
    for (const [key, button] of this.buttons) {
      if (!keys.includes(key)) {
        button.remove();
        this.buttons.delete(key);
      }
    }
    let cursor = this.cards.firstChild;
    const fresh = new Set(received);
    keys.forEach((key, index) => {
      const card = cards[index];
      let button = this.buttons.get(key);
      if (!button) {
        button = cardFace(card, { tag: "button", sunk, props: { type: "button", "data-card": card, "data-key": key } });
        button.addEventListener("click", (event) => this.clicked(key, card, event));
        this.buttons.set(key, button);
      }
      if (button === cursor) cursor = cursor.nextSibling;
      else this.cards.insertBefore(button, cursor);
      const usable = legal.has(card) && !busy;
      const isPicked = picked.has(key);
      // never `disabled`: a card you cannot use now stays focusable, so the keyboard can
      // look through the hand while others play (aria-disabled says it cannot be used)
      const enabled = usable || (mode === "pick" && isPicked && !busy);
      button.setAttribute("aria-disabled", String(!enabled));
      button.classList.toggle("inactive", !enabled);
      button.classList.toggle("sunk", sunk === card[1]);
      button.classList.toggle("legal", usable && mode !== "none");
      button.classList.toggle("picked", isPicked);
      button.classList.toggle("received", fresh.has(card));
      button.classList.toggle("lifted", this.lifted === key);
      if (mode === "pick") button.setAttribute("aria-pressed", String(isPicked));
      else button.removeAttribute("aria-pressed");
      if (usable && mode === "play") button.dataset.act = "PlayCard";
      else if (usable && mode === "pick") button.dataset.act = "Pick";
      else delete button.dataset.act;
      button.setAttribute("aria-label", `${cardName(card)}${sunk === card[1] ? ", sunk" : ""}${fresh.has(card) ? ", received" : ""}${isPicked ? ", chosen" : ""}`);
    });
    this.cards.classList.toggle("choosing", mode !== "none" && legal.size > 0);
    if (this.lifted && !this.buttons.has(this.lifted)) this.lifted = null;
    if (focusedKey && !this.buttons.has(focusedKey)) {
      // the focused card was played: focus its neighbour, so the keyboard stays in the hand
      const rest = [...this.buttons.values()];
      const next = rest[Math.min(Math.max(focusedIndex, 0), rest.length - 1)];
      if (next) next.focus({ preventScroll: true });
    }
    setText(this.note, mode === "play" && legal.size ? (this.touch() ? "tap a card twice to play it" : "click a card to play it") : "");
  }

  touch() {
    return this.lastPointer === "touch" || this.lastPointer === "pen";
  }

  clicked(key, card, event) {
    const page = this.page;
    if (this.buttons.get(key)?.getAttribute("aria-disabled") === "true") return;
    if (page.handMode() === "pick") {
      page.pick(key, card);
      return;
    }
    // touch: the first tap lifts, the second (on the same card) plays
    const tapped = event.pointerType === "touch" || (event.detail > 0 && this.touch());
    if (tapped && this.lifted !== key) {
      this.lower();
      this.lifted = key;
      this.buttons.get(key)?.classList.add("lifted");
      return;
    }
    this.lifted = null;
    page.playCard(card);
  }

  lower() {
    if (this.lifted) this.buttons.get(this.lifted)?.classList.remove("lifted");
    this.lifted = null;
  }
}
