"""The server's connections below HTTP: caps per client address and for the process, a timeout
for headers, and what happens when the connections reach the process's cap.

uvicorn accepts every connection and waits as long as a client likes for
a request's headers (its ``limit_concurrency`` answers ``503`` only once the
headers are whole, and ``timeout_keep_alive`` starts only after a first
answer).  So 800 half-sent headers were held for ever, and under ``ulimit -n
1024`` half-sent headers from 30 addresses used up the process's open files:
``EMFILE`` from ``accept``, thousands of tracebacks, a player's request reset.
:func:`guarded` wraps uvicorn's protocol classes so that

* a connection over its address's cap is closed as soon as it is accepted
  (:meth:`deepsix.web.limits.Guard.admit`), its file released at once;
* at the process's cap (:func:`connection_budget`, below the open-file limit
  with room for the database, the bots' pipes, the log and a burst of
  accepts) a new connection *sheds* the oldest HTTP connection that is
  waiting for a request's headers (half-sent, or idle between requests),
  so a crowd of slow clients never keeps a player out; WebSockets are
  never shed (they are capped per address and closed when silent);
* a connection that has not sent a whole request's headers
  ``header_timeout`` seconds after it opened (or after the previous
  answer) is closed;
* a WebSocket counts against its address until it closes.

A time at the cap is an *episode*: one warning line when it begins and one
line when it ends (how many were shed and refused), never a line per
socket; an ``EMFILE`` from ``accept`` (asyncio retries a second later) is
counted in the episode instead of logged with its traceback
(:func:`quiet_out_of_files`).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import time
from typing import Any, Final

from deepsix.web.limits import Guard

__all__ = [
    "RESERVED_FILES",
    "Crowding",
    "accept_backlog",
    "connection_budget",
    "guarded",
    "open_file_limit",
    "quiet_out_of_files",
]

_log = logging.getLogger("deepsix.web")

RESERVED_FILES: Final = 64
"""Open files kept for the server's own use (its database, logs, the bot workers' pipes and
the burst of accepts are counted apart)."""

_OUT_OF_FILES: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


def open_file_limit() -> int:
    """The process's open-file limit, raised to the hard limit (65,536 at most) first."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
        if target > soft:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
                soft = target
            except (ValueError, OSError):  # pragma: no cover - not allowed: keep the soft one
                pass
    return int(soft)


