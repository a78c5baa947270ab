"""``deepsix serve``: the command line's ``serve`` subcommand, registered as a plug-in.

The command line (:mod:`deepsix.cli`) and the web server are independent
packages of the same layer, so neither imports the other: this module is
named in the ``deepsix.commands`` entry-point group of the package's
metadata, and the command line adds every command of that group to its
own.  It imports only the standard library until the command runs, so
``deepsix --help`` works without the web extra, and ``deepsix serve``
then says what to install.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from deepsix.errors import DeepSixError

__all__ = ["HELP", "MissingWebExtraError", "add_arguments", "main", "run"]

HELP = "serve tables to browsers: a live lobby, private seats, invite links, bots for empty seats"
"""The one-line help of ``deepsix serve``."""


class MissingWebExtraError(DeepSixError, ImportError):
    """``deepsix serve`` needs the web extra: ``pip install "deepsix[web]"``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``deepsix serve`` (and ``python -m deepsix.web``)."""
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
        "--summary-limit", type=float, default=120.0, metavar="SECONDS",
        help="the longest the next deal waits for people to dismiss a hand's summary"
        " (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--public-clock", type=float, default=90.0, metavar="SECONDS",
        help="turn clock of listed tables unless their maker chooses; 0: none"
        " (default: %(default)s; private tables have none)",
    )  # fmt: skip
    parser.add_argument(
        "--absent-grace", type=float, default=60.0, metavar="SECONDS",
        help="how long a player may be gone before a bot takes her seat (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--idle-close", type=float, default=1800.0, metavar="SECONDS",
        help="close and archive a table nobody attends for this long (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--bot-workers", type=int, default=8, metavar="N",
        help="the most worker processes bots think in (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--bot-time-limit", type=float, default=10.0, metavar="SECONDS",
        help="a bot's time per move; a fallback moves when it overruns (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--bot", action="append", default=[], metavar="NAME=MODULE:ATTRIBUTE",
        help="offer another bot by name (repeatable), e.g. mybot=mypackage.bots:MyBot",
    )  # fmt: skip
    parser.add_argument(
        "--seeded-tables", action="store_true",
        help="accept a seed when a table is made (tests, puzzles); such tables are marked",
    )  # fmt: skip
    parser.add_argument(
        "--secure-cookies", action="store_true",
        help="mark the seat cookies Secure (when served over HTTPS behind a proxy)",
    )  # fmt: skip
    parser.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"]
    )


def run(args: Any) -> int:
    """Serve until interrupted; raises :class:`MissingWebExtraError` without the extra."""
    try:
        import starlette  # noqa: F401  # checked first, for one clear message
        import uvicorn  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as error:
        raise MissingWebExtraError(
            f"deepsix serve needs the web extra ({error.name} is missing): "
            'pip install "deepsix[web]"'
        ) from error
    from deepsix.play.bots import register_bot
    from deepsix.web.config import ServerConfig
    from deepsix.web.server import serve

    for entry in args.bot:
        name, _, target = str(entry).partition("=")
        register_bot(name.strip(), target.strip())
    config = ServerConfig(
        bot_delay=args.bot_delay,
        hand_pause=args.hand_pause,
        summary_limit=args.summary_limit,
        durable=args.durable,
        seeded_tables=args.seeded_tables,
        public_clock=args.public_clock or None,
        absent_grace=args.absent_grace,
        idle_close=args.idle_close,
        bot_workers=args.bot_workers,
        bot_time_limit=args.bot_time_limit,
        secure_cookies=args.secure_cookies,
    )
    from deepsix.web.store import StoreRefused

    try:
        serve(args.db, host=args.host, port=args.port, config=config, log_level=args.log_level)
    except StoreRefused as error:  # one line, not a traceback: the file is named in it
        print(f"deepsix serve: error: {error}", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m deepsix.web``: the same options as ``deepsix serve``."""
    parser = argparse.ArgumentParser(prog="python -m deepsix.web", description=HELP)
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except DeepSixError as error:
        print(f"python -m deepsix.web: error: {error}", file=sys.stderr)
        return 1
