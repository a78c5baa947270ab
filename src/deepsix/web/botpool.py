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

__all__ = ["BotFailure", "BotPool"]

IDLE_WORKER: Final = 60.0
"""Seconds an idle worker is kept before it is stopped."""

HEADER: Final = struct.Struct("!I")
"""Each message on a worker's pipes: its length, then the pickled message."""


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

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.idle_since = time.monotonic()

    @classmethod
    async def start(cls) -> _Worker:
        environment = dict(os.environ)
        # the worker imports what the server can: bots registered from its own modules
        environment["PYTHONPATH"] = os.pathsep.join(path or os.getcwd() for path in sys.path)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "deepsix.web.botworker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=environment,
        )
        return cls(process)

    async def ask(self, job: tuple[object, ...]) -> tuple[str, object, object]:
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
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()


class BotPool:
    """Up to ``size`` worker processes that run bot moves, one move per worker at a time."""

    def __init__(self, size: int = 8) -> None:
        self.size = max(1, size)
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._slots = asyncio.Semaphore(self.size)
        self.killed = 0
        """How many workers were killed for overrunning a time limit."""

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
        async with self._slots:
            worker = self._idle.pop() if self._idle else await _Worker.start()
            self._busy.add(worker)
            try:
                async with asyncio.timeout(limit):
                    status, payload, advanced = await worker.ask((name, factory, seen, stream))
            except TimeoutError:
                self._busy.discard(worker)
                worker.stop()
                self.killed += 1
                raise BotFailure(f"no move within its {limit:g} s limit", "took too long") from None
            except BaseException as error:
                self._busy.discard(worker)
                worker.stop()
                if isinstance(error, Exception):
                    raise BotFailure(
                        f"its worker failed: {type(error).__name__}", "crashed"
                    ) from None
                raise
            self._busy.discard(worker)
            worker.idle_since = time.monotonic()
            self._idle.append(worker)
        if status != "ok":
            raise BotFailure(str(payload))
        if not isinstance(payload, Action) or not isinstance(advanced, random.Random):
            raise BotFailure(f"it returned {type(payload).__name__}, not an action", "misbehaved")
        return payload, advanced

    def reap(self, idle: float = IDLE_WORKER) -> None:
        """Stop the workers that have had nothing to do for ``idle`` seconds."""
        now = time.monotonic()
        keep = []
        for worker in self._idle:
            if now - worker.idle_since > idle:
                worker.stop()
                with contextlib.suppress(RuntimeError):  # reaped when it has exited
                    asyncio.get_running_loop().create_task(worker.process.wait())
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
            with contextlib.suppress(Exception):
                await asyncio.wait_for(worker.process.wait(), 5)
