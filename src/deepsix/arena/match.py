"""Duplicate matches between two bots, and a pool's ratings (``deepsix match``).

A match plays ``deals`` duplicate deals: each deal's seed gives a sequence
of deals (one per hand, from :func:`~deepsix.play.loop.play_game`'s deal
stream), played twice -- once with side A North-South, once with the sides'
seats swapped -- so that each side holds each hand's cards once and the
luck of the cards cancels.  Every game's record is written, and every
finished game is appended to ``games.jsonl`` as it ends, so a match that
stops (Ctrl-C, a crash, a reboot) resumes where it stopped when run again
with the same directory.

>>> config = MatchConfig(("heuristic", "random"), deals=2, seed=7)
>>> result = run_match(config, workers=1)
>>> len(result.outcomes), result.summary().wins
(4, (4, 0))

The report (:meth:`MatchResult.summary`, :func:`report_markdown`): the mean
difference per hand between the sides over the paired hands of each deal,
with a 95% interval clustered by deal; whole-game wins with their Wilson
interval and the Elo difference they imply; faults and fallback decisions
of program bots; time per decision.  :func:`run_pool` plays every pair of
a pool and fits Elo-style ratings (:func:`~deepsix.arena.stats.pool_ratings`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from deepsix._version import __version__
from deepsix.actions import Action
from deepsix.arena._directory import Directory
from deepsix.arena._outcome import GameOutcome, MatchConfig, MatchError, SeatLog
from deepsix.arena._report import (
    MatchResult,
    MatchSummary,
    PoolResult,
    SideStats,
    pool_markdown,
    report_markdown,
)
from deepsix.arena.external import ExternalBot, program_command
from deepsix.arena.protocol import FaultKind
from deepsix.arena.stats import (
    pool_ratings,
)
from deepsix.errors import ParseError, WrongTypeError
from deepsix.events import HandScored, events
from deepsix.io.record import record_of, write_record
from deepsix.play.bots import Bot, is_program, make_bot
from deepsix.play.loop import play_game
from deepsix.play.simulate import default_workers
from deepsix.play.workers import gather, stop_workers, stoppable, worker_started
from deepsix.state import GameState
from deepsix.views import PlayerView

if TYPE_CHECKING:
    import concurrent.futures
    import random

_Directory = Directory  # the name the tests know it by

__all__ = [
    "GameOutcome",
    "MatchConfig",
    "MatchError",
    "MatchResult",
    "MatchSummary",
    "PoolResult",
    "SeatLog",
    "SideStats",
    "folder_name",
    "play_deal",
    "pool_markdown",
    "record_name",
    "report_markdown",
    "run_match",
    "run_pool",
]

# -- playing -----------------------------------------------------------------------------------


class _Timed:
    """A seat's bot, timed decision by decision (any bot: in process or a program)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        start = time.perf_counter()
        try:
            action = self.bot.choose(view, rng)
        finally:
            self.times.append(time.perf_counter() - start)
        bot = self.bot
        if isinstance(bot, ExternalBot) and bot.faults:
            first = bot.faults[0]
            if first.kind is FaultKind.HANDSHAKE:  # a bot that never started is no result
                raise MatchError(
                    f"{bot.label} failed its handshake, so the match stops: {first.detail}"
                )
        return action

    def log(self) -> SeatLog:
        bot = self.bot
        faults: tuple[str, ...] = ()
        fallback, dead = 0, False
        if isinstance(bot, ExternalBot):
            faults = tuple(str(fault) for fault in bot.faults)
            fallback, dead = bot.fallback_decisions, bot.dead
        return SeatLog(
            decisions=len(self.times),
            seconds=round(sum(self.times), 6),
            slowest=round(max(self.times, default=0.0), 6),
            faults=faults,
            fallback=fallback,
            dead=dead,
        )


def _make(spec: str, config: MatchConfig, log: Path | None) -> Bot:
    if is_program(spec):
        return ExternalBot(
            program_command(spec), time_limit=config.time_limit, fallback=config.fallback,
            label=spec, log=log,
        )  # fmt: skip
    return make_bot(spec)


def record_name(deal: int, swapped: bool) -> str:
    """The file of a game's record in the match directory."""
    return f"games/deal-{deal:05d}-{'b' if swapped else 'a'}.rec"


def play_deal(
    config: MatchConfig, deal: int, logs: str | None = None
) -> list[tuple[GameOutcome, str]]:
    """Play deal ``deal`` twice, the sides' seats swapped; each game's outcome and record text.

    What a worker runs: it needs only the configuration (no shared state).  ``logs``: a
    directory where each program bot's standard error is written, one file per game and seat
    (``deal-00007-a-N.log``), on the worker's disk.
    """
    return [_play_game(config, deal, swapped, logs) for swapped in (False, True)]


