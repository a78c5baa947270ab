"""The ``deepsix`` entry point: the argument parser and the dispatch to the subcommands."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
from collections.abc import Callable, Sequence
from typing import Final, NoReturn

from rich.console import Console
from rich.text import Text

from deepsix._version import __version__
from deepsix.cli import play, plugins, replay, simulate, watch
from deepsix.cli.shared import UsageError
from deepsix.errors import ParseError, SerializationError
from deepsix.play.bots import BOT_NAMES

__all__ = ["MAX_LINE", "main", "read_line", "run"]


def _parser(added: dict[str, plugins.Plugin] | None = None) -> argparse.ArgumentParser:
    """The argument parser of the subcommands (and of those other packages add)."""
    parser = argparse.ArgumentParser(
        prog="deepsix",
        description="Deep Six: watch bots play, play against them, simulate, replay.",
    )
    parser.add_argument("--version", action="version", version=f"deepsix {__version__}")
    parser.add_argument(
        "--no-color", action="store_true", help="plain output without colours (or set NO_COLOR)"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    bot_help = (
        f"bots: 1 name (all seats), 2 (one per side) or 4 (N E S W) of: {', '.join(BOT_NAMES)}"
    )
    watch.add_parser(commands, bot_help)
    play.add_parser(commands, bot_help)
    simulate.add_parser(commands, bot_help)
    replay.add_parser(commands)
    plugins.add_parsers(commands, added or {})
    return parser


def _fail(console: Console, message: str, code: int) -> int:
    """Report an error on the console; return the exit status."""
    console.print(Text(f"deepsix: error: {message}", style="bold red"))
    return code


def main(argv: Sequence[str] | None = None, *, read: Callable[[], str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    ``read`` reads one line of the person's input (it raises ``EOFError`` at
    the end of input); by default :func:`read_line` reads standard input,
    whatever bytes and however long the lines it holds.
    """
    if read is None:
        read = read_line
    added = plugins.plugins()
    parser = _parser(added)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return _exit_code(exit_)
    no_color = args.no_color or bool(os.environ.get("NO_COLOR"))
    console = Console(highlight=False, no_color=no_color, soft_wrap=True)
    commands: dict[str, Callable[[], int]] = {
        "watch": lambda: watch.run_watch(args, console),
        "play": lambda: play.run_play(args, console, read),
        "simulate": lambda: simulate.run_simulate(args, console),
        "replay": lambda: replay.run_replay(args, console, read),
    }
    for name, plugin in added.items():  # subcommands other packages add (deepsix serve)
        commands.setdefault(name, functools.partial(plugin.run, args))
    try:
        return commands[args.command]()
    except (UsageError, ParseError) as error:
        return _fail(console, str(error), 2)
    except ImportError as error:  # a subcommand's optional dependencies (deepsix serve's)
        return _fail(console, str(error), 1)
    except (SerializationError, OSError) as error:
        return _fail(console, str(error), 1)
    except KeyboardInterrupt:
        return _fail(console, "interrupted", 130)


MAX_LINE: Final = 4096
"""Standard input is read in lines of at most this many characters; the rest of a longer
line is read and dropped, so a line of any length costs bounded memory."""


def read_line() -> str:
    """One line of standard input, decoded leniently, at most :data:`MAX_LINE` characters.

    Bytes that are not UTF-8 become U+FFFD instead of crashing the decoder; a
    terminal keeps its line editing (``input``).  Raises ``EOFError`` at the end.
    """
    stream = sys.stdin
    if stream is None:
        raise EOFError
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None and getattr(stream, "errors", "replace") != "replace":
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="replace")
    if stream.isatty():
        return input()
    line = stream.readline(MAX_LINE)
    if not line:
        raise EOFError
    if not line.endswith("\n") and len(line) == MAX_LINE:
        while True:  # drop the rest of an over-long line
            rest = stream.readline(MAX_LINE)
            if not rest or rest.endswith("\n"):
                break
    return line.rstrip("\n")


def _exit_code(exit_: SystemExit) -> int:
    """The exit status argparse asked for (``--help``, ``--version``, usage errors)."""
    code = exit_.code
    if code is None:
        return 0
    return code if isinstance(code, int) else 2


def run() -> NoReturn:
    """``python -m deepsix`` and the ``deepsix`` command."""
    sys.exit(main())
