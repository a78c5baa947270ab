// The Deep Six browser client: a lobby and a table, in plain JavaScript (no build step).
//
// It speaks the server's protocol, version 2 (deepsix.web.protocol): a hello (the seat is
// proven by the table's HttpOnly cookie, which this script never sees), then it renders
// every "update" frame -- the seat's own view and the step's public events -- and sends
// back one of view.legal_actions, unchanged, with the seq it was chosen at, when a control
// is clicked.  Controls exist only for legal actions; everything else is disabled.

const PROTOCOL = 2;
const HEARTBEAT_MS = 10000;
const SEATS = ["N", "E", "S", "W"];
const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
const TEAM_NAMES = { NS: "North–South", EW: "East–West" };
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const PHASE_NAMES = {
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

// -- small helpers ------------------------------------------------------------------

function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function cardNode(code, props = {}, tag = "span") {
  const rank = code[0];
  const suit = code[1];
  const sunk = state.view && state.view.sunk_suit === suit;
  return h(
    tag,
    {
      class: `card suit-${suit}${sunk ? " sunk" : ""}${props.class ? " " + props.class : ""}`,
      title: `${rank} of ${SUIT_NAMES[suit]}${sunk ? " (sunk suit)" : ""}`,
      "aria-label": `${rank} of ${SUIT_NAMES[suit]}`,
      ...Object.fromEntries(Object.entries(props).filter(([k]) => k !== "class")),
    },
    h("span", { class: "rank", text: rank }),
    h("span", { class: "pip", text: SUITS[suit] }),
  );
}

function cardsText(cards) {
  return cards.map((c) => `${c[0]}${SUITS[c[1]]}`).join(" ");
}

function suitSpan(suit) {
  return h("span", { class: `suit-${suit} suit-mark`, text: SUITS[suit] });
}

function seatLabel(letter) {
  const slot = state.table && state.table.seats[SEATS.indexOf(letter)];
  const you = state.seat === letter ? " (you)" : "";
  if (!slot) return SEAT_NAMES[letter] + you;
  return `${slot.name || SEAT_NAMES[letter]}${you}`;
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

function toast(message, kind = "error") {
  const node = document.getElementById("toast");
  node.textContent = message;
  node.className = `toast ${kind}`;
  node.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (node.hidden = true), kind === "error" ? 6000 : 2500);
}

async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data.error || { message: response.statusText };
    throw new Error(error.message);
  }
  return data;
}

// -- seats remembered in this browser -------------------------------------------------

function remembered() {
  try {
    return JSON.parse(localStorage.getItem("deepsix:seats") || "{}");
  } catch {
    return {};
  }
}

function remember(tableId, seat) {
  const seats = remembered();
  seats[tableId] = { seat, at: Date.now() };
  localStorage.setItem("deepsix:seats", JSON.stringify(seats));
}

function forget(tableId) {
  const seats = remembered();
  delete seats[tableId];
  localStorage.setItem("deepsix:seats", JSON.stringify(seats));
}

// -- the lobby --------------------------------------------------------------------------

