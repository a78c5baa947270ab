"""Bots think in worker processes, each move under a time limit.

A bot's ``choose`` may take seconds (a search) or never return (a buggy
plug-in).  The server must go on meanwhile, at that table and every other:
so every bot move runs in a worker process of a :class:`BotPool`, never in
the event loop or its threads.  Each table has at most one move in flight,
the pool starts workers as tables need them (up to its size), and a move
that overruns its time limit has its worker killed and replaced -- the
table then gets a fallback move (see :class:`~deepsix.web.rooms.Room`), and
no other table waits on it.

A worker is handed the bot's factory (pickled by reference, so bots
registered at run time by a module reach it), the seat's view and its
random stream, and sends back the action and the advanced stream: the
game's seeding scheme is the one :func:`~deepsix.play.loop.play_game`
follows, wherever the bot ran.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import pickle
import random
import struct
import sys
import time
from typing import Final

from deepsix.actions import Action
from deepsix.errors import DeepSixError
from deepsix.play.bots import BOT_NAMES
from deepsix.views import PlayerView
from deepsix.web.botworker import READY
from deepsix.web.limits import Bucket

__all__ = ["OUTPUT_CHARS", "OUTPUT_LINES", "OVERRAN", "BotFailure", "BotPool"]

_log = logging.getLogger("deepsix.web.bots")

IDLE_WORKER: Final = 60.0
"""Seconds an idle worker is kept before it is stopped."""

START_LIMIT: Final = 120.0
"""Seconds a new worker process has to start (not counted in any move's time)."""
SLOW: Final = 0.5
"""Seconds after which a move in a worker counts as slow (and no longer holds up others)."""
ADMISSION_POLL: Final = 0.02
"""Seconds between two looks for a free slot when every slot is taken by quick moves."""
HEADER: Final = struct.Struct("!I")
"""Each message on a worker's pipes: its length, then the pickled message."""
OUTPUT_LINES: Final = 30
"""Lines a minute of a worker's standard error that are logged (the rest are counted)."""
OUTPUT_CHARS: Final = 500
"""The longest line of a worker's standard error that is logged whole."""
OVERRAN: Final = "took too long"
"""The ``kind`` of the :class:`BotFailure` of a move over its time limit."""


class BotFailure(DeepSixError):
    """A bot raised, overran its time limit, died, or could not be made.

    ``kind`` says which, in words a table may be shown (``raised an error``,
    ``took too long`` ...); the message may hold what the bot said, for the log only.
    """

    def __init__(self, message: str, kind: str = "raised an error") -> None:
        super().__init__(message)
        self.kind = kind


class _Worker:
    """One worker process (``python -m deepsix.web.botworker``) and its pipes."""

    def __init__(self) -> None:
        self.process: asyncio.subprocess.Process | None = None
        self.relay: asyncio.Task[None] | None = None
        """The task that logs what the worker writes to standard error."""
        self.idle_since = self.started = time.monotonic()

    async def launch(self) -> None:
        """Start the process (the first time the worker is used)."""
        if self.process is not None:
            return
        environment = dict(os.environ)
        # the worker imports what the server can: bots registered from its own modules
        environment["PYTHONPATH"] = os.pathsep.join(path or os.getcwd() for path in sys.path)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "deepsix.web.botworker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
        )
        self.process = process
        assert process.stderr is not None
        self.relay = asyncio.get_running_loop().create_task(_relay(process.stderr, process.pid))
        assert process.stdout is not None
        # Python's start and the imports are not the first move's: wait for the worker to say
        # it is ready (a worker that cannot start is reported as a crash).
        try:
            async with asyncio.timeout(START_LIMIT):
                greeting = await process.stdout.readline()
        except TimeoutError:
            greeting = b""
        if greeting != READY:
            raise BotFailure("its worker did not start", "crashed")

    async def ask(self, job: tuple[object, ...]) -> tuple[str, object, object]:
        assert self.process is not None
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None
        assert stdout is not None
        data = pickle.dumps(job, pickle.HIGHEST_PROTOCOL)
        stdin.write(HEADER.pack(len(data)) + data)
        await stdin.drain()
        (size,) = HEADER.unpack(await stdout.readexactly(HEADER.size))
        answer = pickle.loads(await stdout.readexactly(size))  # our own worker
        status, payload, stream = answer
        return str(status), payload, stream

    def stop(self) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()

    async def wait(self) -> None:
        """Wait (a little) for a stopped process to end, so that it is reaped, and for the
        last of its output to be logged."""
        if self.process is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.process.wait(), 5)
        if self.relay is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.relay, 5)


