"""Per-seat views: what one player (or a spectator) may know about a game.

A :class:`PlayerView` is built from a :class:`~deepsix.GameState` and a
seat, and contains everything that seat may legitimately know and nothing
more: its own cards, the auction, the sunk suit, the invitation, the cards
it passed and received, every declared meld, the tricks, the scores, and
-- when it is that seat's turn -- its legal actions.  Other players' cards
appear only as counts.  Hand them to bots and remote clients instead of
the state, and nothing hidden can leak.

A spectator's view (``seat=None``) shows no private cards at all.
"""

from __future__ import annotations

import attrs

from deepsix.actions import Bid, Pass
from deepsix.cards import Card, Seat, Suit, Team
from deepsix.engine import LegalActions, legal_actions
from deepsix.errors import ParseError
from deepsix.hands import size, unpack
from deepsix.melds import Meld
from deepsix.rules import Rules
from deepsix.state import GameState, HandRecord, Phase
from deepsix.tricks import Trick

__all__ = ["PlayerView", "public_view", "view"]


@attrs.frozen
class PlayerView:
    """Everything one seat may know about the game at one moment."""

    seat: Seat | None
    """Whose view this is; ``None`` for a spectator."""
    rules: Rules
    """The rules of the game."""
    dealer: Seat
    """Who dealt this hand."""
    phase: Phase
    """The current phase."""
    to_act: Seat | None
    """The seat to act (``None`` at a chance step or after the game)."""
    hand_number: int
    """The number of the current hand."""
    scores: tuple[int, int]
    """Running totals per team."""
    completed_hands: tuple[HandRecord, ...]
    """The score sheet of finished hands."""
    hand: tuple[Card, ...]
    """This seat's own cards, sorted (empty for a spectator)."""
    hand_sizes: tuple[int, int, int, int]
    """How many cards each seat holds."""
    bids: tuple[Bid | Pass, ...]
    """The auction so far."""
    bidder: Seat | None
    """The high bidder (the bid winner once the auction is over)."""
    bid: int | None
    """The standing bid (the contract once the auction is over)."""
    sunk_suit: Suit | None
    """The sunk suit, once named."""
    invitation: tuple[Card, ...]
    """The cards the bidder showed face up."""
    passed: tuple[Card, ...]
    """The cards this seat passed to its partner this hand (if any)."""
    received: tuple[Card, ...]
    """The cards this seat received from its partner this hand (once all arrived)."""
    pass_counts: tuple[int, int]
    """How many cards went from partner to bidder, and back, this hand (public)."""
    melds: tuple[tuple[Meld, ...], ...]
    """Every seat's declared melds (public)."""
    trick: tuple[tuple[Seat, Card], ...]
    """The trick in progress."""
    tricks: tuple[Trick, ...]
    """The completed tricks of this hand."""
    legal_actions: LegalActions
    """This seat's legal actions (empty when it is not this seat's turn)."""
    winner: Team | None
    """The winning team, once the game is over."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.GAME_OVER

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is the one to act."""
        return self.seat is not None and self.seat == self.to_act


_NO_ACTIONS = LegalActions()


def view(state: GameState, seat: Seat | None) -> PlayerView:
    """The view of ``state`` that ``seat`` may see; ``seat=None`` gives the spectator's view."""
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat <= 3):
        raise ParseError(f"{seat!r} is not a seat")
    setup = state.setup
    bidder = setup.bidder
    passed: tuple[Card, ...] = ()
    received: tuple[Card, ...] = ()
    if seat is not None and bidder is not None:
        complete = state.rules.pass_size
        if seat == bidder.partner:
            passed = setup.partner_pass
            if len(setup.bidder_pass) == complete:
                received = setup.bidder_pass
        elif seat == bidder:
            passed = setup.bidder_pass
            if len(setup.partner_pass) == complete:
                received = setup.partner_pass
    own = seat is not None and seat == state.to_act
    return PlayerView(
        seat=seat,
        rules=state.rules,
        dealer=state.dealer,
        phase=state.phase,
        to_act=state.to_act,
        hand_number=state.hand_number,
        scores=state.scores,
        completed_hands=state.completed_hands,
        hand=() if seat is None else unpack(state.packed_hands[seat]),
        hand_sizes=(
            size(state.packed_hands[0]),
            size(state.packed_hands[1]),
            size(state.packed_hands[2]),
            size(state.packed_hands[3]),
        ),
        bids=setup.bids,
        bidder=bidder,
        bid=setup.bid,
        sunk_suit=setup.sunk_suit,
        invitation=setup.shown,
        passed=passed,
        received=received,
        pass_counts=(len(setup.partner_pass), len(setup.bidder_pass)),
        melds=setup.melds,
        trick=state.trick,
        tricks=state.tricks,
        legal_actions=legal_actions(state) if own else _NO_ACTIONS,
        winner=state.winner,
    )


def public_view(state: GameState) -> PlayerView:
    """The spectator's view: no private cards at all."""
    return view(state, None)
