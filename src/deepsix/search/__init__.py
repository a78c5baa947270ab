"""Search: a double-dummy solver for the play phase and a bot that plays by sampling.

* :func:`solve` and :func:`move_values` (:mod:`deepsix.search.solver`):
  exact points under best play with every hand visible;
* :class:`SearchBot` (:mod:`deepsix.search.bot`): a :class:`~deepsix.Bot`
  that samples the hidden cards consistently with its view and searches
  the samples (perfect-information Monte Carlo).
"""

from deepsix.search.bot import SearchBot
from deepsix.search.solver import (
    MoveValue,
    SearchBudgetError,
    SearchError,
    SolveResult,
    move_values,
    solve,
)

__all__ = [
    "MoveValue",
    "SearchBot",
    "SearchBudgetError",
    "SearchError",
    "SolveResult",
    "move_values",
    "solve",
]