def accept_backlog(files: int) -> int:
    """The listening socket's backlog for an open-file limit of ``files``: asyncio accepts up to
    this many connections at once before any is looked at, so each burst must fit in the
    files the connections leave free (an eighth of them, 16 to 2,048)."""
    return max(16, min(2048, files // 8))


def connection_budget(most: int, bot_workers: int, files: int | None = None) -> int:
    """The most connections this process can hold: ``most``, or fewer if its open-file limit
    (``files``; by default the process's own, raised to the hard limit first) leaves less
    beside :data:`RESERVED_FILES`, the bots' pipes and two bursts of accepts
    (:func:`accept_backlog`)."""
    files = open_file_limit() if files is None else files
    workers = 4 * bot_workers  # the pool's burst of slow moves: three pipes each
    spare = files - RESERVED_FILES - 3 * workers - 2 * accept_backlog(files)
    return max(1, min(most, spare))


class Crowding:
    """The episodes at the process's connection cap: counted, and logged one line at each end."""

    def __init__(self, guard: Guard) -> None:
        self.guard = guard
        self.since: float | None = None
        """When the current episode began (``time.monotonic()``); ``None``: not at the cap."""
        self.shed = 0
        """Connections shed for newer ones in the current episode."""
        self.refused = 0
        """Connections refused in the current episode (nothing to shed, or ``EMFILE``)."""
        self.episodes = 0
        """Episodes since the server started."""

    def begin(self, why: str) -> None:
        """The cap was met (``why``); the first time in an episode, say so."""
        if self.since is not None:
            return
        self.since = time.monotonic()
        self.episodes += 1
        _log.warning(
            "connections: %s (at most %d open): shedding the oldest that send no request,"
            " until they fall below %d",
            why,
            self.guard.config.max_connections,
            self._low,
        )

    @property
    def _low(self) -> int:
        return self.guard.config.max_connections * 3 // 4

    def check(self) -> None:
        """A connection closed: the episode ends once a quarter of the cap is free again."""
        if self.since is not None and self.guard.open < self._low:
            _log.warning(
                "connections: below the cap again after %.0f s (%d shed, %d refused)",
                time.monotonic() - self.since,
                self.shed,
                self.refused,
            )
            self.since = None
            self.shed = self.refused = 0


def quiet_out_of_files(loop: asyncio.AbstractEventLoop, crowding: Crowding) -> None:
    """Make ``loop``'s report of an ``accept`` out of files (asyncio logs each with its
    traceback, and retries a second later) part of the crowding episode instead."""
    previous = loop.get_exception_handler()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in _OUT_OF_FILES:
            crowding.begin(f"accept failed: {error.strerror}")
            crowding.refused += 1
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


def _address(transport: asyncio.BaseTransport) -> str | None:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple | list) and peer else None


def guarded(
    http: type[Any], websocket: type[Any], guard: Guard, crowding: Crowding | None = None
) -> tuple[type[Any], type[Any]]:
    """uvicorn's HTTP and WebSocket protocol classes, with the caps, the shedding at the
    process's cap and the header timeout."""
    crowd = crowding if crowding is not None else Crowding(guard)
    held: dict[asyncio.Transport, str | None] = {}
    waiting: dict[asyncio.Transport, None] = {}
    """HTTP connections waiting for a request's headers, the longest waiting first."""

    def release(transport: asyncio.Transport) -> None:
        waiting.pop(transport, None)
        if transport in held:
            guard.release(held.pop(transport))
            crowd.check()

    def shed() -> bool:
        """Close the connection longest waiting for a request's headers; whether there was one."""
        while waiting:
            transport = next(iter(waiting))
            release(transport)
            if not transport.is_closing():
                transport.abort()
                return True
        return False

    class GuardedHTTP(http):  # type: ignore[misc]  # uvicorn's class, chosen at run time
        """uvicorn's HTTP protocol: counted per address, headers within a time limit."""

        _headers_timer: asyncio.TimerHandle | None = None
        _awaited: object = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            address = _address(transport)
            if guard.open >= guard.config.max_connections and guard.admissible(address):
                crowd.begin("the cap is reached")
                if shed():
                    crowd.shed += 1
            if not guard.admit(address):
                if guard.open >= guard.config.max_connections:
                    crowd.begin("the cap is reached")
                    crowd.refused += 1
                transport.abort()  # over a cap: the file is given back at once
                return
            held[transport] = address
            self._await_headers()

        def _await_headers(self) -> None:
            """Close the connection unless a request's headers arrive in time."""
            if self._headers_timer is not None:
                self._headers_timer.cancel()
            loop = asyncio.get_running_loop()
            self._awaited = self.cycle
            waiting.pop(self.transport, None)
            waiting[self.transport] = None  # the newest waiting
            self._headers_timer = loop.call_later(
                guard.config.header_timeout, self._headers_late, self.cycle
            )

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not self._awaited or self.transport.get_protocol() is not self:
                waiting.pop(self.transport, None)  # a request began (or a WebSocket)

        def _headers_late(self, cycle: object) -> None:
            transport = self.transport
            if transport.get_protocol() is not self or transport.is_closing():
                return  # a WebSocket now, or closed already
            if self.cycle is cycle:  # no new request began since the timer was set
                transport.close()

        def on_response_complete(self) -> None:
            answered = self.cycle
            super().on_response_complete()
            # unless a pipelined request began meanwhile (its answer sets the timer again)
            if not self.transport.is_closing() and self.cycle is answered:
                self._await_headers()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._headers_timer is not None:
                self._headers_timer.cancel()
            release(self.transport)
            super().connection_lost(exc)

    class GuardedWebSocket(websocket):  # type: ignore[misc]  # as above
        """uvicorn's WebSocket protocol: the connection counts until it closes."""

        def connection_lost(self, exc: Exception | None) -> None:
            try:
                super().connection_lost(exc)
            finally:
                release(self.transport)

    return GuardedHTTP, GuardedWebSocket
