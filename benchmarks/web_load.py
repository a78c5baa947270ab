"""Load benchmark of the web server: busy tables of WebSocket players, and idle connections.

Starts real servers on free ports of 127.0.0.1 -- one ``python -m
deepsix.web`` on a throwaway SQLite file, or two on one throwaway PostgreSQL
database (started from the machine's binaries, as the tests do) -- makes
``--tables`` tables of four open seats, joins every seat over HTTP, and
connects one WebSocket client per seat (with two servers, North and South
on the first and East and West on the second, so every move crosses
processes).  Each client plays its seat like a person: it waits ``--think``
seconds, then sends a legal action drawn from its view (mostly passes in
the auction), for ``--duration`` seconds.  ``--idle N`` connects N more
WebSockets as spectators that only ping every 10 s, as a browser does.

The round trip of a move is the time from sending it to receiving the
update that carries it: the server checked it, stored it, and pushed every
seat its view (across processes, with two servers).  Any error frame,
refused move or dropped connection counts as an error.  Clients and servers
share the machine, so the load average is printed beside the figures.

    python benchmarks/web_load.py [--tables 50] [--servers 1|2] [--idle 0] [--duration 30]
    python benchmarks/web_load.py --suite      # the figures of docs/frontend.md
    python benchmarks/web_load.py --tables 200 --profile DIR   # where a move's time goes

``--profile DIR`` samples every server's threads with py-spy (``pip install
py-spy``) while the clients play, writes ``DIR/server-N.txt`` (collapsed
stacks), and prints the share of the servers' busy time each stage of a move
takes: checking and applying it, storing it (on the writer thread), building
each seat's view, encoding the frames, pushing them to the sockets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

SEATS = "NESW"
OPEN_LIMITS = (
    "--tables-per-address", "100000", "--bot-tables-per-address", "100000",
    "--tables-per-minute", "1000000", "--requests-per-second", "100000",
    "--connections-per-address", "100000",
)  # fmt: skip
"""Every client is 127.0.0.1 here: the limits per address are lifted (the others stay)."""
SUITE = (
    ("one process, SQLite", 1, 50, 0),
    ("one process, SQLite", 1, 200, 0),
    ("two processes, PostgreSQL", 2, 50, 0),
    ("two processes, PostgreSQL", 2, 200, 0),
    ("one process, SQLite, 500 idle connections", 1, 50, 500),
)
"""The configurations of ``--suite``: name, servers, busy tables, idle connections."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(base: str, path: str, body: object) -> Any:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.frames = 0
        self.idle_frames = 0


def choose(view: dict[str, Any], rng: random.Random) -> object:
    legal = view["legal_actions"]
    passes = [action for action in legal if action["type"] == "Pass"]
    if passes and rng.random() < 0.75:
        return passes[0]
    return rng.choice(legal)


async def seat_client(
    ws: str, table: str, token: str, stats: Stats, *, rng: random.Random, until: float,
    think: float,
) -> None:  # fmt: skip
    async with connect(f"{ws}/api/tables/{table}/socket", max_size=None) as socket:
        await socket.send(json.dumps({"op": "hello", "protocol": 2, "token": token}))
        sent_at: float | None = None
        sent_seq = -1
        while time.monotonic() < until:
            try:
                text = await asyncio.wait_for(socket.recv(), until - time.monotonic())
            except TimeoutError:
                return
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
            scored = [e for e in frame["events"] if e["type"] == "HandScored"]
            if scored:
                await socket.send(
                    json.dumps({"op": "ready", "hand": scored[0]["record"]["number"]})
                )
            if view["phase"] == "game-over":
                return
            if view["legal_actions"] and sent_at is None:
                await asyncio.sleep(think * (0.5 + rng.random()))
                if time.monotonic() >= until:
                    return
                sent_seq = frame["seq"]
                sent_at = time.perf_counter()
                action = choose(view, rng)
                await socket.send(json.dumps({"op": "act", "action": action, "seq": sent_seq}))


async def idle_client(ws: str, table: str, stats: Stats, until: float) -> None:
    """A spectator that only pings every 10 s (a browser left open on a table)."""
    async with connect(f"{ws}/api/tables/{table}/socket", max_size=None) as socket:
        await socket.send(json.dumps({"op": "hello", "protocol": 2}))
        while time.monotonic() < until:
            try:
                async with asyncio.timeout(min(10.0, max(0.01, until - time.monotonic()))):
                    while True:
                        await socket.recv()
                        stats.idle_frames += 1
            except TimeoutError:
                await socket.send(json.dumps({"op": "ping"}))


