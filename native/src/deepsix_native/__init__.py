"""deepsix's double-dummy search in C++: used by :mod:`deepsix.search.solver` when installed."""

from deepsix_native._kernel import ALL, FLAGS, BudgetExceeded, solve, solve_many

__all__ = ["ALL", "FLAGS", "BudgetExceeded", "solve", "solve_many"]
