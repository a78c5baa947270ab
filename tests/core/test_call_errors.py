"""An illegal bid cites the rule it breaks: R-BID-4 limits only the opening bid, R-BID-5 every
bid over a standing one."""

from __future__ import annotations

import pytest

import deepsix.errors as deepsix_errors
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


# -- the hierarchy is flat ---------------------------------------------------------------------

_BUILTINS = (ValueError, TypeError, KeyError, ImportError, LookupError, AttributeError)


@pytest.mark.parametrize(
    "kind",
    [
        getattr(deepsix_errors, name)
        for name in deepsix_errors.__all__
        if isinstance(getattr(deepsix_errors, name), type)
        and issubclass(getattr(deepsix_errors, name), deepsix_errors.DeepSixError)
        and getattr(deepsix_errors, name) is not deepsix_errors.DeepSixError
    ],
    ids=lambda kind: kind.__name__,
)
def test_each_error_is_one_builtin(kind: type[Exception]) -> None:
    """Every deepsix error is a DeepSixError and exactly one builtin exception: a caller
    catching ValueError or TypeError never meets an error that is both."""
    builtins = {base for base in kind.__mro__ if base in _BUILTINS}
    # KeyError is a LookupError: count the most specific builtin only.
    specific = {b for b in builtins if not any(o is not b and issubclass(o, b) for o in builtins)}
    assert len(specific) == 1, f"{kind.__name__} is {sorted(b.__name__ for b in specific)}"
    assert issubclass(kind, deepsix_errors.DeepSixError)


def test_not_an_action_is_a_type_error_only() -> None:
    from deepsix.errors import IllegalActionError, NotAnActionError, WrongTypeError

    assert issubclass(NotAnActionError, WrongTypeError)
    assert issubclass(NotAnActionError, TypeError)
    assert not issubclass(NotAnActionError, ValueError | IllegalActionError)
