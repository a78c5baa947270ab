"""Bit-packed hands: a multiset of cards held in one integer.

A hand holds each of the 28 distinct cards 0, 1 or 2 times, so two bits
per card suffice: card ``i`` occupies bits ``2i`` and ``2i + 1``, and a
suit's seven cards form one 14-bit block.  Adding or removing a card is a
single integer addition, which keeps state transitions cheap.

This module owns the layout: every other module reads packed hands
through the names here (``BIT[card]`` to add or remove a card,
``SUIT_SHIFT``/``SUIT_MASK`` or :func:`suit_block` for a suit's block,
:func:`suit_cards` to decode one).  It also owns the *count vector* form --
a list of 28 copy counts -- that the meld, sampling and validation code
use.  :attr:`deepsix.GameState.hands` shows hands as sorted tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from deepsix.cards import CARDS, Card
from deepsix.errors import ParseError

__all__ = [
    "BIT",
    "EMPTY",
    "HIGH_BITS",
    "LOW_BITS",
    "SUIT_MASK",
    "SUIT_SHIFT",
    "WHOLE_SUIT",
    "cards_of",
    "count",
    "counts",
    "counts_of",
    "distinct_cards",
    "is_packed_hand",
    "pack",
    "pack_counts",
    "seat_hand",
    "size",
    "suit_block",
    "suit_cards",
    "unpack",
    "without",
]

SUIT_MASK: Final = (1 << 14) - 1
"""The 14 bits of one suit's block (seven cards, two bits each)."""
SUIT_SHIFT: Final = (0, 14, 28, 42)
"""Where each suit's block starts: ``(packed >> SUIT_SHIFT[suit]) & SUIT_MASK``."""
BIT: Final[tuple[int, ...]] = tuple(1 << (2 * i) for i in range(28))
"""One copy of each card, packed: ``packed + BIT[card]`` adds a copy."""
LOW_BITS: Final = sum(BIT)
"""The low bit of every card's field."""
HIGH_BITS: Final = LOW_BITS << 1
"""The high bit of every card's field (set when both copies are present)."""
WHOLE_SUIT: Final = tuple(sum(BIT[7 * suit : 7 * suit + 7]) for suit in range(4))
"""Per suit, a packed hand holding one copy of each of its seven cards."""
EMPTY: Final = 0
"""The empty hand."""
_LIMIT: Final = 1 << 56


def pack(cards: Iterable[Card]) -> int:
    """The packed form of some cards (at most two copies of each)."""
    packed = 0
    for card in cards:
        packed += BIT[card]
    return packed


def count(packed: int, card: int) -> int:
    """How many copies of ``card`` the hand holds."""
    return (packed >> (2 * card)) & 3


def counts(packed: int) -> list[int]:
    """The hand as a count vector of 28 entries."""
    return [(packed >> (2 * i)) & 3 for i in range(28)]


def size(packed: int) -> int:
    """How many cards the hand holds."""
    return (packed & LOW_BITS).bit_count() + 2 * (packed & HIGH_BITS).bit_count()


def suit_block(packed: int, suit: int) -> int:
    """The 14-bit block holding one suit's counts."""
    return (packed >> SUIT_SHIFT[suit]) & SUIT_MASK


def seat_hand(hands: tuple[int, int, int, int], seat: int) -> int:
    """One seat's packed hand out of the four, ``hands[seat]``.

    Written as a branch per seat so that the compiled build reads the four
    ints in place instead of building a tuple to index.
    """
    if seat == 0:
        return hands[0]
    if seat == 1:
        return hands[1]
    if seat == 2:
        return hands[2]
    return hands[3]


def without(hands: tuple[int, int, int, int], seat: int, bit: int) -> tuple[int, int, int, int]:
    """The four packed hands after ``seat`` gives up the card ``bit`` (``BIT[card]``)."""
    north, east, south, west = hands
    if seat == 0:
        return (north - bit, east, south, west)
    if seat == 1:
        return (north, east - bit, south, west)
    if seat == 2:
        return (north, east, south - bit, west)
    return (north, east, south, west - bit)


def is_packed_hand(value: object) -> bool:
    """Whether ``value`` is a packed hand: an ``int`` in range, no card held three times."""
    if type(value) is not int or not 0 <= value < _LIMIT:
        return False
    return not (value & HIGH_BITS) >> 1 & value & LOW_BITS


def unpack(packed: int) -> tuple[Card, ...]:
    """The hand as a sorted tuple of cards, duplicates repeated."""
    cards: list[Card] = []
    for i in range(28):
        n = (packed >> (2 * i)) & 3
        if n:
            cards.extend((CARDS[i],) * n)
    return tuple(cards)


_SUIT_CARDS: Final[dict[int, tuple[Card, ...]]] = {}


def suit_cards(suit: int, block: int) -> tuple[Card, ...]:
    """The distinct cards present in one suit's 14-bit block, low to high (cached)."""
    key = suit << 14 | block
    cards = _SUIT_CARDS.get(key)
    if cards is None:
        base = 7 * suit
        cards = tuple(CARDS[base + r] for r in range(7) if (block >> (2 * r)) & 3)
        _SUIT_CARDS[key] = cards  # at most 4 * 3**7 = 8,748 entries: the cache is bounded
    return cards


def distinct_cards(packed: int) -> tuple[Card, ...]:
    """The distinct cards of a packed hand, in sorting order."""
    return (
        suit_cards(0, packed & SUIT_MASK)
        + suit_cards(1, (packed >> 14) & SUIT_MASK)
        + suit_cards(2, (packed >> 28) & SUIT_MASK)
        + suit_cards(3, packed >> 42)
    )


# -- count vectors -------------------------------------------------------------


def counts_of(cards: Iterable[Card]) -> list[int]:
    """The count vector of some cards: entry ``i`` is how many copies of card ``i``."""
    row = [0] * 28
    for card in cards:
        row[card] += 1
    return row


def cards_of(row: Sequence[int]) -> list[Card]:
    """The cards of a count vector, sorted, duplicates repeated."""
    return [CARDS[i] for i in range(28) for _ in range(row[i])]


def pack_counts(row: Sequence[int]) -> int:
    """The packed form of a count vector; refuses anything but 28 counts of 0 to 2."""
    values: Sequence[object] = row  # checked as anything: the compiled build must not refuse first
    if len(values) != 28 or any(type(n) is not int or not 0 <= n <= 2 for n in values):
        raise ParseError("a hand's counts must be 28 numbers from 0 to 2")
    return sum(n * BIT[i] for i, n in enumerate(row))
