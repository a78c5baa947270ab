"""The ``deepsix`` command line: watch bots, play against them, simulate, replay.

``deepsix watch``
    Four bots play one seeded game; a readable transcript and the final
    score are printed as the game goes.
``deepsix play``
    You play one seat against three bots in the terminal.
``deepsix simulate``
    Many seeded games between two sides of bots, with a summary table;
    per-hand results as CSV or JSON lines; on all local cores or on a Dask
    cluster.
``deepsix replay``
    Print or step through a saved game.

``pip install deepsix`` gives a working command with plain-text output;
the ``cli`` extra (``pip install "deepsix[cli]"``) adds rich's colours,
tables and progress bar.  The library itself never imports rich.

One module per concern: :mod:`~deepsix.cli.app` (the parser, the dispatch,
exit statuses), :mod:`~deepsix.cli.subcommands` (which subcommands exist),
one module per subcommand, :mod:`~deepsix.cli.shared` (their conventions),
:mod:`~deepsix.cli.grammar` (what a person types),
:mod:`~deepsix.cli.render`, :mod:`~deepsix.cli.text` and
:mod:`~deepsix.cli.terminal` (output), :mod:`~deepsix.cli.saved` (saved
games) and :mod:`~deepsix.cli.reference` (the CLI page, from the parser).
Importing this package imports none of them: the names below load their
module on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from deepsix.cli.app import main, run
    from deepsix.cli.grammar import Command, describe_legal, parse_command
    from deepsix.cli.saved import SavedGame, load_game, save_game

__all__ = [
    "Command",
    "SavedGame",
    "describe_legal",
    "load_game",
    "main",
    "parse_command",
    "run",
    "save_game",
]

_HOMES: Final = {
    "Command": "deepsix.cli.grammar",
    "describe_legal": "deepsix.cli.grammar",
    "parse_command": "deepsix.cli.grammar",
    "SavedGame": "deepsix.cli.saved",
    "load_game": "deepsix.cli.saved",
    "save_game": "deepsix.cli.saved",
    "main": "deepsix.cli.app",
    "run": "deepsix.cli.app",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'deepsix.cli' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
