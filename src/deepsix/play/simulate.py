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

import csv
import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeAlias

import attrs

from deepsix.actions import Action
from deepsix.cards import Seat, Suit, Team
from deepsix.errors import ParseError
from deepsix.events import HandScored, events
from deepsix.melds import MeldKind
from deepsix.play.bots import BOT_NAMES, Bot, expand_lineup, make_bot
from deepsix.play.loop import play_game
from deepsix.rules import Rules
from deepsix.state import GameState, HandRecord

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


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    >>> low, high = wilson_interval(950, 1000)
    >>> round(low, 3), round(high, 3)
    (0.935, 0.962)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a simulation with seed ``master`` (a 63-bit integer)."""
    digest = hashlib.sha256(f"deepsix-simulate:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


_INHERITED_FIELD_TYPES: Final = (Seat, Suit)
"""Types of the fields HandResult inherits, named here so that their annotations resolve."""


@attrs.frozen
class HandResult(HandRecord):
    """One finished hand of a simulated game: its score-sheet line and the melds declared."""

    melds: tuple[tuple[str, ...], ...] = ((), (), (), ())
    """Each seat's declared melds, as codes (``DR-S``, ``8W``...)."""

    @classmethod
    def of(cls, record: HandRecord, melds: tuple[tuple[str, ...], ...]) -> HandResult:
        """The result of the hand ``record`` describes, with each seat's meld codes."""
        return cls(**attrs.asdict(record, recurse=False), melds=melds)


@attrs.frozen
class GameResult:
    """One simulated game."""

    index: int
    """The game's position in the simulation (0-based)."""
    seed: int
    """The seed the game was played with (:func:`deepsix.play.loop.play_game`)."""
    seats: tuple[str, str, str, str]
    """The bot at each seat, N E S W."""
    swapped: bool
    """Whether the line-up's first side sat East-West in this game."""
    winner: Team | None
    """The winning team, ``None`` if the game hit the hand limit."""
    scores: tuple[int, int]
    """Final totals (NS, EW)."""
    actions: int
    """Actions applied, deals included."""
    hands: tuple[HandResult, ...]
    """The hands, in order."""

    def side_of(self, team: Team) -> int:
        """Which side of the line-up (0 or 1) sat as ``team`` in this game."""
        return int(team) ^ int(self.swapped)

    def team_of(self, side: int) -> Team:
        """Which team side ``side`` (0 or 1) of the line-up played as."""
        return Team(side ^ int(self.swapped))

    @property
    def winning_side(self) -> int | None:
        """The side of the line-up that won (0 or 1), or ``None``."""
        return None if self.winner is None else self.side_of(self.winner)


@attrs.frozen
class SideSummary:
    """Aggregates for one side of a line-up."""

    label: str
    """The side's bots, e.g. ``heuristic+heuristic``."""
    wins: int
    """Games won."""
    win_rate: float
    """Wins over finished games."""
    win_interval: tuple[float, float]
    """95% Wilson interval of the win rate."""
    mean_hand_score: float
    """Average points recorded per hand (lower is better)."""
    bids_won: int
    """Auctions won."""
    bids_made: int
    """Contracts made."""
    mean_bid: float
    """Average contract when this side won the auction."""
    mean_meld: float
    """Average declared meld per hand."""

    @property
    def made_rate(self) -> float:
        """Share of contracts made (0 when the side never bid)."""
        return self.bids_made / self.bids_won if self.bids_won else 0.0

    @property
    def failed_rate(self) -> float:
        """Share of contracts failed."""
        return 1.0 - self.made_rate if self.bids_won else 0.0


@attrs.frozen
class Summary:
    """The summary table of a simulation."""

    games: int
    """Games played."""
    unfinished: int
    """Games that hit the hand limit (no winner)."""
    sides: tuple[SideSummary, SideSummary]
    """The two sides of the line-up."""
    mean_hands: float
    """Average hands per game."""
    mean_actions: float
    """Average actions per game."""
    hands: int
    """Hands played in all."""
    meld_counts: tuple[tuple[MeldKind, int], ...]
    """How many melds of each kind were declared, all seats and hands together."""
    games_per_second: float
    """Throughput of the run."""

    def meld_rate(self, kind: MeldKind) -> float:
        """Average number of melds of ``kind`` declared per hand (all seats)."""
        count = dict(self.meld_counts)[kind]
        return count / self.hands if self.hands else 0.0


