"""The costly moments of a table's finished hands, analysed away from the event loop.

The end-of-hand summary and the replay page show, for each finished hand,
the decisions that cost points (:mod:`deepsix.search.analysis`).  An
analysis takes seconds to a minute of CPU, so it never runs in the
server's event loop or its threads: each hand is analysed once, in a
worker process (``python -m deepsix.web.analysis``, at a lower priority
than the server and the bots), one hand at a time per server, and kept in
memory by ``(table, hand)``.  The client asks
``GET /api/tables/{id}/analysis/{hand}`` and is answered ``pending``
until the result is ready (it asks again a little later).

What a player may see: once a hand is over every card of it has been
played, so its cards and calls are public; which cards were *passed*
face down is not (the opponents never see them).  While the game runs,
the decisions of the passes are therefore left out for everyone; once
the game is over (the replay page), everything is shown.

The worker reads one JSON job on standard input -- ``{"record": TEXT,
"hand": N, "budget": NAME, "time_limit": SECONDS}``, where the record is
the game up to the end of that hand -- and writes the analysis as
:func:`deepsix.search.analysis.analysis_data` on standard output.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import logging
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Final

from deepsix.errors import DeepSixError
from deepsix.io.record import record_of, write_record
from deepsix.rebuild import history_steps
from deepsix.state import GameState
from deepsix.web.protocol import WebError

if TYPE_CHECKING:
    from deepsix.web.rooms import Room

__all__ = ["BUDGET", "TIME_LIMIT", "Analyses", "hand_record", "main"]

BUDGET: Final = "quick"
"""The analysis budget of the web table (:data:`deepsix.search.analysis.BUDGETS`)."""
TIME_LIMIT: Final = 300.0
"""Seconds one hand's analysis may take; decisions after that are counted as skipped."""
KEEP: Final = 2000
"""Hands whose analysis a server keeps in memory (the oldest are forgotten first)."""

_log = logging.getLogger("deepsix.web.analysis")


class AnalysisFailedError(DeepSixError, RuntimeError):
    """A hand's analysis worker ran past its time or exited with an error (logged and shown
    to the players as a failed analysis, never fatal to the table)."""


def hand_record(state: GameState, hand: int) -> str:
    """The game record of ``state``'s game up to the end of hand ``hand`` (a finished hand)."""
    final = None
    for _before, _action, after in history_steps(state):
        if len(after.completed_hands) == hand:
            final = after
            break
    if final is None:
        raise WebError("no-such-hand", f"hand {hand} is not finished", 404)
    return write_record(record_of(final))


class Analyses:
    """One server's analyses: results by ``(table, hand)``, and the jobs running."""

    def __init__(self, budget: str = BUDGET, time_limit: float = TIME_LIMIT) -> None:
        self.budget = budget
        self.time_limit = time_limit
        self._done: dict[tuple[str, int], dict[str, Any]] = {}
        self._jobs: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._gate = asyncio.Semaphore(1)
        self._processes: set[asyncio.subprocess.Process] = set()
        atexit.register(self.close)  # a worker never outlives its server

    def of(self, room: Room, hand: int) -> dict[str, Any]:
        """What the client is sent about hand ``hand`` of ``room``: the costly moments when the
        analysis is ready, else ``{"status": "pending"}`` (and the job is started)."""
        state = room.state
        finished = len(state.completed_hands)
        if not 1 <= hand <= finished:
            raise WebError("no-such-hand", f"hand {hand} is not finished (1 to {finished})", 404)
        key = (room.id, hand)
        result = self._done.get(key)
        if result is None:
            if key not in self._jobs:
                task = asyncio.get_running_loop().create_task(
                    self._run(key, hand_record(state, hand))
                )
                self._jobs[key] = task
                task.add_done_callback(lambda _: self._jobs.pop(key, None))
            return {"hand": hand, "status": "pending"}
        return _shown(result, over=state.is_over)

    async def _run(self, key: tuple[str, int], record: str) -> None:
        job = {
            "record": record,
            "hand": key[1],
            "budget": self.budget,
            "time_limit": self.time_limit,
        }
        async with self._gate:
            started = time.monotonic()
            try:
                data = await self._work(json.dumps(job).encode())
            except Exception as error:  # a failed analysis is reported, never fatal
                _log.warning("analysis of table %s hand %d failed: %s", key[0], key[1], error)
                data = {"failed": str(error)[:200]}
            data["wall"] = round(time.monotonic() - started, 2)
        if len(self._done) >= KEEP:
            self._done.pop(next(iter(self._done)))
        self._done[key] = data

    async def _work(self, job: bytes) -> dict[str, Any]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "deepsix.web.analysis",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        self._processes.add(process)
        try:
            async with asyncio.timeout(self.time_limit + 60):
                out, err = await process.communicate(job)
        except TimeoutError:
            process.kill()
            raise AnalysisFailedError("the analysis overran its time") from None
        finally:
            self._processes.discard(process)
        if process.returncode != 0:
            raise AnalysisFailedError(
                err.decode(errors="replace").strip()[-200:] or "the worker failed"
            )
        data = json.loads(out)
        assert isinstance(data, dict)
        return data

    def close(self) -> None:
        """Stop the workers still running (the server is shutting down)."""
        for process in list(self._processes):
            with contextlib.suppress(ProcessLookupError):
                process.kill()


def _shown(result: dict[str, Any], *, over: bool) -> dict[str, Any]:
    """The part of an analysis a client is sent: the hand's costly moments (see the module
    documentation: the passes only once the game is over)."""
    if "failed" in result:
        return {"status": "failed", "message": "the analysis failed"}
    (hand,) = result["hands"]
    decisions = hand["decisions"]
    hidden = 0 if over else sum(1 for d in decisions if d["phase"] in _PASSES)
    kept = [d for d in decisions if over or d["phase"] not in _PASSES]
    costly = sorted((d for d in kept if d["costly"]), key=lambda d: (-d["cost"], d["step"]))
    fields = ("step", "phase", "trick", "seat", "played", "best", "cost", "margin", "method",
              "worlds")  # fmt: skip
    return {
        "hand": hand["number"],
        "status": "ready",
        "budget": result["budget"],
        "decisions": len(kept),
        "exact": sum(1 for d in kept if d["method"] == "exact"),
        "hidden": hidden,
        "skipped": hand["skipped"],
        "seconds": hand["seconds"],
        # "fresh": the deals the cost was measured on (an analysis stored before it had one
        # measured on as many as it ranked the choices on)
        "moments": [
            {**{name: d[name] for name in fields}, "fresh": d.get("fresh", d["worlds"])}
            for d in costly
        ],
    }


_PASSES: Final = ("partner-pass", "bidder-pass")


def main() -> None:
    """The worker: one job from standard input, its analysis on standard output."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)  # the tables and their bots come first
    from deepsix.io.record import read_record
    from deepsix.search.analysis import analysis_data, analyze_game

    job = json.loads(sys.stdin.buffer.read())
    record = read_record(job["record"])
    analysis = analyze_game(
        record, budget=job["budget"], hands=[job["hand"]], time_limit=job["time_limit"]
    )
    sys.stdout.write(json.dumps(analysis_data(analysis)))


if __name__ == "__main__":
    main()