_SEAT_NAMES: Final = ("North", "East", "South", "West")


def _play_game(
    config: MatchConfig, deal: int, swapped: bool, logs: str | None
) -> tuple[GameOutcome, str]:
    seed = config.seed_of(deal)
    ns, ew = (config.sides[1], config.sides[0]) if swapped else config.sides
    specs = (ns, ew, ns, ew)
    stem = record_name(deal, swapped).removeprefix("games/").removesuffix(".rec")
    folder = None if logs is None else Path(logs)
    seats = [
        _Timed(_make(spec, config, None if folder is None else folder / f"{stem}-{name[0]}.log"))
        for spec, name in zip(specs, _SEAT_NAMES, strict=True)
    ]
    hands: list[tuple[int, int]] = []

    def keep(before: GameState, action: Action, after: GameState) -> None:
        for event in events(before, action, after):
            if isinstance(event, HandScored):
                hands.append(event.record.scores)

    try:
        final = play_game(seats, seed, config.rules, on_action=keep, max_hands=config.max_hands)
    finally:
        for seat in seats:
            if isinstance(seat.bot, ExternalBot):
                seat.bot.close()
    played = tuple(seat.log() for seat in seats)
    outcome = GameOutcome(
        deal=deal,
        swapped=swapped,
        seed=seed,
        scores=final.scores,
        winner=final.winner,
        hands=tuple(hands),
        seats=(played[0], played[1], played[2], played[3]),
        record=record_name(deal, swapped),
    )
    tags = [
        ("Event", _tag(f"deepsix match: {config.sides[0]} vs {config.sides[1]}")),
        ("Round", f"deal {deal + 1}{'b' if swapped else 'a'}"),
        ("Seed", str(seed)),
        *((name, _tag(spec)) for name, spec in zip(_SEAT_NAMES, specs, strict=True)),
    ]
    for name, log in zip(_SEAT_NAMES, played, strict=True):
        if log.faults:
            tags.append((f"Faults{name}", _tag("; ".join(log.faults))))
    return outcome, write_record(record_of(final, tags))


def _tag(text: str) -> str:
    """``text`` as a record's tag value (no control characters, at most 1000 of them)."""
    clean = "".join(ch if ch >= " " else " " for ch in text)
    return clean if len(clean) <= 1000 else clean[:997] + "..."


# -- running -------------------------------------------------------------------------------


def run_match(  # noqa: PLR0913  # the match, then keywords
    config: MatchConfig,
    out: str | Path | None = None,
    *,
    resume: bool = True,
    workers: int | None = None,
    executor: concurrent.futures.Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    logs: str | Path | None = None,
) -> MatchResult:
    """Play the match (what is left of it, if ``out`` holds part of it) and return its games.

    ``out`` is the match directory (``None``: nothing written).  The deals
    run in ``workers`` local processes (default: every core; 1: in this
    process) or on ``executor`` (any ``concurrent.futures.Executor``, e.g. a
    Dask client's).  ``progress(done, total)`` is called as games finish.
    Interrupted (Ctrl-C), it stops after saving the deals already finished.  ``logs``: a
    directory for program bots' standard error (see :func:`play_deal`).
    """
    if not isinstance(config, MatchConfig):
        raise WrongTypeError(f"run_match() needs a MatchConfig, not {type(config).__name__}")
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise ParseError(f"workers must be at least 1, not {workers!r}")
    started = time.perf_counter()
    directory = Directory(Path(out), config, resume=resume) if out is not None else None
    try:
        return _run(config, directory, started, workers, executor, progress, logs)
    finally:
        if directory is not None:
            directory.release()


