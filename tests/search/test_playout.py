"""Play-outs: the policy plays every seat, the endgame is solved exactly, the hand is scored."""

from __future__ import annotations

import random

import pytest

from deepsix import (
    GameState,
    HeuristicBot,
    Phase,
    Rules,
    Team,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
    view,
)
from deepsix.scoring import TOTAL_CARD_POINTS
from deepsix.search import SearchError, points
from deepsix.search.playout import endgame_cost, perfect_playout_cost, playout_cost
from deepsix.search.solver import playout_points
from tests.search.endgames import endgame, line_values, minimax

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


# -- perfect-information play-outs: the search's own, no policy ----------------------------


def test_a_perfect_playout_solved_throughout_is_the_exact_value() -> None:
    """With at least as many tricks to solve as are left, the perfect-information play-out
    is the exact double-dummy value (plain minimax over the engine), mid-trick too."""
    for seed in range(8):
        state = endgame(Rules(), 40 + seed, 3, seed % 4)
        exact = minimax(state)
        total = sum(points(state))
        assert playout_points(state, solve_tricks=3) == (exact, total - exact)
        assert playout_points(state, solve_tricks=14) == (exact, total - exact)


def test_a_perfect_playout_shares_out_every_point_left() -> None:
    """However much of it is played by the ordering (all of it when the budget solves
    nothing), North-South's points lie between none and all of the points still to be
    taken (counted from the engine's own tally of the completed tricks), East-West take
    the rest, and a second play-out of the same state gives the same points (the solver's
    hands are put back)."""
    for seed in range(6):
        state = endgame(Rules(), 60 + seed, 8 + seed % 3, seed % 4)
        left = TOTAL_CARD_POINTS - sum(state.card_points)  # the last-trick bonus included
        for solve_tricks in (0, 2, 4, 6):
            for node_limit in (1, 20_000):
                found = playout_points(state, solve_tricks=solve_tricks, node_limit=node_limit)
                assert 0 <= found[0] <= left
                assert found[1] == left - found[0]
                again = playout_points(state, solve_tricks=solve_tricks, node_limit=node_limit)
                assert again == found


def test_a_perfect_playout_is_a_line_of_play_then_best_play() -> None:
    """Played by the ordering for some tricks and solved after (or, beyond its budget,
    played by the ordering to the end), the play-out's points are those of a legal line
    of play to the end of the hand (all lines enumerated over the engine)."""
    for seed in range(12):
        state = endgame(Rules(), 100 + seed, 3, seed % 4)
        lines = line_values(state)
        for solve_tricks in (0, 1, 2):
            for node_limit in (1, 20_000):
                north_south, _ = playout_points(
                    state, solve_tricks=solve_tricks, node_limit=node_limit
                )
                assert north_south in lines, (seed, solve_tricks, north_south, sorted(lines))


def test_a_perfect_playout_beyond_its_budget_is_the_orderings_to_the_end() -> None:
    """A node limit of 1 solves nothing: the ordering plays every trick, as with no
    trick solved at all."""
    state = endgame(Rules(), 7, 9, 1)
    assert playout_points(state, solve_tricks=5, node_limit=1) == playout_points(
        state, solve_tricks=0
    )


def test_perfect_playout_costs_are_opposite_and_scored_as_the_hand() -> None:
    for seed in range(4):
        state = endgame(Rules(), 80 + seed, 10, seed % 4)
        north_south = perfect_playout_cost(state, Team.NORTH_SOUTH, solve_tricks=4)
        assert north_south == -perfect_playout_cost(state, Team.EAST_WEST, solve_tricks=4)
        future = playout_points(state, solve_tricks=4, node_limit=20_000)
        assert north_south == endgame_cost(state, Team.NORTH_SOUTH, future)


def test_a_perfect_playout_of_a_finished_hand_is_its_score() -> None:
    state = endgame(Rules(), 3, 1, 3)
    last = next(action for action in legal_actions(state))
    after = apply(state, last)
    assert after.phase is not Phase.PLAY
    scores = after.completed_hands[-1].scores
    assert perfect_playout_cost(after, Team.EAST_WEST) == scores[1] - scores[0]


def test_a_perfect_playout_needs_the_play_phase_and_a_sound_solve_depth() -> None:
    with pytest.raises(SearchError):
        playout_points(apply(new_game(), shuffled_deal(1)), solve_tricks=3)
    with pytest.raises(SearchError):
        playout_points(endgame(Rules(), 1, 5, 0), solve_tricks=15)
