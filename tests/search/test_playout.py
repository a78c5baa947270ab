"""Play-outs: the policy plays every seat, the endgame is solved exactly, the hand is scored."""

from __future__ import annotations

import random

from deepsix import (
    GameState,
    HeuristicBot,
    Phase,
    Rules,
    Team,
    apply,
    new_game,
    shuffled_deal,
    view,
)
from deepsix.search import points
from deepsix.search.playout import endgame_cost, playout_cost
from tests.search.endgames import endgame, minimax

POLICY = HeuristicBot()


def _policy_until(state: GameState, tricks_left: int) -> GameState:
    """``state`` played on by the policy until the play phase has ``tricks_left`` tricks."""
    rng = random.Random(0)
    while not (state.phase is Phase.PLAY and 14 - len(state.tricks) <= tricks_left):
        assert state.to_act is not None
        state = apply(state, POLICY.choose(view(state, state.to_act), rng))
    return state


def test_the_two_teams_costs_are_opposite() -> None:
    """The cost is one team's recorded score minus the other's: zero-sum by definition."""
    for seed in range(3):
        state = apply(new_game(), shuffled_deal(seed))
        north_south = playout_cost(state, Team.NORTH_SOUTH, POLICY, solve_tricks=4)
        assert north_south == -playout_cost(state, Team.EAST_WEST, POLICY, solve_tricks=4)


def test_without_a_solve_it_is_the_policy_s_hand_as_scored() -> None:
    """solve_tricks=0: the policy plays the hand to its end and the score-sheet line is
    the outcome."""
    state = apply(new_game(), shuffled_deal(5))
    end = state
    rng = random.Random(0)
    while len(end.completed_hands) == 0:
        assert end.to_act is not None
        end = apply(end, POLICY.choose(view(end, end.to_act), rng))
    scores = end.completed_hands[0].scores
    assert playout_cost(state, Team.EAST_WEST, POLICY) == scores[1] - scores[0]


def test_the_endgame_is_solved_exactly() -> None:
    """With solve_tricks=k the policy plays to k tricks left, and the rest is the exact
    double-dummy value (checked against plain minimax over the engine), scored against
    the contract."""
    for seed in range(4):
        state = apply(new_game(), shuffled_deal(10 + seed))
        at_three = _policy_until(state, 3)
        exact = minimax(at_three)
        total = sum(points(at_three))
        expected = endgame_cost(at_three, Team.NORTH_SOUTH, (exact, total - exact))
        assert playout_cost(state, Team.NORTH_SOUTH, POLICY, solve_tricks=3) == expected


def test_an_endgame_too_big_for_its_budget_is_played_by_the_policy() -> None:
    """A node limit of 1 solves nothing: the play-out is the policy's to the end."""
    state = endgame(Rules(), 3, 6, 0)
    assert playout_cost(state, 0, POLICY, solve_tricks=6, node_limit=1) == playout_cost(
        state, 0, POLICY
    )


def test_points_is_solve_without_the_cards() -> None:
    from deepsix.search import solve

    for seed in range(6):
        state = endgame(Rules(), seed, 4, seed % 4)
        assert points(state) == solve(state).points