async def run(
    bases: list[str], tables: int, idle: int, *, duration: float, think: float, seed: int,
    playing: Callable[[], object] = lambda: None,
) -> tuple[Stats, float]:  # fmt: skip
    stats = Stats()
    seats: list[tuple[str, str, str]] = []  # server, table, token
    loop = asyncio.get_running_loop()
    for number in range(tables):
        home = bases[number % len(bases)]
        made = await loop.run_in_executor(None, post, home, "/api/tables", {"me": "N"})
        table = made["table"]["id"]
        seats.append((bases[0], table, made["token"]))
        for index, seat in enumerate("ESW", start=1):
            server = bases[index % len(bases)]
            joined = await loop.run_in_executor(
                None, post, server, f"/api/tables/{table}/join", {"seat": seat}
            )
            seats.append((server, table, joined["token"]))
    rng = random.Random(seed)
    playing()
    start = time.perf_counter()
    until = time.monotonic() + duration
    ws = [base.replace("http://", "ws://") for base in bases]
    watched = [table for _, table, _ in seats[::4]]
    idlers = [
        idle_client(ws[number % len(ws)], watched[number % len(watched)], stats, until)
        for number in range(idle)
    ]
    players = [
        seat_client(
            server.replace("http://", "ws://"),
            table,
            token,
            stats,
            rng=random.Random(rng.random()),
            until=until,
            think=think,
        )
        for server, table, token in seats
    ]
    results = await asyncio.wait_for(
        asyncio.gather(*idlers, *players, return_exceptions=True), timeout=duration + 120
    )
    for result in results:
        if isinstance(result, BaseException):
            stats.errors.append(f"client failed: {result!r}")
    return stats, time.perf_counter() - start


@contextlib.contextmanager
def servers(count: int, scratch: Path) -> Iterator[list[tuple[str, int]]]:
    """``count`` servers: one on an SQLite file, or several on one PostgreSQL database."""
    cluster = None
    if count == 1:
        databases = [str(scratch / "load.sqlite3")]
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.web.scale.postgres import PostgresCluster, bindir

        binaries = bindir()
        if binaries is None:
            raise SystemExit("PostgreSQL's binaries are not installed: apt-get install postgresql")
        cluster = PostgresCluster(binaries, options=())  # durable, as a deployment would be
        cluster.start()
        databases = [cluster.database("load")] * count
    processes: list[subprocess.Popen[bytes]] = []
    bases = []
    try:
        for database in databases:
            port = free_port()
            command = [
                sys.executable, "-m", "deepsix.web", "--db", database, "--port", str(port),
                "--bot-delay", "0", "--hand-pause", "0", "--public-clock", "0",
                "--log-level", "warning", *OPEN_LIMITS,
            ]  # fmt: skip
            processes.append(subprocess.Popen(command))
            bases.append(f"http://127.0.0.1:{port}")
        for base in bases:
            for _ in range(600):
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
        yield [(base, process.pid) for base, process in zip(bases, processes, strict=True)]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(30)
        if cluster is not None:
            cluster.stop()


def measure(
    name: str, count: int, tables: int, idle: int, args: argparse.Namespace
) -> dict[str, Any]:
    samplers: list[subprocess.Popen[bytes]] = []

    def sample(pids: list[int]) -> None:
        """Start py-spy on every server for the measured seconds (``--profile``)."""
        assert args.profile is not None
        for number, pid in enumerate(pids):
            output = args.profile / f"server-{number}.txt"
            command = [
                args.spy, "record", "--pid", str(pid), "--threads", "--nonblocking",
                "--rate", "200", "--format", "raw", "--output", str(output),
                "--duration", str(round(args.duration)),
            ]  # fmt: skip
            samplers.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))

    with tempfile.TemporaryDirectory() as scratch, servers(count, Path(scratch)) as running:
        bases = [base for base, _ in running]
        load_before = os.getloadavg()[0]
        work = run(
            bases, tables, idle, duration=args.duration, think=args.think, seed=args.seed,
            playing=lambda: sample([pid for _, pid in running]) if args.profile else None,
        )  # fmt: skip
        stats, elapsed = asyncio.run(work)
        load_after = os.getloadavg()[0]
        for sampler in samplers:
            sampler.wait(60)
    lat = sorted(stats.latencies)
    result: dict[str, Any] = {
        "configuration": name, "servers": count, "tables": tables, "idle": idle,
        "clients": 4 * tables + idle, "moves": len(lat), "seconds": round(elapsed, 1),
        "errors": len(stats.errors), "load_before": round(load_before, 2),
        "load_after": round(load_after, 2),
    }  # fmt: skip
    if lat:
        quantiles = statistics.quantiles(lat, n=100, method="inclusive")
        result.update(
            p50_ms=round(quantiles[49] * 1000, 1),
            p99_ms=round(quantiles[98] * 1000, 1),
            max_ms=round(lat[-1] * 1000, 1),
            moves_per_s=round(len(lat) / elapsed, 1),
        )
    for error in stats.errors[:5]:
        print("  error:", error, file=sys.stderr)
    return result


