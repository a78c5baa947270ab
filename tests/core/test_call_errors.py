"""An illegal bid cites the rule it breaks: R-BID-4 limits only the opening bid, R-BID-5 every
bid over a standing one."""

from __future__ import annotations

import pytest

from deepsix import (
    Bid,
    GameState,
    IllegalActionError,
    Reason,
    Seat,
    apply,
    new_game,
    shuffled_deal,
)


def auction_after(*amounts: int) -> tuple[GameState, Seat]:
    state = apply(new_game(), shuffled_deal(2026))  # East opens
    seat = Seat.EAST
    for amount in amounts:
        state = apply(state, Bid(seat, amount))
        seat = seat.left
    return state, seat


@pytest.mark.parametrize(
    ("amount", "reason"),
    [(130, Reason.BID_NOT_LOWER), (120, Reason.BID_NOT_LOWER), (90, Reason.BID_NOT_LOWER)],
)
def test_a_bid_over_the_standing_bid_breaks_r_bid_5(amount: int, reason: Reason) -> None:
    state, seat = auction_after(90)
    with pytest.raises(IllegalActionError) as caught:
        apply(state, Bid(seat, amount))
    assert caught.value.reason is reason
    assert caught.value.rule == "R-BID-5"


def test_an_opening_bid_over_the_limit_breaks_r_bid_4() -> None:
    state, seat = auction_after()
    with pytest.raises(IllegalActionError) as caught:
        apply(state, Bid(seat, 130))
    assert caught.value.reason is Reason.BID_ABOVE_OPENING
    assert caught.value.rule == "R-BID-4"
