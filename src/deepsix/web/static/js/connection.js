// The WebSocket to a table: hello, reconnection with back-off, and moves tagged with the
// version of the game they were chosen in.

export class Connection {
  /**
   * `handlers.message(frame)` gets every frame; `handlers.status(kind, text)` the state of
   * the line ("pending", "up", "down"); `hello()` returns the hello message to send.
   */
  constructor(tableId, hello, handlers) {
    this.tableId = tableId;
    this.hello = hello;
    this.handlers = handlers;
    this.socket = null;
    this.retry = 0;
    this.closedForGood = false;
    this.timer = null;
    this.heartbeat = null;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/api/tables/${this.tableId}/socket`);
    this.socket = socket;
    this.handlers.status("pending", this.retry ? "reconnecting…" : "connecting…");
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify(this.hello()));
      // A heartbeat: the server counts a seat as present while it hears from it.
      clearInterval(this.heartbeat);
      this.heartbeat = setInterval(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ op: "ping" }));
      }, 10000);
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame.op === "welcome") this.retry = 0;
      this.handlers.message(frame);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      clearInterval(this.heartbeat);
      if (this.closedForGood || event.code === 1008) {
        this.handlers.status("down", "disconnected");
        return;
      }
      this.retry += 1;
      const delay = Math.min(5000, 250 * 2 ** Math.min(this.retry, 5));
      this.handlers.status("pending", "reconnecting…");
      this.timer = setTimeout(() => this.open(), delay);
    });
  }

  get ready() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.ready) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closedForGood = true;
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    if (this.socket) this.socket.close(1000, "bye");
  }
}