@attrs.frozen
class SimulationResult:
    """Everything a simulation produced."""

    lineup: tuple[str, str, str, str]
    """The bots by seat as given (side 0 is seats N and S, side 1 is E and W)."""
    seed: int
    """The master seed."""
    alternate: bool
    """Whether odd games swapped the sides' seats (and repeated the previous game's deals)."""
    games: tuple[GameResult, ...]
    """The games, by index."""
    elapsed: float = attrs.field(eq=False)
    """Wall-clock seconds the run took."""
    workers: int = attrs.field(eq=False)
    """How many workers played (1: in this process)."""

    @property
    def side_labels(self) -> tuple[str, str]:
        """Readable names of the two sides."""
        first = f"{self.lineup[0]}+{self.lineup[2]}"
        second = f"{self.lineup[1]}+{self.lineup[3]}"
        if first == second:
            return (f"{first} (A)", f"{second} (B)")
        return (first, second)

    def summary(self) -> Summary:
        """Aggregate the games into the summary table."""
        sides: list[SideSummary] = []
        finished = [game for game in self.games if game.winner is not None]
        all_hands = [hand for game in self.games for hand in game.hands]
        for side, label in enumerate(self.side_labels):
            wins = sum(1 for game in finished if game.winning_side == side)
            scores: list[int] = []
            melds: list[int] = []
            bids: list[int] = []
            made = 0
            for game in self.games:
                team = game.team_of(side)
                for hand in game.hands:
                    scores.append(hand.scores[team])
                    melds.append(hand.meld[team])
                    if hand.bidder.team == team:
                        bids.append(hand.bid)
                        made += hand.made
            sides.append(
                SideSummary(
                    label=label,
                    wins=wins,
                    win_rate=wins / len(finished) if finished else 0.0,
                    win_interval=wilson_interval(wins, len(finished)),
                    mean_hand_score=_mean(scores),
                    bids_won=len(bids),
                    bids_made=made,
                    mean_bid=_mean(bids),
                    mean_meld=_mean(melds),
                )
            )
        counts = dict.fromkeys(MeldKind, 0)
        codes = {kind.code: kind for kind in MeldKind}
        for hand in all_hands:
            for seat_melds in hand.melds:
                for code in seat_melds:
                    counts[codes[code.split("-")[0]]] += 1
        games = len(self.games)
        return Summary(
            games=games,
            unfinished=games - len(finished),
            sides=(sides[0], sides[1]),
            mean_hands=len(all_hands) / games if games else 0.0,
            mean_actions=_mean([game.actions for game in self.games]),
            hands=len(all_hands),
            meld_counts=tuple(counts.items()),
            games_per_second=games / self.elapsed if self.elapsed > 0 else 0.0,
        )


def _mean(values: Sequence[int]) -> float:
    """The average, or 0 for no values."""
    return sum(values) / len(values) if values else 0.0


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


def _run_chunk(  # noqa: PLR0913  # mirrors play_one for the worker
    lineup: tuple[str | Bot, ...],
    master_seed: int,
    start: int,
    stop: int,
    *,
    rules: Rules | None,
    alternate: bool,
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
            with concurrent.futures.ProcessPoolExecutor(used, mp_context=context) as pool:
                games = _gather(pool, plan, progress)
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
) -> list[GameResult]:
    """Run the plan's chunks on ``executor``; collect the games as chunks finish."""
    futures = [
        executor.submit(
            _run_chunk, plan.entries, plan.seed, lo, hi, rules=plan.rules, alternate=plan.alternate
        )
        for lo, hi in plan.bounds
    ]
    from concurrent.futures import as_completed

    games: list[GameResult] = []
    try:
        for future in as_completed(futures):
            games.extend(future.result())
            if progress is not None:
                progress(len(games), plan.total)
    finally:
        for future in futures:
            future.cancel()
    return games


# -- per-hand output -------------------------------------------------------------

_SEAT_KEYS: Final = ("n", "e", "s", "w")


def hand_rows(result: SimulationResult) -> Iterator[dict[str, object]]:
    """One flat record per hand of every game, for CSV or JSON lines."""
    labels = result.side_labels
    for game in result.games:
        for hand in game.hands:
            bidding_side = game.side_of(hand.bidder.team)
            row: dict[str, object] = {
                "game": game.index,
                "game_seed": game.seed,
                "hand": hand.number,
                "side_ns": labels[game.side_of(Team.NORTH_SOUTH)],
                "side_ew": labels[game.side_of(Team.EAST_WEST)],
                "dealer": str(hand.dealer),
                "bidder": str(hand.bidder),
                "bidder_side": labels[bidding_side],
                "bid": hand.bid,
                "sunk": hand.sunk_suit.letter,
                "made": hand.made,
                "points_ns": hand.card_points[0],
                "points_ew": hand.card_points[1],
                "meld_ns": hand.meld[0],
                "meld_ew": hand.meld[1],
                "net_ns": hand.net[0],
                "net_ew": hand.net[1],
                "score_ns": hand.scores[0],
                "score_ew": hand.scores[1],
                "total_ns": hand.totals[0],
                "total_ew": hand.totals[1],
            }
            for key, melds in zip(_SEAT_KEYS, hand.melds, strict=True):
                row[f"melds_{key}"] = " ".join(melds)
            yield row


def write_csv(result: SimulationResult, path: str | Path) -> int:
    """Write :func:`hand_rows` as CSV; return the number of rows."""
    rows = list(hand_rows(result))
    with Path(path).open("w", newline="", encoding="utf-8") as out:
        if not rows:
            return 0
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return len(rows)


def write_jsonl(result: SimulationResult, path: str | Path) -> int:
    """Write :func:`hand_rows` as JSON lines (meld codes as lists); return the number of rows."""
    count = 0
    with Path(path).open("w", encoding="utf-8") as out:
        for row in hand_rows(result):
            for key in _SEAT_KEYS:
                melds = row[f"melds_{key}"]
                assert isinstance(melds, str)
                row[f"melds_{key}"] = melds.split()
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count
