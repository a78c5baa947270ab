// The table protocol this client speaks: version 2 (deepsix.web.protocol).
//
// Seat keys live in HttpOnly cookies scoped to the table; every move is tagged with its seq;
// a hello's `since` is answered with the events missed; presence, clocks, chat, stand-ins,
// resignation, rematches and a live lobby come with it.  The page speaks nothing older.

export const PROTOCOL = 2;

export function tableSocket(tableId) {
  return `/api/tables/${encodeURIComponent(tableId)}/socket`;
}

export function lobbySocket() {
  return "/api/lobby";
}
