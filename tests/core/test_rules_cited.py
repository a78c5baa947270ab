"""Focused tests for numbered rules that no other test cites.

``tests/test_docs.py`` requires every rule id of the rulebook to be cited
by at least one test; each test here verifies one such rule through the
public API and names it in its docstring.
"""

from __future__ import annotations

import random

import pytest

from deepsix import (
    CARDS,
    Bid,
    Card,
    Done,
    GameState,
    IllegalActionError,
    NameSunkSuit,
    Pass,
    PassCard,
    Phase,
    PlayCard,
    Reason,
    Seat,
    ShowCard,
    Suit,
    apply,
    legal_actions,
    new_game,
    shuffled_deal,
)

CardAction = ShowCard | PassCard | PlayCard


def _invitation() -> GameState:
    """Seed 3: East wins the auction at 50 and sinks spades; she holds one 8♠ and no 8♥."""
    state = apply(new_game(dealer=Seat.NORTH), shuffled_deal(3))
    for action in (
        Bid(Seat.EAST, 50),
        Pass(Seat.SOUTH),
        Pass(Seat.WEST),
        Pass(Seat.NORTH),
        NameSunkSuit(Seat.EAST, Suit.SPADES),
    ):
        state = apply(state, action)
    assert state.phase is Phase.INVITATION
    return state


def _refusal(state: GameState, action: CardAction) -> Reason:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    assert caught.value.rule == "R-CARD-1"
    return caught.value.reason


def test_cannot_show_a_card_not_held() -> None:
    """R-CARD-1: the bidder cannot show a card she does not hold."""
    state = _invitation()
    eight_of_hearts = Card.parse("8H")
    assert eight_of_hearts not in state.hand(Seat.EAST)
    assert _refusal(state, ShowCard(Seat.EAST, eight_of_hearts)) is Reason.CARD_NOT_IN_HAND


def test_cannot_show_more_copies_than_held() -> None:
    """R-CARD-1: a card held once can be shown once, not twice."""
    state = _invitation()
    eight_of_spades = Card.parse("8S")
    assert state.hand(Seat.EAST).count(eight_of_spades) == 1
    state = apply(state, ShowCard(Seat.EAST, eight_of_spades))
    assert ShowCard(Seat.EAST, eight_of_spades) not in legal_actions(state)
    assert _refusal(state, ShowCard(Seat.EAST, eight_of_spades)) is Reason.CARD_NOT_IN_HAND


def test_passed_card_has_left_the_hand() -> None:
    """R-CARD-1: a partner can pass only cards he holds, and a passed copy is gone."""
    state = apply(_invitation(), Done(Seat.EAST))
    assert state.phase is Phase.PARTNER_PASS
    assert state.to_act is Seat.WEST
    seven_of_clubs, eight_of_hearts = Card.parse("7C"), Card.parse("8H")
    assert seven_of_clubs not in state.hand(Seat.WEST)
    assert _refusal(state, PassCard(Seat.WEST, seven_of_clubs)) is Reason.CARD_NOT_IN_HAND
    assert state.hand(Seat.WEST).count(eight_of_hearts) == 1
    state = apply(state, PassCard(Seat.WEST, eight_of_hearts))
    assert eight_of_hearts not in state.hand(Seat.WEST)
    assert _refusal(state, PassCard(Seat.WEST, eight_of_hearts)) is Reason.CARD_NOT_IN_HAND


def test_cannot_play_a_card_held_by_someone_else() -> None:
    """R-CARD-1: in play, a card the player does not hold is refused before any play rule."""
    state = apply(_invitation(), Done(Seat.EAST))
    while state.phase is not Phase.PLAY:
        state = apply(state, legal_actions(state)[0])
    seat = state.to_act
    assert seat is not None
    elsewhere = next(card for card in CARDS if card not in state.hand(seat))
    assert _refusal(state, PlayCard(seat, elsewhere)) is Reason.CARD_NOT_IN_HAND


@pytest.mark.parametrize("seed", [11, 12])
def test_card_actions_name_held_cards_in_random_games(seed: int) -> None:
    """R-CARD-1: along whole random games, every legal card action names a card the actor
    holds, and the same action for any card she does not hold is refused with its reason."""
    rng = random.Random(seed)
    state = new_game()
    checked = 0
    while not state.is_over and state.hand_number <= 2:
        if state.is_chance:
            state = apply(state, shuffled_deal(rng))
            continue
        legal = legal_actions(state)
        seat = state.to_act
        assert seat is not None
        held = set(state.hand(seat))
        kinds = {type(a) for a in legal if isinstance(a, ShowCard | PassCard | PlayCard)}
        for action in legal:
            if isinstance(action, ShowCard | PassCard | PlayCard):
                assert action.card in held
        for kind in kinds:
            for card in CARDS:
                if card not in held:
                    assert _refusal(state, kind(seat, card)) is Reason.CARD_NOT_IN_HAND
                    checked += 1
        state = apply(state, rng.choice(legal))
    assert checked > 0
