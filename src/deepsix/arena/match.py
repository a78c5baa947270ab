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

import json
import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final

import attrs

from deepsix._version import __version__
from deepsix.actions import Action
from deepsix.arena.external import DEFAULT_FALLBACK, ExternalBot, program_command
from deepsix.arena.protocol import PROTOCOL
from deepsix.arena.stats import (
    Estimate,
    Rating,
    clustered_mean,
    elo_difference,
    pool_ratings,
    wilson_interval,
)
from deepsix.cards import Team
from deepsix.errors import DeepSixError, ParseError, WrongTypeError
from deepsix.events import HandScored, events
from deepsix.io.record import record_of, write_record
from deepsix.play.bots import Bot, is_program, make_bot
from deepsix.play.loop import play_game
from deepsix.play.simulate import default_workers, game_seed
from deepsix.rules import Rules
from deepsix.state import GameState
from deepsix.views import PlayerView

if TYPE_CHECKING:
    import concurrent.futures
    import random

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

FORMAT: Final = "deepsix-match/1"
"""The format of ``match.json`` and ``games.jsonl``."""


class MatchError(DeepSixError):
    """A match cannot run or resume (a directory holding another match, a bad setting)."""


def _positive(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ParseError(f"{attribute.name} must be positive, not {value!r}")


def _sides(value: object) -> tuple[str, str]:
    if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != 2:
        raise ParseError(f"a match is between two sides (two bots), not {value!r}")
    names = tuple(value)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise WrongTypeError(f"a side is a bot's name or program, not {name!r}")
    if names[0].strip() == names[1].strip():
        raise ParseError(f"the two sides are the same bot ({names[0]!r}): name two bots")
    return (names[0].strip(), names[1].strip())


def _seeds(value: object) -> tuple[int, ...]:
    seeds = tuple(value) if isinstance(value, Sequence) and not isinstance(value, str) else None
    if seeds is None or not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds):
        raise WrongTypeError(f"seeds are a sequence of ints, not {value!r}")
    return seeds


@attrs.frozen
class MatchConfig:
    """What defines a match: the sides, the deals, the rules, the limits.

    A match directory remembers its configuration (``match.json``); running
    again with the same configuration resumes it, with another one is refused.
    """

    sides: tuple[str, str] = attrs.field(converter=_sides)
    """Side A and side B: a registered bot's name or a program (``./mybot``); each side's
    bot plays both seats of its partnership."""
    deals: int = attrs.field(validator=_positive)
    """How many duplicate deals (each played twice: ``2 * deals`` games)."""
    seed: int = 0
    """The master seed: deal ``i`` is played with ``game_seed(seed, i)``."""
    seeds: tuple[int, ...] = attrs.field(default=(), converter=_seeds)
    """Seeds registered in advance, one per deal, used instead of the master seed's."""
    rules: Rules = attrs.field(factory=Rules)
    """The rules of every game."""
    time_limit: float = attrs.field(default=5.0, validator=_positive)
    """Seconds a program bot has for each decision."""
    fallback: str = DEFAULT_FALLBACK
    """The bot that decides when a program bot cannot, and plays on for a dead one."""
    max_hands: int = attrs.field(default=1000, validator=_positive)
    """Hands after which a game stops unfinished (only if both teams keep scoring zero)."""

    def __attrs_post_init__(self) -> None:
        if self.seeds and len(self.seeds) < self.deals:
            raise ParseError(f"{len(self.seeds)} seeds registered for {self.deals} deals")
        for side in self.sides:
            if is_program(side):
                program_command(side)
            else:
                make_bot(side)
        make_bot(self.fallback)

    def seed_of(self, deal: int) -> int:
        """The seed of deal ``deal`` (0-based)."""
        return self.seeds[deal] if self.seeds else game_seed(self.seed, deal)

    def to_json(self) -> dict[str, Any]:
        """The configuration as ``match.json`` holds it."""
        from deepsix.io.wire import to_wire

        return {
            "format": FORMAT,
            "sides": list(self.sides),
            "deals": self.deals,
            "seed": self.seed,
            "seeds": list(self.seeds),
            "rules": to_wire(self.rules),
            "time_limit": self.time_limit,
            "fallback": self.fallback,
            "max_hands": self.max_hands,
            "protocol": PROTOCOL,
        }


