"""``deepsix serve``: run the web server with uvicorn."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main", "serve"]


def serve(
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
    import uvicorn

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


def parser() -> argparse.ArgumentParser:
    """The command line of ``deepsix serve`` (and ``python -m deepsix.web``)."""
    parser = argparse.ArgumentParser(
        prog="deepsix serve",
        description="Serve Deep Six tables to browsers: create a table, share its seat links, "
        "and let bots fill the empty seats.",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    parser.add_argument(
        "--db", default="deepsix-web.sqlite3", metavar="FILE",
        help="SQLite file the games are kept in (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--bot-delay", type=float, default=0.6, metavar="SECONDS",
        help="pause before each bot move, so people can follow (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--hand-pause", type=float, default=4.0, metavar="SECONDS",
        help="pause before the next deal, to look at a finished hand (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--durable", action="store_true",
        help="fsync every move (survives a power cut, not only a crash; slower)",
    )  # fmt: skip
    parser.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"]
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``deepsix serve`` with ``argv``; returns the exit status."""
    args = parser().parse_args(argv)
    logging.basicConfig(level=args.log_level.upper())
    serve(
        args.db,
        host=args.host,
        port=args.port,
        bot_delay=args.bot_delay,
        hand_pause=args.hand_pause,
        durable=args.durable,
        log_level=args.log_level,
    )
    return 0
