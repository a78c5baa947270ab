// A WebSocket to the server: hello, heartbeats, reconnection with back-off.

const HEARTBEAT = 10000; // ms between pings: the server counts a silent seat as away

export class Connection {
  /**
   * `handlers.message(frame)` gets every frame; `handlers.status(kind, text)` the state of
   * the line ("pending", "up", "down"); `hello()` returns the hello message to send.
   */
  constructor(path, hello, handlers, { heartbeat = false } = {}) {
    this.path = path;
    this.heartbeat = heartbeat;
    this.hello = hello;
    this.handlers = handlers;
    this.socket = null;
    this.retry = 0;
    this.closedForGood = false;
    this.timer = null;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.path}`);
    this.socket = socket;
    this.handlers.status("pending", this.retry ? "reconnecting…" : "connecting…");
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify(this.hello()));
      clearInterval(this.pinger);
      if (this.heartbeat) this.pinger = setInterval(() => this.send({ op: "ping" }), HEARTBEAT);
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
      clearInterval(this.pinger);
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
    clearInterval(this.pinger);
    if (this.socket) this.socket.close(1000, "bye");
  }
}
