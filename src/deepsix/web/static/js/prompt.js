// The prompt: what you can do now, in a sentence and a few controls.
//
// Bids and plays are one click.  The invitation, both passes and the meld are chosen first
// -- pick, see the choice, change it -- and only "confirm" sends them to the table.

import { SEAT_NAMES, SUIT_NAMES, SUIT_ORDER, TEAM_NAMES, cardFace, num, partnerOf, signed, suitMark } from "./cards.js";
import { h } from "./dom.js";
import { PHASE_NAMES, forcedSentence } from "./words.js";

export const CHOOSING = new Set(["invitation", "partner-pass", "bidder-pass", "bidder-meld", "melding"]);

function button(label, props) {
  return h("button", { type: "button", ...props }, label);
}

/** The prompt's content for the page's current state. */
export function promptContent(page) {
  const model = page.model;
  const v = model.view;
  const table = model.table;
  if (page.finished()) return gameOver(page);
  if (!table.started) return waitingForPlayers(page);
  if (!page.seat && page.lost) return lostSeat(page);
  if (!page.seat) return [h("p", { class: "muted", text: v.to_act ? `Watching. ${page.name(v.to_act)} to act.` : "Watching." })];
  const standin = page.standingIn();
  if (standin) {
    return [h("h2", { id: "prompt-title", text: `The ${standin} bot is playing your seat` }),
      h("p", { class: "hint", text: "It took over while you were away. Take your seat back whenever you are ready." }),
      h("div", { class: "buttons" }, button("Take my seat back", { class: "primary", id: "return", dataset: { key: "return" }, onclick: () => page.takeSeatBack() }))];
  }
  if (page.sending) return [h("p", { class: "muted waiting", text: "Sending…" })];
  if (v.to_act !== page.seat) {
    const who = v.to_act ? page.name(v.to_act) : "the dealer";
    const text = v.phase === "deal" ? (v.completed_hands.length ? "The next hand is dealt when everyone has read the summary." : "Dealing…") : `${PHASE_NAMES[v.phase]}: waiting for ${who}…`;
    return [h("p", { class: "muted waiting", text })];
  }
  const legal = v.legal_actions;
  const out = mine(page, v, legal);
  if (page.clockFor(page.seat)) out.splice(1, 0, h("p", { class: "turn-clock", dataset: { clock: page.seat } }));
  if (table.hint) out.push(hintBox(page));
  return out;
}

/** The table's hint option: ask the quick search bot what it would do here. */
function hintBox(page) {
  const hint = page.hint && page.hint.seq === page.model.table.seq ? page.hint : null;
  return h("div", { class: "hint-box", "aria-live": "polite" },
    hint
      ? h("p", { class: "hint-line", id: "hint-text", text: hint.text })
      : button("Hint", { class: "small-button", id: "ask-hint", dataset: { key: "ask-hint" }, title: "What would the quick search bot do here?", onclick: () => page.askHint() }));
}

function mine(page, v, legal) {
  switch (v.phase) {
    case "bidding":
      return bidding(page, legal);
    case "sunk-suit":
      return [h("h2", { id: "prompt-title", text: "You won the auction: name the sunk suit" }),
        h("p", { class: "hint", text: "A sunk card never takes a trick from another suit, and there are no runs in the sunk suit." }),
        h("div", { class: "buttons" }, SUIT_ORDER.map((suit) => {
          const action = legal.find((a) => a.suit === suit);
          return action ? button([suitMark(suit), ` ${SUIT_NAMES[suit]}`], { class: "act suit", dataset: { act: "NameSunkSuit", key: `suit-${suit}` }, onclick: () => page.send(action) }) : null;
        }))];
    case "invitation":
      return invitation(page);
    case "partner-pass":
    case "bidder-pass":
      return passing(page);
    case "bidder-meld":
    case "melding":
      return melding(page, legal);
    case "play":
      return [h("h2", { id: "prompt-title", text: v.trick.length ? "Your play" : `Your lead to trick ${v.tricks.length + 1}` }),
        h("p", { class: "hint", text: page.hand.touch() ? "Tap a raised card to lift it, tap it again to play it." : "Click a raised card to play it." })];
    default:
      return [h("div", { class: "buttons" }, legal.map((a, i) => button(a.type, { class: "act", dataset: { act: a.type, key: `a${i}` }, onclick: () => page.send(a) })))];
  }
}

