"""Run the web server with uvicorn: :func:`serve` (``deepsix serve`` and ``python -m
deepsix.web`` parse their options in :mod:`deepsix.web.command` and call it)."""

from __future__ import annotations

from pathlib import Path

from deepsix.errors import missing_extra

__all__ = ["serve"]


def serve(  # noqa: PLR0913  # public signature; the options are keywords
    database: str | Path = "deepsix-web.sqlite3",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    bot_delay: float = 0.6,
    hand_pause: float = 4.0,
    durable: bool = False,
    log_level: str = "info",
) -> None:
    """Serve the browser client and the game API until interrupted.

    Games live in the SQLite file ``database``: stop the server at any
    moment, start it again, and every game and every move is still there.
    """
    try:
        import uvicorn
    except ImportError as missing:
        raise missing_extra("deepsix.web.server.serve", "web", missing) from None

    from deepsix.web.app import MAX_FRAME_BYTES, create_app

    app = create_app(database, bot_delay=bot_delay, hand_pause=hand_pause, durable=durable)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=MAX_FRAME_BYTES,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=3,
    )
