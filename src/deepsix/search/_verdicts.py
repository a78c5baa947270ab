"""The verdicts of an analysis: budgets, each decision's choices and cost, and plain data.

The names that :mod:`deepsix.search.analysis` lists are public there (and documented
there); :func:`deepsix.search.analysis.analyze_game` makes them with the rest.
"""

from __future__ import annotations

import enum
import functools
import math
from collections.abc import Iterator, Sequence
from statistics import NormalDist
from typing import Final

import attrs

from deepsix.actions import Action
from deepsix.cards import HAND_SIZE, Seat
from deepsix.io.notation import format_action
from deepsix.play.bots import make_bot
from deepsix.search.solver import KernelChoice, SearchError, check_kernel
from deepsix.state import HandRecord, Phase

__all__ = [
    "BUDGETS",
    "COSTLY",
    "FAMILY_ERROR",
    "AnalysisBudget",
    "Choice",
    "Decision",
    "GameAnalysis",
    "HandAnalysis",
    "Method",
    "analysis_data",
    "budget_of",
    "clear_of_noise",
    "critical_ratio",
    "decision_data",
    "iter_costly",
    "mean_and_error",
    "ranked",
]

COSTLY: Final = 10.0
"""The cost, in points, from which a decision counts as a costly moment (one scoring step)."""
FAMILY_ERROR: Final = 0.05
"""The chance, taken over all the estimated decisions of a hand together, that sampling
noise alone makes one of them look costly (:func:`critical_ratio`)."""


@functools.cache  # a hand asks for the same few pairs again and again
def critical_ratio(estimates: int, deals: int) -> float:
    """How many standard errors an estimated cost must reach to count as clear of noise, in a
    hand with ``estimates`` estimated decisions, each cost the mean of ``deals`` paired
    differences: Student's t quantile at ``1 - FAMILY_ERROR / estimates`` with ``deals - 1``
    degrees of freedom (one-sided, Bonferroni), so that a hand's report calls some estimate
    costly by noise alone at most one time in twenty.  Infinite below two deals.

    >>> round(critical_ratio(1, 4), 2), round(critical_ratio(1, 12), 2)
    (2.35, 1.8)
    >>> round(critical_ratio(50, 4), 1), round(critical_ratio(50, 12), 2)
    (10.2, 4.02)
    """
    if deals < 2:
        return math.inf
    return _t_quantile(1.0 - FAMILY_ERROR / max(1, estimates), deals - 1)


def clear_of_noise(cost: float, margin: float, deals: int, critical: float) -> bool:
    """Whether a mean ``cost`` over ``deals`` paired differences, with standard error
    ``margin``, reaches ``critical`` standard errors (:func:`critical_ratio`): never below
    two deals, which give no measure of their noise."""
    return deals >= 2 and cost >= critical * margin


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (0 for a single value)."""
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    variance = sum((value - mean) ** 2 for value in values) / (len(values) - 1)
    return mean, (variance / len(values)) ** 0.5


def _t_cdf(t: float, nu: int) -> float:
    """Student's t distribution function for ``nu`` (whole) degrees of freedom, by its finite
    series (Abramowitz and Stegun 26.7.3 and 26.7.4)."""
    theta = math.atan(t / math.sqrt(nu))
    c2 = math.cos(theta) ** 2
    if nu % 2:
        term = total = 0.0 if nu == 1 else math.cos(theta)
        for k in range(3, nu, 2):
            term *= c2 * (k - 1) / k
            total += term
        return 0.5 + (theta + math.sin(theta) * total) / math.pi
    term = total = 1.0
    for k in range(2, nu, 2):
        term *= c2 * (k - 1) / k
        total += term
    return 0.5 + math.sin(theta) * total / 2


def _t_quantile(p: float, nu: int) -> float:
    """The ``p`` quantile (``p`` above one half) of Student's t, by bisection."""
    low, high = 0.0, NormalDist().inv_cdf(p)
    while _t_cdf(high, nu) < p:
        low, high = high, 2 * high
    for _ in range(100):
        middle = (low + high) / 2
        if _t_cdf(middle, nu) < p:
            low = middle
        else:
            high = middle
    return high


class Method(enum.Enum):
    """How a decision's choices were valued."""

    EXACT = "exact"
    """Solved double dummy on the actual deal (every hand visible)."""
    ESTIMATE = "estimate"
    """Averaged over deals sampled from the acting seat's view, each played out."""


