"""The actions that move a game forward.

Every choice in Deep Six is broken into small, atomic actions so that each
phase has a short, fully enumerable list of legal actions: passing three
cards is three :class:`PassCard` actions, an invitation is any number of
:class:`ShowCard` actions closed by :class:`Done`, and so on.

Actions are frozen value objects that name the seat taking them (``.seat``;
``None`` for the chance action :class:`Deal`).  Two actions with the same
fields are equal, wherever they came from; the engine hands out shared
instances so that comparing and hashing them is cheap.
"""

from __future__ import annotations

from typing import Final, TypeAlias

import attrs

from deepsix.cards import CARDS, Card, Seat, Suit, format_cards, seat_of
from deepsix.errors import ParseError, WrongTypeError, brief
from deepsix.melds import ALL_MELDS, Meld

__all__ = [
    "Action",
    "Bid",
    "Deal",
    "DeclareMeld",
    "Done",
    "LegalActions",
    "NameSunkSuit",
    "Pass",
    "PassCard",
    "PlayCard",
    "ShowCard",
]


def _to_seat(value: object) -> Seat:
    try:
        return seat_of(value)
    except WrongTypeError as error:  # an action's fields refuse every bad value alike
        raise ParseError(str(error)) from None


def _to_card(value: object) -> Card:
    if type(value) is Card:
        return value
    if isinstance(value, str):
        return Card.parse(value)
    raise ParseError(f"card must be a Card or its notation (7S), not {brief(value)}")


def _to_suit(value: object) -> Suit:
    if isinstance(value, Suit):
        return value
    if isinstance(value, str):
        return Suit.parse(value)
    raise ParseError(f"suit must be a Suit or its letter (S), not {brief(value)}")


def _to_meld(value: object) -> Meld:
    if isinstance(value, Meld):
        return value
    if isinstance(value, str):
        return Meld.parse(value)
    raise ParseError(f"meld must be a Meld or its code (DR-S), not {brief(value)}")


