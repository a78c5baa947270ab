"""The legal actions of each phase, generated from the packed hands.

One generator per phase (:func:`deepsix.engine.legal_actions` picks the
phase's own and caches what it returns per state), and the per-seat
tables of card actions they draw from.  The actions come out in a fixed
order: the order of :data:`deepsix.cards.CARDS`, then ``Done``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Final

from deepsix import bidding
from deepsix.actions import DECLARE, DONE, GIVE, PLAY, SHOW, SINK, Action
from deepsix.cards import CARDS, Card, Seat, Suit
from deepsix.compiled import COMPILED
from deepsix.hands import BIT, SUIT_MASK, SUIT_SHIFT, pack, seat_hand, size, suit_cards
from deepsix.melds import can_show, packed_available_melds, tied_up_packed
from deepsix.state import GameState, Phase
from deepsix.tricks import play_window

__all__ = [
    "bidder_pass_actions",
    "bidding_actions",
    "invitation_actions",
    "meld_actions",
    "meld_cap",
    "partner_pass_actions",
    "play_actions",
    "sunk_suit_actions",
]


_SCAN: Final = COMPILED
"""List card actions by scanning bits (the compiled build) or from per-suit caches (pure);
a constant of this module, so that the compiled build reads it natively."""


def _actor(state: GameState) -> Seat:
    seat = state.to_act
    assert seat is not None
    return seat


def bidding_actions(state: GameState) -> Sequence[Action]:
    return bidding.legal_calls(state.rules, state.setup.bids, _actor(state), state.setup.bid)


def sunk_suit_actions(state: GameState) -> Sequence[Action]:
    return SINK[_actor(state)]


def invitation_actions(state: GameState) -> Sequence[Action]:
    seat = _actor(state)
    setup = state.setup
    sunk = setup.sunk_suit
    assert sunk is not None
    unshown = seat_hand(state.packed_hands, seat) - pack(setup.invitation)
    return (*_SHOW[seat].all(unshown & _SHOWABLE[sunk]), DONE[seat])


def partner_pass_actions(state: GameState) -> Sequence[Action]:
    seat = _actor(state)
    return _GIVE[seat].all(seat_hand(state.packed_hands, seat))


def meld_actions(state: GameState) -> Sequence[Action]:
    seat = _actor(state)
    setup = state.setup
    packed = seat_hand(state.packed_hands, seat)
    melds = packed_available_melds(
        packed,
        setup.melds[seat],
        setup.sunk_suit,
        sharing=state.rules.meld_sharing,
        max_melded=meld_cap(state, packed),
    )
    return (*(DECLARE[seat, meld] for meld in melds), DONE[seat])


def meld_cap(state: GameState, packed: int) -> int | None:
    """How many card copies the seat's melds may tie up: the bidder keeps enough to pass
    back (R-MELD-4); the others are not limited."""
    if state.phase is Phase.BIDDER_MELD:
        return size(packed) - state.rules.pass_size
    return None


def bidder_pass_actions(state: GameState) -> Sequence[Action]:
    seat = _actor(state)
    melded = tied_up_packed(state.setup.melds[seat], sharing=state.rules.meld_sharing)
    return _GIVE[seat].all(seat_hand(state.packed_hands, seat) - melded)


def play_actions(state: GameState) -> Sequence[Action]:
    seat: Seat = state.to_act  # type: ignore[assignment]  # always a seat during play
    packed = seat_hand(state.packed_hands, seat)
    trick = state.trick
    if not trick:
        return _PLAY[seat].all(packed)
    window = play_window(
        packed, [card for _, card in trick], state.setup.sunk_suit, state.rules.play_over
    )
    if window is None:
        return _PLAY[seat].all(packed)
    suit, lowest = window
    return _PLAY[seat].suit_from(packed, suit, lowest)


class _CardActions:
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
_PLAY: Final = tuple(_CardActions(PLAY[seat]) for seat in _SEATS)
_GIVE: Final = tuple(_CardActions(GIVE[seat]) for seat in _SEATS)
_SHOW: Final = tuple(_CardActions(SHOW[seat]) for seat in _SEATS)
_SHOWABLE: Final = {
    sunk: sum(3 * BIT[card] for card in CARDS if can_show(card, sunk)) for sunk in Suit
}
