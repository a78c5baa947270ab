"""A work budget for code under test: a bound on Python calls and on peak memory.

Timing tests are noisy on shared machines; counting is not.  :func:`bounded_work`
counts every function call (Python and C) the code makes and the peak memory it
allocates, and fails as soon as either passes its bound -- so a loader that
would run for minutes on a hostile document fails in milliseconds instead.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Final

import attrs

__all__ = ["Budget", "WorkBudgetExceeded", "bounded_work", "loader_budget"]

BASE_CALLS: Final = 50_000
"""Calls any load may make, whatever its size (the JSON converter's first use is warmed up)."""
CALLS_PER_CHAR: Final = 100
"""Calls allowed per character of input: real documents need about 10."""
BASE_BYTES: Final = 16 * 1024 * 1024
BYTES_PER_CHAR: Final = 1_000
"""Peak memory allowed per character of input: real documents need at most about 800."""


class WorkBudgetExceeded(AssertionError):
    """The code under test made more calls or used more memory than its budget."""


@attrs.frozen
class Budget:
    """How many calls and how many bytes of peak memory some work may take."""

    calls: int
    peak_bytes: int


def loader_budget(text: str | bytes) -> Budget:
    """The budget of loading ``text``: fixed costs plus a bound per character."""
    size = len(text)
    return Budget(BASE_CALLS + CALLS_PER_CHAR * size, BASE_BYTES + BYTES_PER_CHAR * size)


@attrs.define
class _Meter:
    budget: Budget
    calls: int = 0
    peak: int = 0


@contextmanager
def bounded_work(budget: Budget) -> Iterator[_Meter]:
    """Run the ``with`` body under ``budget``; raise :class:`WorkBudgetExceeded` past it."""
    meter = _Meter(budget)

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event in ("call", "c_call"):
            meter.calls += 1
            if meter.calls > budget.calls:
                sys.setprofile(None)
                raise WorkBudgetExceeded(f"more than {budget.calls} calls")

    started = tracemalloc.is_tracing()
    if not started:
        tracemalloc.start()
    tracemalloc.reset_peak()
    sys.setprofile(profile)
    try:
        yield meter
    except BaseException as error:
        if meter.calls > budget.calls:  # the body may have turned the first raise into its own
            raise WorkBudgetExceeded(f"more than {budget.calls} calls") from error
        raise
    finally:
        sys.setprofile(None)
        meter.peak = tracemalloc.get_traced_memory()[1]
        if not started:
            tracemalloc.stop()
    if meter.calls > budget.calls:  # even if the code under test swallowed the first raise
        raise WorkBudgetExceeded(f"more than {budget.calls} calls")
    if meter.peak > budget.peak_bytes:
        raise WorkBudgetExceeded(f"peak memory {meter.peak} bytes > {budget.peak_bytes}")