async function lobby() {
  document.getElementById("where").textContent = "Lobby";
  const app = document.getElementById("app");
  let bots = ["heuristic", "random"];
  try {
    bots = (await api("GET", "/api/bots")).bots;
  } catch (error) {
    toast(`Could not reach the server: ${error.message}`);
  }
  const mine = h("select", { id: "my-seat", "aria-label": "Your seat" },
    SEATS.map((s) => h("option", { value: s, selected: s === "S" }, SEAT_NAMES[s])));
  const name = h("input", { id: "my-name", maxlength: "24", placeholder: "Your name",
    value: localStorage.getItem("deepsix:name") || "" });
  const others = {};
  const seatRows = h("div", { class: "seat-choices" });
  function drawSeatRows() {
    seatRows.replaceChildren();
    for (const s of SEATS) {
      if (s === mine.value) continue;
      others[s] = h("select", { id: `seat-${s}`, "aria-label": `${SEAT_NAMES[s]} is played by` },
        h("option", { value: "open" }, "a person (open seat)"),
        bots.map((b) => h("option", { value: b, selected: b === "heuristic" }, `${b} bot`)));
      seatRows.append(h("label", { class: "seat-choice" }, h("span", { text: SEAT_NAMES[s] }), others[s]));
    }
  }
  mine.addEventListener("change", drawSeatRows);
  drawSeatRows();
  const create = h("button", { class: "primary", id: "create", type: "submit" }, "Create table");
  const form = h("form", { class: "panel new-table", onsubmit: async (event) => {
      event.preventDefault();
      create.disabled = true;
      localStorage.setItem("deepsix:name", name.value);
      const seats = {};
      for (const [s, select] of Object.entries(others)) if (s !== mine.value) seats[s] = select.value;
      try {
        const made = await api("POST", "/api/tables", { seats, me: mine.value, name: name.value });
        remember(made.table.id, made.seat);
        location.assign(made.url);
      } catch (error) {
        toast(error.message);
        create.disabled = false;
      }
    } },
    h("h2", { text: "New table" }),
    h("div", { class: "field-row" }, h("label", {}, "Your name ", name), h("label", {}, "Your seat ", mine)),
    seatRows,
    h("p", { class: "hint", text: "Open seats wait for people to join; you can fill them with bots at any time." }),
    create);

  const list = h("div", { class: "panel tables" }, h("h2", { text: "Tables" }));
  const ours = remembered();
  let tables = [];
  try {
    tables = (await api("GET", "/api/tables")).tables;
  } catch (error) {
    toast(error.message);
  }
  if (!tables.length) list.append(h("p", { class: "hint", text: "No tables yet: create one." }));
  for (const table of tables) {
    const row = h("div", { class: "table-row" });
    row.append(h("div", { class: "table-title" },
      h("strong", { text: `Table ${table.id}` }),
      h("span", { class: "muted", text: ` · ${table.started ? PHASE_NAMES[table.phase] || table.phase : "waiting for players"} · NS ${table.scores[0]} · EW ${table.scores[1]}` })));
    const seats = h("div", { class: "table-seats" });
    for (const slot of table.seats) {
      if (slot.kind === "open") {
        seats.append(h("button", { class: "join", dataset: { seat: slot.seat, table: table.id },
          onclick: async () => {
            try {
              localStorage.setItem("deepsix:name", name.value);
              const joined = await api("POST", `/api/tables/${table.id}/join`, { seat: slot.seat, name: name.value });
              remember(table.id, joined.seat);
              location.assign(joined.url);
            } catch (error) {
              toast(error.message);
            }
          } }, `Sit ${SEAT_NAMES[slot.seat]}`));
      } else {
        seats.append(h("span", { class: `seat-tag ${slot.kind}` }, `${slot.seat}: ${slot.name}${slot.kind === "bot" ? ` (${slot.bot} bot)` : ""}`));
      }
    }
    const own = ours[table.id];
    seats.append(own
      ? h("a", { class: "button primary", href: `/table/${table.id}` }, `Return as ${SEAT_NAMES[own.seat]}`)
      : h("a", { class: "button", href: `/table/${table.id}` }, "Watch"));
    row.append(seats);
    list.append(row);
  }
  app.replaceChildren(h("div", { class: "lobby" }, form, list));
}

// -- the table --------------------------------------------------------------------------

const state = {
  tableId: null,
  seat: null,
  socket: null,
  heartbeat: null,
  view: null,
  table: null,
  melds: {},
  log: [],
  seq: -1,
  waiting: false,
  retry: 0,
  closedForGood: false,
};

function parseFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { token: params.get("token") };
}