async def _relay(output: asyncio.StreamReader, pid: int) -> None:
    """Log what a worker writes to standard error (a bot's prints, a warning), a line a
    record, in the server's log format; past :data:`OUTPUT_LINES` lines a minute the rest
    are counted, not logged."""
    allowance = Bucket(OUTPUT_LINES / 60, OUTPUT_LINES)
    dropped = 0
    while True:
        try:
            line = await output.readline()
        except (ValueError, OSError):  # a line over the stream's limit, or the pipe broke
            line = b"(an unreadable line)\n"
        if not line:
            break
        text = line.decode(errors="replace").rstrip()
        if not text:
            continue
        if not allowance.take():
            dropped += 1
            continue
        more = f" ({dropped} more lines not logged)" if dropped else ""
        dropped = 0
        _log.warning("bot worker %d: %s%s", pid, text[:OUTPUT_CHARS], more)
    if dropped:
        _log.warning("bot worker %d: %d more lines not logged", pid, dropped)


class BotPool:
    """Worker processes that run bot moves, one move per worker at a time.

    At most ``rate`` moves a second are made in all (the bound on what bots cost the server).
    ``size`` moves may *start* at once; a move that has been thinking for
    ``SLOW`` (0.5) seconds no longer counts against it, so slow bots (up to
    ``burst`` moves in all) never keep a quick bot at another table waiting
    for a worker.  The operating system then shares the cores among the
    workers, which run at a lower priority than the server itself.
    """

    def __init__(self, size: int = 8, burst: int | None = None, rate: float = 0.0) -> None:
        self.size = max(1, size)
        self.pace = None if rate <= 0 else Bucket(rate, max(1.0, rate))
        """At most ``rate`` moves a second (a second's worth at once), every table's together:
        past that, bots wait their turn (``0``: no bound)."""
        self.burst = max(self.size, 4 * self.size if burst is None else burst)
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._ending: set[asyncio.Task[None]] = set()
        self.killed = 0
        """How many workers were killed for overrunning a time limit."""

    def _admits(self) -> bool:
        """Whether a move may start: fewer than ``size`` moves started in the last
        ``SLOW`` seconds, and fewer than ``burst`` in all."""
        if len(self._busy) >= self.burst:
            return False
        now = time.monotonic()
        return sum(1 for worker in self._busy if now - worker.started < SLOW) < self.size

    @property
    def workers(self) -> int:
        """How many worker processes are running."""
        return len(self._idle) + len(self._busy)

    async def choose(
        self, name: str, seen: PlayerView, stream: random.Random, limit: float
    ) -> tuple[Action, random.Random]:
        """The move of the bot called ``name`` for ``seen``, and its advanced stream.

        Raises :class:`BotFailure` if the bot cannot be made, raises, dies,
        or takes more than ``limit`` seconds.
        """
        try:
            factory = BOT_NAMES[name]
        except DeepSixError as error:
            raise BotFailure(str(error), "is not installed") from None
        if self.pace is not None:
            while not self.pace.take():
                await asyncio.sleep(max(ADMISSION_POLL, self.pace.wait()))
        while not self._admits():
            await asyncio.sleep(ADMISSION_POLL)
        worker = self._idle.pop() if self._idle else _Worker()
        worker.started = math.inf  # starting: counts as a quick move until it thinks
        self._busy.add(worker)
        try:
            await worker.launch()
            worker.started = time.monotonic()
            async with asyncio.timeout(limit):
                status, payload, advanced = await worker.ask((name, factory, seen, stream))
        except TimeoutError:
            self._busy.discard(worker)
            self._stop(worker)
            self.killed += 1
            raise BotFailure(f"no move within its {limit:g} s limit", OVERRAN) from None
        except BotFailure:
            self._busy.discard(worker)
            self._stop(worker)
            raise
        except BaseException as error:
            self._busy.discard(worker)
            self._stop(worker)
            if isinstance(error, Exception):
                raise BotFailure(f"its worker failed: {type(error).__name__}", "crashed") from None
            raise
        self._busy.discard(worker)
        worker.idle_since = time.monotonic()
        self._idle.append(worker)
        if status != "ok":
            raise BotFailure(str(payload))
        if not isinstance(payload, Action) or not isinstance(advanced, random.Random):
            raise BotFailure(f"it returned {type(payload).__name__}, not an action", "misbehaved")
        return payload, advanced

    def _stop(self, worker: _Worker) -> None:
        """Kill a worker, and reap it when it has ended."""
        worker.stop()
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to reap with
            task = asyncio.get_running_loop().create_task(worker.wait())
            self._ending.add(task)
            task.add_done_callback(self._ending.discard)

    def reap(self, idle: float = IDLE_WORKER) -> None:
        """Stop the workers that have had nothing to do for ``idle`` seconds."""
        now = time.monotonic()
        keep = []
        for worker in self._idle:
            if now - worker.idle_since > idle:
                self._stop(worker)
            else:
                keep.append(worker)
        self._idle = keep

    async def aclose(self) -> None:
        """Stop every worker, and wait for them to end."""
        workers = [*self._idle, *self._busy]
        self._idle.clear()
        self._busy.clear()
        for worker in workers:
            worker.stop()
        for worker in workers:
            await worker.wait()
        for task in list(self._ending):
            await task
