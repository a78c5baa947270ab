"""The tallies of a hand's completed tricks that observations show, and small helpers
for writing counted entries.

A tally is eight ints: tricks taken by North-South and East-West, their card
points, and per seat a bit set of the suits it has shown it lacks (R-PLAY-2:
a seat that did not follow the suit led holds none of it, as
:func:`deepsix.table.voids` reads it).  A hand's tuple of completed tricks
grows one trick at a time, so a tally is extended by the new tricks rather
than counted again.

Plain typed Python, compiled in the compiled build.
"""

from __future__ import annotations

from typing import Final

from deepsix.cards import HAND_SIZE
from deepsix.scoring import card_points
from deepsix.tricks import Trick

__all__ = ["EMPTY_TALLY", "add_cards", "add_pair", "extended_tally"]

EMPTY_TALLY: Final = (0, 0, 0, 0, 0, 0, 0, 0)
"""The tally of no tricks."""


def extended_tally(done: object, before: list[int], tricks: tuple[Trick, ...]) -> list[int]:
    """The tally of ``tricks``, knowing ``before``, the tally of ``done``: extended by the
    new tricks when ``done`` (a tuple of tricks) starts ``tricks``, else counted anew."""
    start = len(done) if type(done) is tuple else 0
    if not (start and start < len(tricks) and tricks[:start] == done):
        before = list(EMPTY_TALLY)
        start = 0
    tally = before.copy()
    new = tricks[start:]
    for trick in new:
        tally[trick.winner & 1] += 1
        plays = trick.plays
        led = plays[0][1] // 7
        for k in range(1, len(plays)):
            seat, card = plays[k]
            if card // 7 != led:
                tally[4 + seat] |= 1 << led
    # The last-trick bonus counts when the new tricks end the hand.
    points = card_points(new, tricks_per_hand=HAND_SIZE - start)
    tally[2] += points[0]
    tally[3] += points[1]
    return tally


def add_cards(counted: dict[int, int], base: int, cards: tuple[int, ...]) -> None:
    """Count each card's copies into ``counted`` at ``base + card``."""
    for card in cards:
        counted[base + card] = counted.get(base + card, 0) + 1


def add_pair(counted: dict[int, int], base: int, own: int, other: int) -> None:
    """A (own team, other team) pair at ``base``, zeros left out."""
    if own:
        counted[base] = own
    if other:
        counted[base + 1] = other
