"""The ``deepsix`` command line: watch bots, play against them, simulate, replay.

``deepsix watch``
    Four bots play one seeded game; a readable transcript and the final
    score are printed as the game goes.
``deepsix play``
    You play one seat against three bots in the terminal.
``deepsix simulate``
    Many seeded games between two sides of bots, with a progress bar and a
    summary table; per-hand results as CSV or JSON lines; on all local
    cores or on a Dask cluster.
``deepsix replay``
    Print or step through a saved game.

The command line uses rich for its terminal output (``pip install
"deepsix[cli]"``); the library itself never imports it.  One module per
concern: :mod:`~deepsix.cli.main` (arguments and dispatch), one module per
subcommand, :mod:`~deepsix.cli.grammar` (what a person types),
:mod:`~deepsix.cli.render` (terminal output) and :mod:`~deepsix.cli.saved`
(saved games).  Every game loop is the library's own
(:func:`deepsix.play.loop.play_game`).
"""

from __future__ import annotations

from deepsix.cli.grammar import Command, describe_legal, parse_command
from deepsix.cli.main import main, run
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
