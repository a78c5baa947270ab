"""A match's statistics and its Markdown report (and a pool's).

Every public name here is public as ``deepsix.arena.match.NAME`` (documented there).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from deepsix._version import __version__
from deepsix.arena._outcome import GameOutcome, MatchConfig, SeatLog
from deepsix.arena.stats import (
    Estimate,
    Rating,
    clustered_mean,
    elo_difference,
    wilson_interval,
)
from deepsix.display import plural
from deepsix.rules import Rules

__all__ = [
    "MatchResult",
    "MatchSummary",
    "PoolResult",
    "SideStats",
    "pool_markdown",
    "report_markdown",
    "summarize",
]

# -- the results ----------------------------------------------------------------------------


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

    def __repr__(self) -> str:
        a, b = self.config.sides
        return (
            f"<MatchResult {a} vs {b}: {plural(len(self.outcomes), 'game')} of "
            f"{plural(self.config.deals, 'deal')}, seed {self.config.seed}, {self.elapsed:.1f} s>"
        )

    def summary(self) -> MatchSummary:
        """The match's statistics."""
        return summarize(self.config.sides, self.outcomes)


@attrs.frozen
class PoolResult:
    """Every pair of a pool, matched, and the pool's ratings."""

    names: tuple[str, ...]
    """The bots, in the order given."""
    matches: tuple[MatchResult, ...]
    """One match per pair, in order."""
    ratings: tuple[Rating, ...]
    """Each bot's rating (the anchor at 0), best first."""

    def __repr__(self) -> str:
        names = ", ".join(self.names)
        return f"<PoolResult {len(self.names)} bots ({names}), {len(self.matches)} matches>"


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
    per_deal: tuple[tuple[int, float], ...] = ()
    """Each paired deal and its mean difference per hand (A − B), in deal order."""


def summarize(labels: tuple[str, str], outcomes: Sequence[GameOutcome]) -> MatchSummary:
    by_deal: dict[int, dict[bool, GameOutcome]] = {}
    for outcome in outcomes:
        by_deal.setdefault(outcome.deal, {})[outcome.swapped] = outcome
    clusters: list[tuple[float, int]] = []
    per_deal: list[tuple[int, float]] = []
    unpaired = 0
    both = [0, 0, 0]
    for deal, pair in sorted(by_deal.items()):
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
        if paired:
            per_deal.append((deal, total / paired))
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
        per_deal=tuple(per_deal),
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
        f"{_points(diff.high)}, over {plural(diff.count, 'paired hand')} of "
        f"{plural(diff.clusters, 'deal')} (interval clustered by deal; "
        f"{plural(summary.unpaired_hands, 'hand')} without a twin left out).",
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