async function tablePage(tableId) {
  state.tableId = tableId;
  const fragment = parseFragment();
  if (fragment.token) {
    // An old-style link with the seat's token in it: trade the token for the table's cookie,
    // then take it out of the address bar and the history.
    history.replaceState(null, "", location.pathname);
    try {
      const traded = await api("POST", `/api/tables/${tableId}/session`, {}, fragment.token);
      remember(tableId, traded.seat);
    } catch (error) {
      toast(error.message);
    }
  }
  document.getElementById("where").textContent = `Table ${tableId}`;
  connect();
}

function setConnection(text, kind) {
  const node = document.getElementById("conn");
  node.hidden = false;
  node.textContent = text;
  node.className = `conn ${kind}`;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/tables/${state.tableId}/socket`);
  state.socket = socket;
  setConnection(state.retry ? "reconnecting…" : "connecting…", "pending");
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ op: "hello", protocol: PROTOCOL }));
    clearInterval(state.heartbeat);
    state.heartbeat = setInterval(() => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ op: "ping" }));
    }, HEARTBEAT_MS);
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (state.socket !== socket) return;
    clearInterval(state.heartbeat);
    state.waiting = false;
    if (state.closedForGood || event.code === 1008) {
      setConnection("disconnected", "down");
      return;
    }
    state.retry += 1;
    const delay = Math.min(5000, 250 * 2 ** Math.min(state.retry, 5));
    setConnection("reconnecting…", "pending");
    setTimeout(connect, delay);
    if (state.view) render();
  });
}

function receive(message) {
  if (message.op === "welcome") {
    state.melds = message.melds;
    state.retry = 0;
    state.seat = message.seat;
    setConnection(message.seat ? `online as ${SEAT_NAMES[message.seat]}` : "watching", "up");
  } else if (message.op === "update") {
    if (message.seq < state.seq) return;
    state.seq = message.seq;
    state.view = message.view;
    state.table = message.table;
    state.waiting = false;
    for (const event of message.events) {
      state.log.unshift(describe(event));
      if (event.type === "TrickWon") state.lastTrick = event;
      // The next deal waits until every player has seen the hand's end: this page shows it
      // in the log and the score sheet at once, so it is ready straight away.
      if (event.type === "HandScored" && state.seat) sendMessage({ op: "ready", hand: event.record.number });
    }
    state.log = state.log.slice(0, 40);
    render();
  } else if (message.op === "notice") {
    toast(message.message, "info");
  } else if (message.op === "error") {
    state.waiting = false;
    if (message.code === "stale") {
      toast("The table moved on before your move arrived: look again and choose.", "info");
      return; // the current update follows
    }
    if (message.code === "unauthorized" || message.code === "no-such-table") {
      state.closedForGood = true;
      if (message.code === "unauthorized") forget(state.tableId);
      document.getElementById("app").replaceChildren(
        h("div", { class: "panel" }, h("h2", { text: "Cannot open this table" }),
          h("p", { class: "error-text", text: message.message }), h("a", { class: "button", href: "/" }, "Back to the lobby")));
      return;
    }
    toast(message.rule ? `${message.message}` : message.message);
    if (state.view) render();
  }
}

function sendMessage(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

function send(action) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN || state.waiting) return;
  state.waiting = true;
  state.socket.send(JSON.stringify({ op: "act", action, seq: state.seq }));
  for (const node of document.querySelectorAll("[data-act]")) node.disabled = true;
}

function describe(event) {
  switch (event.type) {
    case "HandDealt":
      return `Hand ${event.number} dealt by ${seatLabel(event.dealer)}.`;
    case "AuctionWon":
      return `${seatLabel(event.bidder)} wins the auction at ${event.bid}${event.forced ? " (forced)" : ""}.`;
    case "SunkSuitNamed":
      return `${seatLabel(event.bidder)} sinks ${SUITS[event.suit]} ${SUIT_NAMES[event.suit]}.`;
    case "InvitationMade":
      return event.cards.length
        ? `${seatLabel(event.bidder)} invites with ${cardsText(event.cards)}.`
        : `${seatLabel(event.bidder)} shows no invitation.`;
    case "CardsPassed":
      return `${seatLabel(event.giver)} passes ${event.count} cards to ${seatLabel(event.receiver)}.`;
    case "MeldsDeclared":
      return event.melds.length
        ? `${seatLabel(event.seat)} melds ${event.melds.map(meldName).join(", ")} (${signed(event.value)}).`
        : `${seatLabel(event.seat)} has no meld.`;
    case "TrickWon":
      return `Trick ${event.number} to ${seatLabel(event.trick.winner)}${event.points ? ` (${event.points} points)` : ""}.`;
    case "HandScored": {
      const r = event.record;
      return `Hand ${r.number} scored: NS ${signed(r.scores[0])}, EW ${signed(r.scores[1])}; bid ${r.made ? "made" : "set"}.`;
    }
    case "GameOver":
      return `Game over: ${TEAM_NAMES[event.winner]} win, ${event.scores[0]} to ${event.scores[1]}.`;
    default:
      return event.type;
  }
}

function meldName(code) {
  const meld = state.melds[code];
  return meld ? meld.name : code;
}

function relative(seat) {
  // Positions around the table, the viewer at the bottom (a spectator sees South there).
  const me = SEATS.indexOf(state.seat || "S");
  const index = SEATS.indexOf(seat);
  return ["bottom", "left", "top", "right"][(index - me + 4) % 4];
}

function legalIndex() {
  const byCard = new Map();
  const other = [];
  (state.view.legal_actions || []).forEach((action, index) => {
    if (action.card) byCard.set(action.card, { action, index });
    else other.push({ action, index });
  });
  return { byCard, other };
}

function actButton(action, label, props = {}) {
  return h("button", {
    ...props,
    class: `act ${props.class || ""}`.trim(),
    dataset: { act: action.type },
    disabled: state.waiting || !connected(),
    onclick: () => send(action),
  }, label);
}

function connected() {
  return state.socket && state.socket.readyState === WebSocket.OPEN;
}

function render() {
  const v = state.view;
  if (!v) return;
  const { byCard, other } = legalIndex();
  const app = document.getElementById("app");
  app.replaceChildren(
    h("div", { class: "game", dataset: { seq: String(state.seq), phase: v.phase, toAct: v.to_act || "", hands: String(v.completed_hands.length) } },
      scoreBar(v),
      h("div", { class: "board" },
        h("div", { class: "main-col" }, felt(v), prompt(v, other), hand(v, byCard)),
        h("aside", { class: "side-col" }, auctionPanel(v), passPanel(v), meldPanel(v), sheetPanel(v), logPanel())))
  );
}

function scoreBar(v) {
  const mine = v.seat ? (["N", "S"].includes(v.seat) ? 0 : 1) : null;
  const team = (i, label) => h("div", { class: `score${mine === i ? " ours" : ""}` },
    h("span", { class: "label", text: label }), h("strong", { class: "total", text: String(v.scores[i]) }));
  const facts = [
    h("span", { text: `Hand ${v.hand_number}` }),
    h("span", { text: `Dealer ${v.dealer}` }),
    h("span", { class: "phase", text: PHASE_NAMES[v.phase] || v.phase }),
  ];
  if (v.bid !== null && v.bidder) facts.push(h("span", {}, `${v.phase === "bidding" ? "High bid" : "Contract"} ${v.bidder} ${v.bid}`));
  if (v.sunk_suit) facts.push(h("span", { class: "sunk-fact" }, "Sunk ", suitSpan(v.sunk_suit)));
  if (v.phase === "play" || v.tricks.length) {
    const taken = [0, 0];
    for (const t of v.tricks) taken[["N", "S"].includes(t.winner) ? 0 : 1] += 1;
    facts.push(h("span", { text: `Tricks NS ${taken[0]} · EW ${taken[1]}` }));
  }
  return h("div", { class: "scorebar" }, team(0, "NS"), h("div", { class: "facts" }, facts), team(1, "EW"));
}

function seatBox(v, letter) {
  const index = SEATS.indexOf(letter);
  const slot = state.table.seats[index];
  const calls = v.bids.filter((b) => b.seat === letter);
  const last = calls[calls.length - 1];
  const melds = v.melds[index];
  const classes = ["seat", relative(letter)];
  if (v.to_act === letter) classes.push("to-act");
  if (letter === state.seat) classes.push("me");
  return h("div", { class: classes.join(" "), dataset: { seat: letter } },
    h("div", { class: "who" },
      h("span", { class: `dot ${slot.online ? "on" : "off"}`, title: slot.online ? "online" : "offline" }),
      h("strong", { text: seatLabel(letter) }),
      slot.kind === "bot" ? h("span", { class: "tag", title: `played by the ${slot.bot} bot`, text: `${slot.bot} bot` }) : null,
      slot.kind === "open" ? h("span", { class: "tag", text: "open" }) : null,
      v.dealer === letter ? h("span", { class: "tag dealer", title: "dealer", text: "D" }) : null),
    h("div", { class: "meta" },
      h("span", { text: `${v.hand_sizes[index]} cards` }),
      last && v.phase === "bidding" ? h("span", { class: "call", text: last.type === "Pass" ? "pass" : String(last.amount) }) : null,
      v.bidder === letter && v.phase !== "bidding" ? h("span", { class: "call", text: `bid ${v.bid}` }) : null,
      v.to_act === letter ? h("span", { class: "turn", text: "to act" }) : null),
    melds.length ? h("div", { class: "melds" }, melds.map((code) => h("span", { class: "meld-chip", text: meldName(code) }))) : null);
}

function felt(v) {
  const plays = v.trick.length ? v.trick : null;
  const last = !plays && v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  const shown = plays || (last ? last.plays : []);
  const center = shown.length
    ? h("div", { class: `trick${last ? " finished" : ""}` },
      shown.map(([seat, card]) => h("div", { class: `slot ${relative(seat)}` }, cardNode(card, { class: "played" }))))
    : null;
  let caption = "";
  if (last) caption = `Last trick: ${seatLabel(last.winner)}`;
  else if (v.phase === "play" && !plays) caption = `${seatLabel(v.to_act)} leads`;
  else if (v.phase !== "play" && v.to_act) caption = `${PHASE_NAMES[v.phase]}: ${seatLabel(v.to_act)} to act`;
  const inviting = ["invitation", "partner-pass", "bidder-meld", "bidder-pass", "melding"].includes(v.phase);
  const invitation = v.invitation.length && inviting
    ? h("div", { class: "invitation" }, h("span", { class: "label", text: "Invitation" }), v.invitation.map((c) => cardNode(c, { class: "small" })))
    : null;
  return h("section", { class: "felt", "aria-label": "The table" },
    SEATS.map((s) => seatBox(v, s)),
    h("div", { class: "center" }, center, caption ? h("div", { class: "caption", text: caption }) : null, invitation));
}

function prompt(v, other) {
  const box = h("section", { class: "prompt", "aria-live": "polite" });
  if (v.phase === "game-over") {
    box.append(h("h2", { text: `Game over: ${TEAM_NAMES[v.winner]} win` }),
      h("p", { text: `Final score NS ${v.scores[0]}, EW ${v.scores[1]}.` }),
      h("a", { class: "button primary", href: "/" }, "Back to the lobby"));
    return box;
  }
  if (!state.table.started) {
    const open = state.table.seats.filter((s) => s.kind === "open").map((s) => SEAT_NAMES[s.seat]);
    box.append(h("p", { text: `Waiting for players: ${open.join(", ")} open. Share this table's address, or fill the seats with bots.` }));
    if (state.seat) {
      box.append(h("button", { class: "primary", id: "fill", onclick: async () => {
        try {
          await api("POST", `/api/tables/${state.tableId}/fill`, { bot: "heuristic" });
        } catch (error) {
          toast(error.message);
        }
      } }, "Fill open seats with bots"));
    }
    return box;
  }
  if (!state.seat) {
    box.append(h("p", { class: "muted", text: `Watching. ${v.to_act ? `${seatLabel(v.to_act)} to act.` : ""}` }));
    return box;
  }
  const mine = state.table.seats[SEATS.indexOf(state.seat)];
  if (mine && mine.standin) {
    box.append(h("p", { text: `The ${mine.standin} bot is playing your seat.` }),
      h("button", { class: "primary", id: "take-back", onclick: () => sendMessage({ op: "return" }) }, "Take my seat back"));
    return box;
  }
  if (v.to_act !== state.seat) {
    const who = v.to_act ? seatLabel(v.to_act) : "the dealer";
    box.append(h("p", { class: "muted waiting", text: `${PHASE_NAMES[v.phase]}: waiting for ${who}…` }));
    return box;
  }
  const actions = other.map((o) => o.action);
  switch (v.phase) {
    case "bidding": {
      const pass = actions.find((a) => a.type === "Pass");
      const bids = actions.filter((a) => a.type === "Bid");
      box.append(h("h2", { text: v.bid === null ? "Your bid (lower is braver)" : `Your call: beat ${v.bid}` }));
      const row = h("div", { class: "buttons" });
      if (pass) row.append(actButton(pass, "Pass", { class: "pass" }));
      for (const bid of bids.slice(0, 6)) row.append(actButton(bid, String(bid.amount), { class: "bid" }));
      box.append(row);
      if (bids.length > 6) {
        const select = h("select", { "aria-label": "Any legal bid" }, bids.map((b, i) => h("option", { value: String(i) }, String(b.amount))));
        box.append(h("div", { class: "buttons" }, select,
          h("button", { class: "act", dataset: { act: "Bid" }, disabled: state.waiting, onclick: () => send(bids[Number(select.value)]) }, "Bid")));
      }
      break;
    }
    case "sunk-suit":
      box.append(h("h2", { text: "You won the auction: name the sunk suit" }),
        h("div", { class: "buttons" }, actions.map((a) => actButton(a, [suitSpan(a.suit), ` ${SUIT_NAMES[a.suit]}`], { class: "suit" }))));
      break;
    case "invitation":
      box.append(h("h2", { text: "Invitation: show cards your partner could complete (click them), then Done" }),
        h("div", { class: "buttons" }, actions.map((a) => actButton(a, v.invitation.length ? "Done" : "Done (no invitation)", { class: "done" }))));
      break;
    case "partner-pass":
    case "bidder-pass": {
      const left = 3 - v.passed.length;
      box.append(h("h2", { text: `Pass ${left} more card${left === 1 ? "" : "s"} to your partner: click ${left === 1 ? "it" : "them"} in your hand` }));
      break;
    }
    case "bidder-meld":
    case "melding":
      box.append(h("h2", { text: "Declare your melds, then Done" }),
        h("div", { class: "buttons melds-choice" }, actions.map((a) => a.type === "DeclareMeld"
          ? actButton(a, `${meldName(a.meld)} ${signed((state.melds[a.meld] || {}).value || 0)}`, { class: "meld" })
          : actButton(a, "Done", { class: "done" }))));
      break;
    case "play":
      box.append(h("h2", { text: v.trick.length ? "Your play: click a card" : "Your lead: click a card" }));
      break;
    default:
      box.append(h("div", { class: "buttons" }, actions.map((a) => actButton(a, a.type))));
  }
  return box;
}

