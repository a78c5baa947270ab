"""Play many seeded games between bots, on every local core or on a cluster.

:func:`simulate` plays ``n_games`` games between two sides of a line-up and
returns a :class:`SimulationResult`: one :class:`GameResult` per game (with
one :class:`HandResult` per hand) and a :meth:`~SimulationResult.summary`
with win rates and their 95% Wilson intervals, average hand scores, bid
success rates, meld frequencies and game lengths.

Reproducibility: game ``i``'s seed is derived from the master seed and
``i`` alone (:func:`game_seed`), and results are gathered by game index,
so a simulation gives identical results whatever the number of workers or
the executor -- one process, a process pool, or a Dask cluster.

Parallelism: by default the games run in a ``ProcessPoolExecutor``
over all local cores, in chunks of games (one task per chunk keeps the
per-task overhead negligible).  Pass ``executor=`` any
``concurrent.futures.Executor`` -- for instance
``dask.distributed.Client(address).get_executor()`` (``pip install
deepsix[distributed]``) -- to run the chunks elsewhere.  Only the standard
library and attrs are used here.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import attrs

from deepsix.actions import Action
from deepsix.errors import ParseError
from deepsix.events import HandScored, events
from deepsix.play._results import (
    GameResult,
    HandResult,
    SideSummary,
    SimulationResult,
    Summary,
    hand_rows,
    wilson_interval,
    write_csv,
    write_jsonl,
)
from deepsix.play.bots import BOT_NAMES, Bot, expand_lineup, make_bot
from deepsix.play.loop import play_game
from deepsix.play.workers import gather, stop_workers, stoppable, worker_started
from deepsix.rules import Rules
from deepsix.state import GameState

if TYPE_CHECKING:
    import concurrent.futures

__all__ = [
    "GameResult",
    "HandResult",
    "SideSummary",
    "SimulationResult",
    "Summary",
    "default_workers",
    "game_seed",
    "hand_rows",
    "play_one",
    "simulate",
    "wilson_interval",
    "write_csv",
    "write_jsonl",
]

Lineup: TypeAlias = Sequence[str | Bot]


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a simulation with seed ``master`` (a 63-bit integer)."""
    digest = hashlib.sha256(f"deepsix-simulate:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _label(bot: str | Bot) -> str:
    """A bot's name in results: its registry name (for a default-configured bot), else its class."""
    if isinstance(bot, str):
        return bot.strip().lower()
    for name, factory in BOT_NAMES.items():
        if factory is type(bot) and bot == factory():
            return name
    return type(bot).__name__


def _full_lineup(lineup: Lineup) -> tuple[str | Bot, ...]:
    """Four bots by seat from one, two (one per side) or four; names are checked here."""
    entries = expand_lineup(lineup)
    for entry in entries:
        make_bot(entry)  # validate names early, in the caller's process
    return entries


def play_one(  # noqa: PLR0913  # public signature; options are keywords
    lineup: Sequence[str | Bot],
    master_seed: int,
    index: int,
    *,
    rules: Rules | None = None,
    alternate: bool = True,
    max_hands: int = 1000,
) -> GameResult:
    """Play game ``index`` of a simulation (what each worker runs, game by game)."""
    swapped = alternate and index % 2 == 1
    seed = game_seed(master_seed, index // 2 if alternate else index)
    order = (1, 2, 3, 0) if swapped else (0, 1, 2, 3)
    bots = [lineup[i] for i in order]
    hands: list[HandResult] = []
    actions = 0

    def record(before: GameState, action: Action, after: GameState) -> None:
        nonlocal actions
        actions += 1
        for event in events(before, action, after):
            if isinstance(event, HandScored):
                codes = tuple(tuple(m.code for m in melds) for melds in before.melds)
                hands.append(HandResult.of(event.record, codes))

    final = play_game(bots, seed, rules, on_action=record, max_hands=max_hands)
    labels = [_label(bot) for bot in bots]
    return GameResult(
        index=index,
        seed=seed,
        seats=(labels[0], labels[1], labels[2], labels[3]),
        swapped=swapped,
        winner=final.winner,
        scores=final.scores,
        actions=actions,
        hands=tuple(hands),
    )


def _run_chunk(  # noqa: PLR0913, PLR0917  # mirrors play_one for the worker
    lineup: tuple[str | Bot, ...],
    master_seed: int,
    start: int,
    stop: int,
    rules: Rules | None,
    alternate: bool,  # positional: the task's arguments (stoppable)
) -> list[GameResult]:
    """Play games ``start`` to ``stop - 1`` (a task for a worker process)."""
    return [
        play_one(lineup, master_seed, index, rules=rules, alternate=alternate)
        for index in range(start, stop)
    ]


def default_workers() -> int:
    """How many local cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


_CHUNKS_PER_WORKER: Final = 6


def simulate(  # noqa: PLR0913  # public signature; options are keywords
    n_games: int,
    lineup: Lineup,
    seed: int = 0,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    *,
    rules: Rules | None = None,
    alternate: bool = True,
    chunk_size: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationResult:
    """Play ``n_games`` seeded games between the two sides of ``lineup``.

    ``lineup`` names the bots by seat (N, E, S, W) -- or just two, one per
    side, which then sit as partners.  With ``alternate`` (the default) odd
    games repeat the previous game's deals with the sides' seats swapped,
    which cancels most of the luck of the cards.  ``executor``: run the
    chunks of games there (any ``concurrent.futures.Executor``; it is not
    shut down); otherwise ``workers`` local processes (default: every core;
    ``workers=1`` plays in this process).  ``progress(done, total)`` is
    called as games finish.
    """
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 0:
        raise ParseError(f"n_games must be a non-negative int, not {n_games!r}")
    entries = _full_lineup(lineup)
    labels = tuple(_label(entry) for entry in entries)
    if workers is not None and workers < 1:
        raise ParseError(f"workers must be at least 1, not {workers}")
    start_time = time.perf_counter()
    games: list[GameResult] = []
    if executor is None and (workers or default_workers()) == 1:
        for index in range(n_games):
            games.append(play_one(entries, seed, index, rules=rules, alternate=alternate))
            if progress is not None:
                progress(index + 1, n_games)
        used = 1
    else:
        used = workers or default_workers()
        size = chunk_size or max(1, min(50, math.ceil(n_games / (used * _CHUNKS_PER_WORKER))))
        bounds = [(lo, min(n_games, lo + size)) for lo in range(0, n_games, size)]
        plan = _Plan(entries, seed, bounds, rules, alternate, n_games)
        if executor is not None:
            games = _gather(executor, plan, progress)
        else:
            # Imported here: they are heavy, and only the parallel path needs them.
            import concurrent.futures
            import multiprocessing

            context = multiprocessing.get_context(_start_method())
            if context.get_start_method() == "forkserver":
                context.set_forkserver_preload(["deepsix.play.simulate"])
            with concurrent.futures.ProcessPoolExecutor(
                used, mp_context=context, initializer=worker_started
            ) as pool:
                games = _gather(
                    pool, plan, progress, stop=lambda running: stop_workers(pool, running)
                )
    games.sort(key=lambda game: game.index)
    return SimulationResult(
        lineup=(labels[0], labels[1], labels[2], labels[3]),
        seed=seed,
        alternate=alternate,
        games=tuple(games),
        elapsed=time.perf_counter() - start_time,
        workers=used,
    )


def _start_method() -> str:
    """``forkserver`` where available (safe with threads, cheap per worker), else ``spawn``."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if "forkserver" in methods else "spawn"


@attrs.frozen
class _Plan:
    """What to play: the line-up, the seeds, the chunks of game indices."""

    entries: tuple[str | Bot, ...]
    seed: int
    bounds: list[tuple[int, int]]
    rules: Rules | None
    alternate: bool
    total: int


def _gather(
    executor: concurrent.futures.Executor,
    plan: _Plan,
    progress: Callable[[int, int], None] | None,
    *,
    stop: Callable[[list[concurrent.futures.Future[Any]]], None] | None = None,
) -> list[GameResult]:
    """Run the plan's chunks on ``executor``; collect the games as chunks finish.  On a stop
    (Ctrl-C, a chunk's error) the chunks not started are cancelled and ``stop`` is given the
    ones that are (local workers: :func:`~deepsix.play.workers.stop_workers`), so that
    leaving does not wait for each of them to finish."""
    futures = [
        executor.submit(
            stoppable, _run_chunk, plan.entries, plan.seed, lo, hi, plan.rules, plan.alternate
        )
        for lo, hi in plan.bounds
    ]
    games: list[GameResult] = []

    def collect(chunk: list[GameResult]) -> None:
        games.extend(chunk)
        if progress is not None:
            progress(len(games), plan.total)

    gather(futures, collect, stop)
    return games
