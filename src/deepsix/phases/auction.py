"""The auction (R-BID-1 to R-BID-8): the bidding phase.

Bidding starts on the dealer's left and goes clockwise.  Each call is a
bid or a pass; a pass is final for the hand.  Bids are multiples of the bid
step (10), the opening bid is at most 120, every later bid is strictly
lower than the standing one (jumps are fine), and bids may go below zero,
down to :attr:`Rules.lowest_bid`.  If the first three players pass, the
dealer's only call is the forced bid of 120.  The auction ends once the
other three players have passed after a bid; its last bidder wins it.

Like every module of :mod:`deepsix.phases`, this one exports the phase's
face -- :data:`KINDS`, :func:`legal`, :func:`refusal`, :func:`step` -- and
here also the auction's own algebra (:func:`legal_calls`,
:func:`after_call`, :func:`call_error`), which the adapters and the
exhaustive tests use without a state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Optional, Union

import attrs

from deepsix.actions import PASS, Action, Bid, Pass
from deepsix.cards import Seat
from deepsix.errors import IllegalActionError, Reason
from deepsix.handsetup import HandSetup
from deepsix.legal import actor
from deepsix.rules import Rules
from deepsix.state import GameState, Phase, successor

__all__ = [
    "KINDS",
    "AuctionStep",
    "after_call",
    "call_error",
    "legal",
    "legal_calls",
    "refusal",
    "shared_bid",
    "step",
]

KINDS: Final[dict[Phase, tuple[type[Action], ...]]] = {Phase.BIDDING: (Bid, Pass)}
"""The kinds of action the auction takes: a bid or a pass."""

_SEATS: Final = tuple(Seat)
_CALLS: Final[dict[tuple[Rules, Seat, int | None, bool], tuple[Action, ...]]] = {}
_MAX_CACHED_AUCTIONS: Final = 1024
"""The call lists kept (the oldest goes first): a game under one set of rules needs about
200.  Each holds at most :data:`~deepsix.rules.MAX_CALLS` shared actions, so the cache
stays under about a megabyte whatever documents are loaded."""
_BIDS: Final[dict[tuple[Seat, int], Bid]] = {}
"""One shared ``Bid`` per seat and amount.  Valid rules allow only multiples of 5 from
-410 to 250, so this holds at most 4 x 133 bids."""


def shared_bid(seat: Seat, amount: int) -> Bid:
    """The one shared ``Bid`` of ``seat`` for ``amount``: the object the legal calls hold, so
    that a caller holding it (the adapters' action tables) is found by identity."""
    bid = _BIDS.get((seat, amount))
    if bid is None:
        bid = _BIDS[(seat, amount)] = Bid(seat, amount)
    return bid


def legal_calls(
    rules: Rules, bids: tuple[Bid | Pass, ...], seat: Seat, standing: int | None
) -> tuple[Action, ...]:
    """The calls open to ``seat``: pass first, then every legal bid from high to low.

    At most :data:`~deepsix.rules.MAX_CALLS` of them, whatever the rules.
    """
    forced = standing is None and len(bids) == 3
    key = (rules, seat, standing, forced)
    calls = _CALLS.get(key)
    if calls is None:
        if forced:
            calls = (shared_bid(seat, rules.forced_bid),)
        else:
            ceiling = rules.opening_bid_limit if standing is None else standing - rules.bid_step
            amounts = range(ceiling, rules.lowest_bid - 1, -rules.bid_step)
            calls = (PASS[seat], *(shared_bid(seat, amount) for amount in amounts))
        if len(_CALLS) >= _MAX_CACHED_AUCTIONS:
            del _CALLS[next(iter(_CALLS))]
        _CALLS[key] = calls
    return calls


@attrs.frozen
class AuctionStep:
    """The auction after one more call."""

    bids: "tuple[Union[Bid, Pass], ...]"
    """Every call so far."""
    bidder: "Optional[Seat]"
    """The high bidder."""
    bid: "Optional[int]"
    """The standing bid."""
    finished: bool
    """Whether the auction is over (the bidder then names the sunk suit)."""
    next_seat: Seat
    """Who calls next, or the winning bidder once it is over."""


def after_call(
    bids: tuple[Bid | Pass, ...],
    bidder: Seat | None,
    bid: int | None,
    call: Bid | Pass,
) -> AuctionStep:
    """Record a legal ``call``, and find who calls next or whether the auction ended."""
    bids = (*bids, call)
    if type(call) is Bid:
        bidder, bid = call.seat, call.amount
    passed = 0
    for earlier in bids:
        if type(earlier) is Pass:
            passed |= 1 << earlier.seat
    if bidder is not None and passed.bit_count() == 3:
        return AuctionStep(bids, bidder, bid, True, bidder)
    seat = call.seat
    for _ in range(3):
        seat = _SEATS[(seat + 1) & 3]
        if not passed & (1 << seat):
            break
    return AuctionStep(bids, bidder, bid, False, seat)


def call_error(
    rules: Rules, bids: tuple[Bid | Pass, ...], standing: int | None, call: Bid | Pass
) -> IllegalActionError:
    """Why ``call`` is illegal for the seat to act (who is assumed to be ``call.seat``)."""
    if standing is None and len(bids) == 3:
        return IllegalActionError(
            Reason.DEALER_MUST_BID, f"the dealer's only call is {rules.forced_bid}", call
        )
    assert type(call) is Bid
    amount = call.amount
    if amount % rules.bid_step:
        return IllegalActionError(Reason.BID_NOT_MULTIPLE, f"{amount}", call)
    if standing is not None and amount >= standing:  # over a standing bid, R-BID-5 applies
        return IllegalActionError(Reason.BID_NOT_LOWER, f"{amount} >= {standing}", call)
    if amount > rules.opening_bid_limit:  # R-BID-4 limits the opening bid
        return IllegalActionError(
            Reason.BID_ABOVE_OPENING, f"{amount} > {rules.opening_bid_limit}", call
        )
    return IllegalActionError(Reason.BID_BELOW_FLOOR, f"{amount} < {rules.lowest_bid}", call)


# -- the phase's face -----------------------------------------------------------------


def legal(state: GameState) -> Sequence[Action]:
    """The calls open to the seat to act (:func:`legal_calls`)."""
    setup = state.setup
    return legal_calls(state.rules, setup.bids, actor(state), setup.bid)


def refusal(state: GameState, action: Action) -> tuple[Reason, str]:
    """Why the seat to act may not make this call (:func:`call_error`)."""
    assert isinstance(action, Bid | Pass)
    error = call_error(state.rules, state.setup.bids, state.setup.bid, action)
    return error.reason, error.detail


def step(state: GameState, action: Action) -> GameState:
    """Record a legal call; the auction's winner then names the sunk suit (R-SUNK-1)."""
    assert isinstance(action, Bid | Pass)
    setup = state.setup
    outcome = after_call(setup.bids, setup.bidder, setup.bid, action)
    phase = Phase.SUNK_SUIT if outcome.finished else Phase.BIDDING
    new_setup = HandSetup.__new__(HandSetup, outcome.bids, outcome.bidder, outcome.bid)
    return successor(state, action, phase, outcome.next_seat, new_setup, state.packed_hands)