@attrs.frozen
class SeatLog:
    """How one seat's bot did in one game: its decisions, their time, its faults."""

    decisions: int = 0
    """Decisions it made (the fallback's included)."""
    seconds: float = 0.0
    """Seconds its decisions took in all."""
    slowest: float = 0.0
    """Seconds its slowest decision took."""
    faults: tuple[str, ...] = ()
    """What a program bot did wrong, in order (:class:`~deepsix.arena.protocol.Fault`)."""
    fallback: int = 0
    """Decisions the fallback bot made for it."""
    dead: bool = False
    """Whether its program died and the fallback played on."""


@attrs.frozen
class GameOutcome:
    """One game of a match."""

    deal: int
    """The duplicate deal (0-based)."""
    swapped: bool
    """``False``: side A sat North-South; ``True``: side A sat East-West."""
    seed: int
    """The game's seed (the deal's)."""
    scores: tuple[int, int]
    """Final totals, North-South and East-West."""
    winner: Team | None
    """The winning team (``None``: stopped unfinished)."""
    hands: tuple[tuple[int, int], ...]
    """Each hand's recorded score, North-South and East-West."""
    seats: tuple[SeatLog, SeatLog, SeatLog, SeatLog]
    """Each seat's log, N E S W."""
    record: str = ""
    """The game record's file, relative to the match directory ("" if not written)."""

    def team_of(self, side: int) -> Team:
        """The team side ``side`` (0 for A, 1 for B) played as."""
        return Team(side ^ int(self.swapped))

    @property
    def winning_side(self) -> int | None:
        """0 if side A won, 1 if side B did, ``None`` if unfinished."""
        return None if self.winner is None else int(self.winner) ^ int(self.swapped)

    def to_json(self) -> dict[str, Any]:
        """The line ``games.jsonl`` holds for this game."""
        return {
            "deal": self.deal,
            "swapped": self.swapped,
            "seed": self.seed,
            "scores": list(self.scores),
            "winner": None if self.winner is None else str(self.winner),
            "hands": [list(hand) for hand in self.hands],
            "seats": [attrs.asdict(log) for log in self.seats],
            "record": self.record,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameOutcome:
        """Read a line of ``games.jsonl`` (:class:`MatchError` if it is not one)."""
        try:
            winner = data["winner"]
            return cls(
                deal=int(data["deal"]),
                swapped=bool(data["swapped"]),
                seed=int(data["seed"]),
                scores=(int(data["scores"][0]), int(data["scores"][1])),
                winner=None if winner is None else Team(0 if winner == "NS" else 1),
                hands=tuple((int(a), int(b)) for a, b in data["hands"]),
                seats=tuple(  # type: ignore[arg-type]  # four, checked below
                    SeatLog(**{**log, "faults": tuple(log["faults"])}) for log in data["seats"]
                ),
                record=str(data.get("record", "")),
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise MatchError(f"not a game of a match: {error!r}") from None


# -- playing -----------------------------------------------------------------------------------


class _Timed:
    """A seat's bot, timed decision by decision (any bot: in process or a program)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        start = time.perf_counter()
        try:
            return self.bot.choose(view, rng)
        finally:
            self.times.append(time.perf_counter() - start)

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


# -- the match directory --------------------------------------------------------------------


class _Directory:
    """A match's files: ``match.json``, ``games.jsonl``, ``games/*.rec``, ``report.md``."""

    def __init__(self, path: Path, config: MatchConfig, *, resume: bool) -> None:
        self.path = path
        self._lock: IO[str] | None = None
        self.games = path / "games.jsonl"
        self.version = __version__
        path.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        try:
            self._open(config, resume=resume)
        except BaseException:
            self.release()
            raise

    def _open(self, config: MatchConfig, *, resume: bool) -> None:
        path = self.path
        (path / "games").mkdir(exist_ok=True)
        settings = path / "match.json"
        wanted = config.to_json()
        if settings.exists():
            try:
                found = json.loads(settings.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise MatchError(f"{settings} cannot be read: {error}") from None
            if not resume:
                raise MatchError(f"{path} holds a match already (resume it, or use a new one)")
            self.version = str(found.get("deepsix", "?"))
            if {k: v for k, v in found.items() if k != "deepsix"} != wanted:
                raise MatchError(
                    f"{path} holds another match ({_differences(found, wanted)}): "
                    "use a new directory, or the same settings to resume it"
                )
        else:
            _write_atomic(settings, json.dumps({**wanted, "deepsix": __version__}, indent=2))

    def _take_lock(self) -> None:
        """Hold ``DIR/.lock`` while the match runs: a second run in the same directory is
        refused (the lock goes with the process, however it ends)."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX: no lock
            return
        handle = (self.path / ".lock").open("w", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise MatchError(f"another deepsix match is running in {self.path}") from None
        handle.write(str(os.getpid()))
        handle.flush()
        self._lock = handle

    def release(self) -> None:
        """Let another run use the directory."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def done(self) -> list[GameOutcome]:
        """The games already played (a torn last line, from a stop mid-write, is dropped)."""
        if not self.games.exists():
            return []
        outcomes: dict[tuple[int, bool], GameOutcome] = {}
        lines = self.games.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            try:
                outcome = GameOutcome.from_json(json.loads(line))
            except (ValueError, MatchError):
                if number == len(lines):
                    break  # the line being written when the match stopped
                raise MatchError(f"{self.games}:{number} is not a game of this match") from None
            outcomes[outcome.deal, outcome.swapped] = outcome
        # Keep only whole duplicate pairs: a lone game is played again with its twin.
        pairs = {deal for deal, swapped in outcomes if (deal, not swapped) in outcomes}
        return [o for key, o in sorted(outcomes.items()) if key[0] in pairs]

    def save(self, played: list[tuple[GameOutcome, str]]) -> None:
        """Write the games' records, then append their lines (a pair's two lines at once)."""
        for outcome, text in played:
            _write_atomic(self.path / outcome.record, text)
        lines = "".join(json.dumps(o.to_json(), separators=(",", ":")) + "\n" for o, _ in played)
        with self.games.open("a", encoding="utf-8") as out:
            out.write(lines)
            out.flush()
            os.fsync(out.fileno())


def _differences(found: dict[str, Any], wanted: dict[str, Any]) -> str:
    keys = sorted(k for k in {*found, *wanted} - {"deepsix"} if found.get(k) != wanted.get(k))
    return ", ".join(f"{k}: {found.get(k)!r} there, {wanted.get(k)!r} here" for k in keys[:3])


def _write_atomic(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


# -- running -------------------------------------------------------------------------------


@attrs.frozen
class MatchResult:
    """A match's games (every one played, this run's and earlier runs')."""

    config: MatchConfig
    """The match."""
    outcomes: tuple[GameOutcome, ...]
    """The games, by deal, side A's North-South game first."""
    elapsed: float = attrs.field(eq=False)
    """Seconds this run took."""
    workers: int = attrs.field(eq=False)
    """Worker processes this run used (1: in this process)."""
    resumed: int = attrs.field(default=0, eq=False)
    """Games read back from an earlier run."""
    version: str = attrs.field(default=__version__, eq=False)
    """The deepsix version that started the match (``match.json`` records it)."""

    def summary(self) -> MatchSummary:
        """The match's statistics."""
        return _summarize(self.config.sides, self.outcomes)


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
    directory = _Directory(Path(out), config, resume=resume) if out is not None else None
    try:
        return _run(config, directory, started, workers, executor, progress, logs)
    finally:
        if directory is not None:
            directory.release()


def _run(  # noqa: PLR0913, PLR0917  # run_match's arguments, its directory open
    config: MatchConfig,
    directory: _Directory | None,
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
        with concurrent.futures.ProcessPoolExecutor(used, mp_context=context) as pool:
            _gather(pool, config, todo, collect, folder)
    outcomes.sort(key=lambda outcome: (outcome.deal, outcome.swapped))
    return MatchResult(
        config=config,
        outcomes=tuple(outcomes),
        elapsed=time.perf_counter() - started,
        workers=used,
        resumed=len(earlier),
        version=directory.version if directory is not None else __version__,
    )


def _gather(
    executor: concurrent.futures.Executor,
    config: MatchConfig,
    deals: list[int],
    collect: Callable[[list[tuple[GameOutcome, str]]], None],
    logs: str | None,
) -> None:
    """Run each deal on ``executor``; collect them as they finish (cancel the rest on a stop)."""
    from concurrent.futures import as_completed

    futures = [executor.submit(play_deal, config, deal, logs) for deal in deals]
    try:
        for future in as_completed(futures):
            collect(future.result())
    finally:
        for future in futures:
            future.cancel()


# -- the statistics ----------------------------------------------------------------------------


@attrs.frozen
class SideStats:
    """What one side did over a match."""

    label: str
    """The side's bot."""
    wins: int
    """Games won."""
    mean_hand: float
    """Mean points recorded per hand (lower is better)."""
    decisions: int
    """Decisions made, by both its seats."""
    mean_seconds: float
    """Mean seconds per decision."""
    slowest: float
    """The slowest decision, in seconds."""
    faults: int
    """Faults of its program (0 for a bot in process)."""
    fallback: int
    """Decisions its fallback made."""
    dead: int
    """Games in which its program died."""


@attrs.frozen
class MatchSummary:
    """A match's statistics (see :func:`report_markdown` for them in words)."""

    sides: tuple[SideStats, SideStats]
    """Side A and side B."""
    games: int
    """Games played."""
    deals: int
    """Duplicate deals played (both games)."""
    unfinished: int
    """Games stopped at the hand limit."""
    wins: tuple[int, int]
    """Games won by each side."""
    win_rate: float
    """Side A's share of the finished games."""
    win_interval: tuple[float, float]
    """95% Wilson interval of side A's win rate."""
    elo: float
    """The Elo difference A minus B that the win rate implies."""
    elo_interval: tuple[float, float]
    """The Elo differences at the ends of the Wilson interval."""
    difference: Estimate
    """Mean points per hand, side A minus side B, over the paired hands of each deal
    (negative: A takes fewer points, which is better)."""
    unpaired_hands: int
    """Hands of the longer game of a deal that the shorter one had not (left out)."""
    both: tuple[int, int, int]
    """Deals where A won both games, the games were split, B won both."""


def _summarize(labels: tuple[str, str], outcomes: Sequence[GameOutcome]) -> MatchSummary:
    by_deal: dict[int, dict[bool, GameOutcome]] = {}
    for outcome in outcomes:
        by_deal.setdefault(outcome.deal, {})[outcome.swapped] = outcome
    clusters: list[tuple[float, int]] = []
    unpaired = 0
    both = [0, 0, 0]
    for pair in by_deal.values():
        if len(pair) != 2:
            continue
        first, second = pair[False], pair[True]
        paired = min(len(first.hands), len(second.hands))
        unpaired += len(first.hands) + len(second.hands) - 2 * paired
        total = 0.0
        for k in range(paired):
            a = first.hands[k][first.team_of(0)] + second.hands[k][second.team_of(0)]
            b = first.hands[k][first.team_of(1)] + second.hands[k][second.team_of(1)]
            total += (a - b) / 2
        clusters.append((total, paired))
        won = [first.winning_side, second.winning_side]
        if won == [0, 0]:
            both[0] += 1
        elif won == [1, 1]:
            both[2] += 1
        elif None not in won:
            both[1] += 1
    wins = (
        sum(1 for o in outcomes if o.winning_side == 0),
        sum(1 for o in outcomes if o.winning_side == 1),
    )
    finished = wins[0] + wins[1]
    rate = wins[0] / finished if finished else 0.0
    low, high = wilson_interval(wins[0], finished)
    sides = tuple(_side_stats(label, side, outcomes) for side, label in enumerate(labels))
    return MatchSummary(
        sides=(sides[0], sides[1]),
        games=len(outcomes),
        deals=len(clusters),
        unfinished=len(outcomes) - finished,
        wins=wins,
        win_rate=rate,
        win_interval=(low, high),
        elo=elo_difference(rate) if finished else 0.0,
        elo_interval=(elo_difference(low), elo_difference(high)),
        difference=clustered_mean(clusters),
        unpaired_hands=unpaired,
        both=(both[0], both[1], both[2]),
    )


def _side_stats(label: str, side: int, outcomes: Sequence[GameOutcome]) -> SideStats:
    scores: list[int] = []
    logs: list[SeatLog] = []
    dead = 0
    for outcome in outcomes:
        team = outcome.team_of(side)
        scores.extend(hand[team] for hand in outcome.hands)
        mine = [outcome.seats[seat] for seat in team.seats]
        logs.extend(mine)
        dead += any(log.dead for log in mine)
    decisions = sum(log.decisions for log in logs)
    return SideStats(
        label=label,
        wins=sum(1 for o in outcomes if o.winning_side == side),
        mean_hand=sum(scores) / len(scores) if scores else 0.0,
        decisions=decisions,
        mean_seconds=sum(log.seconds for log in logs) / decisions if decisions else 0.0,
        slowest=max((log.slowest for log in logs), default=0.0),
        faults=sum(len(log.faults) for log in logs),
        fallback=sum(log.fallback for log in logs),
        dead=dead,
    )


# -- the report ---------------------------------------------------------------------------------


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _elo(value: float) -> str:
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    return f"{value:+.0f}".replace("-", "−")


def _seconds(value: float) -> str:
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def _points(value: float) -> str:
    return f"{value:+.1f}".replace("-", "−")


def report_markdown(result: MatchResult, *, command: str = "") -> str:
    """The match's report as Markdown: a table per side, the duplicate difference, the wins."""
    config, summary = result.config, result.summary()
    a, b = summary.sides
    seeds = "registered seeds" if config.seeds else f"seed {config.seed}"
    diff = summary.difference
    lines = [
        f"## {a.label} vs {b.label}",
        "",
        f"{summary.deals} duplicate deals ({summary.games} games), {seeds}, deepsix "
        f"{result.version}, {'standard rules' if config.rules == Rules() else 'house rules'}.",
    ]
    if command:
        lines += ["", f"Produced by `{command}`."]
    lines += [
        "",
        f"| | {a.label} (A) | {b.label} (B) |",
        "|---|---:|---:|",
        f"| games won | {a.wins} | {b.wins} |",
        f"| mean points recorded per hand | {a.mean_hand:.1f} | {b.mean_hand:.1f} |",
        f"| mean time per decision | {_seconds(a.mean_seconds)} | {_seconds(b.mean_seconds)} |",
        f"| slowest decision | {_seconds(a.slowest)} | {_seconds(b.slowest)} |",
        f"| faults (program bots) | {a.faults} | {b.faults} |",
        f"| decisions made by the fallback | {a.fallback} | {b.fallback} |",
        f"| games its program died in | {a.dead} | {b.dead} |",
        "",
        f"- **Mean difference per hand** (A − B, points recorded; negative: A took fewer, "
        f"which is better): **{_points(diff.mean)}**, 95% interval {_points(diff.low)} to "
        f"{_points(diff.high)}, over {diff.count} paired hands of {diff.clusters} deals "
        f"(interval clustered by deal; {summary.unpaired_hands} hands without a twin left out).",
        f"- **Games won by A**: {summary.wins[0]} of {summary.wins[0] + summary.wins[1]}, "
        f"{_percent(summary.win_rate)} (95% Wilson interval {_percent(summary.win_interval[0])}"
        f" to {_percent(summary.win_interval[1])})"
        + (f"; {summary.unfinished} unfinished" if summary.unfinished else "")
        + ".",
        f"- **Elo difference** A − B implied by the win rate: {_elo(summary.elo)} "
        f"(from {_elo(summary.elo_interval[0])} to {_elo(summary.elo_interval[1])}).",
        f"- **Deals**: A won both games of {summary.both[0]}, the games were split in "
        f"{summary.both[1]}, B won both of {summary.both[2]}.",
    ]
    return "\n".join(lines) + "\n"


# -- a pool -------------------------------------------------------------------------------------


@attrs.frozen
class PoolResult:
    """Every pair of a pool, matched, and the pool's ratings."""

    names: tuple[str, ...]
    """The bots, in the order given."""
    matches: tuple[MatchResult, ...]
    """One match per pair, in order."""
    ratings: tuple[Rating, ...]
    """Each bot's rating (the anchor at 0), best first."""


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


def pool_markdown(result: PoolResult, *, command: str = "") -> str:
    """The pool's ratings and every pair's headline, as Markdown."""
    lines = ["## Ratings", ""]
    if command:
        lines += [f"Produced by `{command}`.", ""]
    anchor = next(r.name for r in result.ratings if r.low == r.high == r.elo == 0.0)
    lines += [
        f"Bradley-Terry ratings on the Elo scale, {anchor} at 0, from every finished game; "
        "the interval is each bot's difference from the anchor (95%).",
        "",
        "| bot | rating | 95% interval | games | score |",
        "|---|---:|---|---:|---:|",
    ]
    for rating in result.ratings:
        interval = (
            "anchor"
            if rating.low == rating.high
            else (f"{_elo(rating.low)} to {_elo(rating.high)}")
        )
        lines.append(
            f"| {rating.name} | {_elo(rating.elo)} | {interval} | {rating.games} | "
            f"{_percent(rating.score)} |"
        )
    lines += ["", "| match | A won | mean difference per hand (A − B, 95%) |", "|---|---:|---|"]
    for match in result.matches:
        summary = match.summary()
        diff = summary.difference
        lines.append(
            f"| {match.config.sides[0]} vs {match.config.sides[1]} | "
            f"{_percent(summary.win_rate)} | {_points(diff.mean)} ({_points(diff.low)} to "
            f"{_points(diff.high)}) |"
        )
    return "\n".join(lines) + "\n"
