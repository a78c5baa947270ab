"""Bit-packed hands: a multiset of cards held in one integer.

A hand holds each of the 28 distinct cards 0, 1 or 2 times, so two bits
per card suffice: card ``i`` occupies bits ``2i`` and ``2i + 1``, and a
suit's seven cards form one 14-bit block.  Adding or removing a card is a
single integer addition, which keeps state transitions cheap.  These
helpers are internal; :attr:`deepsix.GameState.hands` shows sorted tuples.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from deepsix.cards import CARDS, Card

__all__ = ["SUIT_MASK", "count", "counts", "pack", "size", "suit_block", "unpack"]

SUIT_MASK: Final = (1 << 14) - 1
_COPY_BITS: Final = sum(1 << (2 * i) for i in range(28))


def pack(cards: Iterable[Card]) -> int:
    """The packed form of some cards (at most two copies of each)."""
    packed = 0
    for card in cards:
        packed += 1 << (2 * card)
    return packed


def count(packed: int, card: int) -> int:
    """How many copies of ``card`` the hand holds."""
    return (packed >> (2 * card)) & 3


def counts(packed: int) -> list[int]:
    """The hand as a count vector of 28 entries."""
    return [(packed >> (2 * i)) & 3 for i in range(28)]


def size(packed: int) -> int:
    """How many cards the hand holds."""
    return (packed & _COPY_BITS).bit_count() + 2 * ((packed >> 1) & _COPY_BITS).bit_count()


def suit_block(packed: int, suit: int) -> int:
    """The 14-bit block holding one suit's counts."""
    return (packed >> (14 * suit)) & SUIT_MASK


def unpack(packed: int) -> tuple[Card, ...]:
    """The hand as a sorted tuple of cards, duplicates repeated."""
    cards: list[Card] = []
    for i in range(28):
        n = (packed >> (2 * i)) & 3
        if n:
            cards.extend((CARDS[i],) * n)
    return tuple(cards)
