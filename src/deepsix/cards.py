"""Cards, suits, ranks, seats and teams: the vocabulary every other module uses.

The anti-Pinochle deck holds ranks 2 to 8 in four suits, each card twice:
28 distinct cards, 56 in all (rule R-DECK-1).  Two copies of the same card
are indistinguishable, so a hand is a *multiset* of :class:`Card` values.

:class:`Card` is a small ``int`` subclass (like a square in python-chess):
there are exactly 28 interned instances, equality and hashing run at C
speed, and the integer doubles as an index into bit-packed hands.  Cards
sort by suit, then rank, which is the order hands are shown in.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final

from deepsix.errors import ParseError, RefusesUnknownValues, WrongTypeError, brief

__all__ = [
    "CARDS",
    "DECK",
    "HAND_SIZE",
    "Card",
    "Rank",
    "Seat",
    "Suit",
    "Team",
    "format_cards",
    "parse_cards",
]


class Suit(RefusesUnknownValues, enum.IntEnum):
    """The four suits, in the order cards sort by."""

    __hash__ = int.__hash__  # the C-level hash; Enum's own is a slow Python method

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """The suit's symbol, e.g. ``'♠'``."""
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """The suit's ASCII letter, e.g. ``'S'``."""
        return _SUIT_LETTERS[self]

    def __str__(self) -> str:
        return _SUIT_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter (``S``), a symbol (``♠``) or a name (``spades``)."""
        if not isinstance(text, str):
            raise ParseError(f"a suit must be given as text, not {type(text).__name__}")
        key = text.strip()
        suit = _SUIT_LOOKUP.get(key) or _SUIT_LOOKUP.get(key.upper())
        if suit is None:
            raise ParseError(f"{text!r} is not a suit (use C, D, H, S or ♣ ♦ ♥ ♠)")
        return suit


_SUIT_SYMBOLS: Final = ("♣", "♦", "♥", "♠")
_SUIT_LETTERS: Final = ("C", "D", "H", "S")
_SUIT_LOOKUP: Final[dict[str, Suit]] = {}
for _suit in Suit:
    _SUIT_LOOKUP[_SUIT_LETTERS[_suit]] = _suit
    _SUIT_LOOKUP[_SUIT_SYMBOLS[_suit]] = _suit
    _SUIT_LOOKUP[_suit.name] = _suit
_SUIT_LOOKUP.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})


class Rank(RefusesUnknownValues, enum.IntEnum):
    """The seven ranks; the enum value is the number printed on the card."""

    __hash__ = int.__hash__  # the C-level hash; Enum's own is a slow Python method

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8

    def __str__(self) -> str:
        return str(self.value)


class Seat(RefusesUnknownValues, enum.IntEnum):
    """The four seats, numbered clockwise.  North and South are partners, as are East and West."""

    __hash__ = int.__hash__  # the C-level hash; Enum's own is a slow Python method

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def team(self) -> Team:
        """The partnership this seat plays for (seats 0 and 2 are team 0)."""
        return _TEAM_OF[self]

    @property
    def partner(self) -> Seat:
        """The seat across the table."""
        return _SEATS[self ^ 2]

    @property
    def left(self) -> Seat:
        """The next seat clockwise: the player on this seat's left."""
        return _SEATS[(self + 1) & 3]

    def __str__(self) -> str:
        return self.name[0]

    @classmethod
    def parse(cls, text: str) -> Seat:
        """Read a seat from its initial (``N``), name (``north``) or number (``0``)."""
        if not isinstance(text, str):
            raise ParseError(f"a seat must be given as text, not {type(text).__name__}")
        key = text.strip().upper()
        for seat in _SEATS:
            if key in (seat.name, seat.name[0], str(int(seat))):
                return seat
        raise ParseError(f"{text!r} is not a seat (use N, E, S, W or 0-3)")


