"""The ASGI application: the pieces of :mod:`deepsix.web` wired together, nothing else.

:mod:`~deepsix.web.protocol` (the messages), :mod:`~deepsix.web.store` (storage,
behind its writer thread), :mod:`~deepsix.web.botpool` (bots in worker
processes), :mod:`~deepsix.web.lobby` and :mod:`~deepsix.web.rooms` (the
tables), :mod:`~deepsix.web.sockets` and :mod:`~deepsix.web.routes` (the
transports), and the browser client's files.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from deepsix.errors import missing_extra
from deepsix.web.botpool import BotPool
from deepsix.web.cluster import Cluster
from deepsix.web.config import ServerConfig
from deepsix.web.limits import Guard
from deepsix.web.lobby import Lobby
from deepsix.web.routes import STATIC, SecurityHeaders, endpoints, http_error, page
from deepsix.web.runner import Runner
from deepsix.web.services import Services
from deepsix.web.sockets import MAX_FRAME_BYTES, lobby_socket, table_socket
from deepsix.web.store import open_exchange, open_store
from deepsix.web.store.writer import Writer

try:  # the web extra; without it, one line says what to install
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
except ImportError as _missing:
    raise missing_extra("deepsix.web.app", "web", _missing) from None

__all__ = ["MAX_FRAME_BYTES", "create_app"]

_log = logging.getLogger("deepsix.web")


def create_app(
    database: str | Path = ":memory:",
    *,
    config: ServerConfig | None = None,
    guard: Guard | None = None,
    **settings: Any,
) -> Starlette:
    """The server's ASGI application, its tables stored in ``database``: an SQLite file, or a
    PostgreSQL URL (then it serves the same tables as every other server of that database).

    ``config`` (or its fields as keywords: ``bot_delay=0.6``, ...) says how
    tables run; ``guard`` keeps the limits per client address (the one the server's
    connections are counted with, :func:`deepsix.web.server.serve`).  On start-up every
    stored table is rebuilt (or quarantined) and its bots resume; an SQLite file is locked
    for this process while it runs.
    """
    config = config if config is not None else ServerConfig(**settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = open_store(database, durable=config.durable, exclusive=True)
        writer = Writer(store)
        pool = BotPool(config.bot_workers, rate=config.bot_moves_per_second)
        services = Services(writer, pool, config, Runner)
        lobby = Lobby(services)
        if guard is not None:
            lobby.guard = guard
        exchange = open_exchange(store)  # a database several servers share: join them
        cluster = None if exchange is None else Cluster(lobby, exchange)
        try:
            await lobby.load()
            if cluster is not None:
                services.peers = cluster
                await cluster.start()
            lobby.start()
            app.state.lobby = lobby
            app.state.config = config
            yield
        finally:
            live = len(lobby.live())
            await lobby.close()
            if cluster is not None:
                await cluster.close()  # after the runners stopped: the leases lapse
            await pool.aclose()
            writer.close()  # the writes already asked for are made first
            _log.info("stopped: %d live tables stored, every write made", live)

    routes: list[BaseRoute] = [
        Route("/", page),
        Route("/table/{table_id}", page),
        Route("/replay/{table_id}", page),
        *(Route(path, run, methods=methods) for path, run, methods in endpoints()),
        WebSocketRoute("/api/tables/{table_id}/socket", table_socket),
        WebSocketRoute("/api/lobby", lobby_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_error}
    )
    app.add_middleware(SecurityHeaders)
    return app