function bidding(page, legal) {
  const v = page.model.view;
  const pass = legal.find((a) => a.type === "Pass");
  const bids = legal.filter((a) => a.type === "Bid");
  const out = [];
  if (!pass && bids.length === 1) {
    out.push(h("h2", { id: "prompt-title", text: `You must bid ${num(bids[0].amount)}` }),
      h("p", { class: "hint" }, forcedSentence("you", num(bids[0].amount)).replace("you (the dealer) had to", "you, the dealer, must"), " ", page.ruleLink("R-BID-7")));
  } else {
    out.push(h("h2", { id: "prompt-title", text: v.bid === null ? "Your call: open the bidding, or pass" : `Your call: beat ${num(v.bid)}, or pass` }),
      h("p", { class: "hint", text: "A bid is the most points your side promises to take, less its meld: lower is braver. A pass is final for this hand." }));
  }
  const row = h("div", { class: "buttons" });
  if (pass) row.append(button("Pass", { class: "act pass", dataset: { act: "Pass", key: "pass" }, onclick: () => page.send(pass) }));
  for (const bid of bids.slice(0, 6)) row.append(button(num(bid.amount), { class: "act bid", dataset: { act: "Bid", key: `bid-${bid.amount}` }, "aria-label": `Bid ${num(bid.amount)}`, onclick: () => page.send(bid) }));
  if (bids.length > 6) {
    const select = h("select", { id: "any-bid", "aria-label": "Any legal bid", dataset: { key: "any-bid" } }, bids.map((b, i) => h("option", { value: String(i) }, num(b.amount))));
    row.append(h("span", { class: "any-bid" }, select,
      button("Bid", { class: "act bid-any", dataset: { act: "Bid", key: "bid-any" }, onclick: () => page.send(bids[Number(select.value)]) })));
  }
  out.push(row);
  return out;
}

function chosenCards(page, choice) {
  const v = page.model.view;
  return choice.picks.length
    ? h("span", { class: "chosen" }, choice.picks.map((key) => cardFace(key.split("#")[0], { sunk: v.sunk_suit, cls: "small" })))
    : h("span", { class: "muted", text: "none yet" });
}

function undoButtons(page, choice) {
  return [
    button("Undo", { class: "undo", dataset: { key: "undo" }, disabled: !choice.picks.length, onclick: () => page.undoPick() }),
    button("Clear", { class: "clear", dataset: { key: "clear" }, disabled: !choice.picks.length, onclick: () => page.clearPicks() }),
  ];
}

function invitation(page) {
  const choice = page.choice;
  const partner = page.name(partnerOf(page.seat));
  const count = choice.picks.length;
  return [
    h("h2", { id: "prompt-title", text: "Your invitation" }),
    h("p", { class: "hint", text: `Show cards of melds you could complete, so that ${partner} can pass you what is missing. Pick them in your hand; nothing is shown until you confirm.` }),
    h("div", { class: "choice-row" }, h("span", { class: "label", text: "To show: " }), chosenCards(page, choice)),
    h("div", { class: "buttons" }, undoButtons(page, choice),
      button(count ? `Show ${count} card${count === 1 ? "" : "s"}` : "Show nothing", { class: "act confirm", dataset: { act: "Confirm", key: "confirm" }, onclick: () => page.confirmChoice() })),
  ];
}

function passing(page) {
  const v = page.model.view;
  const choice = page.choice;
  const need = 3 - v.passed.length;
  const partner = page.name(partnerOf(page.seat));
  const ready = choice.picks.length === need;
  const why = v.phase === "bidder-pass"
    ? "Pass back three cards you did not meld."
    : `${partner} won the auction: pass three cards that help their melds (see the invitation) or that you want rid of.`;
  return [
    h("h2", { id: "prompt-title", text: `Pass ${need} card${need === 1 ? "" : "s"} to ${partner}` }),
    h("p", { class: "hint", text: `${why} Pick them in your hand, then confirm.` }),
    h("div", { class: "choice-row" }, h("span", { class: "label", text: `Chosen (${choice.picks.length} of ${need}): ` }), chosenCards(page, choice)),
    h("div", { class: "buttons" }, undoButtons(page, choice),
      button(`Pass ${need === 3 ? "these three" : "them"}`, { class: "act confirm", dataset: { act: "Confirm", key: "confirm" }, disabled: !ready, onclick: () => page.confirmChoice() })),
  ];
}

