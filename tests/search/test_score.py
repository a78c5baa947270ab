"""The solver's score objective is exact: what the hand records, not its card points.

The oracle is plain minimax over the engine's own ``legal_actions`` and ``apply``, each
line scored by the finished hand's own record (:func:`tests.search.endgames.score_minimax`):
no part of the solver's score search (the card-point bounds, the target masks, the table
of answers, the merged cards) is shared with it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix import Card, GameState, PlayCard, PlayOver, Rules, apply, legal_actions
from deepsix.search import SearchBudgetError, SearchError, move_values, solve
from deepsix.search._native import arguments, flags, kernel
from deepsix.search._python import Solver, after
from deepsix.search._score import ScoreSearch, bounded, native_score, outcomes
from deepsix.search.solver import KERNEL, score
from tests.search.endgames import endgame, score_after, score_minimax
from tests.support.strategies import examples, rules_variants

SEEDS = st.integers(0, 2**32 - 1)
PLAYED = st.integers(0, 3)

DIFFERING = (49, 3, 1)
"""A position (seed, tricks left, cards in the trick) where the two optima differ: North,
bidding 120, holds the card points lowest with 6H, but records less by being set."""


def _cards(state: GameState) -> list[Card]:
    """The legal cards of a play-phase state (every legal action is a card there)."""
    return [action.card for action in legal_actions(state) if isinstance(action, PlayCard)]


@settings(max_examples=examples(ci=80, deep=1500))
@given(rules=rules_variants(), seed=SEEDS, tricks_left=st.integers(1, 3), played=PLAYED)
def test_the_score_equals_minimax_over_the_engine(
    rules: Rules, seed: int, tricks_left: int, played: int
) -> None:
    """solve(objective="score") gives the oracle's score, and its best cards are exactly the
    legal cards whose line scores that."""
    state = endgame(rules, seed, tricks_left, played)
    result = solve(state, objective="score", kernel="python")
    memo: dict[tuple[object, ...], int] = {}
    assert result.score == score_minimax(state, memo)
    for action in legal_actions(state):
        assert isinstance(action, PlayCard)
        assert (action.card in result.best) == (score_after(state, action, memo) == result.score)
    assert result.points == solve(state, kernel="python").points  # the card points, still


@settings(max_examples=examples(ci=60, deep=800))
@given(rules=rules_variants(), seed=SEEDS, tricks_left=st.integers(1, 4), played=PLAYED)
def test_score_alone_equals_minimax(rules: Rules, seed: int, tricks_left: int, played: int) -> None:
    """score() (what a play-out's exact end needs) gives the oracle's score, on either kernel."""
    state = endgame(rules, seed, tricks_left, played)
    expected = score_minimax(state)
    assert score(state, kernel="python") == expected
    assert score(state) == expected  # the default kernel (native where installed)


@settings(max_examples=examples(ci=40, deep=600))
@given(
    play_over=st.sampled_from(PlayOver), seed=SEEDS, tricks_left=st.integers(1, 4), played=PLAYED
)
def test_move_values_score_each_card_as_minimax_does(
    play_over: PlayOver, seed: int, tricks_left: int, played: int
) -> None:
    """move_values(objective="score") gives every legal card its exact score and keeps its
    card points (from one to four tricks left)."""
    state = endgame(Rules(play_over=play_over), seed, tricks_left, played)
    values = move_values(state, objective="score", kernel="python")
    plain = move_values(state, kernel="python")
    assert [value.card for value in values] == [value.card for value in plain] == _cards(state)
    assert [value.points for value in values] == [value.points for value in plain]
    memo: dict[tuple[object, ...], int] = {}
    assert state.to_act is not None
    for value in values:
        assert value.score == score_after(state, PlayCard(state.to_act, value.card), memo)
    assert all(value.score is None for value in plain)


def test_where_the_optima_differ_the_solver_chooses_the_score() -> None:
    """The card that holds the card points lowest records more than the score's best card:
    the card-point solver plays it, the score solver does not."""
    state = endgame(Rules(), *DIFFERING)
    points = solve(state, kernel="python")
    scored = solve(state, kernel="python", objective="score")
    assert not set(points.best) & set(scored.best)
    assert state.to_act is not None
    memo: dict[tuple[object, ...], int] = {}
    for card in points.best:  # the card-point optimum scores worse for North
        assert score_after(state, PlayCard(state.to_act, card), memo) > scored.score  # type: ignore[operator]  # a score objective's result has a score
    values = {value.card: value for value in move_values(state, kernel="python")}
    for card in scored.best:  # and the score's best card gives up card points
        assert values[card].points[0] > points.points[0]
    assert scored.score == score_minimax(state)


def test_the_target_search_runs_where_the_bounds_do_not_meet() -> None:
    """Where the card-point value leaves the score open, the target search settles it: on
    the differing position it is asked, and its answer is the oracle's."""
    state = endgame(Rules(), *DIFFERING)
    root = Solver(state)
    search = ScoreSearch(root.engine, outcomes(state, root.left + 10))
    memo: dict[tuple[object, ...], int] = {}
    assert state.to_act is not None
    for value in move_values(state, kernel="python"):
        taken, child = after(root, state, value.card)
        assert child is not None
        score = search.value(child, taken, value.points[0] - taken)
        assert score == score_after(state, PlayCard(state.to_act, value.card), memo)
    assert search.probes > 0


@settings(max_examples=examples(ci=30, deep=400))
@given(seed=SEEDS, tricks_left=st.integers(1, 4), played=PLAYED)
def test_playing_the_score_best_cards_records_the_score(
    seed: int, tricks_left: int, played: int
) -> None:
    """Both teams playing a score-best card at every turn end the hand with that score on the
    score sheet: the solver's score is what the hand records."""
    state = endgame(Rules(), seed, tricks_left, played)
    score = solve(state, objective="score", kernel="python").score
    hand = state.hand_number
    while state.hand_number == hand and state.to_act is not None and not state.is_chance:
        best = solve(state, objective="score", kernel="python").best[0]
        state = apply(state, PlayCard(state.to_act, best))
    record = state.completed_hands[-1]
    assert record.scores[0] - record.scores[1] == score


NATIVE = pytest.mark.skipif(KERNEL != "native", reason="the native kernel is not installed")


@NATIVE
def test_the_native_target_search_agrees_with_the_python_one() -> None:
    """Where the card-point bounds leave the score open, the C++ target search gives the
    Python one's score (and the oracle's), position by position."""
    checked = 0
    for seed in range(300):
        state = endgame(Rules(), seed, 3 + seed % 3, seed % 4)
        root = Solver(state)
        left = root.left + 10
        search = ScoreSearch(root.engine, outcomes(state, left))
        points = solve(state, kernel="python").points[0]
        if bounded(search.outcome, left, points) is not None:
            continue
        native, nodes = native_score(state, left, 10**9)
        assert native == search.value(root, 0, points)
        if seed % 3 == 0:  # four tricks and fewer: the oracle too
            assert native == score_minimax(state)
        assert nodes > 0
        checked += 1
    assert checked >= 10


@NATIVE
def test_the_native_target_search_refuses_bad_input() -> None:
    """A wrong number of outcomes, a bad position or budget: ValueError, never a crash."""
    state = endgame(Rules(), *DIFFERING)
    module = kernel()
    position = arguments(state)
    with pytest.raises(ValueError, match="one score for each 10 points"):
        module.score(*position, [0, 1, 2], flags(), 1000, 0)
    bad = ([1 << 60, 0, 0, 0], *position[1:])
    with pytest.raises(ValueError, match="a packed hand has 56 bits"):
        module.score(*bad, [0] * 30, flags(), 1000, 0)
    with pytest.raises(ValueError, match="node_limit must be positive"):
        module.score(*position, [0] * 30, flags(), 0, 0)
    deep = endgame(Rules(), 2019, 8, 0)
    with pytest.raises(module.BudgetExceeded):
        module.score(*arguments(deep), outcomes(deep, Solver(deep).left + 10), flags(), 5, 0)


@NATIVE
def test_the_score_is_the_same_on_either_kernel() -> None:
    """The card-point values may come from either kernel: the scores do not change."""
    for seed in range(40):
        state = endgame(Rules(), seed, 4, seed % 4)
        native = solve(state, objective="score", kernel="native")
        python = solve(state, objective="score", kernel="python")
        assert (native.score, native.best, native.points) == (
            python.score,
            python.best,
            python.points,
        )
        assert native.kernel == "native"


def test_a_bad_objective_or_budget_is_refused_with_the_library_error() -> None:
    state = endgame(Rules(), *DIFFERING)
    with pytest.raises(SearchError, match="objective must be"):
        solve(state, objective="money")  # type: ignore[arg-type]  # the wrong value on purpose
    with pytest.raises(SearchError, match="objective must be"):
        move_values(state, objective=None)  # type: ignore[arg-type]  # the wrong value on purpose
    deep = endgame(Rules(), 5, 6, 0)
    with pytest.raises(SearchBudgetError):
        solve(deep, objective="score", kernel="python", node_limit=50)
