"""Analysis for players: where a finished hand's points were lost, decision by decision.

Bridge players look at a double-dummy analysis after a hand (DDS, endplay):
for every card, what it was worth against the best card.  :func:`analyze_game`
does that for Deep Six, for every *decision* of a hand -- every action
where the seat to act had more than one legal choice: calls, the sunk
suit, the invitation, both passes, the melds and every card:

* **Exact, with every hand visible** (:attr:`Method.EXACT`): a card played
  with at most :attr:`AnalysisBudget.exact_tricks` tricks left (eight by
  default) is compared with every legal card by the double-dummy solver
  (:func:`~deepsix.search.solver.move_values`) on the actual deal, solving what the
  hand records (``objective="score"``: the bid, the set contract, the floor), not card
  points converted after the fact.  This is
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
:attr:`HandAnalysis.skipped`, never guessed (a hand's endgame cards are
valued first, so a limit cuts the slower estimates).

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

import contextlib
import random
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Final, NamedTuple

import attrs

from deepsix.actions import Action, Bid, Deal, Pass, PlayCard
from deepsix.cards import HAND_SIZE, Seat, Team
from deepsix.engine import apply, legal_actions
from deepsix.errors import InvalidStateError, missing_extra
from deepsix.io.record import GameRecord, replay
from deepsix.play.bots import Bot, make_bot
from deepsix.rebuild import history_start, walk
from deepsix.sampling import SamplingError, sample_state
from deepsix.search._score import for_team
from deepsix.search._verdicts import BUDGETS as _BUDGETS
from deepsix.search._verdicts import COSTLY as _COSTLY
from deepsix.search._verdicts import FAMILY_ERROR as _FAMILY_ERROR
from deepsix.search._verdicts import (
    AnalysisBudget,
    Choice,
    Decision,
    GameAnalysis,
    HandAnalysis,
    Method,
    analysis_data,
    budget_of,
    clear_of_noise,
    critical_ratio,
    decision_data,
    iter_costly,
    mean_and_error,
    ranked,
)
from deepsix.search.solver import SearchBudgetError, SearchError, move_values
from deepsix.state import GameState, HandRecord, Phase
from deepsix.views import view

__all__ = [
    "BUDGETS",
    "CONFIRM",
    "COSTLY",
    "FAMILY_ERROR",
    "AnalysisBudget",
    "Choice",
    "Decision",
    "GameAnalysis",
    "HandAnalysis",
    "Method",
    "analysis_data",
    "analyze_game",
    "clear_of_noise",
    "critical_ratio",
    "decision_count",
    "decision_data",
    "iter_costly",
]

COSTLY: Final = _COSTLY
"""The cost, in points, from which a decision counts as a costly moment (one scoring step)."""
CONFIRM: Final = 8
"""An estimated cost that looks costly but is not clear of its noise is measured once more,
on this many times the budget's ``worlds`` deals of its own."""
_LOOKS: Final = 2
"""Each estimated cost is judged at most twice (its fresh deals, then the confirmation's): the
hand's family-wise level is shared among twice its estimates."""
FAMILY_ERROR: Final = _FAMILY_ERROR
"""The chance, over all the estimated decisions of a hand together, that sampling noise alone
makes one of them look costly (:func:`critical_ratio`)."""
BUDGETS: Final = _BUDGETS
"""The named budgets of ``deepsix analyze --budget`` and the web table, by name: ``quick``,
``normal`` (the default) and ``deep``."""

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
    progress: Progress | bool | None = None,
    on_decision: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Value every decision of the game's finished hands (see the module documentation).

    ``game`` is a state (its history is walked) or a game record.
    ``budget`` is an :class:`AnalysisBudget` or the name of one in
    :data:`BUDGETS`.  ``hands`` picks hands by number (default: every
    finished hand); a hand still in progress is never analysed (its cards
    are not all known).  ``phases`` keeps the decisions of those phases only
    (default: all; the others are not counted anywhere).  ``time_limit``
    bounds the wall-clock seconds: decisions after it are skipped and
    counted.  ``progress`` is called with each hand's analysis as it is done;
    ``progress=True`` shows a progress bar instead (rich, from the ``cli`` extra: in a
    terminal or a notebook).  ``on_decision(done, total)`` is called after each decision
    (what ``deepsix analyze`` draws its bar with).  Raises
    :class:`~deepsix.search.solver.SearchError` for a bad budget, hand
    number or game.
    """
    chosen = budget_of(budget)
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
    steps = _steps_by_hand(state)
    numbers = sorted(set(wanted))
    total = sum(len(_chosen(steps[number], kept)) for number in numbers)
    with contextlib.ExitStack() as stack:
        tick = on_decision
        if progress is True:
            tick = stack.enter_context(_bar(total))
        done = 0

        def ticked() -> None:
            nonlocal done
            done += 1
            if tick is not None:
                tick(done, total)

        analyst = _Analyst(chosen, make_bot(chosen.policy), seed, deadline, kept, ticked)
        results = []
        for number in numbers:
            analysis = analyst.hand(number, state.completed_hands[number - 1], steps[number])
            results.append(analysis)
            if callable(progress):
                progress(analysis)
    return GameAnalysis(tuple(results), chosen, seed)


def decision_count(
    game: GameState | GameRecord,
    *,
    hands: Sequence[int] | None = None,
    phases: Collection[Phase] | None = None,
) -> int:
    """How many decisions :func:`analyze_game` values with these ``hands`` and ``phases``
    (the total of its ``on_decision`` calls): each decision with two or more choices."""
    state = _state(game)
    steps = _steps_by_hand(state)
    kept = frozenset(Phase if phases is None else phases)
    numbers = range(1, len(state.completed_hands) + 1) if hands is None else set(hands)
    return sum(len(_chosen(steps.get(number, []), kept)) for number in numbers)


def _chosen(moments: Sequence[_Moment], phases: frozenset[Phase]) -> list[_Moment]:
    """The moments of these phases with a choice to value (two or more legal actions)."""
    return [
        moment
        for moment in moments
        if moment.before.phase in phases and len(legal_actions(moment.before)) >= 2
    ]


@contextlib.contextmanager
def _bar(total: int) -> Iterator[Callable[[int, int], None]]:
    """A rich progress bar over the decisions (rich shows it in a notebook too)."""
    try:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    except ImportError as error:
        raise missing_extra("analyze_game(progress=True)", "cli", error) from None
    bar = Progress(
        "analysing", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=True
    )
    with bar:
        task = bar.add_task("analysing", total=total)
        yield lambda done, _total: bar.update(task, completed=done)


# -- walking the game ------------------------------------------------------------------------


class _Moment(NamedTuple):
    """An action of the game: its step number, the state before it, and the action."""

    step: int
    before: GameState
    played: Action


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
    cost: tuple[float, float, int] | None = None,
) -> Decision:
    """A :class:`Decision` from each candidate's value; ``cost`` (mean, standard error, fresh
    deals) if measured apart, else the difference of the values."""
    step, before, played = moment
    choices = ranked(values)
    trick = len(before.tricks) + 1 if before.phase is Phase.PLAY else None
    if cost is None:
        cost = (values[played] - choices[0].value, 0.0, 0)
    return Decision(
        step, before.hand_number, before.phase, trick, _seat(played), played,
        choices[0].action, method, worlds, choices, cost[0], cost[1], cost[2],
    )  # fmt: skip


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
    ticked: Callable[[], None]
    """Called after each decision, valued or skipped."""

    def hand(self, number: int, record: HandRecord, moments: list[_Moment]) -> HandAnalysis:
        """Every decision of one hand, valued.

        The endgame's cards go first: they are solved exactly and quickly, so a time limit
        cuts the slower estimates of the earlier decisions rather than them.
        """
        started = time.monotonic()
        wanted = [moment for moment in moments if moment.before.phase in self.phases]
        chosen = _chosen(wanted, self.phases)
        forced = len(wanted) - len(chosen)
        chosen.sort(key=lambda moment: (not self.solvable(moment.before), moment.step))
        found = []
        skipped = 0
        # The hand's estimates, as far as they are known before the solver has tried its cards.
        family = sum(1 for moment in chosen if not self.solvable(moment.before))
        for moment in chosen:
            if self.deadline is not None and time.monotonic() > self.deadline:
                skipped += 1
                self.ticked()
                continue
            decision = self.exact(moment) or self.estimate(moment, family)
            if decision is None:
                skipped += 1
            else:
                found.append(decision)
            self.ticked()
        # One level for the hand: the more estimates it holds, the clearer each must be.
        estimates = sum(1 for decision in found if decision.method is Method.ESTIMATE)
        decisions = tuple(
            attrs.evolve(decision, critical=critical_ratio(_LOOKS * estimates, decision.fresh))
            if decision.method is Method.ESTIMATE
            else decision
            for decision in sorted(found, key=lambda decision: decision.step)
        )
        seconds = time.monotonic() - started
        return HandAnalysis(number, record, decisions, forced, skipped, seconds)

    def solvable(self, before: GameState) -> bool:
        """Whether a card played here is for the solver (few enough tricks left)."""
        return (
            before.phase is Phase.PLAY
            and HAND_SIZE - len(before.tricks) <= self.budget.exact_tricks
        )

    # -- exact: the double-dummy solver ------------------------------------------------------

    def exact(self, moment: _Moment) -> Decision | None:
        """The decision valued double dummy, or ``None`` if it is not for the solver (too
        early, not a card, or over the node budget)."""
        before = moment.before
        if not self.solvable(before):
            return None
        try:
            found = move_values(
                before,
                node_limit=self.budget.node_limit,
                kernel=self.budget.kernel,
                objective="score",  # what the hand records, solved (not card points converted)
            )
        except SearchBudgetError:
            return None
        team = _seat(moment.played).team
        values: dict[Action, float] = {}
        for legal in legal_actions(before):  # legal order, so that ties go to the first card
            assert isinstance(legal, PlayCard)
            score = next(value.score for value in found if value.card == legal.card)
            assert score is not None  # the score objective scores every card
            values[legal] = float(for_team(score, team))
        return _decision(moment, Method.EXACT, 0, values)

    # -- estimated: sampled deals played out -------------------------------------------------

    def estimate(self, moment: _Moment, family: int) -> Decision | None:
        """The decision valued on sampled deals, or ``None`` if no deal fits the seat's view.

        A cost that looks costly on the fresh deals but is not clear of their noise (at the
        level of a hand of ``family`` estimates, each judged at most twice) is measured once
        more, on :data:`CONFIRM` times ``worlds`` deals of its own, and judged on those: one
        clear of the noise is reported costly, one that is not is reported uncertain."""
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
        more = random.Random(rng.getrandbits(64))  # the confirmation's own stream
        suggested = self.policy.choose(seen, rng)
        candidates = _candidates(moment, suggested, self.budget.max_candidates)
        table = self.outcomes(worlds, candidates, seat.team, rng)
        values = {
            action: sum(row) / len(row) for action, row in zip(candidates, table, strict=True)
        }
        best = ranked(values)[0].action
        cost = (0.0, 0.0, 0)
        if best != played:
            # The best of many noisy means is flattered (the winner's curse): measure the
            # difference again on fresh deals, where nothing was chosen.
            mine, theirs = self.outcomes(fresh, (played, best), seat.team, rng)
            differences = [a - b for a, b in zip(mine, theirs, strict=True)]
            mean, error = mean_and_error(differences)
            if mean >= COSTLY and not clear_of_noise(
                mean, error, len(differences), critical_ratio(_LOOKS * family, len(differences))
            ):
                # Borderline: measured once more on CONFIRM x worlds deals of their own and
                # judged on those alone, at the same level (looking again and again at growing
                # deals until one look passes would report noise far more often than that).
                try:
                    extra = [sample_state(seen, more) for _ in range(CONFIRM * count)]
                except SamplingError:  # pragma: no cover - the same view fitted deals before
                    extra = []
                if extra:
                    mine, theirs = self.outcomes(extra, (played, best), seat.team, more)
                    differences = [a - b for a, b in zip(mine, theirs, strict=True)]
                    mean, error = mean_and_error(differences)
            cost = (max(0.0, mean), error, len(differences))
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
