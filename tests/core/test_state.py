"""The game state as a value: immutable, hashable, with its history."""

from __future__ import annotations

import pickle
import random

import attrs
import pytest

from deepsix import (
    Bid,
    GameState,
    IllegalActionError,
    LegalActions,
    Pass,
    Phase,
    Seat,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
)
from deepsix.history import History


def some_state(steps: int = 30, seed: int = 8) -> GameState:
    rng = random.Random(seed)
    state = apply(new_game(), shuffled_deal(rng))
    for _ in range(steps):
        if state.is_over:
            break
        if state.is_chance:
            state = apply(state, shuffled_deal(rng))
        else:
            state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_states_are_frozen() -> None:
    """Immutability: no field of a state can be reassigned."""
    state = some_state()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.phase = Phase.PLAY  # type: ignore[misc]  # assigning to a frozen state on purpose
    assert state.log is not None
    with pytest.raises(AttributeError):
        state.log.action = Pass(Seat.EAST)


def test_apply_never_mutates() -> None:
    """Purity: apply returns a new state and leaves its input equal to before."""
    state = some_state()
    before = pickle.dumps(state)
    copy = pickle.loads(before)
    action = legal_actions(state)[0]
    after = apply(state, action)
    assert after is not state
    assert state == copy
    assert hash(state) == hash(copy)
    assert after.history == (*state.history, action)


def test_illegal_action_leaves_state_usable() -> None:
    """Legality: after a refused action the state is unchanged and still plays."""
    state = apply(new_game(dealer=Seat.NORTH), shuffled_deal(1))
    snapshot = (state, hash(state), legal_actions(state))
    with pytest.raises(IllegalActionError):
        apply(state, Bid(Seat.EAST, 125))
    assert (state, hash(state), legal_actions(state)) == snapshot
    assert apply(state, Pass(Seat.EAST)).to_act == Seat.SOUTH


def test_history_is_persistent_and_replays() -> None:
    """Replay: applying state.history to a new game reproduces the state."""
    state = some_state(60)
    replayed = new_game(state.rules, Seat.NORTH)
    for action in state.history:
        replayed = apply(replayed, action)
    assert replayed == state
    assert len(state.log or ()) == len(state.history) == 61


def test_history_equality_without_recursion() -> None:
    """History equality and hashing walk long histories without recursion."""
    node: History | None = None
    other: History | None = None
    for _ in range(50_000):
        node = History(node, Pass(Seat.EAST))
        other = History(other, Pass(Seat.EAST))
    assert node == other
    assert hash(node) == hash(other)
    assert History(node, Pass(Seat.WEST)) != History(other, Pass(Seat.NORTH))


def test_legal_actions_view() -> None:
    """The legal-action list is a tuple with membership, length and a readable repr."""
    state = apply(new_game(dealer=Seat.NORTH), shuffled_deal(1))
    moves = legal_actions(state)
    assert isinstance(moves, LegalActions)
    assert moves is legal_actions(state)  # computed once per state
    assert Pass(Seat.EAST) in moves
    assert Bid(Seat.EAST, 120) in moves
    assert Bid(Seat.WEST, 120) not in moves
    assert "E passes" not in moves  # type: ignore[comparison-overlap]  # not an action
    assert repr(moves).startswith("<LegalActions (55): E passes, E bids 120, E bids 110")
    assert state.legal_actions() is moves
    assert state.apply(Pass(Seat.EAST)) == apply(state, Pass(Seat.EAST))


def test_state_repr_and_properties() -> None:
    """A state's repr names the hand, phase, seat to act and scores."""
    state = new_game()
    assert repr(state) == "<GameState hand 1 deal, to act: chance, scores 0-0>"
    dealt = apply(state, shuffled_deal(3))
    assert repr(dealt) == "<GameState hand 1 bidding, to act: E, scores 0-0>"
    assert dealt.tricks_taken == (0, 0)
    assert dealt.card_points == (0, 0)
    assert dealt.team_meld == (0, 0)
    assert all(list(hand) == sorted(hand) for hand in dealt.hands)


def test_states_pickle() -> None:
    """States survive pickling (for multiprocessing) unchanged."""
    state = some_state(200)
    assert state.completed_hands
    assert pickle.loads(pickle.dumps(state)) == state


def test_the_hand_number_counts_the_hand_being_played() -> None:
    """Hand 1 from the first deal on; one more after each scored hand; once the game is over,
    the number of the last hand played."""
    rng = random.Random(4)
    state = new_game()
    assert state.hand_number == 1
    while not state.is_over:
        played = len(state.completed_hands)
        assert state.hand_number == played + 1
        state = apply(
            state, shuffled_deal(rng) if state.is_chance else rng.choice(legal_actions(state))
        )
    assert state.hand_number == len(state.completed_hands) >= 1


def test_a_finished_game_reads_as_nobody_to_act_and_each_teams_score() -> None:
    """repr once the game is over: nobody acts; the scores are each team's own, in order."""
    rng = random.Random(6)
    state = new_game()
    while not state.is_over:
        state = apply(
            state, shuffled_deal(rng) if state.is_chance else rng.choice(legal_actions(state))
        )
    ns, ew = state.scores
    assert ns != ew
    assert repr(state) == (
        f"<GameState hand {state.hand_number} game-over, to act: nobody, scores {ns}-{ew}>"
    )
