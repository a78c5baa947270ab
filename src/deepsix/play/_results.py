"""The results of a simulation: each game and hand, the summary table, per-hand rows.

The types :func:`deepsix.play.simulate.simulate` returns and the writers of
its per-hand output, kept apart from the running of the games.  Every name
here is public as ``deepsix.play.simulate.NAME`` (documented there); this
module is the implementation's home.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final

import attrs

from deepsix.cards import Seat, Suit, Team
from deepsix.display import plural
from deepsix.melds import MeldKind
from deepsix.state import HandRecord

__all__ = [
    "GameResult",
    "HandResult",
    "SideSummary",
    "SimulationResult",
    "Summary",
    "hand_rows",
    "wilson_interval",
    "write_csv",
    "write_jsonl",
]


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

    def __repr__(self) -> str:
        return (
            f"<SimulationResult {plural(len(self.games), 'game')}, {' '.join(self.lineup)}, "
            f"seed {self.seed}, {self.elapsed:.1f} s on {plural(self.workers, 'worker')}>"
        )

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
