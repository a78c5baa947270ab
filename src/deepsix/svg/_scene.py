"""What a picture of a position may show: one shape for a state (everything) and a view
(what its seat may know), so that the drawing code cannot tell them apart -- and cannot
show a card a view does not hold."""

from __future__ import annotations

from typing import TypeAlias

import attrs

from deepsix import visibility
from deepsix.actions import Bid, LegalActions, Pass, PassCard, PlayCard, ShowCard
from deepsix.cards import Card, Seat, Suit, Team
from deepsix.engine import legal_actions
from deepsix.errors import WrongTypeError
from deepsix.rules import Rules
from deepsix.state import GameState, HandRecord, Phase, SeatMelds
from deepsix.tricks import Trick
from deepsix.views import PlayerView, public_view

__all__ = ["Position", "Scene", "scene_of"]

Position: TypeAlias = GameState | PlayerView
"""What :func:`deepsix.svg.table` draws: a whole state, or one seat's view of it."""


@attrs.frozen
class Scene:
    """The drawable facts of a position."""

    viewer: Seat | None
    """Whose view this is (``None`` for a state or a spectator's view)."""
    is_state: bool
    """Whether the picture is of a whole state (every hand open)."""
    hands: tuple[tuple[Card, ...] | None, ...]
    """Each seat's cards, or ``None`` where they are hidden."""
    hand_sizes: tuple[int, int, int, int]
    """How many cards each seat holds."""
    rules: Rules
    dealer: Seat
    phase: Phase
    to_act: Seat | None
    hand_number: int
    scores: tuple[int, int]
    completed_hands: tuple[HandRecord, ...]
    bids: tuple[Bid | Pass, ...]
    bidder: Seat | None
    bid: int | None
    sunk_suit: Suit | None
    invitation: tuple[Card, ...]
    partner_pass: tuple[Card, ...] | None
    """The cards in flight from the bidder's partner, if this picture may show them."""
    bidder_pass: tuple[Card, ...] | None
    """The cards in flight from the bidder, if this picture may show them."""
    pass_counts: tuple[int, int]
    received: tuple[tuple[Card, ...], ...]
    """By seat: the cards it received from its partner this hand (where shown)."""
    melds: SeatMelds
    trick: tuple[tuple[Seat, Card], ...]
    tricks: tuple[Trick, ...]
    legal: LegalActions
    """The legal actions of the seat to act, where this picture may show them."""
    winner: Team | None

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the seat to act may play, pass or show now (as this picture knows)."""
        return tuple(
            action.card
            for action in self.legal
            if isinstance(action, PlayCard | PassCard | ShowCard)
        )


def scene_of(position: object) -> Scene:
    """The scene of a :class:`~deepsix.GameState` or a :class:`~deepsix.PlayerView`."""
    if isinstance(position, GameState):
        return _of_state(position)
    if isinstance(position, PlayerView):
        return _of_view(position)
    raise WrongTypeError(
        f"a picture is drawn from a GameState or a PlayerView, not {type(position).__name__}"
    )


def _of_state(state: GameState) -> Scene:
    """Everything: the public facts (the spectator's view) and every hidden card."""
    setup = state.setup
    size = state.rules.pass_size
    received = tuple(visibility.received_pass(setup, seat, size) for seat in range(4))
    return _scene(
        public_view(state),
        viewer=None,
        is_state=True,
        hands=state.hands,
        partner_pass=setup.partner_pass,
        bidder_pass=setup.bidder_pass,
        received=received,
        legal=legal_actions(state),
    )


def _of_view(view: PlayerView) -> Scene:
    """What ``view``'s seat may see: its own hand, its own passes, its own legal actions."""
    seat = view.seat
    hands: list[tuple[Card, ...] | None] = [None, None, None, None]
    received: list[tuple[Card, ...]] = [(), (), (), ()]
    partner_pass: tuple[Card, ...] | None = None
    bidder_pass: tuple[Card, ...] | None = None
    if seat is not None:
        hands[seat] = view.hand
        received[seat] = view.received
        if view.bidder is not None:
            if seat == view.bidder.partner:
                partner_pass = view.passed
                if view.received:
                    bidder_pass = view.received
            elif seat == view.bidder:
                bidder_pass = view.passed
                if view.received:
                    partner_pass = view.received
    return _scene(
        view,
        viewer=seat,
        is_state=False,
        hands=tuple(hands),
        partner_pass=partner_pass,
        bidder_pass=bidder_pass,
        received=tuple(received),
        legal=view.legal_actions,
    )


def _scene(  # noqa: PLR0913  # the private facts, named
    public: PlayerView,
    *,
    viewer: Seat | None,
    is_state: bool,
    hands: tuple[tuple[Card, ...] | None, ...],
    partner_pass: tuple[Card, ...] | None,
    bidder_pass: tuple[Card, ...] | None,
    received: tuple[tuple[Card, ...], ...],
    legal: LegalActions,
) -> Scene:
    """The scene of the public facts of ``public`` and the private facts this picture shows."""
    return Scene(
        viewer=viewer,
        is_state=is_state,
        hands=hands,
        hand_sizes=public.hand_sizes,
        rules=public.rules,
        dealer=public.dealer,
        phase=public.phase,
        to_act=public.to_act,
        hand_number=public.hand_number,
        scores=public.scores,
        completed_hands=public.completed_hands,
        bids=public.bids,
        bidder=public.bidder,
        bid=public.bid,
        sunk_suit=public.sunk_suit,
        invitation=public.invitation,
        partner_pass=partner_pass,
        bidder_pass=bidder_pass,
        pass_counts=public.pass_counts,
        received=received,
        melds=public.melds,
        trick=public.trick,
        tricks=public.tricks,
        legal=legal,
        winner=public.winner,
    )