def _positive(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 1:
        raise SearchError(f"AnalysisBudget.{attribute.name} must be a positive int, not {value!r}")


def _tricks(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or not 0 <= value <= HAND_SIZE:
        raise SearchError(
            f"AnalysisBudget.{attribute.name} must be an int from 0 to {HAND_SIZE}, not {value!r}"
        )


def _policy(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if not isinstance(value, str):
        raise SearchError(f"AnalysisBudget.policy must be a bot's name, not {value!r}")
    make_bot(value)  # an unknown name raises UnknownNameError here, at the boundary


def _kernel(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
    check_kernel(value, "AnalysisBudget.kernel")


@attrs.frozen
class AnalysisBudget:
    """How hard :func:`analyze_game` looks: every field is a count, so results repeat.

    Named budgets are in :data:`BUDGETS` (``quick``, ``normal``, ``deep``).
    """

    worlds: int = attrs.field(default=4, validator=_positive)
    """Deals sampled per estimated decision (each candidate is played out in every one)."""
    exact_tricks: int = attrs.field(default=8, validator=_tricks)
    """Cards played with at most this many tricks left (the current one included) are
    solved exactly; 0 estimates every decision."""
    node_limit: int = attrs.field(default=2_000_000, validator=_positive)
    """Solver nodes allowed per exact decision; a position needing more is estimated."""
    max_candidates: int = attrs.field(default=17, validator=_positive)
    """The most choices compared at one estimated decision (the one made always is)."""
    policy: str = attrs.field(default="heuristic", validator=_policy)
    """The bot (by registered name) that plays the sampled deals out, at every seat."""
    kernel: KernelChoice = attrs.field(default="python", validator=_kernel)
    """The solver kernel of the exact decisions: ``"python"`` (the named budgets' node limits
    are counted in its nodes), ``"native"`` (the C++ kernel, ``deepsix-native``: the same
    values many times faster, so that :attr:`exact_tricks` can reach further) or ``"auto"``
    (the native kernel where it is installed).  A position over :attr:`node_limit` is
    estimated, and the kernels count nodes alike but not identically."""


BUDGETS: Final = {
    "quick": AnalysisBudget(worlds=3, exact_tricks=6, node_limit=300_000),
    "normal": AnalysisBudget(),
    "deep": AnalysisBudget(worlds=12, exact_tricks=8, node_limit=8_000_000),
}
"""The named budgets of ``deepsix analyze --budget`` and the web table, by name."""


@attrs.frozen
class Choice:
    """One candidate at a decision and its value (low is good: see the module docs)."""

    action: Action
    value: float
    """The acting partnership's hand score minus the opponents', after this choice."""


def ranked(values: dict[Action, float]) -> tuple[Choice, ...]:
    """The choices, best (lowest) first; ties keep the given order."""
    order = sorted(values.items(), key=lambda item: item[1])
    return tuple(Choice(action, value) for action, value in order)


@attrs.frozen
class Decision:
    """One decision of a hand: what was played, what was best, and what the difference cost."""

    step: int
    """The action's number in the game's history, counting from 1 (the first deal)."""
    hand: int
    """The hand's number, from 1."""
    phase: Phase
    """The phase the decision was made in."""
    trick: int | None
    """The trick's number (1 to 14) for a card, else ``None``."""
    seat: Seat
    """Who decided."""
    played: Action
    """The action taken."""
    best: Action
    """The candidate with the lowest value (the first such, if several tie)."""
    method: Method
    """Exact (double dummy) or estimated (sampled deals)."""
    worlds: int
    """Sampled deals the estimate averaged (0 for an exact value)."""
    choices: tuple[Choice, ...]
    """Every candidate's value, best first (the played action among them)."""

    cost: float
    """Points the action taken gave away against the best candidate (0 or more): for an exact
    decision the difference of their values; for an estimate the mean difference on as many
    *fresh* deals (see the module documentation), 0 if the action taken did as well there."""
    margin: float
    """The standard error of an estimated cost (0 for an exact one)."""
    fresh: int = 0
    """The fresh deals an estimated cost was measured on: ``worlds``, or more where a cost
    that looked costly was measured again (0 for an exact decision, or a choice that
    was the best)."""
    critical: float = 0.0
    """How many standard errors (``margin``) the cost must reach to count as clear of the
    sampling noise: :func:`critical_ratio` of the hand's estimated decisions, set by the
    analysis of the hand; irrelevant for an exact decision, whose margin is 0."""

    @property
    def played_value(self) -> float:
        """The value of the action taken."""
        return next(choice.value for choice in self.choices if choice.action == self.played)

    @property
    def best_value(self) -> float:
        """The value of the best candidate."""
        return self.choices[0].value

    @property
    def significant(self) -> bool:
        """Whether the cost is clear of the sampling noise: at least ``critical`` standard
        errors (the hand's family-wise level); always, for an exact decision; never for an
        estimate from fewer than two fresh deals, which has no measure of its noise (nor for
        a choice the sampled deals called the best: its cost is 0)."""
        if self.method is Method.EXACT:
            return True
        return clear_of_noise(self.cost, self.margin, self.fresh, self.critical)

    @property
    def costly(self) -> bool:
        """Whether the cost reaches :data:`COSTLY` (10 points) and is clear of the noise
        (:attr:`significant`)."""
        return self.cost >= COSTLY - 1e-9 and self.significant

    @property
    def uncertain(self) -> bool:
        """Whether the estimated cost reaches :data:`COSTLY` but not clear of the noise:
        perhaps costly, perhaps not, by the deals sampled."""
        return self.cost >= COSTLY - 1e-9 and not self.significant


@attrs.frozen
class HandAnalysis:
    """The decisions of one finished hand, each valued."""

    number: int
    """The hand's number, from 1."""
    record: HandRecord
    """The hand's line of the score sheet."""
    decisions: tuple[Decision, ...]
    """Every decision analysed, in the order played."""
    forced: int
    """Actions that were the only legal choice (not decisions, not listed)."""
    skipped: int
    """Decisions left out because the time limit ran out (or no deal fitted the view)."""
    seconds: float = attrs.field(eq=False)
    """Wall-clock time the analysis took (not compared: two equal analyses differ in it)."""

    def costly(self, threshold: float = COSTLY) -> tuple[Decision, ...]:
        """The decisions that cost at least ``threshold`` points, clear of the estimates'
        noise at the hand's family-wise level (:attr:`Decision.significant`), the dearest
        first."""
        return self._dearest(True, threshold)

    def uncertain(self, threshold: float = COSTLY) -> tuple[Decision, ...]:
        """The estimated decisions that cost at least ``threshold`` points by the deals
        sampled, but not clear of their noise, the dearest first."""
        return self._dearest(False, threshold)

    def _dearest(self, significant: bool, threshold: float) -> tuple[Decision, ...]:
        found = [
            decision
            for decision in self.decisions
            if decision.cost >= threshold - 1e-9 and decision.significant is significant
        ]
        return tuple(sorted(found, key=lambda decision: (-decision.cost, decision.step)))

    def cost_by_seat(self) -> tuple[float, float, float, float]:
        """The summed cost of each seat's decisions, N E S W, counting only costs clear of
        the estimates' noise (:attr:`Decision.significant`; exact costs always)."""
        totals = [0.0] * 4
        for decision in self.decisions:
            if decision.significant:
                totals[decision.seat] += decision.cost
        return (totals[0], totals[1], totals[2], totals[3])


@attrs.frozen
class GameAnalysis:
    """The analysis of the finished hands of a game."""

    hands: tuple[HandAnalysis, ...]
    budget: AnalysisBudget
    seed: int


def budget_of(budget: AnalysisBudget | str) -> AnalysisBudget:
    """``budget`` itself, or the named one of :data:`BUDGETS`; :class:`SearchError` else."""
    if isinstance(budget, AnalysisBudget):
        return budget
    if isinstance(budget, str) and budget in BUDGETS:
        return BUDGETS[budget]
    raise SearchError(f"unknown analysis budget {budget!r}: one of {', '.join(BUDGETS)}")


def iter_costly(analysis: GameAnalysis, threshold: float = COSTLY) -> Iterator[Decision]:
    """Every hand's costly moments, hand by hand, the dearest first within a hand."""
    for hand in analysis.hands:
        yield from hand.costly(threshold)


def analysis_data(analysis: GameAnalysis) -> dict[str, object]:
    """The analysis as plain JSON data (actions in the record notation,
    :mod:`deepsix.io.notation`), as ``deepsix analyze --json`` writes it."""
    budget = analysis.budget
    return {
        "budget": {
            "worlds": budget.worlds,
            "exact_tricks": budget.exact_tricks,
            "node_limit": budget.node_limit,
            "max_candidates": budget.max_candidates,
            "policy": budget.policy,
        },
        "seed": analysis.seed,
        "hands": [_hand_data(hand) for hand in analysis.hands],
    }


def _hand_data(hand: HandAnalysis) -> dict[str, object]:
    return {
        "number": hand.number,
        "scores": list(hand.record.scores),
        "forced": hand.forced,
        "skipped": hand.skipped,
        "seconds": round(hand.seconds, 3),
        "decisions": [decision_data(decision) for decision in hand.decisions],
    }


def decision_data(decision: Decision) -> dict[str, object]:
    """One decision as plain JSON data (see :func:`analysis_data`)."""
    return {
        "step": decision.step,
        "hand": decision.hand,
        "phase": decision.phase.value,
        "trick": decision.trick,
        "seat": str(decision.seat),
        "played": format_action(decision.played),
        "best": format_action(decision.best),
        "cost": round(decision.cost, 2),
        "margin": round(decision.margin, 2),
        "costly": decision.costly,
        "uncertain": decision.uncertain,
        "critical": None if math.isinf(decision.critical) else round(decision.critical, 3),
        "method": decision.method.value,
        "worlds": decision.worlds,
        "fresh": decision.fresh,
        "choices": [
            [format_action(choice.action), round(choice.value, 2)] for choice in decision.choices
        ],
    }
