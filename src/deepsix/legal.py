"""What every phase lists its legal actions with.

The rules of each phase live in :mod:`deepsix.phases`; what they share is
here: the seat to act, and per seat the tables of card actions (play,
give, show) that a phase draws its legal list from.  The card actions come
out in a fixed order, the order of :data:`deepsix.cards.CARDS`; the phases
that may end with ``Done`` put it last.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Final

from deepsix.actions import GIVE, PLAY, SHOW, Action
from deepsix.cards import Card, Seat
from deepsix.compiled import COMPILED
from deepsix.hands import SUIT_MASK, SUIT_SHIFT, suit_cards
from deepsix.state import GameState

__all__ = ["GIVES", "PLAYS", "SHOWS", "CardActions", "actor"]


_SCAN: Final = COMPILED
"""List card actions by scanning bits (the compiled build) or from per-suit caches (pure);
a constant of this module, so that the compiled build reads it natively."""


def actor(state: GameState) -> Seat:
    """The seat to act (every phase but the deal has one)."""
    seat = state.to_act
    assert seat is not None
    return seat


class CardActions:
    """One seat's actions of one kind (play, give, show), one per distinct card held.

    Two ways to list them, chosen per build: the pure build looks up tuples
    cached per suit and per pattern of that suit's cards in hand (a few
    dictionary lookups); the compiled build scans the packed hand's bits,
    which costs it less than building the dictionaries' integer keys.  Both
    give the same tuples (``tests/core/test_engine.py`` checks it).
    """

    __slots__ = ("_by_card", "_cache")

    def __init__(self, by_card: tuple[Action, ...]) -> None:
        self._by_card = by_card
        self._cache: dict[int, tuple[tuple[Action, ...], tuple[Card, ...]]] = {}

    def _suit(self, suit: int, block: int) -> tuple[tuple[Action, ...], tuple[Card, ...]]:
        key = suit << 14 | block
        entry = self._cache.get(key)
        if entry is None:
            cards = suit_cards(suit, block)
            entry = (tuple(self._by_card[card] for card in cards), cards)
            self._cache[key] = entry
        return entry

    def all(self, packed: int) -> Sequence[Action]:
        """One action per distinct card in ``packed``."""
        if _SCAN:
            return self.scan(packed, 0, 28)
        return (
            self._suit(0, packed & SUIT_MASK)[0]
            + self._suit(1, (packed >> 14) & SUIT_MASK)[0]
            + self._suit(2, (packed >> 28) & SUIT_MASK)[0]
            + self._suit(3, packed >> 42)[0]
        )

    def suit_from(self, packed: int, suit: int, lowest: int) -> Sequence[Action]:
        """One action per distinct card of ``suit`` in ``packed`` from ``lowest`` up."""
        if _SCAN:
            return self.scan(packed, lowest, 7 * suit + 7)
        actions, cards = self._suit(suit, (packed >> SUIT_SHIFT[suit]) & SUIT_MASK)
        if cards[0] >= lowest:
            return actions
        return actions[bisect_left(cards, lowest) :]

    def scan(self, packed: int, first: int, stop: int) -> list[Action]:
        """One action per distinct card in ``packed`` among cards ``first`` to ``stop - 1``."""
        by_card = self._by_card
        found: list[Action] = []
        bits = packed >> (2 * first)
        for card in range(first, stop):
            if bits & 3:
                found.append(by_card[card])
            bits >>= 2
        return found


_SEATS: Final = tuple(Seat)
PLAYS: Final = tuple(CardActions(PLAY[seat]) for seat in _SEATS)
"""Each seat's :class:`~deepsix.actions.PlayCard` actions, by seat number."""
GIVES: Final = tuple(CardActions(GIVE[seat]) for seat in _SEATS)
"""Each seat's :class:`~deepsix.actions.PassCard` actions, by seat number."""
SHOWS: Final = tuple(CardActions(SHOW[seat]) for seat in _SEATS)
"""Each seat's :class:`~deepsix.actions.ShowCard` actions, by seat number."""
