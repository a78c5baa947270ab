"""Search: a double-dummy solver for the play phase and a bot that plays by sampling.

* :func:`~deepsix.search.solver.solve` and
  :func:`~deepsix.search.solver.move_values`: exact points under best play
  with every hand visible;
* :class:`~deepsix.search.bot.SearchBot`: a :class:`~deepsix.Bot`
  that samples the hidden cards consistently with its view and searches
  the samples (perfect-information Monte Carlo), in any phase its budget
  names, with play-outs (:mod:`deepsix.search.playout`) before the endgame.

Every public name is importable from here (``from deepsix.search import
solve, SearchBot``); ``docs/search-bot.md`` describes both and their measured
speed and strength.
"""

from deepsix.search.bot import SearchBot
from deepsix.search.solver import (
    KERNEL,
    MoveValue,
    SearchBudgetError,
    SearchError,
    SolveResult,
    move_values,
    points,
    solve,
    solve_many,
)

__all__ = [
    "KERNEL",
    "MoveValue",
    "SearchBot",
    "SearchBudgetError",
    "SearchError",
    "SolveResult",
    "move_values",
    "points",
    "solve",
    "solve_many",
]
