"""``deepsix bot NAME``: run a registered bot as a program that speaks ``deepsix-bot/1``."""

from __future__ import annotations

import argparse
import sys

from deepsix.cli.shared import UsageError
from deepsix.cli.terminal import Terminal
from deepsix.errors import ParseError

__all__ = ["DESCRIPTION", "HELP", "add_arguments", "run"]

HELP = "run a bot as a program that speaks the external bot protocol"
DESCRIPTION = (
    "Run a registered bot (heuristic, random, search, ...) as a program that speaks the "
    "external bot protocol deepsix-bot/1: JSON lines on standard input and output, one "
    "decision per message. Any referee can then play it in another process or on another "
    "machine: deepsix match 'exec:deepsix bot heuristic' random, or a tool of your own. It "
    "writes nothing but protocol messages on standard output; notes go to standard error."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``bot`` subcommand's arguments."""
    from deepsix.play.bots import BOT_NAMES

    parser.add_argument(
        "name", metavar="NAME", nargs="?", help=f"the bot to run, one of: {', '.join(BOT_NAMES)}"
    )
    parser.add_argument(
        "--schema",
        action="store_true",
        help="print the protocol's JSON Schema (every message of either side) and exit",
    )


def run(args: argparse.Namespace, terminal: Terminal) -> int:
    """Serve the bot on standard input and output until ``quit`` or the end of the input."""
    from deepsix.arena.serve import serve
    from deepsix.play.bots import is_program, make_bot

    if args.schema:
        from deepsix.arena.protocol import shipped_schema

        sys.stdout.write(shipped_schema())
        return 0
    if args.name is None:
        raise UsageError("NAME: name the bot to run (or give --schema)")
    if is_program(args.name):
        raise UsageError(f"NAME {args.name}: deepsix bot runs a registered bot, not a program")
    try:
        bot = make_bot(args.name)
    except ParseError as error:
        raise UsageError(f"NAME: {error}") from None
    return serve(bot, sys.stdin.buffer, sys.stdout.buffer, name=args.name, log=sys.stderr)