function hand(v, byCard) {
  if (!state.seat) return null;
  const cards = h("div", { class: `hand-cards${byCard.size ? " choosing" : ""}` });
  const received = new Set(v.received);
  v.hand.forEach((card) => {
    const legal = byCard.get(card);
    const props = { type: "button", "data-card": card, disabled: !legal || state.waiting || !connected() };
    if (legal) {
      props.dataset = { act: legal.action.type };
      props.onclick = () => send(legal.action);
      props.class = "legal";
    }
    if (received.has(card)) props.class = `${props.class || ""} received`.trim();
    cards.append(cardNode(card, props, "button"));
  });
  return h("section", { class: "hand", "aria-label": "Your hand" },
    h("div", { class: "hand-title" }, h("strong", { text: "Your hand" }), h("span", { class: "muted", text: ` ${v.hand.length} cards` })),
    cards);
}

function auctionPanel(v) {
  if (!v.bids.length) return null;
  return h("section", { class: "panel auction" }, h("h3", { text: "Auction" }),
    h("ol", { class: "calls" }, v.bids.map((b) => h("li", {},
      h("span", { class: "seat-letter", text: b.seat }), " ", b.type === "Pass" ? h("span", { class: "muted", text: "pass" }) : h("strong", { text: String(b.amount) })))));
}

