// Seat credentials kept in this browser, never in the address bar.
//
// Creating or joining a table gives the page a seat token.  The page keeps it in
// localStorage (per table) and opens the table at its plain address, /table/ID, so the
// address a player copies to invite a friend never carries her seat.  A link that does
// carry one (the API's "url", /table/ID#seat=S&token=...) is read once and scrubbed from
// the address bar and the history with history.replaceState before anything else runs.

const KEY = "deepsix:seats";

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function save(seats) {
  try {
    localStorage.setItem(KEY, JSON.stringify(seats));
  } catch {
    // storage full or disabled: the seat lasts as long as the page
  }
}

export function allSeats() {
  return load();
}

export function seatFor(tableId) {
  const found = load()[tableId];
  return found && typeof found.token === "string" ? found : null;
}

export function keepSeat(tableId, seat, token) {
  const seats = load();
  seats[tableId] = { seat, token, at: Date.now() };
  save(seats);
}

export function forgetSeat(tableId) {
  const seats = load();
  delete seats[tableId];
  save(seats);
}

/** Take a seat token out of the address (fragment or query), keep it, and scrub it. */
export function adoptFromAddress(tableId) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("token");
  const seat = fragment.get("seat");
  if (token) keepSeat(tableId, seat, token);
  if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
}

export function myName() {
  return localStorage.getItem("deepsix:name") || "";
}

export function keepName(name) {
  try {
    localStorage.setItem("deepsix:name", name);
  } catch {
    // ignore
  }
}