const FAMILIES = { GR: "run", DR: "run", SR: "run", DE: "echo", SE: "echo", MT: "echo", "8W": "wide", "7W": "wide", "6W": "wide" };

/**
 * The melds on offer that the current selection would block (a preview; the server decides
 * on confirm): a card copy serves at most one meld of each family (R-MELD-3; of any family
 * without the meld_sharing rule), and the bidder keeps `keep` cards unmelded (R-MELD-4).
 */
export function blockedMelds(codes, chosen, declared, hand, legend, { keep = null, sharing = true } = {}) {
  const held = {};
  for (const card of hand) held[card] = (held[card] || 0) + 1;
  const familyOf = (code) => FAMILIES[code.split("-")[0]];
  const usage = (melds) => {
    const table = { run: {}, echo: {}, wide: {} };
    for (const code of melds) {
      const family = table[familyOf(code)];
      for (const card of (legend[code] || {}).cards || []) family[card] = (family[card] || 0) + 1;
    }
    return table;
  };
  const tied = (table, card) => {
    const uses = [table.run[card] || 0, table.echo[card] || 0, table.wide[card] || 0];
    return sharing ? Math.max(...uses) : uses[0] + uses[1] + uses[2];
  };
  const blocked = [];
  for (const code of codes) {
    if (chosen.includes(code)) continue;
    const trial = usage([...declared, ...chosen, code]);
    const cards = Object.keys({ ...trial.run, ...trial.echo, ...trial.wide });
    const over = sharing
      ? Object.entries(trial[familyOf(code)]).some(([card, n]) => n > (held[card] || 0))
      : cards.some((card) => tied(trial, card) > (held[card] || 0));
    const melded = cards.reduce((sum, card) => sum + Math.min(tied(trial, card), held[card] || 0), 0);
    if (over || (keep !== null && hand.length - melded < keep)) blocked.push(code);
  }
  return blocked;
}

function melding(page, legal) {
  const choice = page.choice;
  const model = page.model;
  const v = model.view;
  const declared = v.melds[["N", "E", "S", "W"].indexOf(page.seat)];
  const options = legal.filter((a) => a.type === "DeclareMeld");
  const value = (code) => (model.legend[code] || {}).value || 0;
  const total = choice.melds.reduce((sum, code) => sum + value(code), 0);
  const blocked = choice.melds.length
    ? blockedMelds(options.map((a) => a.meld), choice.melds, declared, v.hand, model.legend,
      { keep: v.phase === "bidder-meld" ? v.rules.pass_size : null, sharing: v.rules.meld_sharing })
    : [];
  const list = h("div", { class: "buttons melds-choice", role: "group", "aria-label": "Melds you can declare" },
    options.map((a) => {
      const on = choice.melds.includes(a.meld);
      const off = blocked.includes(a.meld);
      return button([page.meldName(a.meld), " ", h("span", { class: "value", text: signed(value(a.meld)) }),
        off ? h("span", { class: "blocked-note", text: " · blocked" }) : null], {
        class: `meld-toggle${on ? " on" : ""}${off ? " blocked" : ""}`, "aria-pressed": String(on),
        title: off ? "Your choice already uses these cards in this family of melds" : null,
        dataset: { act: "ToggleMeld", key: `meld-${a.meld}`, meld: a.meld, blocked: off ? "yes" : null },
        onclick: () => page.toggleMeld(a.meld),
      });
    }));
  const count = choice.melds.length;
  return [
    h("h2", { id: "prompt-title", text: v.phase === "bidder-meld" ? "Your meld (you may also use the cards passed to you)" : "Your meld" }),
    options.length
      ? h("p", { class: "hint", text: "Choose the melds to lay down (each one lowers your side's score), then confirm. Melds your choice would block are marked." })
      : h("p", { class: "hint", text: declared.length ? "Nothing more to meld." : "You have no meld this hand." }),
    options.length ? list : null,
    blocked.length
      ? h("p", { class: "hint blocked-list", id: "meld-blocked", text: `Your choice blocks ${blocked.map((code) => page.meldName(code)).join(", ")}: a card serves one meld of each family${v.phase === "bidder-meld" ? ", and the bidder keeps ${v.rules.pass_size} cards unmelded" : ""}.` })
      : null,
    h("div", { class: "buttons" },
      options.length ? button("Clear", { class: "clear", dataset: { key: "clear" }, disabled: !count, onclick: () => page.clearMelds() }) : null,
      button(count ? `Declare ${count} meld${count === 1 ? "" : "s"} (${signed(total)})` : declared.length ? "Done" : "No meld", {
        class: "act confirm", dataset: { act: "Confirm", key: "confirm" }, onclick: () => page.confirmChoice(),
      })),
  ];
}

