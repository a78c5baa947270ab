#!/usr/bin/env node
// A whole Deep Six bot in a dozen lines of JavaScript: it plays a random legal action.
// It stops when the referee closes its input (after "quit").
const lines = require("readline").createInterface({ input: process.stdin });
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    send({ type: "ready", protocol: "deepsix-bot/1", name: "random (JavaScript)" });
  } else if (message.type === "decide") {
    const legal = message.legal;
    send({ type: "action", id: message.id, action: legal[Math.floor(Math.random() * legal.length)] });
  }
});
