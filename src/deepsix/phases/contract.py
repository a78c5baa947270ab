"""The contract: the bidder names the sunk suit (R-SUNK-1), then may invite (R-INVITE-*).

Two short phases that settle what the bidder plays for.  In the
sunk-suit phase the auction's winner names one of the four suits; it is
the suit that wins tricks when a card of it is played to a trick of
another suit (R-PLAY-5), and no run may be melded in it (R-MELD-2).  In
the invitation she then shows her partner, face up and one at a time,
any cards that could belong to a meld (R-INVITE-2), and says she is done;
her partner passes next (:mod:`deepsix.phases.passing`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from deepsix.actions import DONE, SINK, Action, Done, NameSunkSuit, ShowCard
from deepsix.cards import CARDS, Suit
from deepsix.errors import Reason
from deepsix.hands import BIT, count, pack, seat_hand
from deepsix.handsetup import HandSetup
from deepsix.legal import SHOWS, actor
from deepsix.melds import can_show
from deepsix.state import GameState, Phase, successor

__all__ = ["KINDS", "legal", "refusal", "step"]

KINDS: Final[dict[Phase, tuple[type[Action], ...]]] = {
    Phase.SUNK_SUIT: (NameSunkSuit,),
    Phase.INVITATION: (ShowCard, Done),
}
"""The kinds of action each of the two phases takes."""

_SHOWABLE: Final = {
    sunk: sum(3 * BIT[card] for card in CARDS if can_show(card, sunk)) for sunk in Suit
}
"""Per sunk suit, every copy of every card an invitation may show, as a packed hand."""


def legal(state: GameState) -> Sequence[Action]:
    """The four suits to sink; in the invitation, every showable card not yet shown, then
    ``Done``."""
    seat = actor(state)
    if state.phase is Phase.SUNK_SUIT:
        return SINK[seat]
    setup = state.setup
    sunk = setup.sunk_suit
    assert sunk is not None
    unshown = seat_hand(state.packed_hands, seat) - pack(setup.invitation)
    return (*SHOWS[seat].all(unshown & _SHOWABLE[sunk]), DONE[seat])


def refusal(state: GameState, action: Action) -> tuple[Reason, str]:
    """Why the bidder may not show this card: she has no (more) copy of it to show, or it
    cannot belong to any meld."""
    if not isinstance(action, ShowCard):
        return Reason.WRONG_PHASE, f"{action} is not legal now"
    card = action.card
    if count(state.packed_hands[action.seat], card) <= state.setup.invitation.count(card):
        return Reason.CARD_NOT_IN_HAND, f"{action.seat} has no (more) {card}"
    return Reason.NOT_MELDABLE, f"{card} cannot be part of a meld"


def step(state: GameState, action: Action) -> GameState:
    """Sink the named suit, show a card, or end the invitation (her partner passes next)."""
    old = state.setup
    if type(action) is NameSunkSuit:
        setup = HandSetup.__new__(HandSetup, old.bids, old.bidder, old.bid, action.suit)
        return successor(state, action, Phase.INVITATION, action.seat, setup, state.packed_hands)
    if type(action) is Done:
        partner = action.seat.partner
        return successor(state, action, Phase.PARTNER_PASS, partner, old, state.packed_hands)
    assert isinstance(action, ShowCard)
    setup = HandSetup.__new__(
        HandSetup, old.bids, old.bidder, old.bid, old.sunk_suit, (*old.invitation, action.card)
    )
    return successor(state, action, Phase.INVITATION, action.seat, setup, state.packed_hands)
