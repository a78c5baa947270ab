"""What one seat sees of a table, as the observation encoder reads it.

The encoder reads the same facts from a :class:`~deepsix.PlayerView`
(:func:`facts_of_view`) or, skipping the view, straight from the state
(:func:`facts_of_state`): the public parts of the table, which the view
copies as they are, and the seat's own cards and passes, read the way
:func:`deepsix.view` reads them.  The tests check that both give the same
encoding in every phase, and that no hidden card changes it.

Plain typed Python with no numpy and no attrs, compiled in the compiled build.
"""

from __future__ import annotations

from deepsix import visibility
from deepsix.actions import Bid, Pass
from deepsix.cards import Seat
from deepsix.hands import pack, size
from deepsix.melds import Meld
from deepsix.state import GameState, Phase
from deepsix.tricks import Trick
from deepsix.views import PlayerView

__all__ = ["Facts", "facts_of_state", "facts_of_view"]


class Facts:
    """The facts of one seat's view that the observation encodes.

    ``setup`` is the state's hand setup, from which the auction, contract,
    invitation, pass counts and melds come (an immutable value: when it is
    the same object, those facts are the same), or None when the facts come
    from a view.
    """

    __slots__ = (
        "bid",
        "bidder",
        "bids",
        "dealer",
        "hand",
        "hand_number",
        "hand_sizes",
        "invitation",
        "melds",
        "pass_counts",
        "passed",
        "phase",
        "received",
        "scores",
        "setup",
        "sunk_suit",
        "to_act",
        "trick",
        "tricks",
    )

    def __init__(  # noqa: PLR0913  # every fact, by name
        self,
        *,
        phase: Phase,
        dealer: int,
        to_act: int | None,
        hand_number: int,
        scores: tuple[int, int],
        hand: int,
        passed: tuple[int, ...],
        received: tuple[int, ...],
        hand_sizes: tuple[int, int, int, int],
        bids: tuple[Bid | Pass, ...],
        bidder: int | None,
        bid: int | None,
        sunk_suit: int | None,
        invitation: tuple[int, ...],
        pass_counts: tuple[int, int],
        melds: tuple[tuple[Meld, ...], ...],
        trick: tuple[tuple[Seat, int], ...],
        tricks: tuple[Trick, ...],
        setup: object,
    ) -> None:
        self.phase = phase
        self.dealer = dealer
        self.to_act = to_act
        self.hand_number = hand_number
        self.scores = scores
        self.hand = hand
        """The seat's own cards, packed (:func:`deepsix.hands.pack`)."""
        self.passed = passed
        self.received = received
        self.hand_sizes = hand_sizes
        self.bids = bids
        self.bidder = bidder
        self.bid = bid
        self.sunk_suit = sunk_suit
        self.invitation = invitation
        self.pass_counts = pass_counts
        self.melds = melds
        self.trick = trick
        self.tricks = tricks
        self.setup = setup


def facts_of_state(state: GameState, me: int, *, private: bool, pass_size: int) -> Facts:
    """``me``'s facts, read from ``state`` the way :func:`deepsix.view` reads them (without
    ``private``, none of the seat's own passes)."""
    setup = state.setup
    packed = state.packed_hands
    passed: tuple[int, ...] = ()
    received: tuple[int, ...] = ()
    bidder = setup.bidder
    if private:
        passed, received = visibility.passes_seen(setup, me, pass_size)
    return Facts(
        phase=state.phase,
        dealer=state.dealer,
        to_act=state.to_act,
        hand_number=state.hand_number,
        scores=state.scores,
        hand=packed[me],
        passed=passed,
        received=received,
        hand_sizes=(size(packed[0]), size(packed[1]), size(packed[2]), size(packed[3])),
        bids=setup.bids,
        bidder=bidder,
        bid=setup.bid,
        sunk_suit=setup.sunk_suit,
        invitation=setup.invitation,
        pass_counts=(len(setup.partner_pass), len(setup.bidder_pass)),
        melds=setup.melds,
        trick=state.trick,
        tricks=state.tricks,
        setup=setup,
    )


def facts_of_view(view: PlayerView) -> Facts:
    """The facts of ``view`` (``deepsix.view(state, me)``, or the public view)."""
    return Facts(
        phase=view.phase,
        dealer=view.dealer,
        to_act=view.to_act,
        hand_number=view.hand_number,
        scores=view.scores,
        hand=pack(view.hand),
        passed=view.passed,
        received=view.received,
        hand_sizes=view.hand_sizes,
        bids=view.bids,
        bidder=view.bidder,
        bid=view.bid,
        sunk_suit=view.sunk_suit,
        invitation=view.invitation,
        pass_counts=view.pass_counts,
        melds=view.melds,
        trick=view.trick,
        tricks=view.tricks,
        setup=None,
    )
