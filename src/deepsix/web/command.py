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
from collections.abc import Sequence
from typing import Any

from deepsix.errors import DeepSixError

__all__ = ["HELP", "MissingWebExtraError", "add_arguments", "main", "run"]

HELP = "serve tables to browsers: a lobby, seats with secret tokens, bots for empty seats"
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
    import logging

    from deepsix.web.server import serve

    logging.basicConfig(level=str(args.log_level).upper())
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


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m deepsix.web``: the same options as ``deepsix serve``."""
    parser = argparse.ArgumentParser(prog="python -m deepsix.web", description=HELP)
    add_arguments(parser)
    return run(parser.parse_args(argv))
