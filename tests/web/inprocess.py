"""The server's own classes in the test's event loop: a lobby on a real SQLite file.

No network: a :class:`Recorder` stands for a connection.  The writer
thread and the bot worker processes are the real ones.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from deepsix import Seat
from deepsix.web.botpool import BotPool
from deepsix.web.config import ServerConfig
from deepsix.web.lobby import Lobby
from deepsix.web.rooms import Room, Services
from deepsix.web.runner import Runner
from deepsix.web.store import open_store
from deepsix.web.store.writer import Writer


class Recorder:
    """A subscriber that keeps the frames it is pushed."""

    def __init__(self, seat: Seat | None) -> None:
        self.seat = seat
        self.host = False
        self.heard = time.monotonic()
        self.frames: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None

    def push(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def end(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


@asynccontextmanager
async def running_lobby(
    path: Path | str, *, workers: int = 4, **settings: Any
) -> AsyncIterator[Lobby]:
    """A lobby on ``path``, loaded and started, with ``workers`` bot workers; closed afterwards."""
    writer = Writer(open_store(path))
    pool = BotPool(workers)
    lobby = Lobby(Services(writer, pool, ServerConfig(**settings), Runner))
    await lobby.load()
    lobby.start()
    try:
        yield lobby
    finally:
        await lobby.close()
        await pool.aclose()
        writer.close()


async def until(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    """Wait until ``condition()`` holds (the event loop runs meanwhile)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def make(lobby: Lobby, seats: dict[str, str], me: str | None = None, **extra: Any) -> Room:
    """A new table: ``seats`` maps letters to bots; ``me`` is a person's seat."""
    settings: dict[str, Any] = {"name": "", "seed": None, "private": False, "clock": None}
    settings |= {"standin": "heuristic", **extra}
    room, _, _ = await lobby.create(seats=seats, me=me, **settings)
    return room


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run a test's coroutine in a fresh event loop."""
    asyncio.run(test())
