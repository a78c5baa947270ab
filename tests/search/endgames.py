"""Reachable play-phase positions and a brute-force oracle for the solver's tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from deepsix import (
    Action,
    GameState,
    Phase,
    Rules,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
)
from tests.support.strategies import choose_action


def endgame(rules: Rules, seed: int, tricks_left: int, played: int) -> GameState:
    """A state of the first hand with ``tricks_left`` tricks to go (the current one
    included) and ``played`` cards already in the current trick, reached by random
    legal play from a seeded deal (a cautious random auction, random passes and melds)."""
    rng = random.Random(seed)
    state = apply(new_game(rules), shuffled_deal(rng))
    while not (
        state.phase is Phase.PLAY
        and 14 - len(state.tricks) == tricks_left
        and len(state.trick) == played
    ):
        state = apply(state, choose_action(rng, state, "cautious"))
    return state


def minimax(state: GameState, memo: dict[tuple[object, ...], int] | None = None) -> int:
    """North-South's card points from ``state`` to the end of the hand under best play,
    by plain minimax over the engine's own ``legal_actions`` and ``apply``.

    The points of each trick (and the last-trick bonus) are read from the
    engine's scoring: the completed tricks' card points, then the finished
    hand's score-sheet line.
    """
    memo = {} if memo is None else memo
    key = _position(state)
    known = memo.get(key)
    if known is not None:
        return known
    values = [
        gained + (0 if after is None else minimax(after, memo))
        for gained, after in _continuations(state)
    ]
    assert state.to_act is not None
    value = min(values) if state.to_act.team == 0 else max(values)
    memo[key] = value
    return value


def line_values(
    state: GameState, memo: dict[tuple[object, ...], frozenset[int]] | None = None
) -> frozenset[int]:
    """Every value North-South's card points from ``state`` to the end of the hand take
    over all legal lines of play (read from the engine's scoring, as :func:`minimax`)."""
    memo = {} if memo is None else memo
    key = _position(state)
    known = memo.get(key)
    if known is not None:
        return known
    values: set[int] = set()
    for gained, after in _continuations(state):
        if after is None:
            values.add(gained)
        else:
            values.update(gained + value for value in line_values(after, memo))
    found = frozenset(values)
    memo[key] = found
    return found


def _position(state: GameState) -> tuple[object, ...]:
    """What the rest of the hand's card play depends on (the memo key)."""
    return (state.packed_hands, state.trick, state.to_act, len(state.tricks))


def _continuations(state: GameState) -> Iterator[tuple[int, GameState | None]]:
    """Each legal card's North-South card points gained by playing it, and the state after
    it (``None`` once the hand is over: its score-sheet line has the bonus)."""
    before = state.card_points[0]
    for action in legal_actions(state):
        after = apply(state, action)
        if after.phase is Phase.PLAY:
            yield after.card_points[0] - before, after
        else:
            yield after.completed_hands[-1].card_points[0] - before, None


def score_minimax(state: GameState, memo: dict[tuple[object, ...], int] | None = None) -> int:
    """The hand's score from ``state`` under best play for the score -- North-South's recorded
    score minus East-West's, North-South minimising -- by plain minimax over the engine's own
    ``legal_actions`` and ``apply``, each line's score read from the finished hand's record."""
    memo = {} if memo is None else memo
    key = (*_position(state), state.card_points)
    known = memo.get(key)
    if known is not None:
        return known
    values = [score_after(state, action, memo) for action in legal_actions(state)]
    assert state.to_act is not None
    value = min(values) if state.to_act.team == 0 else max(values)
    memo[key] = value
    return value


def score_after(
    state: GameState, action: Action, memo: dict[tuple[object, ...], int] | None = None
) -> int:
    """:func:`score_minimax` after ``action``."""
    after = apply(state, action)
    if after.phase is Phase.PLAY:
        return score_minimax(after, memo)
    scores = after.completed_hands[-1].scores
    return scores[0] - scores[1]