/** This page's seat went to a bot or to a new key: what happened, and what can be done. */
function lostSeat(page) {
  const { kind, seat } = page.lost;
  const slot = page.model.table.seats[["N", "E", "S", "W"].indexOf(seat)];
  const where = `the ${SEAT_NAMES[seat]} seat`;
  const title = kind === "seat-changed" ? `The host gave your seat to a bot` : `Your seat has a new key`;
  const what = kind === "seat-changed"
    ? `${slot && slot.kind === "bot" ? `The ${slot.bot} bot` : "A bot"} plays ${where} now, so you are watching the table.`
    : `The host (or you, in another browser) made a new key for ${where}: this browser's key does not work any more, so you are watching the table.`;
  return [h("div", { id: "seat-lost", role: "status" },
    h("h2", { id: "prompt-title", text: title }),
    h("p", { text: `${what} To play again, ask the host for a new link to a seat; or keep watching here, or start a table of your own.` }),
    h("div", { class: "buttons" },
      button("Keep watching", { id: "keep-watching", dataset: { key: "keep-watching" }, onclick: () => { page.lost = null; page.render(); } }),
      h("a", { class: "button primary", href: "/", dataset: { key: "lobby" } }, "Back to the lobby")))];
}

function waitingForPlayers(page) {
  const table = page.model.table;
  const open = table.seats.filter((s) => s.kind === "open").map((s) => s.seat);
  const out = [h("h2", { id: "prompt-title", text: `Waiting for players: ${open.map((s) => SEAT_NAMES[s]).join(", ")} open` })];
  out.push(h("div", { class: "invite" },
    h("label", { for: "invite-link", text: "Invite link" }),
    h("input", { id: "invite-link", readonly: true, value: page.inviteLink(), dataset: { key: "invite-link" }, onfocus: (e) => e.target.select() }),
    button("Copy", { dataset: { key: "copy-invite" }, onclick: () => page.copyInvite() })));
  out.push(h("p", { class: "hint", text: "Whoever opens this link can take an open seat or watch. It never holds your own seat: that stays in this browser." }));
  if (!page.seat) {
    // the name first: it goes with the seat the button takes
    out.push(h("label", { class: "name-field" }, "Your name ", h("input", { id: "sit-name", maxlength: "24", dataset: { key: "sit-name" }, value: page.playerName() })));
    out.push(h("div", { class: "buttons" }, open.map((seat) => button(`Sit ${SEAT_NAMES[seat]}`, {
      class: "primary sit", dataset: { key: `sit-${seat}`, seat }, onclick: () => page.sit(seat),
    }))));
  } else {
    out.push(button("Fill the open seats with bots", { class: "primary", id: "fill", dataset: { key: "fill" }, onclick: () => page.fill() }));
  }
  return out;
}

function gameOver(page) {
  const v = page.model.view;
  const result = page.model.table.result || { winner: v.winner, reason: "game-over", by: null };
  const side = page.seat ? (["N", "S"].includes(page.seat) ? "NS" : "EW") : null;
  const winner = result.winner;
  let title = winner ? `${TEAM_NAMES[winner]} won` : "The table has ended";
  if (side && winner) title = winner === side ? "You won the game!" : "You lost the game";
  let why = "";
  if (result.reason === "game-over") why = `${TEAM_NAMES[winner]} win, ${v.scores[0]} to ${v.scores[1]} (North–South to East–West): the lower score wins once a side reaches ${v.rules.target_score}.`;
  else if (result.reason === "resigned") why = `${result.by ? page.name(result.by) : "A player"} resigned${winner ? `: ${TEAM_NAMES[winner]} win` : ""}. The score was ${v.scores[0]} to ${v.scores[1]}.`;
  else if (result.reason === "abandoned") why = "The host ended the table.";
  else if (result.reason === "closed") why = "Nobody came back to the table, so it was closed and archived.";
  return [
    h("h2", { id: "prompt-title", text: title }),
    h("p", { text: why }),
    h("div", { class: "buttons" }, page.afterGameButtons()),
  ];
}