function passPanel(v) {
  if (!v.bidder || v.phase === "bidding" || v.phase === "sunk-suit") return null;
  const rows = [];
  if (v.invitation.length) rows.push(h("div", {}, h("span", { class: "label", text: "Invitation " }), v.invitation.map((c) => cardNode(c, { class: "small" }))));
  rows.push(h("div", { class: "muted", text: `Partner → bidder: ${v.pass_counts[0]}/3 · bidder → partner: ${v.pass_counts[1]}/3` }));
  if (v.passed.length) rows.push(h("div", {}, h("span", { class: "label", text: "You passed " }), v.passed.map((c) => cardNode(c, { class: "small" }))));
  if (v.received.length) rows.push(h("div", {}, h("span", { class: "label", text: "You received " }), v.received.map((c) => cardNode(c, { class: "small" }))));
  return h("section", { class: "panel passes" }, h("h3", { text: "Invitation and passes" }), rows);
}

function meldPanel(v) {
  if (!v.melds.some((m) => m.length) && !["bidder-meld", "melding", "play"].includes(v.phase)) return null;
  const rows = SEATS.map((s, i) => h("tr", {},
    h("th", { text: s }),
    h("td", { text: v.melds[i].length ? v.melds[i].map(meldName).join(", ") : "—" }),
    h("td", { class: "num", text: signed(v.melds[i].reduce((t, code) => t + ((state.melds[code] || {}).value || 0), 0)) })));
  return h("section", { class: "panel melds-table" }, h("h3", { text: "Melds on the table" }), h("table", {}, h("tbody", {}, rows)));
}

