"""Run the web server with uvicorn: :func:`serve` (``deepsix serve`` and ``python -m
deepsix.web`` parse their options in :mod:`deepsix.web.command` and call it)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from deepsix.errors import missing_extra
from deepsix.web.config import ServerConfig

__all__ = ["GRACE", "serve"]

GRACE = 5
"""Seconds open connections get to end when the server is asked to stop (SIGTERM, Ctrl-C);
then the tables' runners stop and every write already asked for is made before it exits."""


def serve(  # noqa: PLR0913  # the command's settings, all keywords but the first
    database: str | Path = "deepsix-web.sqlite3",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    config: ServerConfig | None = None,
    log_level: str = "info",
    log_format: str = "text",
) -> None:
    """Serve the browser client and the game API until interrupted.

    Games live in the SQLite file ``database``: stop the server at any
    moment, start it again, and every game and every move is still there.
    Raises :class:`~deepsix.web.store.StoreRefused` at once (before
    listening) for a database this server must not use.  SIGTERM (or Ctrl-C) stops it
    gracefully (:data:`GRACE`); after SIGTERM it returns normally.
    """
    try:
        import uvicorn
    except ImportError as missing:
        raise missing_extra("deepsix.web.server.serve", "web", missing) from None

    import attrs

    from deepsix.web.app import MAX_FRAME_BYTES, create_app
    from deepsix.web.limits import Guard
    from deepsix.web.logs import configure
    from deepsix.web.store import is_shared, open_store
    from deepsix.web.transport import (
        Crowding,
        accept_backlog,
        connection_budget,
        guarded,
        open_file_limit,
        quiet_out_of_files,
    )

    config = config if config is not None else ServerConfig(bot_delay=0.6, hand_pause=4.0)
    files = open_file_limit()
    budget = connection_budget(config.max_connections, config.bot_workers, files)
    config = attrs.evolve(config, max_connections=budget)
    # refused here, in one line; an SQLite file stays locked for this process until it ends
    held = open_store(database, durable=config.durable, exclusive=True)
    if is_shared(database):
        held.close()
    configure(log_level, log_format)
    guard = Guard(config)
    crowding = Crowding(guard)
    settings = uvicorn.Config(
        create_app(database, config=config, guard=guard),
        host=host,
        port=port,
        log_config=None,
        log_level=log_level,
        ws_max_size=MAX_FRAME_BYTES,
        # frames are a few kB of JSON: compressing each cost the loop about 7% of its time
        # under load (a profile at 200 busy tables), for bandwidth nobody is short of
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=GRACE,
        backlog=accept_backlog(files),
    )
    settings.load()
    assert settings.ws_protocol_class is not None  # the web extra brings websockets
    settings.http_protocol_class, settings.ws_protocol_class = guarded(
        settings.http_protocol_class, settings.ws_protocol_class, guard, crowding
    )

    class Server(uvicorn.Server):
        async def serve(self, sockets: Any = None) -> None:
            quiet_out_of_files(asyncio.get_running_loop(), crowding)
            await super().serve(sockets)

    try:
        with _stopped_by_sigterm():
            Server(settings).run()
    finally:
        held.close()


class _Stopped(Exception):
    """SIGTERM, once uvicorn has shut down gracefully (it raises the signal again then)."""


@contextlib.contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """A graceful stop on SIGTERM ends the process with status 0, not killed by the signal.

    uvicorn shuts down on SIGTERM, then restores the handler it found and raises the signal
    again; with the default handler the process would die there (status -15), before the
    database is let go.  The handler found is this one: it ends the run instead.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise _Stopped

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    except _Stopped:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
