"""Play-outs: a sampled deal played to the end of the hand, its endgame solved exactly.

Every phase the search bot searches before the endgame is searched the same
way: deal the hidden cards at random (:func:`deepsix.sample_state`), take
each candidate action in that deal, and play the hand out.  A play-out
lets a *policy* (a :class:`~deepsix.Bot`: by default the heuristic bot)
take every decision for all four seats until the play phase reaches
``solve_tricks`` tricks left; from there the deal is solved exactly, double
dummy (:func:`deepsix.search.solver.points`), so the play-out's end is as
good as the solver's.  A deal whose endgame needs more than ``node_limit``
nodes is played to the end by the policy instead.

In the card play a play-out needs no policy: :func:`perfect_playout_cost`
lets every seat play, with all the cards in view, the card the solver would
try first, and solves the rest -- the search's own play-out, which the
search bot uses when :attr:`~deepsix.search.bot.SearchBot.card_playouts` is
``"perfect"``.

The outcome is scored as the hand would be scored -- each team's card
points plus meld against the contract (:func:`deepsix.score_hand`) -- as
the partnership's recorded score minus the opponents': lower is better,
and a card that saves 10 points matters most when it makes or breaks the
contract.  The exact end of :func:`playout_cost` solves that score itself
(:func:`deepsix.search.solver.score`).

>>> import random
>>> from deepsix import HeuristicBot, Team, apply, new_game, shuffled_deal
>>> state = apply(new_game(), shuffled_deal(3))
>>> cost = playout_cost(state, Team.NORTH_SOUTH, HeuristicBot(), solve_tricks=5)
>>> cost == -playout_cost(state, Team.EAST_WEST, HeuristicBot(), solve_tricks=5)
True
"""

from __future__ import annotations

import random
from typing import Final

from deepsix.cards import HAND_SIZE, Team
from deepsix.engine import apply
from deepsix.errors import InvalidStateError
from deepsix.play.bots import Bot
from deepsix.scoring import score_hand
from deepsix.search._score import for_team
from deepsix.search.solver import KernelChoice, SearchBudgetError, playout_points, score
from deepsix.state import GameState, Phase
from deepsix.views import view

__all__ = ["endgame_cost", "perfect_playout_cost", "playout_cost"]

_STREAM_SEED: Final = 0
"""The policy's random stream in every play-out (the heuristic ignores it): play-outs
of one deal are deterministic, so candidates compared on the same deal differ only by
the candidate."""


def endgame_cost(state: GameState, team: Team | int, future: tuple[int, int]) -> float:
    """``team``'s recorded score minus the other team's, if each team takes ``future``
    more card points (from the current trick on, the last-trick bonus included)."""
    bidder = state.bidder
    bid = state.bid
    if bidder is None or bid is None:  # pragma: no cover - play has a bidder and a bid
        raise InvalidStateError("the hand has no contract yet")
    taken = state.card_points
    total = (taken[0] + future[0], taken[1] + future[1])
    scores = score_hand(bidder.team, bid, total, state.team_meld, state.rules).scores
    return float(scores[team] - scores[1 - team])


def playout_cost(  # noqa: PLR0913  # the position, then the budgets and the kernel as keywords
    state: GameState,
    team: Team | int,
    policy: Bot,
    *,
    solve_tricks: int = 0,
    node_limit: int = 20_000,
    kernel: KernelChoice = "python",
) -> float:
    """``team``'s recorded score minus the other team's at the end of the current hand.

    ``policy`` decides for every seat until the play phase has at most
    ``solve_tricks`` tricks left (0: to the end of the hand); the rest is
    solved exactly within ``node_limit`` nodes (if that does not suffice the
    policy plays on) by the solver kernel ``kernel`` (:data:`deepsix.search.solver.KERNEL`).
    """
    rng = random.Random(_STREAM_SEED)
    hands_done = len(state.completed_hands)
    while len(state.completed_hands) == hands_done:
        if (
            solve_tricks
            and state.phase is Phase.PLAY
            and HAND_SIZE - len(state.tricks) <= solve_tricks
        ):
            try:  # the hand's score solved (North-South's), not card points converted
                solved = score(state, node_limit=node_limit, kernel=kernel)
            except SearchBudgetError:
                solve_tricks = 0  # too hard for the budget: the policy plays on
            else:
                return float(for_team(solved, team))
        seat = state.to_act
        if seat is None:  # pragma: no cover - a hand in progress always has a seat to act
            raise InvalidStateError("the hand stopped before it was scored")
        state = apply(state, policy.choose(view(state, seat), rng))
    return _hand_cost(state, team)


def perfect_playout_cost(
    state: GameState, team: Team | int, *, solve_tricks: int = 5, node_limit: int = 20_000
) -> float:
    """``team``'s recorded score minus the other team's at the end of the current hand,
    from a state of the card play, by a *perfect-information play-out*
    (:func:`deepsix.search.solver.playout_points`): every seat plays, with all the cards
    in view, the card the solver would try first until ``solve_tricks`` tricks are left,
    and the rest is solved exactly within ``node_limit`` nodes.  No bot plays it.

    A state whose hand is already over (its last card was just played) gets
    that hand's score.
    """
    if state.phase is not Phase.PLAY:
        return _hand_cost(state, team)
    future = playout_points(state, solve_tricks=solve_tricks, node_limit=node_limit)
    return endgame_cost(state, team, future)


def _hand_cost(state: GameState, team: Team | int) -> float:
    """``team``'s recorded score minus the other team's in the hand ``state`` last scored."""
    scores = state.completed_hands[-1].scores
    return float(scores[team] - scores[1 - team])
