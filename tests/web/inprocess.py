"""The server's own classes in the test's event loop: a lobby on a real SQLite file.

No network: a :class:`Recorder` stands for a connection.  The writer
thread and the bot worker processes are the real ones.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import uvicorn

from deepsix import Seat
from deepsix.web.botpool import BotPool
from deepsix.web.config import ServerConfig
from deepsix.web.lobby import Lobby
from deepsix.web.rooms import Room
from deepsix.web.runner import Runner
from deepsix.web.services import Services
from deepsix.web.store import open_store
from deepsix.web.store.writer import Writer
from tests.web.harness import Server


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


class ServerInThread(Server):
    """The ASGI application under uvicorn in a thread of the test's process.

    The same HTTP and WebSocket surface as :class:`~tests.web.harness.Server`
    (a subprocess), and the server's own objects within reach, so that a test
    can break its storage while it runs.
    """

    def __init__(self, directory: Path, **settings: Any) -> None:
        super().__init__(directory)
        self.settings = settings
        self.thread: threading.Thread | None = None
        self.uvicorn: uvicorn.Server | None = None

    def start(self) -> None:
        from deepsix.web.app import create_app

        self.app = create_app(self.db, config=ServerConfig(**self.settings))
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_config=None,
                                ws_ping_interval=None)  # fmt: skip
        self.uvicorn = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.uvicorn.started:
            assert time.monotonic() < deadline, "the server did not start"
            assert self.thread.is_alive(), "the server stopped"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.uvicorn is not None and self.thread is not None:
            self.uvicorn.should_exit = True
            self.thread.join(30)

    @property
    def lobby(self) -> Lobby:
        """The running server's lobby (touch it from the server's thread only, or read it)."""
        lobby: Lobby = self.app.state.lobby
        return lobby

    def on_store(self, job: Callable[[Any], object]) -> object:
        """Run ``job(store)`` on the store's own thread (the writer thread), and wait."""
        writer = self.lobby.services.store
        return writer._thread.submit(job, writer.store).result(30)

    def break_storage(self) -> None:
        """Every write fails from now on, as on a full disk (SQLite refuses writes: the
        server sees the same ``sqlite3`` error as for a full disk, ``StoreUnavailable``)."""
        self.on_store(lambda store: store._db.execute("PRAGMA query_only=ON"))

    def mend_storage(self) -> None:
        """Writes work again (space was freed)."""
        self.on_store(lambda store: store._db.execute("PRAGMA query_only=OFF"))