class Team(RefusesUnknownValues, enum.IntEnum):
    """The two partnerships: team 0 is North-South, team 1 is East-West."""

    __hash__ = int.__hash__  # the C-level hash; Enum's own is a slow Python method

    NORTH_SOUTH = 0
    EAST_WEST = 1

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The two seats of this partnership."""
        return (_SEATS[self], _SEATS[self + 2])

    def __str__(self) -> str:
        return "NS" if self is Team.NORTH_SOUTH else "EW"


_SEATS: Final = tuple(Seat)


def seat_of(value: object) -> Seat:
    """The seat ``value`` names: a :class:`Seat`, its number 0..3 or its notation (``"S"``).

    What every function that takes a seat reads it with.  Text or a number that is not a
    seat raises :class:`ParseError`; a value of another type :class:`WrongTypeError`.

    >>> seat_of("S"), seat_of(2), seat_of(Seat.SOUTH)
    (<Seat.SOUTH: 2>, <Seat.SOUTH: 2>, <Seat.SOUTH: 2>)
    """
    if type(value) is Seat:
        return value
    if isinstance(value, str):
        return Seat.parse(value)
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value <= 3:
            return _SEATS[value]
        raise ParseError(f"{value!r} is not a seat (use N, E, S, W, a Seat or 0..3)")
    raise WrongTypeError(f"{brief(value)} is not a seat (use N, E, S, W, a Seat or 0..3)")


_TEAM_OF: Final = (Team.NORTH_SOUTH, Team.EAST_WEST, Team.NORTH_SOUTH, Team.EAST_WEST)

_RANKS: Final = tuple(Rank)
_SUITS: Final = tuple(Suit)


class Card(int):
    """One of the 28 distinct cards; ``int(card)`` is ``7 * suit + rank - 2``.

    Build cards with ``Card("7S")``, ``Card.of(rank, suit)`` or :meth:`Card.parse`, or
    take one by its index from :data:`CARDS`.  ``Card(7)`` is refused: a bare number could
    mean the seven or the eighth card, so the library never guesses.  Every call returns
    one of the 28 interned instances, so cards are cheap to compare, hash and store.

    >>> card = Card.parse("7S")
    >>> card.rank, card.suit
    (<Rank.SEVEN: 7>, <Suit.SPADES: 3>)
    >>> str(card), Card.parse(str(card)) == card
    ('7♠', True)
    """

    __slots__ = ()

    def __new__(cls, text: str | Card) -> Card:
        given: object = text  # anything may arrive
        if type(given) is Card:
            return given
        if isinstance(given, str):
            return cls.parse(given)
        if isinstance(given, int) and not isinstance(given, bool):
            text = str(given)
            raise ParseError(
                f"Card({text}) is ambiguous: write the card as text (Card('{text}S') for a "
                f"rank and suit), or build it with Card.of(rank, suit) or CARDS[index]"
                if 2 <= given <= 8
                else f"Card({text}): a card is text such as '7S'; by index, use CARDS[index]"
            )
        raise ParseError(f"a card must be given as text such as '7S', not {brief(given)}")

    @classmethod
    def of(cls, rank: int, suit: Suit | int) -> Card:
        """The card of this rank (2..8) and suit."""
        if not isinstance(rank, int) or not 2 <= rank <= 8:
            raise ParseError(f"rank {rank!r} is outside 2..8")
        if not isinstance(suit, int) or not 0 <= suit <= 3:
            raise ParseError(f"suit {suit!r} is not a suit")
        return CARDS[7 * suit + rank - 2]

    @property
    def rank(self) -> Rank:
        """The card's rank, 2 to 8."""
        return _RANKS[self % 7]

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return _SUITS[self // 7]

    @property
    def points(self) -> int:
        """Card points for taking this card in a trick: 20 for a 2, 10 for a 3 (R-SCORE-1)."""
        return CARD_POINTS[self]

    @property
    def ascii(self) -> str:
        """The ASCII form, e.g. ``'7S'``."""
        return f"{self % 7 + 2}{_SUIT_LETTERS[self // 7]}"

    def __str__(self) -> str:
        return f"{self % 7 + 2}{_SUIT_SYMBOLS[self // 7]}"

    def __repr__(self) -> str:
        return f"Card({self.ascii!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self.ascii,))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as ``"7S"``, ``"7♠"`` or ``"7s"``.

        Raises :class:`ParseError` if the text is not a card.
        """
        if not isinstance(text, str):
            raise ParseError(f"a card must be given as text, not {type(text).__name__}")
        card = _CARD_LOOKUP.get(text)
        if card is not None:
            return card
        key = text.strip().upper()
        card = _CARD_LOOKUP.get(key)
        if card is None:
            raise ParseError(f"{text!r} is not a card: write a rank 2-8 then a suit, e.g. 7S or 7♠")
        return card


CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(28))
"""The 28 distinct cards in sorting order (clubs 2..8, diamonds, hearts, spades)."""

DECK: Final[tuple[Card, ...]] = tuple(card for card in CARDS for _ in range(2))
"""The full 56-card deck, sorted, each card twice."""

HAND_SIZE: Final = 14
"""Cards dealt to each seat, and so tricks in a hand (R-DEAL-1)."""

CARD_POINTS: Final[tuple[int, ...]] = tuple({2: 20, 3: 10}.get(card % 7 + 2, 0) for card in CARDS)

_CARD_LOOKUP: Final[dict[str, Card]] = {}
for _card in CARDS:
    for _suit_text in (_SUIT_LETTERS[_card // 7], _SUIT_SYMBOLS[_card // 7]):
        _CARD_LOOKUP[f"{_card % 7 + 2}{_suit_text}"] = _card
for _alt, _index in (("♧", 0), ("♢", 1), ("♡", 2), ("♤", 3)):
    for _rank in range(2, 9):
        _CARD_LOOKUP[f"{_rank}{_alt}"] = CARDS[7 * _index + _rank - 2]


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas, e.g. ``"7S 7H 8C"``.

    >>> parse_cards("7S, 7♥ 8c")
    (Card('8C'), Card('7H'), Card('7S'))
    """
    if not isinstance(text, str):
        raise ParseError(f"cards must be given as text, not {type(text).__name__}")
    return tuple(sorted(Card.parse(part) for part in text.replace(",", " ").split()))


def format_cards(cards: Iterable[Card], *, ascii: bool = False) -> str:
    """Write cards in sorted order separated by spaces."""
    return " ".join(card.ascii if ascii else str(card) for card in sorted(cards))
