"""The partners' passes (R-PASS-1, R-PASS-2): three cards each way, face down.

After the invitation the bidder's partner passes her three cards of his
choice, one at a time; she adds them to her hand and declares her own
melds (:mod:`deepsix.phases.melding`, R-MELD-4), then passes three cards
back -- none of them a card her melds tie up (R-PASS-2).  Who may *see*
the passed cards is not a rule of this phase but of what each seat
knows: :mod:`deepsix.visibility`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from deepsix.actions import Action, PassCard
from deepsix.errors import Reason
from deepsix.hands import BIT, count, pack, seat_hand
from deepsix.handsetup import HandSetup
from deepsix.legal import GIVES, actor
from deepsix.melds import tied_up_packed
from deepsix.state import GameState, Phase, successor

__all__ = ["KINDS", "legal", "refusal", "step"]

KINDS: Final[dict[Phase, tuple[type[Action], ...]]] = {
    Phase.PARTNER_PASS: (PassCard,),
    Phase.BIDDER_PASS: (PassCard,),
}
"""The kind of action each pass takes: one card at a time."""


def legal(state: GameState) -> Sequence[Action]:
    """Every card the passer holds; for the bidder, every card her melds do not tie up."""
    seat = actor(state)
    held = seat_hand(state.packed_hands, seat)
    if state.phase is Phase.PARTNER_PASS:
        return GIVES[seat].all(held)
    melded = tied_up_packed(state.setup.melds[seat], sharing=state.rules.meld_sharing)
    return GIVES[seat].all(held - melded)


def refusal(state: GameState, action: Action) -> tuple[Reason, str]:
    """Why the seat may not pass this card: she does not hold it, or (the bidder) every copy
    she holds is melded."""
    assert isinstance(action, PassCard)
    seat, card = action.seat, action.card
    if not count(state.packed_hands[seat], card):
        return Reason.CARD_NOT_IN_HAND, f"{seat} has no (more) {card}"
    return Reason.CARD_MELDED, f"every {card} {seat} holds is melded"


def step(state: GameState, action: Action) -> GameState:
    """Pass one card; the third goes into the receiver's hand with the other two, and the
    bidder melds next (after her partner's pass) or the others meld (after hers)."""
    assert isinstance(action, PassCard)
    seat = action.seat
    hands = list(state.packed_hands)
    hands[seat] -= BIT[action.card]
    old = state.setup
    from_partner = state.phase is Phase.PARTNER_PASS
    if from_partner:
        in_flight = (*old.partner_pass, action.card)
        partner_pass, bidder_pass = in_flight, old.bidder_pass
    else:
        in_flight = (*old.bidder_pass, action.card)
        partner_pass, bidder_pass = old.partner_pass, in_flight
    setup = HandSetup.__new__(
        HandSetup,
        old.bids, old.bidder, old.bid, old.sunk_suit, old.invitation, partner_pass, bidder_pass,
        old.melds,
    )  # fmt: skip
    phase, to_act = state.phase, seat
    if len(in_flight) == state.rules.pass_size:
        receiver = seat.partner
        hands[receiver] += pack(in_flight)
        if from_partner:
            phase, to_act = Phase.BIDDER_MELD, receiver
        else:
            phase, to_act = Phase.MELDING, seat.left
    return successor(state, action, phase, to_act, setup, (hands[0], hands[1], hands[2], hands[3]))
