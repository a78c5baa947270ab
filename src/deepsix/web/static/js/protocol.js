// Which version of the table protocol the server speaks, and what differs between them.
//
// Version 2 (deepsix.web.protocol) keeps seat keys in HttpOnly cookies scoped to the table,
// tags every move with its seq, answers a hello's `since` with the events missed, and adds
// presence, clocks, chat, stand-ins, resignation, rematches and a live lobby.  Version 1 is
// the server before it (tokens kept by the page).  The page asks once, at start.

let version = null;

export async function detect() {
  if (version !== null) return version;
  version = 1;
  try {
    const response = await fetch("/api/schema/protocol", { credentials: "same-origin" });
    if (response.ok) {
      const schema = await response.json();
      const found = /version (\d+)/.exec(schema.title || "");
      version = found ? Number(found[1]) : 2;
    }
  } catch {
    // offline: the socket's own retries will tell
  }
  return version;
}

export function current() {
  return version || 1;
}

export function tableSocket(tableId) {
  const id = encodeURIComponent(tableId);
  return current() >= 2 ? `/api/tables/${id}/socket` : `/ws/${id}`;
}

export function lobbySocket() {
  return current() >= 2 ? "/api/lobby" : null;
}