def _check_amount(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int:
        raise ParseError(f"a bid amount must be an int, not {value!r}")


def _to_deck(value: object) -> tuple[Card, ...]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ParseError(f"a deal needs a sequence of cards, not {type(value).__name__}")
    cards = tuple(value)
    for card in cards:
        if type(card) is not Card:
            raise ParseError(f"a deal holds Cards only, not {card!r}")
    return cards


@attrs.frozen(cache_hash=True)
class Deal:
    """The chance action that deals a hand (R-DEAL-1).

    ``cards`` is the shuffled deck of 56 cards: seat ``s`` (0..3) receives
    ``cards[14 * s : 14 * s + 14]``.  Build one with
    :func:`deepsix.shuffled_deal`.
    """

    cards: tuple[Card, ...] = attrs.field(converter=_to_deck)
    """The shuffled deck, in dealing order."""

    @property
    def seat(self) -> None:
        """Chance acts for nobody."""
        return None

    def hand(self, seat: Seat | int | str) -> tuple[Card, ...]:
        """The 14 cards this deal gives to ``seat`` (a Seat, its number or letter), sorted."""
        first = 14 * seat_of(seat)
        return tuple(sorted(self.cards[first : first + 14]))

    def __str__(self) -> str:
        return "deal " + " / ".join(
            format_cards(self.cards[14 * s : 14 * s + 14]) for s in range(4)
        )


@attrs.frozen(cache_hash=True)
class Bid:
    """Bid ``amount``: promise that the team's net will be at most this (R-BID-*)."""

    seat: Seat = attrs.field(converter=_to_seat)
    """Who bids."""
    amount: int = attrs.field(validator=_check_amount)
    """The bid, a multiple of 10 between the lowest bid and 120."""

    def __str__(self) -> str:
        return f"{self.seat} bids {self.amount}"


@attrs.frozen(cache_hash=True)
class Pass:
    """Pass in the auction; final for the hand (R-BID-2)."""

    seat: Seat = attrs.field(converter=_to_seat)
    """Who passes."""

    def __str__(self) -> str:
        return f"{self.seat} passes"


@attrs.frozen(cache_hash=True)
class NameSunkSuit:
    """The bid winner names the sunk suit (R-SUNK-1)."""

    seat: Seat = attrs.field(converter=_to_seat)
    """The bidder."""
    suit: Suit = attrs.field(converter=_to_suit)
    """The suit to sink."""

    def __str__(self) -> str:
        return f"{self.seat} sinks {self.suit}"


@attrs.frozen(cache_hash=True)
class ShowCard:
    """The bidder lays one card face up as part of her invitation (R-INVITE-1)."""

    seat: Seat = attrs.field(converter=_to_seat)
    """The bidder."""
    card: Card = attrs.field(converter=_to_card)
    """The card shown."""

    def __str__(self) -> str:
        return f"{self.seat} shows {self.card}"


@attrs.frozen(cache_hash=True)
class PassCard:
    """Pass one card face down to the partner (R-PASS-1, R-PASS-2)."""

    seat: Seat = attrs.field(converter=_to_seat)
    """The seat giving the card."""
    card: Card = attrs.field(converter=_to_card)
    """The card given."""

    def __str__(self) -> str:
        return f"{self.seat} gives {self.card}"


@attrs.frozen(cache_hash=True)
class DeclareMeld:
    """Declare one meld (R-MELD-*)."""

    seat: Seat = attrs.field(converter=_to_seat)
    """The seat melding."""
    meld: Meld = attrs.field(converter=_to_meld)
    """The meld declared."""

    def __str__(self) -> str:
        return f"{self.seat} melds {self.meld}"


@attrs.frozen(cache_hash=True)
class Done:
    """Close an invitation or a meld declaration."""

    seat: Seat = attrs.field(converter=_to_seat)
    """The seat that is done."""

    def __str__(self) -> str:
        return f"{self.seat} done"


@attrs.frozen(cache_hash=True)
class PlayCard:
    """Play one card to the trick (R-PLAY-*)."""

    seat: Seat = attrs.field(converter=_to_seat)
    """The seat playing."""
    card: Card = attrs.field(converter=_to_card)
    """The card played."""

    def __str__(self) -> str:
        return f"{self.seat} plays {self.card}"


Action: TypeAlias = (
    Deal | Bid | Pass | NameSunkSuit | ShowCard | PassCard | DeclareMeld | Done | PlayCard
)
"""Any action."""

ACTION_TYPES: Final = (
    Deal,
    Bid,
    Pass,
    NameSunkSuit,
    ShowCard,
    PassCard,
    DeclareMeld,
    Done,
    PlayCard,
)


class LegalActions(tuple[Action, ...]):
    """The legal actions of a state: a tuple with a readable repr.

    >>> from deepsix import Bid, Pass, Seat, legal_actions, new_game, shuffled_deal
    >>> state = new_game().apply(shuffled_deal(7))
    >>> moves = legal_actions(state)
    >>> Pass(Seat.EAST) in moves, Bid(Seat.EAST, 125) in moves, len(moves)
    (True, False, 55)
    """

    __slots__ = ()

    def __contains__(self, action: object) -> bool:
        for legal in self:
            if legal is action:
                return True
        return tuple.__contains__(self, action)

    def __repr__(self) -> str:
        return f"<LegalActions ({len(self)}): {', '.join(map(str, self))}>"


# Shared instances, indexed [seat][card] or [seat][meld index]; the engine
# builds its legal-action lists from these.
SEATS: Final = tuple(Seat)
PLAY: Final = tuple(tuple(PlayCard(seat, card) for card in CARDS) for seat in SEATS)
GIVE: Final = tuple(tuple(PassCard(seat, card) for card in CARDS) for seat in SEATS)
SHOW: Final = tuple(tuple(ShowCard(seat, card) for card in CARDS) for seat in SEATS)
SINK: Final = tuple(tuple(NameSunkSuit(seat, suit) for suit in Suit) for seat in SEATS)
DONE: Final = tuple(Done(seat) for seat in SEATS)
PASS: Final = tuple(Pass(seat) for seat in SEATS)
DECLARE: Final = {(seat, meld): DeclareMeld(seat, meld) for seat in SEATS for meld in ALL_MELDS}
