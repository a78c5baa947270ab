#!/usr/bin/env python3
"""A bot for the tests: it plays the first legal action, and misbehaves when told to.

    faulty.py [--garbage N] [--illegal N] [--late N --sleep S] [--crash N] [--seat S]
              [--protocol P] [--silent] [--flood LINES] [--child] [--log FILE]

Each N is a decision id (1, 2, ...).  --seat limits the misbehaviour to games in
which the bot plays seat S (N, E, S or W).  --flood writes that many "info" lines
before its first answer; --child starts a process that would outlive it.  --log
appends every message received to FILE, one JSON object per line.
"""

import argparse
import json
import sys
import time

parser = argparse.ArgumentParser()
for flag in ("--garbage", "--illegal", "--late", "--crash"):
    parser.add_argument(flag, type=int, default=0)
parser.add_argument("--sleep", type=float, default=0.0)
parser.add_argument("--flood", type=int, default=0)
parser.add_argument("--child", action="store_true")
parser.add_argument("--seat", default="")
parser.add_argument("--protocol", default="deepsix-bot/1")
parser.add_argument("--silent", action="store_true")
parser.add_argument("--log", default="")
args = parser.parse_args()

active = True
for line in sys.stdin:
    message = json.loads(line)
    if args.log:
        with open(args.log, "a", encoding="utf-8") as log:
            log.write(json.dumps(message) + "\n")
    kind = message["type"]
    if kind == "hello" and args.child:
        import subprocess

        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        if args.log:  # where the test finds it
            with open(args.log + ".child", "w", encoding="utf-8") as out:
                out.write(str(child.pid))
    if kind == "hello":
        active = not args.seat or message["seat"] == args.seat
        if args.silent and active:
            continue
        reply = {"type": "ready", "protocol": args.protocol, "name": "faulty"}
    elif kind == "decide":
        number = message["id"]
        if active and number == args.crash:
            sys.stderr.write("faulty: crashing on purpose\n")
            sys.exit(3)
        if active and args.flood and number == 1:
            for _ in range(args.flood):
                print('{"type": "info", "text": "thinking"}', flush=False)
            sys.stdout.flush()
        if active and number == args.late:
            time.sleep(args.sleep)
        if active and number == args.garbage:
            print("this is not json", flush=True)
            print(json.dumps({"type": "action", "id": number}), flush=True)
        if active and number == args.illegal:
            seat = message["seat"]
            legal = {json.dumps(action, sort_keys=True) for action in message["legal"]}
            for card in ("2C", "3C", "4C", "8S", "7S", "6S", "2D", "2H"):
                wrong = {"type": "PlayCard", "seat": seat, "card": card}
                if json.dumps(wrong, sort_keys=True) not in legal:
                    break
            print(json.dumps({"type": "action", "id": number, "action": wrong}), flush=True)
        reply = {"type": "action", "id": number, "action": message["legal"][0]}
    elif kind == "quit":
        break
    else:
        continue
    print(json.dumps(reply), flush=True)
