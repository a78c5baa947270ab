"""Load benchmark of the web server: many tables of bot clients over WebSockets, on localhost.

Starts ``python -m deepsix.web`` on a free port of 127.0.0.1 with a
throwaway SQLite file, creates ``--tables`` tables of four open seats,
joins every seat over HTTP, and connects one WebSocket client per seat
(200 sockets for 50 tables).  Each client plays its seat -- a legal action
drawn from its view, mostly passes in the auction -- until its table has
finished ``--hands`` hands.  The latency of an action is the time from
sending it to receiving the update that carries it (the server checked
it, stored it in SQLite, and pushed every seat its view).  Any error
frame, refused action or dropped connection counts as an error.

Clients and server share the machine, so read the figures with the load
average printed beside them.  Bounded: it stops after ``--timeout``
seconds whatever happens.

    python benchmarks/web_load.py [--tables 50] [--hands 1] [--bot random|heuristic]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from deepsix import HeuristicBot, PlayerView
from deepsix.io.wire import from_wire, to_wire

SEATS = "NESW"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(base: str, path: str, body: object) -> Any:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.frames = 0


def choose(view: dict[str, Any], rng: random.Random, bot: str) -> object:
    legal = view["legal_actions"]
    if bot == "heuristic":
        decoded = from_wire(view, PlayerView, trusted=True)
        return to_wire(HeuristicBot().choose(decoded, rng))
    passes = [action for action in legal if action["type"] == "Pass"]
    if passes and rng.random() < 0.75:
        return passes[0]
    return rng.choice(legal)


async def seat_client(  # noqa: PLR0917  # one client's whole configuration
    ws: str, table: str, token: str, hands: int, bot: str, stats: Stats, rng: random.Random
) -> None:
    async with connect(f"{ws}/{table}/socket", max_size=None) as socket:
        await socket.send(json.dumps({"op": "hello", "protocol": 2, "token": token}))
        sent_at: float | None = None
        sent_seq = -1
        async for text in socket:
            frame = json.loads(text)
            stats.frames += 1
            if frame["op"] == "error":
                stats.errors.append(f"{table}: {frame['code']}: {frame['message']}")
                sent_at = None
                continue
            if frame["op"] != "update":
                continue
            if sent_at is not None and frame["seq"] > sent_seq:
                stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            view = frame["view"]
            if len(view["completed_hands"]) >= hands or view["phase"] == "game-over":
                return
            if view["legal_actions"] and sent_at is None:
                sent_seq = frame["seq"]
                sent_at = time.perf_counter()
                action = choose(view, rng, bot)
                await socket.send(json.dumps({"op": "act", "action": action, "seq": sent_seq}))


async def run(args: argparse.Namespace, base: str) -> tuple[Stats, float]:
    stats = Stats()
    ws = base.replace("http://", "ws://") + "/api/tables"
    seats: list[tuple[str, str]] = []
    loop = asyncio.get_running_loop()
    for _ in range(args.tables):
        made = await loop.run_in_executor(
            None, post, base, "/api/tables", {"me": "N", "clock": None}
        )
        table = made["table"]["id"]
        seats.append((table, made["token"]))
        for seat in "ESW":
            joined = await loop.run_in_executor(
                None, post, base, f"/api/tables/{table}/join", {"seat": seat}
            )
            seats.append((table, joined["token"]))
    rng = random.Random(args.seed)
    start = time.perf_counter()
    clients = [
        seat_client(ws, table, token, args.hands, args.bot, stats, random.Random(rng.random()))
        for table, token in seats
    ]
    results = await asyncio.wait_for(
        asyncio.gather(*clients, return_exceptions=True), timeout=args.timeout
    )
    for result in results:
        if isinstance(result, BaseException):
            stats.errors.append(f"client failed: {result!r}")
    return stats, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--hands", type=int, default=1, help="hands each table plays")
    parser.add_argument("--bot", choices=["random", "heuristic"], default="random")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--timeout", type=float, default=600, help="give up after this long")
    args = parser.parse_args(argv)

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        command = [
            sys.executable, "-m", "deepsix.web", "--db", str(Path(scratch) / "load.sqlite3"),
            "--port", str(port), "--bot-delay", "0", "--hand-pause", "0", "--log-level", "warning",
        ]  # fmt: skip
        server = subprocess.Popen(command)
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/api/bots", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            load_before = os.getloadavg()
            stats, elapsed = asyncio.run(run(args, base))
            load_after = os.getloadavg()
        finally:
            server.terminate()
            server.wait(15)

    lat = sorted(stats.latencies)
    if not lat:
        print("no action completed", stats.errors[:5])
        return 1
    quantiles = statistics.quantiles(lat, n=100, method="inclusive")
    print(f"tables {args.tables}, WebSocket clients {4 * args.tables}, "
          f"hands per table {args.hands}, client bot {args.bot}")  # fmt: skip
    print(f"actions {len(lat)} in {elapsed:.1f} s ({len(lat) / elapsed:.0f}/s), "
          f"frames received {stats.frames}, errors {len(stats.errors)}")  # fmt: skip
    print(f"round trip: p50 {quantiles[49] * 1000:.1f} ms, p90 {quantiles[89] * 1000:.1f} ms, "
          f"p99 {quantiles[98] * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms")  # fmt: skip
    print(f"load average (1 min) before {load_before[0]:.2f}, after {load_after[0]:.2f}; "
          f"{os.cpu_count()} cores")  # fmt: skip
    for error in stats.errors[:10]:
        print("error:", error)
    return 0 if not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())
