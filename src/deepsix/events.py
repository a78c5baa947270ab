"""What a step of the game means: the events a front end renders.

A front end that applies actions (or receives the states a server
applies) wants to say "East takes the trick, 30 points", "the hand is
scored", "the game is over" -- not to compare two states field by field.
:func:`events` derives those moments from one step ``(before, action,
after)`` of a game, so every consumer (the transcript, the terminal game,
the simulator, a web server) reads them the same way.

Every event carries *public* information only: what every player at the
table sees.  Events can therefore be broadcast to all seats and
spectators without leaking a hidden card; what one seat alone may know
(its hand, the cards it passed and received) is in its
:class:`~deepsix.PlayerView`.

>>> from deepsix import new_game, shuffled_deal
>>> before = new_game()
>>> after = before.apply(shuffled_deal(1))
>>> events(before, shuffled_deal(1), after)
(HandDealt(number=1, dealer=<Seat.NORTH: 0>),)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeAlias

import attrs

from deepsix.actions import Action, Deal, Done, NameSunkSuit, Pass, PassCard, PlayCard
from deepsix.cards import HAND_SIZE, Card, Seat, Suit, Team
from deepsix.melds import Meld, meld_value
from deepsix.scoring import LAST_TRICK_BONUS
from deepsix.state import GameState, HandRecord, Phase
from deepsix.tricks import Trick, trick_points, trick_winner

__all__ = [
    "AuctionWon",
    "CardsPassed",
    "Event",
    "GameOver",
    "HandDealt",
    "HandScored",
    "InvitationMade",
    "MeldsDeclared",
    "SunkSuitNamed",
    "TrickWon",
    "events",
]


@attrs.frozen
class HandDealt:
    """A hand was dealt (R-DEAL-1)."""

    number: int
    """The hand's number, 1 for the first of the game."""
    dealer: Seat
    """Who dealt it."""


@attrs.frozen
class AuctionWon:
    """The auction ended: ``bidder`` holds the contract ``bid`` (R-BID-8)."""

    bidder: Seat
    """The seat that won the auction."""
    bid: int
    """The contract."""
    forced: bool
    """Whether it was the dealer's forced bid after three passes (R-BID-7)."""


@attrs.frozen
class SunkSuitNamed:
    """The bidder named the sunk suit (R-SUNK-1)."""

    bidder: Seat
    """The bidder."""
    suit: Suit
    """The sunk suit."""


@attrs.frozen
class InvitationMade:
    """The bidder closed her invitation; ``cards`` lie face up (R-INVITE-1)."""

    bidder: Seat
    """The bidder."""
    cards: tuple[Card, ...]
    """The cards shown, in the order shown (empty: no invitation)."""


@attrs.frozen
class CardsPassed:
    """A pass between partners arrived: ``count`` cards, face down (R-PASS-1, R-PASS-2)."""

    giver: Seat
    """Who passed."""
    receiver: Seat
    """Who received (the giver's partner)."""
    count: int
    """How many cards went across (the cards themselves are private)."""


@attrs.frozen
class MeldsDeclared:
    """A seat finished declaring its melds (R-MELD-5)."""

    seat: Seat
    """The seat that melded."""
    melds: tuple[Meld, ...]
    """Its melds, in the order declared (empty: no meld)."""
    value: int
    """Their total value (zero or negative)."""


@attrs.frozen
class TrickWon:
    """A trick was completed and taken (R-PLAY-4 to R-PLAY-6)."""

    number: int
    """1 for the hand's first trick, up to 14."""
    trick: Trick
    """The four plays and the winner."""
    points: int
    """Card points in the trick, plus the last-trick bonus for the 14th (R-SCORE-1)."""

    @property
    def winner(self) -> Seat:
        """The seat that took the trick."""
        return self.trick.winner

    @property
    def is_last(self) -> bool:
        """Whether this was the hand's last trick (it carries the bonus)."""
        return self.number == HAND_SIZE


@attrs.frozen
class HandScored:
    """The hand ended and was scored (R-SCORE-*); ``record`` is its score-sheet line."""

    record: HandRecord
    """The finished hand's record (also the last of ``after.completed_hands``)."""


@attrs.frozen
class GameOver:
    """The game ended (R-END-*)."""

    winner: Team
    """The team with the lower total."""
    scores: tuple[int, int]
    """The final totals."""


Event: TypeAlias = (
    HandDealt
    | AuctionWon
    | SunkSuitNamed
    | InvitationMade
    | CardsPassed
    | MeldsDeclared
    | TrickWon
    | HandScored
    | GameOver
)
"""Any event."""


def events(before: GameState, action: Action, after: GameState) -> tuple[Event, ...]:
    """The events of one step: ``after`` is ``apply(before, action)``.

    Events come in the order they happen: a 14th trick gives the trick,
    then the hand's score, then (if the totals end it) the game's end.
    Most steps (a bid, a card played to an unfinished trick) give none.
    """
    if type(action) is Deal:
        return (HandDealt(after.hand_number, after.dealer),)
    found = list(_move_events(before, action, after))
    if len(after.completed_hands) > len(before.completed_hands):
        found.append(HandScored(after.completed_hands[-1]))
    if after.phase is Phase.GAME_OVER and before.phase is not Phase.GAME_OVER:
        winner = after.winner
        assert winner is not None
        found.append(GameOver(winner, after.scores))
    return tuple(found)


def _move_events(before: GameState, action: Action, after: GameState) -> Iterator[Event]:
    """What a player's move completed: an auction, an invitation, a pass, a meld turn, a trick."""
    phase = before.phase
    if phase is Phase.BIDDING and after.phase is not Phase.BIDDING:
        bidder, bid, bids = after.setup.bidder, after.setup.bid, after.setup.bids
        assert bidder is not None
        assert bid is not None
        forced = len(bids) == 4 and all(type(call) is Pass for call in bids[:3])
        yield AuctionWon(bidder, bid, forced)
    elif type(action) is NameSunkSuit:
        yield SunkSuitNamed(action.seat, action.suit)
    elif type(action) is Done and phase is Phase.INVITATION:
        yield InvitationMade(action.seat, after.setup.invitation)
    elif type(action) is Done:
        melds = after.setup.melds[action.seat]
        yield MeldsDeclared(action.seat, melds, meld_value(melds))
    elif type(action) is PassCard and after.phase is not phase:
        yield CardsPassed(action.seat, action.seat.partner, before.rules.pass_size)
    elif type(action) is PlayCard and len(before.trick) == 3:
        yield _trick_won(before, action)


def _trick_won(before: GameState, action: PlayCard) -> TrickWon:
    plays = (*before.trick, (action.seat, action.card))
    number = len(before.tricks) + 1
    points = trick_points([card for _, card in plays])
    if number == HAND_SIZE:
        points += LAST_TRICK_BONUS
    return TrickWon(number, Trick(plays, trick_winner(plays, before.setup.sunk_suit)), points)
