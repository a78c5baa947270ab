"""The server's connections below HTTP: caps per client address and a timeout for headers.

uvicorn accepts every connection and waits as long as a client likes for
a request's headers.  So 800 half-sent headers were held for ever, and a
thousand connections from one address used up the process's open files
(``Too many open files``: nobody else could connect).  :func:`guarded`
wraps uvicorn's protocol classes so that

* a connection over its address's cap, or over the process's, is closed as
  soon as it is accepted (:meth:`deepsix.web.limits.Guard.admit`), its
  file released at once;
* a connection that has not sent a whole request's headers
  ``header_timeout`` seconds after it opened (or after the previous
  answer) is closed;
* a WebSocket counts against its address until it closes.
"""

from __future__ import annotations

import asyncio
import resource
from typing import Any, Final

from deepsix.web.limits import Guard

__all__ = ["RESERVED_FILES", "connection_budget", "guarded"]

RESERVED_FILES: Final = 64
"""Open files kept for the server's own use (its database, logs, the bot workers' pipes are
counted apart)."""


def connection_budget(most: int, bot_workers: int) -> int:
    """The most connections this process can hold: ``most``, or fewer if its open-file limit
    (raised to the hard limit first) leaves less beside the database, the bots' pipes and
    :data:`RESERVED_FILES`."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
        if target > soft:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
                soft = target
            except (ValueError, OSError):  # pragma: no cover - not allowed: keep the soft one
                pass
    workers = 4 * bot_workers  # the pool's burst of slow moves: three pipes each
    return max(1, min(most, soft - RESERVED_FILES - 3 * workers))


def _address(transport: asyncio.BaseTransport) -> str | None:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple | list) and peer else None


def guarded(http: type[Any], websocket: type[Any], guard: Guard) -> tuple[type[Any], type[Any]]:
    """uvicorn's HTTP and WebSocket protocol classes, with the caps and the header timeout."""
    held: dict[asyncio.BaseTransport, str | None] = {}

    def release(transport: asyncio.BaseTransport) -> None:
        if transport in held:
            guard.release(held.pop(transport))

    class GuardedHTTP(http):  # type: ignore[misc]  # uvicorn's class, chosen at run time
        """uvicorn's HTTP protocol: counted per address, headers within a time limit."""

        _headers_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            address = _address(transport)
            if not guard.admit(address):
                transport.abort()  # over a cap: the file is given back at once
                return
            held[transport] = address
            self._await_headers()

        def _await_headers(self) -> None:
            """Close the connection unless a request's headers arrive in time."""
            if self._headers_timer is not None:
                self._headers_timer.cancel()
            loop = asyncio.get_running_loop()
            self._headers_timer = loop.call_later(
                guard.config.header_timeout, self._headers_late, self.cycle
            )

        def _headers_late(self, cycle: object) -> None:
            transport = self.transport
            if transport.get_protocol() is not self or transport.is_closing():
                return  # a WebSocket now, or closed already
            if self.cycle is cycle:  # no new request began since the timer was set
                transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
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
