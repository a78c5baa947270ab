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
import errno
import functools
import os
import socket
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from deepsix.errors import DeepSixError, MissingDependencyError, ParseError, missing_extra

__all__ = [
    "DESCRIPTION",
    "HELP",
    "MissingWebExtraError",
    "ServeError",
    "add_arguments",
    "check_arguments",
    "check_database",
    "main",
    "run",
]

HELP = "serve tables to browsers: a live lobby, private seats, invite links, bots for empty seats"
"""The one-line help of ``deepsix serve``."""
DESCRIPTION = (
    "Serve the browser client and the game API (needs the web extra: pip install "
    '"deepsix[web]"). Games and every move are kept in a SQLite file, so a restarted '
    "server resumes every game. The options are checked before the server starts."
)
"""What ``deepsix serve --help`` and the CLI page say about it."""

MissingWebExtraError = MissingDependencyError
"""``deepsix serve`` without the web extra (the library's :class:`MissingDependencyError`)."""


class ServeError(DeepSixError):
    """The server cannot start: its port is taken or its address cannot be used."""


def _port(text: str) -> int:
    """A TCP port number, 1 to 65535 (an argparse type)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:  # the range of TCP ports
        raise argparse.ArgumentTypeError(f"a port is from 1 to 65535, not {port}")
    return port


def _seconds(text: str, most: float = 3600) -> float:
    """A pause in seconds, 0 to ``most`` (an hour unless told; an argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= most:
        raise argparse.ArgumentTypeError(f"from 0 to {most:.0f} seconds, not {text}")
    return value


def _workers(text: str) -> int:
    """A number of worker processes, 1 to 256 (an argparse type)."""
    if not text.isdigit() or not 1 <= int(text) <= 256:
        raise argparse.ArgumentTypeError(f"from 1 to 256 workers, not {text!r}")
    return int(text)


ENVIRONMENT_PREFIX: Final = "DEEPSIX_"
"""Every option can come from the environment: ``--bot-delay`` from ``DEEPSIX_BOT_DELAY``."""
DEFAULT_DB: Final = "deepsix-web.sqlite3"
LOG_LEVELS: Final = ("critical", "error", "warning", "info", "debug")
LOG_FORMATS: Final = ("text", "json")


def _env(option: str, default: object) -> object:
    """An option's default: ``DEEPSIX_OPTION`` from the environment if set, else ``default``.

    (argparse converts a string default with the option's type, so a bad
    value is refused the way the option would be.)
    """
    return os.environ.get(ENVIRONMENT_PREFIX + option.upper().replace("-", "_"), default)


def _env_flag(option: str) -> bool:
    """A switch's default from the environment: ``1``, ``true``, ``yes`` or ``on`` set it."""
    value = str(_env(option, "")).strip().lower()
    return value in ("1", "true", "yes", "on")


def database_default() -> str:
    """Where the games are kept unless ``--db`` says: ``DEEPSIX_DB``, else the contents of the
    file named by ``DEEPSIX_DB_FILE`` (a container's secret), else the SQLite file
    ``deepsix-web.sqlite3``.  A PostgreSQL URL with a password belongs in one of those
    (a command line is visible to every user of the machine)."""
    if os.environ.get("DEEPSIX_DB"):
        return os.environ["DEEPSIX_DB"]
    secret = os.environ.get("DEEPSIX_DB_FILE")
    if secret:
        try:
            return Path(secret).read_text(encoding="utf-8").strip()
        except OSError as error:
            raise ParseError(
                f"DEEPSIX_DB_FILE {secret}: cannot read it ({error.strerror or error})"
            ) from None
    return DEFAULT_DB


_TIMES: Final = (
    ("--summary-limit", 120.0, 3600,
     "the longest the next deal waits for people to dismiss a hand's summary"),
    ("--public-clock", 90.0, 86400,
     "turn clock of listed tables unless their maker chooses; 0: none (private tables: none)"),
    ("--absent-grace", 60.0, 86400, "how long a player may be gone before a bot takes her seat"),
    ("--idle-close", 1800.0, 30 * 86400, "close and archive a table nobody attends for this long"),
    ("--bot-time-limit", 10.0, 3600, "a bot's time per move; a fallback moves when it overruns"),
    ("--unstarted-close", 600.0, 30 * 86400,
     "close (unlisted) a table that never started and nobody attends for this long"),
    ("--keep-finished", 600.0, 30 * 86400,
     "keep a finished table nobody watches in memory this long (it stays stored)"),
    ("--header-timeout", 10.0, 3600, "time a connection has to send a request's headers"),
    ("--socket-idle", 120.0, 86400,
     "close a WebSocket that sends nothing (not even a ping) this long"),
)  # fmt: skip
"""The options that are a number of seconds: flag, default, most, meaning."""

_LIMITS: Final = (
    ("--requests-per-second", 20.0, "HTTP API requests one client address may make a second"),
    ("--tables-per-minute", 10.0, "tables one network may make a minute"),
    ("--tables-per-address", 10, "live tables made from one network (IPv4 /24, IPv6 /64)"),
    ("--bot-tables-per-address", 3, "live tables with bots made from one network"),
    ("--connections-per-address", 64, "open connections from one client address"),
    ("--max-connections", 4000, "open connections in all (lowered to fit the open-file limit)"),
    ("--bot-moves-per-second", 50.0, "bot moves a second in all, every table together"),
    ("--max-tables", 10000, "live tables in all"),
    ("--keep-finished-most", 1000, "finished tables kept in memory at most (all stay stored)"),
)
"""The limits (:mod:`deepsix.web.limits`): flag, default (its type the option's), meaning."""


def _limit(text: str, kind: type[float] | type[int] = float) -> float:
    """A positive limit (an argparse type): a whole number for counts."""
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a {kind.__name__} number: {text!r}") from None
    if not 0 < value <= 10**7:
        raise argparse.ArgumentTypeError(f"from 1 to 10000000, not {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``deepsix serve`` (and ``python -m deepsix.web``).

    Each option's default can be set in the environment (``DEEPSIX_PORT=80``,
    ``DEEPSIX_DB=postgresql://...``, a switch with ``DEEPSIX_DURABLE=1``).
    """
    parser.add_argument(
        "--host", default=_env("host", "127.0.0.1"),
        help="address to listen on (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--port", type=_port, default=_env("port", 8000),
        help="port, 1 to 65535 (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--db", default=None, metavar="FILE|URL",
        help="SQLite file the games are kept in, or a postgresql:// URL of a database several"
        " servers share (the postgres extra); default: $DEEPSIX_DB, the file named by"
        f" $DEEPSIX_DB_FILE, or {DEFAULT_DB}",
    )  # fmt: skip
    parser.add_argument(
        "--bot-delay", type=_seconds, default=_env("bot-delay", 0.6), metavar="SECONDS",
        help="pause before each bot move, so people can follow (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--hand-pause", type=_seconds, default=_env("hand-pause", 4.0), metavar="SECONDS",
        help="pause before the next deal, to look at a finished hand (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--durable", action="store_true", default=_env_flag("durable"),
        help="fsync every move (survives a power cut, not only a crash; slower)",
    )  # fmt: skip
    for flag, default, most, meaning in _TIMES:
        parser.add_argument(
            flag, type=functools.partial(_seconds, most=most), metavar="SECONDS",
            default=_env(flag.removeprefix("--"), default),
            help=f"{meaning} (default: %(default)s)",
        )  # fmt: skip
    for flag, default, meaning in _LIMITS:
        parser.add_argument(
            flag, type=functools.partial(_limit, kind=type(default)), metavar="N",
            default=_env(flag.removeprefix("--"), default),
            help=f"{meaning} (default: %(default)s)",
        )  # fmt: skip
    parser.add_argument(
        "--bot-workers", type=_workers, default=_env("bot-workers", 8), metavar="N",
        help="the most worker processes bots think in (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--bot", action="append", default=[], metavar="NAME=MODULE:ATTRIBUTE",
        help="offer another bot by name (repeatable), e.g. mybot=mypackage.bots:MyBot",
    )  # fmt: skip
    parser.add_argument(
        "--seeded-tables", action="store_true", default=_env_flag("seeded-tables"),
        help="accept a seed when a table is made (tests, puzzles); such tables are marked",
    )  # fmt: skip
    parser.add_argument(
        "--secure-cookies", action="store_true", default=_env_flag("secure-cookies"),
        help="mark the seat cookies Secure (when served over HTTPS behind a proxy)",
    )  # fmt: skip
    parser.add_argument(
        "--log-level", default=_env("log-level", "info"), choices=LOG_LEVELS,
        help="how much the server logs (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--log-format", default=_env("log-format", "text"), choices=LOG_FORMATS,
        help="lines of text, or one JSON object a line (default: %(default)s)",
    )  # fmt: skip


def check_arguments(args: Any) -> None:
    """Check the database and the address before the server starts.

    Raises :class:`~deepsix.ParseError` naming ``--db`` for a database that
    cannot be used (a file, or a PostgreSQL URL: named without its password),
    and :class:`ServeError` naming ``--port`` for an address in use.  Fills
    ``args.db`` from the environment when it was not given.
    """
    if args.db is None:
        args.db = database_default()
    if args.log_level not in LOG_LEVELS:
        raise ParseError(f"--log-level {args.log_level}: choose from {', '.join(LOG_LEVELS)}")
    if args.log_format not in LOG_FORMATS:
        raise ParseError(f"--log-format {args.log_format}: choose from text, json")
    from deepsix.web.store import StoreError, is_shared, public_location

    where = f"--db {public_location(args.db)}"
    if not is_shared(args.db):
        database = Path(args.db)
        if database.is_dir():
            raise ParseError(f"{where}: is a directory, not a SQLite file")
        if not database.parent.is_dir():
            raise ParseError(f"{where}: the directory {str(database.parent)!r} does not exist")
    try:
        check_database(args.db)
    except StoreError as error:
        said = str(error)  # the store's errors begin with the location: say it once
        shown = public_location(args.db)
        raise ParseError(f"--db {said}" if said.startswith(shown) else f"{where}: {said}") from None
    _check_port(args.host, args.port)


def check_database(location: str) -> None:
    """Open the database as the server will, and read its list of tables.

    An empty, foreign, damaged, newer or locked database is refused here with a
    :class:`~deepsix.web.store.StoreError` of one line; a damaged *table* is not (the
    server quarantines it and serves the others).
    """
    from deepsix.web.store import open_store

    store = open_store(location, exclusive=True)
    try:
        store.tables()
    finally:
        store.close()


def _check_port(host: str, port: int, *, patience: float = 3.0) -> None:
    """Raise :class:`ServeError` if ``host:port`` cannot be bound.  A port still held by a
    server that is exiting is retried for ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while True:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
            try:
                probe.bind((host, port))
            except OSError as error:
                busy = error.errno == errno.EADDRINUSE
                if busy and time.monotonic() < deadline:
                    time.sleep(0.1)
                    continue
                reason = error.strerror or str(error)
                raise ServeError(f"--port {port}: cannot listen on {host} ({reason})") from None
            return


def run(args: Any) -> int:
    """Serve until interrupted; raises :class:`~deepsix.errors.MissingDependencyError`
    without the web extra, and the errors of :func:`check_arguments`."""
    try:
        import starlette  # noqa: F401  # checked first, for one clear message
        import uvicorn  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as error:
        raise missing_extra("deepsix serve", "web", error) from None
    check_arguments(args)
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
        unstarted_close=args.unstarted_close,
        keep_finished=args.keep_finished,
        header_timeout=args.header_timeout,
        socket_idle=args.socket_idle,
        **{flag.removeprefix("--").replace("-", "_"): getattr(args, flag[2:].replace("-", "_"))
           for flag, _, _ in _LIMITS},
    )  # fmt: skip
    serve(
        args.db, host=args.host, port=args.port, config=config,
        log_level=args.log_level, log_format=args.log_format,
    )  # fmt: skip
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m deepsix.web``: the same options as ``deepsix serve``; an error is one line
    on standard error (exit status 2 for a bad option, 1 for a failure)."""
    parser = argparse.ArgumentParser(prog="python -m deepsix.web", description=DESCRIPTION)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except ParseError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    except DeepSixError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
