"""What every room shares, and what a room asks of the rest of the server.

:class:`Services` (storage, the bot pool, the settings, the lobby's ears, the
other servers of the site), and the protocols a room is driven through: the
connections it pushes frames to (:class:`Subscriber`), the task that makes
its own moves (:class:`RoomRunner`) and the other servers (:class:`Peers`;
:class:`Alone` for a server alone with its database).  (:mod:`deepsix.web.rooms`
re-exports these names.)  :func:`sweep_forever` runs the lobby's and the
cluster's periodic sweeps.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Generic, Literal, Protocol, TypeVar

import attrs

from deepsix.cards import Seat
from deepsix.web.botpool import BotPool
from deepsix.web.config import ServerConfig
from deepsix.web.store.writer import Writer

__all__ = ["Alone", "Peers", "Remote", "RoomRunner", "Services", "Subscriber", "sweep_forever"]

_log = logging.getLogger("deepsix.web")

R = TypeVar("R")
"""The rooms that :class:`Services` serves: :class:`deepsix.web.rooms.Room`, which imports
this module, so the services name it only through this parameter."""
R_contra = TypeVar("R_contra", contravariant=True)
"""The rooms that :class:`Peers` are told about."""


class Subscriber(Protocol):
    """A connection that receives a room's frames (a WebSocket, or a test's recorder)."""

    seat: Seat | None
    host: bool
    heard: float
    """When it last sent anything (``time.monotonic()``)."""

    def push(self, text: str) -> None:
        """Queue one frame; must not block."""

    def end(self, code: int, reason: str) -> None:
        """Close the connection after the frames already queued."""


class RoomRunner(Protocol):
    """What a room asks of the task making its moves (:class:`~deepsix.web.runner.Runner`)."""

    lock: asyncio.Lock
    """Held while the room's game or seats change."""

    def start(self) -> None:
        """Start (if the table is live and it is not running)."""

    async def stop(self) -> None:
        """Stop."""

    def wake(self) -> None:
        """Something changed: look at the table again."""

    def deadline(self) -> tuple[Seat, float, Literal["turn", "absent"], float] | None:
        """The human to act's deadline: seat, when (monotonic), why, and its limit."""

    def storage_failed(self, error: Exception) -> None:
        """A write failed."""

    def storage_back(self) -> None:
        """A write succeeded."""


@attrs.define
class Remote:
    """The connections another server of the site has to a room (:mod:`deepsix.web.cluster`)."""

    at: float
    """When it last told us (``time.monotonic()``)."""
    heard: dict[Seat, float]
    """When each seat's connections there last spoke (``time.monotonic()``, ours)."""
    spectators: int = 0
    """How many watch there."""


class Peers(Protocol[R_contra]):
    """The other servers of the site (:class:`deepsix.web.cluster.Cluster`), as rooms see them."""

    shared: bool
    """Whether other servers may serve the same tables."""

    def owns(self, room: R_contra) -> bool:
        """Whether this server makes the table's own moves (deals, bots, clocks)."""

    def announce(self, room: R_contra, message: dict[str, object]) -> None:
        """Tell the other servers something about the table that is not stored."""

    def presence_changed(self, room: R_contra) -> None:
        """A connection to the table came or went here."""

    async def adopt(self, room: R_contra) -> None:
        """A new table made here: take its lease."""


class Alone:
    """A server alone with its database: it owns every table and tells no one (the peers of
    any room)."""

    shared = False

    def owns(self, room: object) -> bool:
        return True

    def announce(self, room: object, message: dict[str, object]) -> None:
        return None

    def presence_changed(self, room: object) -> None:
        return None

    async def adopt(self, room: object) -> None:
        return None


@attrs.define
class Services(Generic[R]):
    """What every room shares: storage, the bot pool, the settings, the lobby's ears."""

    store: Writer
    pool: BotPool
    config: ServerConfig
    make_runner: Callable[[R], RoomRunner]
    """Makes the task that drives a room (the lobby gives :class:`deepsix.web.runner.Runner`)."""
    changed: Callable[[R], None] = lambda room: None
    """Called when a room's public description changes (the lobby pushes it)."""
    peers: Peers[R] = attrs.field(factory=Alone)
    """The other servers of the site (:mod:`deepsix.web.cluster`), if any."""


async def sweep_forever(sweep: Callable[[], Awaitable[None]], every: float, what: str) -> None:
    """Run ``sweep`` every ``every`` seconds until cancelled; a sweep that fails is logged as
    ``what`` failing, and the next one runs on time."""
    while True:
        await asyncio.sleep(every)
        try:
            await sweep()
        except Exception:  # pragma: no cover - a bug here must not stop the sweeping
            _log.exception("%s failed", what)