STAGES = (
    ("storing it (the writer thread)", ("deepsix/web/store/", "sqlite3", "psycopg")),
    ("encoding the frames", ("deepsix/io/", "deepsix/web/protocol/", "json/", "cattrs")),
    ("building each seat's view", ("deepsix/views", "deepsix/hands", "deepsix/web/pushes",
                                   "deepsix/web/listings", "Room.info ")),
    ("pushing to the sockets", ("websockets", "deepsix/web/sockets", "SocketTransport.write")),
    ("checking and applying it", ("deepsix/engine", "deepsix/phases/", "deepsix/legal",
                                  "deepsix/diagnosis", "deepsix/web/rooms", "deepsix/web/runner")),
    ("HTTP requests", ("h11", "starlette/routing", "deepsix/web/routes", "httptools")),
    ("the event loop (polling, scheduling)", ("asyncio/", "selectors", "concurrent/")),
)  # fmt: skip
"""A move's stages: a sample counts towards the stage its innermost matching frame names."""


def profile_report(path: Path) -> None:
    """The share of a server's busy samples in each stage of a move (``--profile``)."""
    counts: dict[str, int] = {}
    total = 0
    for line in path.read_text().splitlines():
        stack, _, number = line.rpartition(" ")
        if "(idle)" in stack:
            continue  # a thread waiting, not working
        thread, *frames = stack.split(";")
        stage = STAGES[0][0] if "deepsix-store" in thread else "the rest"
        for frame in [] if "deepsix-store" in thread else reversed(frames):
            found = [name for name, parts in STAGES if any(part in frame for part in parts)]
            if found:
                stage = found[0]
                break
        total += int(number)
        counts[stage] = counts.get(stage, 0) + int(number)
    print(f"profile {path.name}: {total / 200:.1f} busy thread-seconds (py-spy, every thread)")
    for stage, samples in sorted(counts.items(), key=lambda item: -item[1]):
        print(f"  {stage:38} {100 * samples / max(total, 1):5.1f} %")


def report(result: dict[str, Any]) -> None:
    print(
        f"{result['configuration']}: {result['tables']} busy tables ({result['clients']}"
        f" WebSockets): {result['moves']} moves in {result['seconds']} s"
        f" ({result.get('moves_per_s', 0)}/s), p50 {result.get('p50_ms')} ms,"
        f" p99 {result.get('p99_ms')} ms, max {result.get('max_ms')} ms,"
        f" errors {result['errors']}; load average {result['load_before']}"
        f" -> {result['load_after']} on {os.cpu_count()} cores",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument(
        "--servers", type=int, choices=(1, 2), default=1,
        help="1: one process on SQLite; 2: two processes on PostgreSQL",
    )  # fmt: skip
    parser.add_argument("--idle", type=int, default=0, help="idle spectator connections beside")
    parser.add_argument("--duration", type=float, default=30, help="seconds of play measured")
    parser.add_argument("--think", type=float, default=1.0,
                        help="a player's mean pause before each move, in seconds")  # fmt: skip
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--suite", action="store_true", help="every configuration of the docs")
    parser.add_argument("--json", type=Path, help="write the results to this file too")
    parser.add_argument("--profile", type=Path, help="sample the servers with py-spy into DIR")
    args = parser.parse_args(argv)
    if args.profile is not None:
        args.spy = shutil.which("py-spy")
        if args.spy is None:
            raise SystemExit("--profile samples the servers with py-spy: pip install py-spy")
        args.profile.mkdir(parents=True, exist_ok=True)

    if args.suite:
        plan = list(SUITE)
    else:
        store = "SQLite" if args.servers == 1 else "PostgreSQL"
        name = f"{'one process' if args.servers == 1 else 'two processes'}, {store}"
        plan = [(name, args.servers, args.tables, args.idle)]
    results = []
    for name, count, tables, idle in plan:
        result = measure(name, count, tables, idle, args)
        report(result)
        results.append(result)
        if args.profile is not None:
            for path in sorted(args.profile.glob("server-*.txt")):
                profile_report(path)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0 if all(result["errors"] == 0 and result["moves"] for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
