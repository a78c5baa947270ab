// Table chat (protocol 2): short plain-text lines, stored with the game.  Lines are shown as
// text, never as markup; only seated players write, everyone at the table reads.

import { h } from "./dom.js";

const MAX = 300; // deepsix.web.protocol.MAX_CHAT_CHARS

export class Chat {
  constructor(page) {
    this.page = page;
    this.lines = [];
    this.kept = []; // the lines shown, to draw again
    this.list = h("ol", { class: "chat-lines", role: "log", "aria-live": "polite", "aria-label": "Table chat" });
    this.input = h("input", { id: "chat-input", maxlength: String(MAX), autocomplete: "off", placeholder: "Say something to the table", "aria-label": "Chat message", dataset: { key: "chat-input" } });
    this.form = h("form", { class: "chat-form", onsubmit: (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      if (page.connection.send({ op: "chat", text: text.slice(0, MAX) })) this.input.value = "";
      else page.toast("Not connected: your message was not sent. Send it again once the page reconnects.");
    } }, this.input, h("button", { type: "submit", dataset: { key: "chat-send" } }, "Send"));
    this.node = h("section", { class: "panel chat", "aria-labelledby": "chat-title" }, h("h3", { id: "chat-title", text: "Table chat" }), this.list, this.form);
    this.node.hidden = true;
  }

  /** Add lines ({seat, name, text, at}), skipping any already shown. */
  add(lines) {
    for (const line of lines) {
      const key = `${line.at}:${line.seat}:${line.text}`;
      if (this.lines.includes(key)) continue;
      this.lines.push(key);
      this.kept.push(line);
      this.draw(line);
    }
    while (this.kept.length > 100) this.kept.shift();
    while (this.list.childNodes.length > 100) this.list.firstChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** Draw the lines again (the page's seat changed: "(you)" follows it). */
  redraw() {
    this.list.replaceChildren();
    for (const line of this.kept) this.draw(line);
  }

  draw(line) {
    {
      const time = new Date(line.at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      this.list.append(h("li", {}, h("span", { class: "chat-time", text: time }), " ",
        h("strong", { text: `${line.name || line.seat || "?"}${line.seat === this.page.seat ? " (you)" : ""}: ` }),
        h("span", { class: "chat-text", text: line.text })));
    }
  }

  update(enabled, canWrite) {
    this.node.hidden = !enabled;
    this.form.hidden = !canWrite;
  }
}
