// The table page: one game, seen from one seat (or watched).
//
// The page is built once; every update frame changes only the regions whose data changed
// (dom.region), so focus, scroll and layout stay put.  Moves are sent tagged with the
// version of the game (`seq`) they were chosen in: a move chosen in a position the table
// has left is refused by the server, and the page says so and shows the table as it is.

import { hintWords } from "./analysis.js";
import { api } from "./api.js";
import { SEATS, SEAT_NAMES, cardName, partnerOf } from "./cards.js";
import { Chat } from "./chat.js";
import { Connection } from "./connection.js";
import { h, region, setText } from "./dom.js";
import { openDialog, showLastTrick, showRules, showSummary } from "./dialogs.js";
import { Felt } from "./felt.js";
import { Hand } from "./hand.js";
import { confirmDialog, hostKey, hostPanel } from "./host.js";
import { Model } from "./model.js";
import { auction, glance, glanceKey, logLines, melds, passes, sheet } from "./panels.js";
import { promptContent } from "./prompt.js";
import { PROTOCOL, tableSocket } from "./protocol.js";
import { forgetSeat, inviteFor, keepName, myName, noteSeat, takeFromAddress } from "./seats.js";
import { describe, explain } from "./words.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export class TablePage {
  constructor(tableId, root) {
    this.tableId = tableId;
    this.root = root;
    this.found = takeFromAddress(tableId); // first of all: the address bar never keeps a seat key
    this.seat = null;
    this.host = false;
    this.inviteCode = null;
    this.model = new Model();
    this.choice = { key: null, picks: [], melds: [] };
    this.queue = []; // the rest of a confirmed choice, sent one action per update
    this.sending = false;
    this.awaiting = null; // seq the last move was sent in
    this.summaries = new Set(); // hands whose summary this page has shown
    this.announced = new Set();
    this.built = false;
    document.getElementById("where").textContent = `Table ${tableId}`;
    this.chat = new Chat(this);
    this.start();
    this.clockTimer = setInterval(() => this.tick(), 250);
  }

  async start() {
    const id = this.tableId;
    if (this.found.token) {
      try {
        // trade the key for the table's HttpOnly cookie: the page does not keep it
        const session = await api("POST", `/api/tables/${encodeURIComponent(id)}/session`, undefined, this.found.token);
        noteSeat(id, session.seat);
      } catch (error) {
        this.toast(`This seat link does not work any more: ${error.message}`);
      }
    }
    this.invite = this.found.invite || inviteFor(id);
    this.connect();
  }

  connect() {
    if (this.connection) this.connection.close();
    this.connection = new Connection(tableSocket(this.tableId), () => this.hello(), {
      message: (frame) => this.receive(frame),
      status: (kind, text) => this.status(kind, text),
    }, { heartbeat: true });
    this.connection.open();
  }

  hello() {
    const hello = { op: "hello", protocol: PROTOCOL, since: Math.max(this.model.seq, 0) };
    if (this.invite) hello.invite = this.invite;
    return hello;
  }

  status(kind, text) {
    const node = document.getElementById("conn");
    node.hidden = false;
    setText(node, text);
    node.className = `conn ${kind}`;
    if (this.built) this.render();
  }

  // -- frames ---------------------------------------------------------------------------

  receive(frame) {
    switch (frame.op) {
      case "welcome":
        this.model.legend = frame.melds || this.model.legend;
        this.seat = frame.seat || null;
        this.host = !!frame.host;
        this.inviteCode = frame.invite || null;
        if (this.seat) noteSeat(this.tableId, this.seat);
        this.status("up", frame.seat ? `online as ${SEAT_NAMES[frame.seat]}` : "watching");
        break;
      case "update":
        this.update(frame);
        break;
      case "history":
        for (const event of this.model.history(frame)) {
          this.logEvent(event, false);
          if (event.type === "HandScored") this.summaries.add(event.record.number);
        }
        if (this.built) this.render();
        break;
      case "chat":
        this.chat.add(frame.messages || []);
        break;
      case "notice":
        this.notice(frame);
        break;
      case "error":
        this.refused(frame);
        break;
      default:
        break;
    }
  }

  notice(frame) {
    this.model.log.push({ seq: this.model.seq, text: frame.message });
    this.announce(frame.message);
    this.toast(frame.message, "info");
    if (frame.kind === "revoked" || frame.kind === "seat-changed") this.loseSeat(frame);
    if (this.built) this.render();
  }

  /**
   * This page's seat went to someone else (the host gave it to a bot, or gave it a new key):
   * say so and what can be done, and go on showing the table as a spectator's.
   */
  loseSeat(frame) {
    const seat = frame.seat || this.seat;
    this.lost = { kind: frame.kind, seat };
    this.seat = null;
    this.queue = [];
    this.sending = false;
    forgetSeat(this.tableId);
    this.chat.redraw();
    this.connect(); // the server closes the seat's socket: watch on a new one
  }

  update(frame) {
    const before = this.model.view;
    const tableBefore = this.model.table;
    const fresh = this.model.update(frame);
    if (fresh === null) return;
    this.announceSeated(tableBefore, this.model.table);
    if (!this.built) this.build();
    const live = before !== null;
    this.announcePlays(before, fresh);
    for (const event of fresh) this.logEvent({ ...event, seq: frame.seq }, live);
    if (this.awaiting !== null && frame.seq > this.awaiting) {
      this.awaiting = null;
      this.sending = false;
      this.continueQueue();
    }
    this.render();
    if (live && before.to_act !== this.seat && this.model.view.to_act === this.seat && this.seat) this.announce("Your turn.");
  }

  logEvent(event, live) {
    // the catch-up history can come before the table's names: its lines are worded when shown
    const text = this.model.table ? this.eventText(event) : null;
    this.model.log.push({ seq: event.seq, text, event });
    if (live) this.announce(text);
    if (event.type === "HandScored" && live && !this.summaries.has(event.record.number)) {
      this.summaries.add(event.record.number);
      this.pendingSummary = event.record.number;
    }
  }

  eventText(event) {
    return describe(event, (s) => this.label(s), (c) => this.meldName(c));
  }

  /** A log line's words: those of its moment, or (for the catch-up history) of now. */
  lineText(line) {
    if (line.text === null) line.text = this.eventText(line.event);
    return line.text;
  }

  /** Tell everyone at the table when a player sits down in an open seat. */
  announceSeated(before, after) {
    if (!before || !after) return;
    SEATS.forEach((seat, index) => {
      const was = before.seats[index];
      const now = after.seats[index];
      if (!was || !now || was.kind !== "open" || now.kind === "open" || seat === this.seat) return;
      const text = `${now.name || SEAT_NAMES[seat]} ${now.kind === "bot" ? "(a bot) takes" : "sat down in"} the ${SEAT_NAMES[seat]} seat.`;
      this.model.log.push({ seq: this.model.seq, text });
      this.announce(text);
      this.toast(text, "info");
    });
  }

  announcePlays(before, fresh) {
    const v = this.model.view;
    const plays = [];
    for (const event of fresh) if (event.type === "TrickWon") plays.push(...event.trick.plays.map((p) => [event.number, ...p]));
    v.trick.forEach((p) => plays.push([v.tricks.length + 1, ...p]));
    const said = [];
    for (const [number, seat, card] of plays) {
      const key = `${v.hand_number}:${number}:${seat}`;
      if (this.announced.has(key)) continue;
      this.announced.add(key);
      if (before) said.push(`${this.name(seat)} ${seat === this.seat ? "play" : "plays"} ${cardName(card)}.`);
    }
    if (said.length && this.model.winning && v.trick.length) said.push(`${this.name(this.model.winning)} ${this.model.winning === this.seat ? "are" : "is"} winning.`);
    if (said.length) this.announce(said.join(" "));
  }

  announce(text) {
    if (!this.live) return;
    // a fresh node per message, so a screen reader reads each one
    this.live.append(h("p", { text }));
    while (this.live.childNodes.length > 6) this.live.firstChild.remove();
  }

  refused(frame) {
    if (frame.code === "unauthorized" || frame.code === "no-such-table" || frame.code === "revoked" || frame.code === "protocol-version") {
      this.connection.close();
      if (frame.code !== "no-such-table") forgetSeat(this.tableId);
      this.root.replaceChildren(h("div", { class: "panel narrow" }, h("h2", { text: "Cannot open this table" }),
        h("p", { class: "error-text", text: explain(frame).text }),
        h("a", { class: "button", href: "/" }, "Back to the lobby")));
      return;
    }
    this.sending = false;
    this.awaiting = null;
    const aborted = this.queue.length > 0;
    this.queue = [];
    const { text, rule } = explain(frame);
    this.toast(aborted ? `${text} Your choice was not completed: choose again.` : text, frame.code === "stale" ? "info" : "error", rule);
    if (this.built) this.render();
  }

  toast(message, kind = "error", rule = null) {
    const node = document.getElementById("toast");
    const link = rule ? h("button", { type: "button", class: "link rule-link", dataset: { rule }, onclick: () => showRules(this, rule) }, `Rule ${rule}`) : null;
    node.replaceChildren(...[h("span", { text: message }), link].filter(Boolean)); // never the text "null"
    node.className = `toast ${kind}`;
    node.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => (node.hidden = true), kind === "error" ? 9000 : 5000);
  }

  // -- names ----------------------------------------------------------------------------

  /** A seat's display name; "You" for this page's own seat unless `plain`. */
  name(seat, plain = false) {
    if (!seat) return "";
    if (!plain && seat === this.seat) return "You";
    const slot = this.model.table && this.model.table.seats[SEATS.indexOf(seat)];
    return (slot && slot.name) || SEAT_NAMES[seat];
  }

  /** A seat's name for the log: "Ann (you)". */
  label(seat) {
    return `${this.name(seat, true)}${seat === this.seat ? " (you)" : ""}`;
  }

  /** A short column head: N, E, S, W with "you" or "partner". */
  short(seat) {
    if (seat === this.seat) return `${seat} · you`;
    if (this.seat && seat === partnerOf(this.seat)) return `${seat} · partner`;
    return seat;
  }

  meldName(code) {
    const meld = this.model.legend[code];
    return meld ? meld.name : code;
  }

  ruleLink(rule) {
    return h("button", { type: "button", class: "link rule-link", dataset: { rule, key: `rule-${rule}` }, onclick: () => showRules(this, rule) }, `(rule ${rule})`);
  }

  playerName() {
    return myName();
  }

  // -- the page -------------------------------------------------------------------------

  build() {
    this.felt = new Felt(this);
    this.hand = new Hand(this);
    this.glance = h("div", { class: "scorebar" });
    this.prompt = h("section", { class: "prompt", "aria-labelledby": "prompt-title", tabindex: "-1" });
    this.panels = {
      auction: h("section", { class: "panel auction" }),
      passes: h("section", { class: "panel passes" }),
      melds: h("section", { class: "panel melds-table" }),
      sheet: h("section", { class: "panel sheet" }),
      log: h("section", { class: "panel log", tabindex: "0", "aria-label": "What happened" }),
    };
    this.tools = h("div", { class: "tools" });
    this.hostBox = h("section", { class: "panel host" });
    // on a phone the side panels are a drawer, opened from the bar at the top
    this.drawerButton = h("button", { type: "button", class: "drawer-toggle", id: "drawer-toggle", "aria-controls": "side-col", "aria-expanded": "false", "aria-label": "More: auction, scores, chat and log", onclick: () => this.drawer(true) }, "More");
    this.drawerClose = h("button", { type: "button", class: "drawer-close", id: "drawer-close", onclick: () => this.drawer(false) }, "Back to the table");
    const bar = document.querySelector(".bar");
    if (bar) bar.insertBefore(this.drawerButton, document.getElementById("conn"));
    this.live = h("div", { class: "visually-hidden", "aria-live": "polite", "aria-relevant": "additions", id: "announcer" });
    this.game = h("div", { class: "game" },
      this.glance,
      h("div", { class: "board" },
        h("div", { class: "main-col" }, this.felt.node, this.prompt, this.hand.node),
        h("aside", { class: "side-col", id: "side-col", "aria-label": "The hand so far" }, this.drawerClose, this.tools, this.hostBox, this.panels.auction, this.panels.passes, this.panels.melds, this.panels.sheet, this.chat.node, this.panels.log)),
      this.live);
    this.root.replaceChildren(this.game);
    this.game.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.game.classList.contains("drawer-open")) this.drawer(false);
    });
    this.built = true;
  }

  /** Open or close the side panels' drawer (a phone's). */
  drawer(open) {
    this.game.classList.toggle("drawer-open", open);
    this.drawerButton.setAttribute("aria-expanded", String(open));
    (open ? this.drawerClose : this.drawerButton).focus({ preventScroll: true });
  }

  render() {
    const model = this.model;
    const v = model.view;
    if (!v) return;
    const data = this.game.dataset;
    data.seq = String(model.seq);
    data.phase = v.phase;
    data.toAct = v.to_act || "";
    data.hands = String(v.completed_hands.length);
    data.seat = this.seat || "";
    data.busy = this.sending || this.queue.length ? "1" : "0";
    this.resetChoice();
    region(this.glance, glanceKey(this), () => glance(this));
    this.felt.update();
    this.prompt.dataset.phase = v.phase; // the phone layout sizes the prompt by phase
    region(this.prompt, this.promptKey(), () => promptContent(this));
    this.updateHand();
    region(this.panels.auction, [v.bids, v.dealer, v.phase === "bidding", this.seat], () => auction(this));
    region(this.panels.passes, [v.bidder, v.phase, v.invitation, v.pass_counts, v.passed, v.received], () => passes(this));
    region(this.panels.melds, [v.melds, this.seat], () => melds(this));
    region(this.panels.sheet, [v.completed_hands.length, this.seat], () => sheet(this));
    region(this.panels.log, [model.log.length, model.table.seats.map((s) => s.name), this.seat], () => logLines(this));
    region(this.tools, [this.seat, this.running()], () => this.toolButtons());
    this.hostBox.hidden = !this.host;
    region(this.hostBox, hostKey(this), () => hostPanel(this));
    this.chat.update(true, !!this.seat);
    this.tick();
    if (this.pendingSummary !== undefined && this.pendingSummary !== null) {
      const number = this.pendingSummary;
      this.pendingSummary = null;
      this.summaryHand = number; // the bar behind the summary stays on its hand
      this.summary = showSummary(this, number, { live: true, onDismiss: () => this.dismissed(number) });
      region(this.glance, glanceKey(this), () => glance(this));
      this.felt.update();
    }
  }

  promptKey() {
    const v = this.model.view;
    const t = this.model.table;
    return [v.phase, v.to_act, this.seat, v.legal_actions, t.started, t.seats.map((s) => [s.kind, s.standin || null]),
      this.lost, this.choice, this.sending, v.passed.length, v.bid, v.winner, t.status, t.result, t.next, this.inviteCode, this.host,
      this.model.clock && this.model.clock.seat, t.hint, this.hint && [this.hint.seq, this.hint.text]];
  }

  /** Ask the server for the hint bot's choice on this turn (a table made with hints). */
  async askHint() {
    const seq = this.model.table.seq;
    this.hint = { seq, text: "Thinking…" };
    this.render();
    let text;
    try {
      const answer = await api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/hint`);
      text = `Hint: the ${answer.bot} bot would ${hintWords(answer.action, (c) => this.meldName(c))}`;
    } catch (error) {
      text = `No hint: ${error.message}`;
    }
    if (this.hint && this.hint.seq === seq) {
      this.hint = { seq, text };
      this.render();
    }
  }

  /** Whether the game is still being played at this table. */
  running() {
    const t = this.model.table;
    return !this.finished() && !!(t && t.started);
  }

  finished() {
    const t = this.model.table;
    return (this.model.view && this.model.view.phase === "game-over") || (t && (t.status === "finished" || !!t.result));
  }

  /** This page's seat is being played by a stand-in bot. */
  standingIn() {
    const t = this.model.table;
    if (!this.seat || !t) return null;
    return t.seats[SEATS.indexOf(this.seat)].standin || null;
  }

  toolButtons() {
    const out = [h("button", { type: "button", class: "rules-button", dataset: { key: "rules" }, onclick: () => showRules(this) }, "Rules")];
    if (this.seat && this.running()) {
      out.push(h("button", { type: "button", class: "resign", id: "resign", dataset: { key: "resign" }, onclick: () =>
        confirmDialog("Resign the game for your side?", "Resign", () => this.connection.send({ op: "resign" })) }, "Resign"));
    }
    return out;
  }

  handMode() {
    const v = this.model.view;
    if (!this.seat || v.to_act !== this.seat || this.sending) return "none";
    if (v.phase === "play") return "play";
    if (v.phase === "invitation" || v.phase === "partner-pass" || v.phase === "bidder-pass") return "pick";
    return "none";
  }

  updateHand() {
    const v = this.model.view;
    if (!this.seat || v.phase === "game-over") {
      this.hand.node.hidden = true;
      return;
    }
    this.hand.node.hidden = false;
    const mode = this.handMode();
    const legal = new Set();
    if (mode !== "none") for (const a of v.legal_actions) if (a.card) legal.add(a.card);
    if (mode === "pick" && v.phase !== "invitation" && this.choice.picks.length >= 3 - v.passed.length) legal.clear();
    this.hand.update({ cards: v.hand, legal, mode, picked: new Set(this.choice.picks), received: v.received, sunk: v.sunk_suit, busy: this.sending || !this.connection.ready });
  }

  // -- choosing, then confirming -----------------------------------------------------------

  resetChoice() {
    const v = this.model.view;
    const key = `${v.hand_number}:${v.phase}:${v.to_act === this.seat}`;
    if (this.choice.key !== key && !this.sending && !this.queue.length) this.choice = { key, picks: [], melds: [] };
  }

  pick(key, card) {
    const picks = this.choice.picks;
    const at = picks.indexOf(key);
    if (at >= 0) picks.splice(at, 1);
    else {
      const v = this.model.view;
      if (v.phase !== "invitation" && picks.length >= 3 - v.passed.length) return;
      picks.push(key);
    }
    this.choice = { ...this.choice, picks: picks.slice() };
    this.render();
  }

  undoPick() {
    this.choice = { ...this.choice, picks: this.choice.picks.slice(0, -1) };
    this.render();
  }

  clearPicks() {
    this.choice = { ...this.choice, picks: [] };
    this.render();
  }

  toggleMeld(code) {
    const melds = this.choice.melds.includes(code) ? this.choice.melds.filter((m) => m !== code) : [...this.choice.melds, code];
    this.choice = { ...this.choice, melds };
    this.render();
  }

  clearMelds() {
    this.choice = { ...this.choice, melds: [] };
    this.render();
  }

  confirmChoice() {
    const v = this.model.view;
    const seat = this.seat;
    let actions = [];
    if (v.phase === "invitation") {
      actions = this.choice.picks.map((key) => ({ type: "ShowCard", seat, card: key.split("#")[0] }));
      actions.push({ type: "Done", seat });
    } else if (v.phase === "partner-pass" || v.phase === "bidder-pass") {
      actions = this.choice.picks.map((key) => ({ type: "PassCard", seat, card: key.split("#")[0] }));
    } else if (v.phase === "melding" || v.phase === "bidder-meld") {
      actions = this.choice.melds.map((meld) => ({ type: "DeclareMeld", seat, meld }));
      actions.push({ type: "Done", seat });
    }
    if (!actions.length) return;
    this.queue = actions;
    this.continueQueue();
  }

  /** Send the next action of a confirmed choice, if it is still legal. */
  continueQueue() {
    if (!this.queue.length || this.sending) return;
    const v = this.model.view;
    if (v.to_act !== this.seat) {
      this.queue = [];
      return;
    }
    const next = this.queue.shift();
    const legal = v.legal_actions.find((a) => same(normal(a), normal(next)));
    if (!legal) {
      const what = next.meld ? this.meldName(next.meld) : next.card ? cardName(next.card) : next.type;
      this.queue = [];
      this.choice = { ...this.choice, picks: [], melds: [] };
      const rule = next.type === "DeclareMeld" ? "R-MELD-3" : next.type === "PassCard" ? "R-PASS-2" : "R-INVITE-2";
      this.toast(`${what} cannot go with the rest of your choice, so the rest was not sent. Choose again from what is left.`, "error", rule);
      this.render();
      return;
    }
    this.send(legal);
  }

  // -- moves ----------------------------------------------------------------------------

  send(action) {
    if (this.sending) return;
    const message = { op: "act", action };
    message.seq = this.model.seq; // the version the move was chosen in
    if (!this.connection.send(message)) {
      this.toast("Not connected: your move was not sent. It will be possible again once the page reconnects.");
      return;
    }
    this.sending = true;
    this.awaiting = this.model.seq;
    this.render();
  }

  playCard(card) {
    const action = this.model.view.legal_actions.find((a) => a.type === "PlayCard" && a.card === card);
    if (action) this.send(action);
  }

  // -- around the game --------------------------------------------------------------------

  async sit(seat) {
    const input = document.getElementById("sit-name");
    const name = input ? input.value : "";
    keepName(name);
    try {
      const body = { seat, name };
      if (this.invite) body.invite = this.invite;
      const joined = await api("POST", `/api/tables/${encodeURIComponent(this.tableId)}/join`, body);
      noteSeat(this.tableId, joined.seat); // the key is in the table's cookie now
      this.seat = joined.seat;
      this.connect();
    } catch (error) {
      this.toast(error.message);
    }
  }

  async fill() {
    try {
      await api("POST", `/api/tables/${encodeURIComponent(this.tableId)}/fill`, { bot: "heuristic" });
    } catch (error) {
      this.toast(error.message);
    }
  }

  async rematch() {
    try {
      const made = await api("POST", `/api/tables/${encodeURIComponent(this.tableId)}/rematch`, { seating: "NESW" });
      if (made.seat) noteSeat(made.table.id, made.seat);
      location.assign(made.url || `/table/${made.table.id}`);
    } catch (error) {
      this.toast(error.message);
    }
  }

  async copyInvite() {
    const input = document.getElementById("invite-link");
    try {
      await navigator.clipboard.writeText(input.value);
      this.toast("Invite link copied.", "info");
    } catch {
      input.select();
      this.toast("Select the link and copy it.", "info");
    }
  }

  showLastTrick() {
    const trick = this.model.lastTrick();
    if (trick) showLastTrick(this, trick);
  }

  showSummary(number) {
    showSummary(this, number);
  }

  dismissed(number) {
    this.summary = null;
    this.summaryHand = null;
    if (this.built) this.render();
    if (this.seat) this.connection.send({ op: "ready", hand: number });
    this.prompt.focus({ preventScroll: true });
  }

  takeSeatBack() {
    this.connection.send({ op: "return" });
  }

  /** The invite link to share: with the table's invite code when the server gives one. */
  inviteLink() {
    const base = `${location.origin}/table/${this.tableId}`;
    return this.inviteCode ? `${base}#invite=${this.inviteCode}` : base;
  }

  afterGameButtons() {
    const id = encodeURIComponent(this.tableId);
    const next = this.model.table && this.model.table.next;
    return [
      next ? h("a", { class: "button primary", id: "rematch-link", href: `/table/${encodeURIComponent(next)}`, dataset: { key: "rematch-link" } }, "Go to the rematch") : null,
      (this.seat || this.host) && !next
        ? h("button", { type: "button", class: "primary", id: "rematch", dataset: { key: "rematch" }, onclick: () => this.rematch() }, "Rematch, same seats")
        : null,
      h("a", { class: "button", id: "replay-link", href: `/replay/${id}`, dataset: { key: "replay" } }, "Replay the game"),
      h("a", { class: "button", id: "record-link", href: `/api/tables/${id}/record`, download: `deepsix-${this.tableId}.txt`, dataset: { key: "record" } }, "Download the record"),
      h("a", { class: "button", href: "/", dataset: { key: "lobby" } }, "Back to the lobby"),
    ];
  }


  /** The time left on a seat's clock, in ms of this page's clock, or null. */
  clockFor(seat) {
    const clock = this.model.clock;
    return clock && clock.seat === seat ? clock : null;
  }

  /** Count the clocks down, in place (no redraw). */
  tick() {
    if (!this.built) return;
    const clock = this.model.clock;
    // a dialog over the table shows your turn's clock too: it keeps running behind it
    for (const dialog of document.querySelectorAll("dialog[open]")) {
      const shown = dialog.querySelector(".dialog-clock");
      const mine = !!(clock && this.seat && clock.seat === this.seat);
      if (mine && !shown) {
        dialog.querySelector(".dialog-head").after(h("p", { class: "dialog-clock", role: "status" }, "Your turn: ", h("span", { class: "turn-clock", dataset: { clock: this.seat } })));
      } else if (!mine && shown) shown.remove();
    }
    for (const node of document.querySelectorAll("#app [data-clock], dialog [data-clock]")) {
      if (!clock || node.dataset.clock !== clock.seat) {
        setText(node, "");
        continue;
      }
      const left = Math.max(0, Math.ceil((clock.until - Date.now()) / 1000));
      const text = clock.reason === "absent" ? `stand-in in ${left} s` : `${left} s left`;
      setText(node, text);
      node.classList.toggle("urgent", left <= 10);
    }
  }
}

/** An action without key order or absent fields mattering, for comparison. */
function normal(action) {
  return Object.fromEntries(Object.entries(action).filter(([, v]) => v !== null && v !== undefined).sort());
}

export { openDialog };
