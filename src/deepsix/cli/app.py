"""The ``deepsix`` command: the argument parser, the dispatch to the subcommands, exit statuses.

:func:`main` builds the parser from every subcommand
(:mod:`deepsix.cli.subcommands`), runs the one asked for, and turns its
errors into one line on standard error and the exit statuses of
:mod:`deepsix.cli.shared`.  ``--no-color`` is accepted before or after the
subcommand, and ``NO_COLOR`` is honoured.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import NoReturn

from deepsix._version import __version__
from deepsix.cli.shared import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
)
from deepsix.cli.subcommands import Subcommand, load_subcommands
from deepsix.cli.terminal import Terminal, read_line
from deepsix.errors import DeepSixError, ParseError

__all__ = ["DESCRIPTION", "build_parser", "main", "run"]

DESCRIPTION = "Deep Six: watch bots play, play against them, simulate, replay."
"""What ``deepsix --help`` says first."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (raised, then printed by :func:`main`)."""

    def error(self, message: str) -> NoReturn:
        # "deepsix: error: " is printed once, before the message: name only the subcommand.
        command = self.prog.removeprefix("deepsix").strip()
        where = f"{command}: " if command else ""
        raise UsageError(f"{where}{message} (see '{self.prog} --help')")


def build_parser(commands: Mapping[str, Subcommand] | None = None) -> argparse.ArgumentParser:
    """The parser of the ``deepsix`` command and of each subcommand (default: all of them)."""
    if commands is None:
        commands = load_subcommands()
    common = _Parser(add_help=False)
    common.add_argument(
        "--no-color", action="store_true", default=argparse.SUPPRESS,
        help="plain output without colours (or set NO_COLOR)",
    )  # fmt: skip
    parser = _Parser(prog="deepsix", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"deepsix {__version__}")
    parser.add_argument(
        "--no-color", action="store_true", help="plain output without colours (or set NO_COLOR)"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name, command in commands.items():
        sub = subparsers.add_parser(
            name, help=command.help, description=command.description, parents=[common]
        )
        command.module.add_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None, *, read: Callable[[], str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    ``read`` reads one line of the person's input (it raises ``EOFError`` at
    the end of input); by default :func:`~deepsix.cli.terminal.read_line`
    reads standard input, whatever bytes and however long the lines it holds.
    """
    commands = load_subcommands()
    parser = build_parser(commands)
    color = not os.environ.get("NO_COLOR")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help and --version
        return EXIT_OK if exit_.code in (None, 0) else EXIT_USAGE
    except UsageError as error:
        Terminal(color=False, use_rich=False).error(str(error))
        return EXIT_USAGE
    terminal = Terminal(color=color and not args.no_color, read=read or read_line)
    return _dispatch(commands[args.command], args, terminal)


def _dispatch(command: Subcommand, args: argparse.Namespace, terminal: Terminal) -> int:
    """Run ``command``; report its error, if any, as one line; return the exit status."""
    try:
        return command.run(args, terminal)
    except (UsageError, ParseError) as error:
        terminal.error(str(error))
        return EXIT_USAGE
    except (DeepSixError, OSError) as error:  # MissingDependencyError, CommandFailed, ...
        terminal.error(str(error))
        return EXIT_FAILURE
    except ImportError as error:  # an added subcommand's own dependencies
        terminal.error(f"deepsix {command.name}: {error}")
        return EXIT_FAILURE
    except KeyboardInterrupt:
        terminal.error("interrupted")
        return EXIT_INTERRUPTED


def run() -> NoReturn:
    """``python -m deepsix`` and the ``deepsix`` command."""
    sys.exit(main())
