"""Plots of games, matches, pools and analyses, with matplotlib (the ``plot`` extra).

Each function draws one picture and returns its matplotlib ``Figure`` (a notebook shows it;
``figure.savefig("out.png")`` writes it); ``ax=`` draws into an axes of your own instead.

* :func:`score_progression` -- each team's total after every hand of a game;
* :func:`match_differences` -- a match's mean difference per hand on each deal, with the
  match's mean and 95% interval;
* :func:`pool_ratings` -- a pool's Elo ratings with their intervals;
* :func:`decision_costs` -- what each decision of an analysis cost, in points, exact
  costs and estimates (with their noise) told apart.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from deepsix.errors import missing_extra

if TYPE_CHECKING:
    from deepsix.arena.match import MatchResult, PoolResult
    from deepsix.io.record import GameRecord
    from deepsix.search.analysis import GameAnalysis
    from deepsix.state import GameState

__all__ = ["decision_costs", "match_differences", "pool_ratings", "score_progression"]


def _axes(ax: Any, what: str) -> tuple[Any, Any]:
    """The figure and the axes to draw in: ``ax``'s, or a new figure's."""
    try:
        from matplotlib.figure import Figure
    except ImportError as error:
        raise missing_extra(f"deepsix.plot.{what}", "plot", error) from None
    if ax is not None:
        return ax.figure, ax
    figure = Figure(figsize=(7, 4), layout="constrained")
    return figure, figure.add_subplot()


def score_progression(game: GameState | GameRecord, *, ax: Any = None) -> Any:
    """Each team's total after every finished hand of ``game`` (a state or a record)."""
    from deepsix.io.record import GameRecord, replay

    state = replay(game) if isinstance(game, GameRecord) else game
    figure, axes = _axes(ax, "score_progression")
    hands = [0, *(record.number for record in state.completed_hands)]
    for team, label in ((0, "North–South"), (1, "East–West")):
        totals = [0, *(record.totals[team] for record in state.completed_hands)]
        axes.plot(hands, totals, marker="o", label=label)
    axes.axhline(state.rules.target_score, color="grey", linestyle=":", label="game target")
    axes.set(xlabel="hand", ylabel="total score", title="Score after each hand")
    axes.legend()
    return figure


def match_differences(result: MatchResult, *, ax: Any = None) -> Any:
    """The mean difference per hand (A − B) of each deal, and the match's mean with its 95%
    interval (negative: side A took fewer points, which is better)."""
    summary = result.summary()
    figure, axes = _axes(ax, "match_differences")
    deals = [deal + 1 for deal, _ in summary.per_deal]
    axes.bar(deals, [value for _, value in summary.per_deal], color="#7a9cc6", label="a deal")
    mean = summary.difference
    axes.axhline(mean.mean, color="black", label=f"mean {mean.mean:+.1f}")
    if math.isfinite(mean.low) and math.isfinite(mean.high):  # one deal has no interval
        axes.axhspan(mean.low, mean.high, color="black", alpha=0.15, label="95% interval")
    a, b = result.config.sides
    axes.set(xlabel="deal", ylabel="points per hand, A − B", title=f"{a} (A) vs {b} (B)")
    axes.legend()
    return figure


def pool_ratings(result: PoolResult, *, ax: Any = None) -> Any:
    """Each bot's Elo rating (the anchor at 0) with its 95% interval, best first."""
    figure, axes = _axes(ax, "pool_ratings")
    ratings = list(result.ratings)
    rows = range(len(ratings))
    axes.errorbar(
        [r.elo for r in ratings], rows,
        xerr=[[r.elo - r.low for r in ratings], [r.high - r.elo for r in ratings]],
        fmt="o", capsize=4,
    )  # fmt: skip
    axes.set_yticks(list(rows), [r.name for r in ratings])
    axes.invert_yaxis()
    axes.axvline(0, color="grey", linestyle=":")
    axes.set(xlabel="Elo (95% interval)", title="Pool ratings")
    return figure


def decision_costs(analysis: GameAnalysis, *, ax: Any = None) -> Any:
    """What each decision of the analysis cost against the best choice, in points, in the
    order they were taken: exact costs solid, estimated ones pale with twice their standard
    error as a whisker (an estimate inside its whisker is not told apart from noise), and the
    hands' boundaries dotted."""
    from deepsix.search.analysis import Method

    figure, axes = _axes(ax, "decision_costs")
    decisions = [d for hand in analysis.hands for d in hand.decisions]
    places = range(1, len(decisions) + 1)
    exact = [d.method is Method.EXACT for d in decisions]
    axes.bar(
        places,
        [d.cost for d in decisions],
        color=["#b04a4a" if solved else "#e6b3b3" for solved in exact],
    )
    estimated = [(x, d) for x, d in zip(places, decisions, strict=True) if not exact[x - 1]]
    if estimated:
        axes.errorbar(
            [x for x, _ in estimated],
            [d.cost for _, d in estimated],
            yerr=[[0.0] * len(estimated), [2 * d.margin for _, d in estimated]],
            fmt="none",
            ecolor="#7a4a4a",
            capsize=2,
            linewidth=0.8,
        )
    start = 0
    for hand in analysis.hands[:-1]:
        start += len(hand.decisions)
        axes.axvline(start + 0.5, color="grey", linestyle=":")
    try:
        from matplotlib.patches import Patch
    except ImportError as error:  # pragma: no cover - _axes has imported matplotlib
        raise missing_extra("deepsix.plot.decision_costs", "plot", error) from None
    axes.legend(
        handles=[
            Patch(color="#b04a4a", label="exact"),
            Patch(color="#e6b3b3", label="estimate (whisker: 2 standard errors)"),
        ],
        loc="best",
    )
    axes.set(xlabel="decision", ylabel="cost (points)", title="Cost of each decision")
    return figure
