// Seats in this browser, never in the address bar.
//
// With protocol 2 the server keeps a seat's key in an HttpOnly cookie scoped to the table:
// the page never holds it.  A link that carries a key (/table/ID#seat=S&token=..., the
// API's answer for programs, or a key the host re-issued) is read once, traded for the
// cookie (POST /api/tables/ID/session) and scrubbed from the address bar and the history
// with history.replaceState before anything else runs.  The page notes which tables it
// has a seat at (the seat letter only, no secret), for the lobby's "Return" buttons.

const KEYS = "deepsix:seats"; // kept by pages of an older server: {table: {seat, token}}, read only to list seats and forget them
const MINE = "deepsix:mine"; // {table: seat letter}: no secret

function load(name) {
  try {
    const data = JSON.parse(localStorage.getItem(name) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function save(name, data) {
  try {
    localStorage.setItem(name, JSON.stringify(data));
  } catch {
    // storage full or disabled: the seat lasts as long as the page
  }
}

/** Tables this browser has a seat at: {tableId: seat letter}. */
export function allSeats() {
  const seats = load(MINE);
  for (const [table, kept] of Object.entries(load(KEYS))) if (!seats[table] && kept.seat) seats[table] = kept.seat;
  return seats;
}

export function noteSeat(tableId, seat) {
  const seats = load(MINE);
  if (seat) seats[tableId] = seat;
  else delete seats[tableId];
  save(MINE, seats);
}

export function forgetSeat(tableId) {
  const seats = load(KEYS);
  delete seats[tableId];
  save(KEYS, seats);
  noteSeat(tableId, null);
}

/**
 * Read what the address carries for this table -- a seat key, an invite code -- and scrub
 * the address at once.  Returns {seat, token, invite}.
 */
export function takeFromAddress(tableId) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const found = { seat: fragment.get("seat"), token: fragment.get("token"), invite: fragment.get("invite") };
  if (found.invite) keepInvite(tableId, found.invite);
  if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
  return found;
}

export function keepInvite(tableId, code) {
  try {
    sessionStorage.setItem(`deepsix:invite:${tableId}`, code);
  } catch {
    // ignore
  }
}

export function inviteFor(tableId) {
  try {
    return sessionStorage.getItem(`deepsix:invite:${tableId}`);
  } catch {
    return null;
  }
}

export function myName() {
  try {
    return localStorage.getItem("deepsix:name") || "";
  } catch {
    return "";
  }
}

export function keepName(name) {
  try {
    localStorage.setItem("deepsix:name", name);
  } catch {
    // ignore
  }
}
