"""What the subcommands share: exit statuses, their errors, and checks of common options.

Every subcommand follows the same conventions, so that scripts can rely on
them: exit status ``0`` on success, ``1`` when the command ran and failed,
``2`` for a usage error, ``130`` when interrupted (:data:`EXIT_STATUSES`).
A usage error is raised as :class:`UsageError` naming the option (or
argument) at fault, before any work starts; :func:`output_file` and
:func:`bot_lineup` check the common options that way.  The command prints
either error as one line on standard error.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Final, TypeAlias

from deepsix.display import plural
from deepsix.errors import DeepSixError, ParseError

__all__ = [
    "EXIT_FAILURE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_STATUSES",
    "EXIT_USAGE",
    "CommandFailed",
    "Subcommands",
    "UsageError",
    "add_where_to_run",
    "bot_help",
    "bot_lineup",
    "local_workers",
    "output_file",
]

EXIT_OK: Final = 0
EXIT_FAILURE: Final = 1
EXIT_USAGE: Final = 2
EXIT_INTERRUPTED: Final = 130
EXIT_STATUSES: Final = (
    (EXIT_OK, "success, including a game stopped with `quit` or at the end of its input"),
    (
        EXIT_FAILURE,
        "the command ran and failed: a file that cannot be read or does not replay, a "
        "port already in use, a missing extra (the message names what to install)",
    ),
    (
        EXIT_USAGE,
        "a usage error, reported before any work starts: an unknown subcommand or option, a "
        "bad value, options that conflict, an output path that cannot be written",
    ),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C)"),
)
"""Each exit status of the ``deepsix`` command and when it is used."""

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""The ``add_subparsers()`` object each subcommand adds its parser to."""


class UsageError(DeepSixError, ValueError):
    """A problem with the command line's arguments (exit status 2); the message names the
    option at fault."""


class CommandFailed(DeepSixError):
    """The command ran and failed (exit status 1)."""


def output_file(option: str, path: str | None) -> Path | None:
    """Check, before any work, that the file named by ``option`` can be written.

    Returns the path (``None`` if the option was not given); raises
    :class:`UsageError` naming the option if the path is a directory, its
    directory does not exist, or nothing can be created there.
    """
    if path is None:
        return None
    target = Path(path)
    where = f"{option} {path}"
    if not path or target.is_dir():
        raise UsageError(f"{where}: is a directory, not a file")
    folder = target.parent
    if not folder.is_dir():
        raise UsageError(f"{where}: the directory {str(folder)!r} does not exist")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".deepsix-", suffix=".check"):
            pass
    except OSError as error:
        raise UsageError(f"{where}: cannot write there ({error.strerror or error})") from None
    if target.exists() and not os.access(target, os.W_OK):
        raise UsageError(f"{where}: the file is not writable")
    return target


def local_workers(count: int | None) -> str:
    """Where the games ran, for a report's first line: ``1 worker process``, ``all local ...``."""
    if count is None:
        return "all local worker processes"
    return plural(count, "worker process", "worker processes")


def add_where_to_run(parser: argparse.ArgumentParser, *, workers_note: str = "") -> None:
    """The options of a command that plays many games: ``--workers`` and ``--scheduler``."""
    parser.add_argument("--workers", type=int, help="local worker processes (default: all cores)")
    parser.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="run on a Dask cluster: a scheduler address, or 'local' for a local cluster "
        f"(needs the distributed extra){workers_note}",
    )  # fmt: skip


def bot_help() -> str:
    """The help text of a ``--bots`` option: the lineups and the bots' names."""
    from deepsix.play.bots import BOT_NAMES

    return f"1 name (all seats), 2 (one per side) or 4 (N E S W) of: {', '.join(BOT_NAMES)}"


def bot_lineup(option: str, names: Sequence[str]) -> tuple[str, str, str, str]:
    """The four seats' bots from one, two or four names; :class:`UsageError` naming
    ``option`` for a wrong count or an unknown bot (each bot is made once, to check it)."""
    from deepsix.play.bots import expand_lineup, make_bot

    try:
        lineup = expand_lineup(list(names))
        for name in dict.fromkeys(lineup):
            make_bot(name)
    except ParseError as error:
        raise UsageError(f"{option}: {error}") from None
    return lineup
