// The replay page: a finished game, step by step, every hand open or as one seat saw it.
//
// The steps (each action and the events it caused) come from /api/tables/ID/replay; each
// position is drawn by the server with deepsix.svg (the library's own pictures) and put in
// the page as inline SVG, so its title and description reach a screen reader.

import { analysisSection } from "./analysis.js";
import { api } from "./api.js";
import { SEATS, SEAT_NAMES, SUIT_NAMES, cardName, num } from "./cards.js";
import { h, setText } from "./dom.js";
import { describe } from "./words.js";

export class ReplayPage {
  constructor(tableId, root) {
    this.tableId = tableId;
    this.root = root;
    this.step = 0;
    this.seat = "open";
    this.cache = new Map();
    document.getElementById("where").textContent = `Replay of table ${tableId}`;
    this.load();
  }

  async load() {
    let data;
    try {
      data = await api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/replay`);
    } catch (error) {
      this.root.replaceChildren(h("div", { class: "panel narrow" }, h("h2", { text: "No replay" }),
        h("p", { class: "error-text", text: error.message }), h("a", { class: "button", href: "/" }, "Back to the lobby")));
      return;
    }
    this.steps = data.steps;
    this.table = data.table;
    this.hands = data.hands;
    this.holders = data.holders || [];
    this.legend = {};
    this.build();
    const wanted = Number(new URLSearchParams(location.search).get("step"));
    this.go(Number.isInteger(wanted) && wanted >= 0 ? Math.min(wanted, this.steps.length) : 0);
  }

  /** Who held the seat in hand `hand` (in the whole game if left out), in a few words: the
   * people by name, a bot by its seat ("East"), as the table names them. */
  name(seat, hand) {
    const index = SEATS.indexOf(seat);
    const lists = hand ? [this.holders[hand - 1]] : this.holders;
    const names = [];
    for (const list of lists) {
      for (const holder of (list && list[index]) || []) {
        const label = holder.kind === "human" ? holder.name : SEAT_NAMES[seat];
        if (!names.includes(label)) names.push(label);
      }
    }
    if (names.length) return names.join(" / ");
    const slot = this.table.seats[index];
    return (slot && slot.name) || SEAT_NAMES[seat];
  }

  /** Who held the seat, hand by hand: "Bob (hands 1–2), the heuristic bot (hands 3–5)". */
  seatStory(seat) {
    const index = SEATS.indexOf(seat);
    const runs = [];
    this.holders.forEach((list, i) => {
      for (const holder of list[index] || []) {
        const last = runs[runs.length - 1];
        if (last && last.kind === holder.kind && last.name === holder.name && last.to >= i) last.to = i + 1;
        else runs.push({ kind: holder.kind, name: holder.name, from: i + 1, to: i + 1 });
      }
    });
    if (!runs.length) return this.name(seat);
    const label = (run) => (run.kind === "human" ? run.name : `the ${run.name} bot`);
    if (runs.length === 1) return label(runs[0]);
    const hands = (run) => (run.from === run.to ? `hand ${run.from}` : `hands ${run.from}–${run.to}`);
    return runs.map((run) => `${label(run)} (${hands(run)})`).join(", ");
  }

  build() {
    const n = this.steps.length;
    const button = (label, key, onclick, title) => h("button", { type: "button", dataset: { key }, title, "aria-label": title, onclick }, label);
    this.slider = h("input", { type: "range", id: "replay-step", min: "0", max: String(n), value: "0", "aria-label": "Step", oninput: (e) => this.go(Number(e.target.value)) });
    this.counter = h("span", { class: "counter", "aria-live": "off" });
    this.picture = h("figure", { class: "replay-picture", "aria-live": "polite", "aria-busy": "false" });
    this.narration = h("ol", { class: "replay-narration" });
    // on a phone the picture is shown large enough to read (12-unit labels at 10 px or more)
    // and panned by scrolling; "Fit" shows it whole
    this.fitButton = h("button", { type: "button", class: "replay-fit small-button", id: "replay-fit", "aria-pressed": "false", dataset: { key: "fit" }, onclick: () => {
      const fit = !this.picture.classList.contains("fit");
      this.picture.classList.toggle("fit", fit);
      this.fitButton.setAttribute("aria-pressed", String(fit));
    } }, "Fit the picture to the screen");
    const seats = h("fieldset", { class: "replay-seats" }, h("legend", { text: "Show" }),
      ["open", ...SEATS].map((seat) => h("label", {},
        h("input", { type: "radio", name: "replay-seat", value: seat, checked: seat === "open", onchange: () => { this.seat = seat; this.draw(); } }),
        seat === "open" ? " every hand" : ` as ${this.name(seat)} saw it`)));
    const final = this.table.scores;
    this.root.replaceChildren(h("div", { class: "replay" },
      h("div", { class: "panel replay-head" },
        h("h2", { text: `Replay: table ${this.tableId}` }),
        h("p", { class: "muted", text: `${this.hands.length} hand${this.hands.length === 1 ? "" : "s"} · final score N–S ${final[0]}, E–W ${final[1]} · ${n} steps` }),
        h("ul", { class: "replay-players", "aria-label": "Who held each seat" },
          SEATS.map((seat) => h("li", { dataset: { seat } }, h("strong", { text: `${SEAT_NAMES[seat]}: ` }), this.seatStory(seat)))),
        h("div", { class: "buttons replay-controls" },
          button("Start", "first", () => this.go(0), "First step"),
          button("« hand", "prev-hand", () => this.go(this.findHand(-1)), "Previous hand"),
          button("‹ trick", "prev-trick", () => this.go(this.findTrick(-1)), "Previous trick"),
          button("◀", "prev", () => this.go(this.step - 1), "Previous step"),
          button("▶", "next", () => this.go(this.step + 1), "Next step"),
          button("trick ›", "next-trick", () => this.go(this.findTrick(1)), "Next trick"),
          button("hand »", "next-hand", () => this.go(this.findHand(1)), "Next hand"),
          button("End", "last", () => this.go(n), "Last step")),
        h("div", { class: "replay-slider" }, this.slider, this.counter),
        seats,
        h("p", {}, h("a", { class: "button", href: `/api/tables/${this.tableId}/record`, download: `deepsix-${this.tableId}.txt` }, "Download the record"),
          " ", h("a", { class: "button", href: "/" }, "Lobby"))),
      h("div", { class: "replay-main" }, h("div", { class: "replay-view" }, this.fitButton, this.picture), h("section", { class: "panel" }, h("h3", { text: "This step" }), this.narration)),
      h("section", { class: "panel replay-analysis" }, h("h2", { text: "Where the points went" }),
        h("p", { class: "muted", text: "Each hand's decisions that cost 10 points or more against the best choice: cards of the last six tricks solved exactly with every hand seen, earlier decisions estimated on deals dealt to fit what the player saw. \"Show\" goes to the position before the decision." }),
        this.hands.map((record) => h("div", { class: "replay-hand-analysis" }, h("h3", { text: `Hand ${record.number}` }),
          analysisSection(this.tableId, record.number, {
            name: (s) => this.name(s, record.number),
            stepLink: (step) => h("button", { type: "button", class: "link", dataset: { key: `moment-${step}` }, "aria-label": `Show the position before step ${step}`, onclick: () => this.go(step - 1) }, "Show"),
          }))))));
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLInputElement && event.target.type !== "radio" && event.target.type !== "range") return;
      if (event.key === "ArrowRight" && event.target !== this.slider) this.go(this.step + 1);
      else if (event.key === "ArrowLeft" && event.target !== this.slider) this.go(this.step - 1);
      else if (event.key === "Home") this.go(0);
      else if (event.key === "End") this.go(this.steps.length);
      else return;
      event.preventDefault();
    });
  }

  /** The step that ends the next (+1) or previous (-1) trick from here. */
  findTrick(direction) {
    const ends = this.steps.filter((s) => s.events.some((e) => e.type === "TrickWon")).map((s) => s.seq);
    return direction > 0 ? ends.find((seq) => seq > this.step) ?? this.steps.length : [...ends].reverse().find((seq) => seq < this.step) ?? 0;
  }

  /** The step of the next (+1) or previous (-1) deal. */
  findHand(direction) {
    const deals = this.steps.filter((s) => s.action === "deal").map((s) => s.seq);
    return direction > 0 ? deals.find((seq) => seq > this.step) ?? this.steps.length : [...deals].reverse().find((seq) => seq < this.step) ?? 0;
  }

  go(step) {
    this.step = Math.max(0, Math.min(this.steps.length, step));
    this.slider.value = String(this.step);
    setText(this.counter, `step ${this.step} of ${this.steps.length}`);
    const url = new URL(location.href);
    url.searchParams.set("step", String(this.step));
    history.replaceState(history.state, "", url);
    const current = this.steps[this.step - 1];
    const lines = [];
    if (!current) lines.push("The game before the first deal.");
    else {
      const name = (s) => this.name(s, current.hand);
      lines.push(current.move ? actionWords(current.move, name) : `Hand ${current.hand} is dealt.`);
      for (const event of current.events) if (event.type !== "HandDealt") lines.push(describe(event, name, (c) => c));
    }
    this.narration.replaceChildren(...lines.map((text) => h("li", { text })));
    this.draw();
  }

  async draw() {
    const key = `${this.step}:${this.seat}`;
    this.drawing = key;
    let text = this.cache.get(key);
    if (!text) {
      const query = this.seat === "open" ? "" : `?seat=${this.seat}`;
      this.picture.setAttribute("aria-busy", "true");
      try {
        const response = await fetch(`/api/tables/${this.tableId}/replay/${this.step}.svg${query}`);
        text = await response.text();
        if (!response.ok) throw new Error(text);
      } catch {
        text = null;
      }
      if (text) this.cache.set(key, text);
    }
    if (this.drawing !== key) return; // a later step was asked for meanwhile
    this.picture.setAttribute("aria-busy", "false");
    if (!text) {
      this.picture.replaceChildren(h("p", { class: "error-text", text: "This position could not be drawn." }));
      return;
    }
    const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    svg.setAttribute("role", "img");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    this.picture.replaceChildren(document.importNode(svg, true));
    this.picture.dataset.step = String(this.step);
    this.picture.dataset.seat = this.seat;
  }
}

/** One action in words ("Ann plays the 8 of clubs."), from its wire form. */
export function actionWords(action, name) {
  const who = name(action.seat);
  switch (action.type) {
    case "Bid":
      return `${who} bids ${num(action.amount)}.`;
    case "Pass":
      return `${who} passes.`;
    case "NameSunkSuit":
      return `${who} sinks ${SUIT_NAMES[action.suit]}.`;
    case "ShowCard":
      return `${who} shows the ${cardName(action.card)}.`;
    case "PassCard":
      return `${who} passes the ${cardName(action.card)} to a partner.`;
    case "DeclareMeld":
      return `${who} declares a meld (${action.meld}).`;
    case "Done":
      return `${who} is done.`;
    case "PlayCard":
      return `${who} plays the ${cardName(action.card)}.`;
    default:
      return `${who}: ${action.type}.`;
  }
}
