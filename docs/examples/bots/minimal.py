#!/usr/bin/env python3
"""A whole Deep Six bot in a dozen lines: it plays the first legal action, always."""

import json
import sys


def send(message):
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        send({"type": "ready", "protocol": "deepsix-bot/1", "name": "first-legal"})
    elif message["type"] == "decide":
        send({"type": "action", "id": message["id"], "action": message["legal"][0]})
    elif message["type"] == "quit":
        break
