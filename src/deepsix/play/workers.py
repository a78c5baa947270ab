"""Local worker processes that stop when interrupted, for :func:`~deepsix.play.simulate.simulate`
and :func:`~deepsix.arena.match.run_match`.

A ``ProcessPoolExecutor`` left by Ctrl-C waits for every task already handed
to a worker (the running ones and the ones queued to them, which can no
longer be cancelled): with search bots, a minute or more.  So the workers
are started with :func:`worker_started`, run each task through
:func:`stoppable`, and the main process calls :func:`stop_workers` on its
way out: every worker is interrupted (SIGINT), ends the task it is running
(its ``finally`` blocks run: program bots are stopped), refuses the tasks
queued to it, and is killed if it has not ended within a grace period.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import signal
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

__all__ = ["STOP_GRACE", "gather", "stop_workers", "stoppable", "worker_started"]

T = TypeVar("T")

STOP_GRACE: Final = 3.0
"""Seconds the workers are given to end their tasks after an interrupt before they are
killed."""


class _Worker:
    """A worker process's state for an interrupt (class attributes: one per process)."""

    running = False
    """A task is running."""
    stopping = False
    """Interrupted: the task running ends and no later task starts."""


def worker_started() -> None:
    """The initializer of the worker processes: an interrupt (SIGINT, from a terminal's Ctrl-C
    to the whole process group or forwarded by :func:`stop_workers`) ends the task running,
    and the worker refuses the tasks already queued to it, instead of working on."""
    signal.signal(signal.SIGINT, _interrupted)


def _interrupted(signum: int, frame: object) -> None:
    """SIGINT in a worker: the first one stops the task running (a second -- the forwarded
    copy of a terminal's -- must not break that task's clean-up in its ``finally``); one that
    comes while the worker waits for work only marks it stopping (no traceback)."""
    first = not _Worker.stopping
    _Worker.stopping = True
    if first and _Worker.running:
        raise KeyboardInterrupt


def stoppable(task: Callable[..., T], *args: Any) -> T:
    """``task(*args)`` in a worker process, unless the worker has been interrupted."""
    if _Worker.stopping:
        raise KeyboardInterrupt
    _Worker.running = True
    try:
        return task(*args)
    finally:
        _Worker.running = False


def stop_workers(
    pool: concurrent.futures.ProcessPoolExecutor,
    running: list[concurrent.futures.Future[Any]],
    grace: float = STOP_GRACE,
) -> None:
    """Interrupt ``pool``'s workers, give the ``running`` tasks ``grace`` seconds to end, then
    kill the workers (a native solver deep in a search, a program bot that ignores ``quit``).
    What those tasks would have returned is lost; what was collected before is not."""
    # The workers themselves: ProcessPoolExecutor has no public way to them before
    # Python 3.14's terminate_workers().
    processes = list((pool._processes or {}).values())
    for process in processes:
        if process.pid is not None:
            with contextlib.suppress(OSError):
                os.kill(process.pid, signal.SIGINT)
    _, late = concurrent.futures.wait(running, timeout=grace)
    if late:
        for process in processes:
            with contextlib.suppress(OSError, ValueError):
                process.kill()


def gather(
    futures: Sequence[concurrent.futures.Future[T]],
    collect: Callable[[T], None],
    stop: Callable[[list[concurrent.futures.Future[Any]]], None] | None = None,
) -> None:
    """Hand each task's result to ``collect`` as it finishes.  On a stop (Ctrl-C, a task's
    error, ``collect`` raising) the tasks not started are cancelled and ``stop`` is given the
    ones that are (local workers: :func:`stop_workers`): without it, leaving would wait for
    each of them to finish."""
    try:
        for future in concurrent.futures.as_completed(futures):
            collect(future.result())
    except BaseException:
        for future in futures:
            future.cancel()
        if stop is not None:
            stop([future for future in futures if not future.done()])
        raise
    finally:
        for future in futures:
            future.cancel()
