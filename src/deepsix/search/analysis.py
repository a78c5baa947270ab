"""Analysis for players: where a finished hand's points were lost, decision by decision.

Bridge players look at a double-dummy analysis after a hand (DDS, endplay):
for every card, what it was worth against the best card.  :func:`analyze_game`
does that for Deep Six, for every *decision* of a hand -- every action
where the seat to act had more than one legal choice: calls, the sunk
suit, the invitation, both passes, the melds and every card:

* **Exact, with every hand visible** (:attr:`Method.EXACT`): a card played
  with at most :attr:`AnalysisBudget.exact_tricks` tricks left (eight by
  default) is compared with every legal card by the double-dummy solver
  (:func:`~deepsix.search.solver.move_values`) on the actual deal.  This is
  hindsight, as in bridge: the best card is the best one had the player
  seen all the hands.  A position the solver cannot finish within
  :attr:`AnalysisBudget.node_limit` nodes is estimated instead.
* **Estimated from what the player knew** (:attr:`Method.ESTIMATE`): every
  earlier decision is compared with the candidates worth considering on
  :attr:`AnalysisBudget.worlds` deals sampled from the acting seat's view
  (:func:`deepsix.sample_state`), each candidate followed by a play-out of
  the rest of the hand by :attr:`AnalysisBudget.policy` at every seat (the
  heuristic bot by default).  Every candidate meets the same sampled deals,
  so the comparison is fair, but it is an estimate: with few deals a
  difference of a few points is noise, and the play-out policy is not a
  perfect player.

The candidates: every legal card; every suit to sink; every legal show,
pass, meld and ``done`` (up to :attr:`AnalysisBudget.max_candidates`); in
the auction, passing, the highest bid open, the call made, the bids just
above and below it, and the policy's call.

**What a value means.**  A choice's *value* is the hand's score for the
acting seat's partnership minus the opponents' (the points the hand adds
to the score sheet, low is good), given that choice and the play that
follows.  The *cost* of a decision is the played choice's value minus the
best one's: how many points, relative to the other side, it gave away.  It
is never negative.

**Deterministic.**  Budgets are counts, never seconds, and each decision
draws its deals from a generator seeded by ``seed`` and the decision's
step number, so the same game, budget and seed give the same analysis --
of one hand alone or of the whole game.  ``time_limit`` is the one
exception: decisions it cuts off are counted in
:attr:`HandAnalysis.skipped`, never guessed.

>>> from deepsix import play_game
>>> final = play_game(["heuristic"] * 4, seed=3, max_hands=1)
>>> result = analyze_game(final, budget=AnalysisBudget(worlds=1, exact_tricks=3), seed=1)
>>> hand = result.hands[0]
>>> hand.number, all(decision.cost >= 0 for decision in hand.decisions)
(1, True)
>>> {decision.method for decision in hand.decisions} == {Method.EXACT, Method.ESTIMATE}
True
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Final, NamedTuple

import attrs

from deepsix.actions import Action, Bid, Deal, Pass, PlayCard
from deepsix.cards import HAND_SIZE, Seat, Team
from deepsix.engine import apply, legal_actions
from deepsix.errors import InvalidStateError
from deepsix.io.notation import format_action
from deepsix.io.record import GameRecord, replay
from deepsix.play.bots import Bot, make_bot
from deepsix.rebuild import history_start, walk
from deepsix.sampling import SamplingError, sample_state
from deepsix.scoring import score_hand
from deepsix.search.solver import SearchBudgetError, SearchError, move_values
from deepsix.state import GameState, HandRecord, Phase
from deepsix.views import view

__all__ = [
    "BUDGETS",
    "COSTLY",
    "AnalysisBudget",
    "Choice",
    "Decision",
    "GameAnalysis",
    "HandAnalysis",
    "Method",
    "analysis_data",
    "analyze_game",
    "decision_data",
    "iter_costly",
]

COSTLY: Final = 10.0
"""The cost, in points, from which a decision counts as a costly moment (one scoring step)."""


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

    @property
    def played_value(self) -> float:
        """The value of the action taken."""
        return next(choice.value for choice in self.choices if choice.action == self.played)

    @property
    def best_value(self) -> float:
        """The value of the best candidate."""
        return self.choices[0].value

    @property
    def costly(self) -> bool:
        """Whether the cost reaches :data:`COSTLY` (10 points) and is clearly more than noise
        (at least twice its standard error)."""
        return self.cost >= COSTLY - 1e-9 and self.cost >= 2 * self.margin


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
        """The decisions that cost at least ``threshold`` points (and twice their standard
        error), the dearest first."""
        found = [
            decision
            for decision in self.decisions
            if decision.cost >= threshold - 1e-9 and decision.cost >= 2 * decision.margin
        ]
        return tuple(sorted(found, key=lambda decision: (-decision.cost, decision.step)))

    def cost_by_seat(self) -> tuple[float, float, float, float]:
        """The summed cost of each seat's decisions, N E S W, counting only costs clear of
        the estimates' noise (at least twice their standard error; exact costs always)."""
        totals = [0.0] * 4
        for decision in self.decisions:
            if decision.cost >= 2 * decision.margin:
                totals[decision.seat] += decision.cost
        return (totals[0], totals[1], totals[2], totals[3])


