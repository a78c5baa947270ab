"""Melding (R-MELD-3 to R-MELD-5): the bidder first, then the other three in turn.

The bidder declares her melds after her partner's pass, keeping enough
unmelded cards to pass three back (R-MELD-4, :func:`meld_cap`); after her
pass the other three declare theirs, clockwise from her left, and she
leads the first trick.  Each declaration is one meld; ``Done`` ends a
seat's melding.  Which melds a hand can form beside the ones already
declared -- the rule algebra the solver shares -- is :mod:`deepsix.melds`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from deepsix.actions import DECLARE, DONE, Action, DeclareMeld, Done
from deepsix.errors import Reason
from deepsix.hands import seat_hand, size
from deepsix.handsetup import HandSetup
from deepsix.legal import actor
from deepsix.melds import packed_available_melds, packed_meld_blocker
from deepsix.state import GameState, Phase, successor

__all__ = ["KINDS", "legal", "meld_cap", "refusal", "step"]

KINDS: Final[dict[Phase, tuple[type[Action], ...]]] = {
    Phase.BIDDER_MELD: (DeclareMeld, Done),
    Phase.MELDING: (DeclareMeld, Done),
}
"""The kinds of action each melding phase takes: a meld, or done."""


def meld_cap(state: GameState, packed: int) -> int | None:
    """How many card copies the seat's melds may tie up: the bidder keeps enough to pass
    back (R-MELD-4); the others are not limited."""
    if state.phase is Phase.BIDDER_MELD:
        return size(packed) - state.rules.pass_size
    return None


def legal(state: GameState) -> Sequence[Action]:
    """Every meld the seat can still declare, then ``Done``."""
    seat = actor(state)
    setup = state.setup
    packed = seat_hand(state.packed_hands, seat)
    melds = packed_available_melds(
        packed,
        setup.melds[seat],
        setup.sunk_suit,
        sharing=state.rules.meld_sharing,
        max_melded=meld_cap(state, packed),
    )
    return (*(DECLARE[seat, meld] for meld in melds), DONE[seat])


def refusal(state: GameState, action: Action) -> tuple[Reason, str]:
    """Why the seat may not declare this meld (:func:`~deepsix.melds.packed_meld_blocker`)."""
    assert isinstance(action, DeclareMeld)
    setup = state.setup
    packed = state.packed_hands[action.seat]
    reason = packed_meld_blocker(
        packed,
        setup.melds[action.seat],
        action.meld,
        setup.sunk_suit,
        sharing=state.rules.meld_sharing,
        max_melded=meld_cap(state, packed),
    )
    return reason or Reason.MELD_UNAVAILABLE, f"{action.meld}"


def step(state: GameState, action: Action) -> GameState:
    """Declare a meld, or end the seat's melding: the bidder passes back next, the others
    hand on to their left, and the last of them hands the lead to the bidder."""
    seat = action.seat
    assert seat is not None
    setup = state.setup
    if type(action) is DeclareMeld:
        melds = list(setup.melds)
        melds[seat] = (*melds[seat], action.meld)
        new_setup = HandSetup.__new__(
            HandSetup,
            setup.bids, setup.bidder, setup.bid, setup.sunk_suit, setup.invitation,
            setup.partner_pass, setup.bidder_pass, (melds[0], melds[1], melds[2], melds[3]),
        )  # fmt: skip
        return successor(state, action, state.phase, seat, new_setup, state.packed_hands)
    bidder = setup.bidder
    assert bidder is not None
    if state.phase is Phase.BIDDER_MELD:
        return successor(state, action, Phase.BIDDER_PASS, seat, setup, state.packed_hands)
    following = seat.left
    if following == bidder:
        return successor(state, action, Phase.PLAY, bidder, setup, state.packed_hands)
    return successor(state, action, Phase.MELDING, following, setup, state.packed_hands)