function sheetPanel(v) {
  if (!v.completed_hands.length) return null;
  const head = h("tr", {}, ["#", "Bid", "Sunk", "NS", "EW", "Totals"].map((t) => h("th", { text: t })));
  const rows = v.completed_hands.map((r) => h("tr", {},
    h("td", { text: String(r.number) }),
    h("td", { text: `${r.bidder} ${r.bid}${r.made ? "" : " ✗"}`, title: r.made ? "made" : "set" }),
    h("td", {}, suitSpan(r.sunk_suit)),
    h("td", { class: "num", text: String(r.scores[0]), title: `cards ${r.card_points[0]}, meld ${r.meld[0]}` }),
    h("td", { class: "num", text: String(r.scores[1]), title: `cards ${r.card_points[1]}, meld ${r.meld[1]}` }),
    h("td", { class: "num", text: `${r.totals[0]}–${r.totals[1]}` })));
  return h("section", { class: "panel sheet" }, h("h3", { text: "Score sheet" }),
    h("table", {}, h("thead", {}, head), h("tbody", {}, rows)));
}

function logPanel() {
  if (!state.log.length) return null;
  return h("section", { class: "panel log" }, h("h3", { text: "What happened" }),
    h("ul", {}, state.log.slice(0, 12).map((line) => h("li", { text: line }))));
}

// -- start ------------------------------------------------------------------------------

const match = location.pathname.match(/^\/table\/([A-Za-z0-9_-]{1,40})$/);
if (match) tablePage(match[1]);
else lobby();