@attrs.frozen
class GameAnalysis:
    """The analysis of the finished hands of a game."""

    hands: tuple[HandAnalysis, ...]
    budget: AnalysisBudget
    seed: int


Progress = Callable[[HandAnalysis], None]
"""Called with each hand's analysis as soon as it is done."""


def analyze_game(  # noqa: PLR0913  # keyword-only options, each with a default
    game: GameState | GameRecord,
    *,
    budget: AnalysisBudget | str = "normal",
    seed: int = 0,
    hands: Sequence[int] | None = None,
    phases: Collection[Phase] | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> GameAnalysis:
    """Value every decision of the game's finished hands (see the module documentation).

    ``game`` is a state (its history is walked) or a game record.
    ``budget`` is an :class:`AnalysisBudget` or the name of one in
    :data:`BUDGETS`.  ``hands`` picks hands by number (default: every
    finished hand); a hand still in progress is never analysed (its cards
    are not all known).  ``phases`` keeps the decisions of those phases only
    (default: all; the others are not counted anywhere).  ``time_limit``
    bounds the wall-clock seconds: decisions after it are skipped and
    counted.  Raises
    :class:`~deepsix.search.solver.SearchError` for a bad budget, hand
    number or game.
    """
    chosen = _budget(budget)
    state = _state(game)
    finished = len(state.completed_hands)
    wanted = range(1, finished + 1) if hands is None else hands
    for number in wanted:
        if type(number) is not int or not 1 <= number <= finished:
            raise SearchError(
                f"hand {number!r} is not a finished hand of this game (1 to {finished})"
            )
    deadline = None if time_limit is None else time.monotonic() + time_limit
    kept = frozenset(Phase if phases is None else phases)
    analyst = _Analyst(chosen, make_bot(chosen.policy), seed, deadline, kept)
    steps = _steps_by_hand(state)
    results = []
    for number in sorted(set(wanted)):
        analysis = analyst.hand(number, state.completed_hands[number - 1], steps[number])
        results.append(analysis)
        if progress is not None:
            progress(analysis)
    return GameAnalysis(tuple(results), chosen, seed)


# -- walking the game ------------------------------------------------------------------------


class _Moment(NamedTuple):
    """An action of the game: its step number, the state before it, and the action."""

    step: int
    before: GameState
    played: Action


def _budget(budget: AnalysisBudget | str) -> AnalysisBudget:
    if isinstance(budget, AnalysisBudget):
        return budget
    if isinstance(budget, str) and budget in BUDGETS:
        return BUDGETS[budget]
    raise SearchError(f"unknown analysis budget {budget!r}: one of {', '.join(BUDGETS)}")


def _state(game: GameState | GameRecord) -> GameState:
    if isinstance(game, GameRecord):
        return replay(game)
    if isinstance(game, GameState):
        return game
    raise SearchError(
        f"analyze_game() needs a GameState or a GameRecord, not {type(game).__name__}"
    )


def _steps_by_hand(state: GameState) -> dict[int, list[_Moment]]:
    """Each hand's actions (with their step number and the state before), deals left out."""
    steps: dict[int, list[_Moment]] = {}
    for number, (before, action, _after) in enumerate(walk(history_start(state), state.history), 1):
        if type(action) is not Deal:
            steps.setdefault(before.hand_number, []).append(_Moment(number, before, action))
    return steps


def _decision(
    moment: _Moment,
    method: Method,
    worlds: int,
    values: dict[Action, float],
    cost: tuple[float, float] | None = None,
) -> Decision:
    """A :class:`Decision` from each candidate's value; ``cost`` (mean, standard error) if
    measured apart, else the difference of the values."""
    step, before, played = moment
    choices = _ranked(values)
    trick = len(before.tricks) + 1 if before.phase is Phase.PLAY else None
    if cost is None:
        cost = (values[played] - choices[0].value, 0.0)
    return Decision(
        step, before.hand_number, before.phase, trick, _seat(played), played,
        choices[0].action, method, worlds, choices, cost[0], cost[1],
    )  # fmt: skip


def _ranked(values: dict[Action, float]) -> tuple[Choice, ...]:
    """The choices, best (lowest) first; ties keep the given order."""
    order = sorted(values.items(), key=lambda item: item[1])
    return tuple(Choice(action, value) for action, value in order)


def _future_value(state: GameState, team: Team, future: tuple[int, int]) -> float:
    """``team``'s hand score minus the other's, if the teams take ``future`` card points more."""
    taken = state.card_points
    points = (taken[0] + future[0], taken[1] + future[1])
    bidder, bid = state.bidder, state.bid
    if bidder is None or bid is None:  # pragma: no cover - the play phase has a contract
        raise InvalidStateError("a hand in play without a contract")
    scores = score_hand(bidder.team, bid, points, state.team_meld, state.rules).scores
    return float(scores[team] - scores[1 - team])


def _mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (0 for a single value)."""
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    variance = sum((value - mean) ** 2 for value in values) / (len(values) - 1)
    return mean, (variance / len(values)) ** 0.5


def _candidates(moment: _Moment, suggested: Action, limit: int) -> tuple[Action, ...]:
    """The choices worth comparing, in the engine's order (see the module documentation)."""
    played = moment.played
    legal: Sequence[Action] = legal_actions(moment.before)
    if moment.before.phase is Phase.BIDDING:
        bids = [action for action in legal if isinstance(action, Bid)]
        wanted: set[Action] = {played, suggested}
        wanted.update(action for action in legal if isinstance(action, Pass))
        if bids:
            wanted.add(bids[0])
        if isinstance(played, Bid):
            near = {played.amount + 10, played.amount - 10}
            wanted.update(bid for bid in bids if bid.amount in near)
        legal = tuple(action for action in legal if action in wanted)
    if len(legal) <= limit:
        return tuple(legal)
    first = [played, suggested] + [action for action in legal if action not in (played, suggested)]
    kept = set(first[:limit])
    return tuple(action for action in legal if action in kept)


@attrs.frozen
class _Analyst:
    """One analysis run: its budget, the play-out policy, the seed and the deadline."""

    budget: AnalysisBudget
    policy: Bot
    seed: int
    deadline: float | None
    phases: frozenset[Phase]

    def hand(self, number: int, record: HandRecord, moments: list[_Moment]) -> HandAnalysis:
        """Every decision of one hand, valued."""
        started = time.monotonic()
        decisions = []
        forced = skipped = 0
        for moment in moments:
            if moment.before.phase not in self.phases:
                continue
            if len(legal_actions(moment.before)) < 2:
                forced += 1
                continue
            if self.deadline is not None and time.monotonic() > self.deadline:
                skipped += 1
                continue
            decision = self.exact(moment) or self.estimate(moment)
            if decision is None:
                skipped += 1
            else:
                decisions.append(decision)
        seconds = time.monotonic() - started
        return HandAnalysis(number, record, tuple(decisions), forced, skipped, seconds)

    # -- exact: the double-dummy solver ------------------------------------------------------

    def exact(self, moment: _Moment) -> Decision | None:
        """The decision valued double dummy, or ``None`` if it is not for the solver (too
        early, not a card, or over the node budget)."""
        before = moment.before
        if before.phase is not Phase.PLAY:
            return None
        if HAND_SIZE - len(before.tricks) > self.budget.exact_tricks:
            return None
        try:
            found = move_values(before, node_limit=self.budget.node_limit)
        except SearchBudgetError:
            return None
        team = _seat(moment.played).team
        values: dict[Action, float] = {}
        for legal in legal_actions(before):  # legal order, so that ties go to the first card
            assert isinstance(legal, PlayCard)
            points = next(value.points for value in found if value.card == legal.card)
            values[legal] = _future_value(before, team, points)
        return _decision(moment, Method.EXACT, 0, values)

    # -- estimated: sampled deals played out -------------------------------------------------

    def estimate(self, moment: _Moment) -> Decision | None:
        """The decision valued on sampled deals, or ``None`` if no deal fits the seat's view."""
        rng = random.Random(f"deepsix-analysis:{self.seed}:{moment.step}")
        played = moment.played
        seat = _seat(played)
        seen = view(moment.before, seat)
        count = self.budget.worlds
        try:
            worlds = [sample_state(seen, rng) for _ in range(count)]
            fresh = [sample_state(seen, rng) for _ in range(count)]
        except SamplingError:
            return None
        suggested = self.policy.choose(seen, rng)
        candidates = _candidates(moment, suggested, self.budget.max_candidates)
        table = self.outcomes(worlds, candidates, seat.team, rng)
        values = {
            action: sum(row) / len(row) for action, row in zip(candidates, table, strict=True)
        }
        best = _ranked(values)[0].action
        cost = (0.0, 0.0)
        if best != played:
            # The best of many noisy means is flattered (the winner's curse): measure the
            # difference again on fresh deals, where nothing was chosen.
            mine, theirs = self.outcomes(fresh, (played, best), seat.team, rng)
            mean, error = _mean_and_error([a - b for a, b in zip(mine, theirs, strict=True)])
            cost = (max(0.0, mean), error)
        return _decision(moment, Method.ESTIMATE, count, values, cost)

    def outcomes(
        self,
        worlds: Sequence[GameState],
        candidates: Sequence[Action],
        team: Team,
        rng: random.Random,
    ) -> list[list[float]]:
        """Per candidate, per deal: ``team``'s hand score minus the other's after a play-out.

        Each deal has its own random stream, the same for every candidate (common random
        numbers: the candidates differ by their choice, not by their luck)."""
        streams = [rng.getrandbits(64) for _ in worlds]
        table = []
        for candidate in candidates:
            row = []
            for world, stream in zip(worlds, streams, strict=True):
                record = _finish(apply(world, candidate), self.policy, random.Random(stream))
                row.append(float(record.scores[team] - record.scores[1 - team]))
            table.append(row)
        return table


def _seat(action: Action) -> Seat:
    """Who takes ``action`` (a deal is no one's decision and never analysed)."""
    if isinstance(action, Deal):  # pragma: no cover - deals are left out by _steps_by_hand
        raise SearchError("a deal is chance's, not a decision")
    return action.seat


def _finish(state: GameState, policy: Bot, rng: random.Random) -> HandRecord:
    """Play the current hand to its end with ``policy`` at every seat; its score sheet line."""
    hands_done = len(state.completed_hands)
    while len(state.completed_hands) == hands_done:
        seat = state.to_act
        if seat is None:  # pragma: no cover - a hand in progress always has a seat to act
            raise InvalidStateError("the hand stopped before it was scored")
        state = apply(state, policy.choose(view(state, seat), rng))
    return state.completed_hands[-1]


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
        "method": decision.method.value,
        "worlds": decision.worlds,
        "choices": [
            [format_action(choice.action), round(choice.value, 2)] for choice in decision.choices
        ],
    }