def _run(  # noqa: PLR0913, PLR0917  # run_match's arguments, its directory open
    config: MatchConfig,
    directory: Directory | None,
    started: float,
    workers: int | None,
    executor: concurrent.futures.Executor | None,
    progress: Callable[[int, int], None] | None,
    logs: str | Path | None,
) -> MatchResult:
    """The body of :func:`run_match`."""
    earlier = directory.done() if directory is not None else []
    finished = {outcome.deal for outcome in earlier}
    todo = [deal for deal in range(config.deals) if deal not in finished]
    outcomes = list(earlier)
    total = 2 * config.deals
    if progress is not None:
        progress(len(outcomes), total)

    def collect(played: list[tuple[GameOutcome, str]]) -> None:
        if directory is not None:
            directory.save(played)
        outcomes.extend(outcome for outcome, _ in played)
        if progress is not None:
            progress(len(outcomes), total)

    folder = None if logs is None else str(logs)
    if folder is not None:
        Path(folder).mkdir(parents=True, exist_ok=True)
    used = 1
    if (executor is None and (workers or default_workers()) == 1) or len(todo) <= 1:
        for deal in todo:
            collect(play_deal(config, deal, folder))
    elif executor is not None:
        used = workers or 0
        _gather(executor, config, todo, collect, folder)
    else:
        used = min(workers or default_workers(), len(todo))
        import concurrent.futures
        import multiprocessing

        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if context.get_start_method() == "forkserver":
            context.set_forkserver_preload(["deepsix.arena.match"])
        with concurrent.futures.ProcessPoolExecutor(
            used, mp_context=context, initializer=worker_started
        ) as pool:
            _gather(
                pool, config, todo, collect, folder, play=partial(stoppable, play_deal),
                stop=lambda running: stop_workers(pool, running),
            )  # fmt: skip
    outcomes.sort(key=lambda outcome: (outcome.deal, outcome.swapped))
    return MatchResult(
        config=config,
        outcomes=tuple(outcomes),
        elapsed=time.perf_counter() - started,
        workers=used,
        resumed=len(earlier),
        version=directory.version if directory is not None else __version__,
    )


def _gather(  # noqa: PLR0913  # _run's pieces, then how to play and stop
    executor: concurrent.futures.Executor,
    config: MatchConfig,
    deals: list[int],
    collect: Callable[[list[tuple[GameOutcome, str]]], None],
    logs: str | None,
    *,
    play: Callable[[MatchConfig, int, str | None], list[tuple[GameOutcome, str]]] = play_deal,
    stop: Callable[[list[concurrent.futures.Future[Any]]], None] | None = None,
) -> None:
    """Run each deal on ``executor``; collect them as they finish.  On a stop (Ctrl-C, a
    deal's error) the deals not started are cancelled and ``stop`` is given the ones that
    are: without it, leaving would wait for each of them to finish (a minute or more a deal
    with search bots)."""
    futures = [executor.submit(play, config, deal, logs) for deal in deals]
    gather(futures, collect, stop)


# -- a pool -------------------------------------------------------------------------------------


def _pairs(names: Sequence[str]) -> Iterator[tuple[int, int]]:
    return combinations(range(len(names)), 2)


def run_pool(  # noqa: PLR0913  # the pool, then keywords
    names: Sequence[str],
    config: MatchConfig | None = None,
    out: str | Path | None = None,
    *,
    deals: int = 100,
    anchor: str | None = None,
    workers: int | None = None,
    executor: concurrent.futures.Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    logs: bool = False,
) -> PoolResult:
    """Play a duplicate match between every pair of ``names`` and rate them all.

    Every pair plays the same deals (``config``'s seeds and settings, its
    sides replaced by the pair); each match has its own directory under
    ``out`` (``A-vs-B``), so a pool resumes like a match.  The ratings are
    Bradley-Terry on the Elo scale over every finished game, ``anchor``
    (default: ``random`` if in the pool, else the first bot) at 0.
    """
    pool = tuple(name.strip() for name in names)
    if len(pool) < 2 or len(set(pool)) != len(pool):
        raise ParseError(f"a pool needs two or more different bots, not {list(names)}")
    base = config if config is not None else MatchConfig(pool[:2], deals=deals)
    matches = []
    pairs = list(_pairs(pool))
    done = [0]
    total = 2 * base.deals * len(pairs)

    for i, j in pairs:
        pair_config = attrs.evolve(base, sides=(pool[i], pool[j]))
        folder = None if out is None else Path(out) / folder_name(pool[i], pool[j])
        offset = done[0]

        def step(finished: int, _total: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + finished, total)

        where = folder / "logs" if logs and folder is not None else None
        result = run_match(
            pair_config, folder, workers=workers, executor=executor, progress=step, logs=where
        )
        done[0] += len(result.outcomes)
        matches.append(result)
    results = []
    for (i, j), match in zip(pairs, matches, strict=True):
        for outcome in match.outcomes:
            if outcome.winning_side is not None:
                results.append((i, j, 1.0 if outcome.winning_side == 0 else 0.0))
    chosen = anchor if anchor is not None else ("random" if "random" in pool else pool[0])
    if chosen not in pool:
        raise ParseError(f"the anchor {chosen!r} is not in the pool")
    ratings = sorted(pool_ratings(pool, results, anchor=chosen), key=lambda r: -r.elo)
    return PoolResult(names=pool, matches=tuple(matches), ratings=tuple(ratings))


def folder_name(first: str, second: str) -> str:
    """A directory name for the match of ``first`` and ``second`` (``a-vs-b``)."""

    def clean(name: str) -> str:
        return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name).strip("._")

    return f"{clean(first)}-vs-{clean(second)}"
