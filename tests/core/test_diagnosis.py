"""Why an action is refused (``deepsix.diagnosis``): each refusal names what was wrong.

The engine accepts exactly its legal actions; only a refused action reaches the diagnosis,
whose error must say which rule it breaks and what the action did (the rules' statements of
legality are in ``test_legality`` and ``test_engine``; these tests read the messages).
"""

from __future__ import annotations

import random

import pytest

from deepsix import (
    Bid,
    GameState,
    IllegalActionError,
    Pass,
    Phase,
    PlayCard,
    Reason,
    Seat,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
)
from deepsix.errors import NotAnActionError
from tests.support.games import finished_game
from tests.support.scenarios import auction_won_by_north
from tests.support.strategies import choose_action


def refusal(state: GameState, action: object) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)  # type: ignore[call-overload]  # deliberately wrong inputs
    return caught.value


@pytest.mark.parametrize("kind", [Bid, Pass])
def test_an_action_built_without_its_constructor_is_named(kind: type) -> None:
    state = new_game().apply(shuffled_deal(1))
    half_built: object = object.__new__(kind)
    with pytest.raises(NotAnActionError) as caught:
        apply(state, half_built)  # type: ignore[call-overload]  # deliberately half-built
    error = caught.value
    assert error.action is half_built
    assert error.detail == f"a {kind.__name__} missing its fields"
    assert str(error) == f"not a deepsix action: a {kind.__name__} missing its fields"


def test_after_the_game_the_refusal_says_only_that_it_is_over() -> None:
    over = finished_game()
    assert over.phase is Phase.GAME_OVER
    error = refusal(over, Pass(Seat.NORTH))
    assert error.reason is Reason.GAME_OVER
    assert error.detail == ""
    assert str(error) == "R-END-1: the game is over; no more actions are taken"


def test_a_move_of_the_wrong_phase_is_named_by_its_kind() -> None:
    state = auction_won_by_north()
    assert state.phase is Phase.SUNK_SUIT
    error = refusal(state, PlayCard(Seat.NORTH, state.hand(Seat.NORTH)[0]))
    assert error.reason is Reason.WRONG_PHASE
    assert error.detail == "PlayCard during the sunk-suit phase"


def off_suit_seconds(games: int = 40) -> list[GameState]:
    """Positions in random games where the second card of a trick did not follow the lead."""
    found = []
    rng = random.Random(11)
    for _ in range(games):
        state = new_game()
        while not state.is_over and state.hand_number == 1:
            trick = state.trick
            if len(trick) in (2, 3) and trick[1][1].suit != trick[0][1].suit:
                found.append(state)
            state = state.apply(choose_action(rng, state, "cautious"))
    return found


def test_the_suit_to_follow_is_the_first_cards_even_after_a_seat_failed_to() -> None:
    # R-PLAY-2: a card of the second player's suit, played while holding the suit led, is
    # refused for not following the suit led -- the first card's suit names it.
    checked = 0
    for state in off_suit_seconds():
        seat = state.to_act
        assert seat is not None
        led, second = state.trick[0][1].suit, state.trick[1][1].suit
        hand = state.hand(seat)
        offs = [card for card in hand if card.suit == second]
        if not offs or not any(card.suit == led for card in hand):
            continue
        error = refusal(state, PlayCard(seat, offs[0]))
        assert error.reason is Reason.MUST_FOLLOW_SUIT
        assert error.detail == f"{seat} holds {led.symbol} cards"
        assert PlayCard(seat, offs[0]) not in legal_actions(state)
        checked += 1
    assert checked > 0
