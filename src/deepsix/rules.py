"""Game parameters and house-rule switches.

``Rules()`` is the standard game as the rulings define it.  Every number
and every switch the rules text leaves to the table lives here, so a
variant is a value, not a fork of the code.
"""

from __future__ import annotations

import enum
from typing import Final

import attrs

from deepsix.errors import InvalidStateError

__all__ = [
    "LARGEST_PARTNERSHIP_MELD",
    "LOWEST_BID",
    "PlayOver",
    "Rules",
]

LARGEST_PARTNERSHIP_MELD: Final = -410
"""The most negative meld a partnership can declare in one hand.

The bidder melds at most 14 copies (17 cards less the three she passes
back) and her partner melds from his 14 cards; the two sets are disjoint
and share one sunk suit.  One best split, with clubs sunk: one partner
holds a whole non-sunk suit (two grand runs and three echoes, -145) plus
the 8s and 7s of the sunk suit (two echoes, -35); the other holds 6-7-8
twice in the two remaining suits (two deep runs and three echoes each,
-105) and turns one deep run into a grand run with that suit's 4 and 5
(-20): -180 and -230.  ``tests/core/test_meld_optimality.py`` proves no split
of the deck does better, by exhaustive search.
"""

LOWEST_BID: Final = -410
"""The default lowest legal bid (R-BID-6).

The lowest net a partnership can reach is taking no card points at all
with the largest partnership meld: 0 + (-410).  A bid below that could
never be made, so the floor is that figure rounded *up* to a multiple of
10 (it already is one).
"""


class PlayOver(enum.Enum):
    """What "play over" means for a player who follows suit (R-PLAY-3)."""

    WIN_TRICK = "win-trick"
    """Default: play a card that would win the trick as it stands, if you hold one."""
    BEAT_LED_SUIT = "beat-led-suit"
    """Variant: beat the highest card of the led suit played so far, if you can."""


def _multiple_of_step(instance: Rules, attribute: attrs.Attribute[int], value: int) -> None:
    if value % instance.bid_step:
        raise InvalidStateError(f"Rules.{attribute.name}={value} is not a multiple of bid_step")


def _is_int(instance: Rules, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int:
        raise InvalidStateError(f"Rules.{attribute.name} must be an int, not {value!r}")


def _is_bool(instance: Rules, attribute: attrs.Attribute[bool], value: bool) -> None:
    if type(value) is not bool:
        raise InvalidStateError(f"Rules.{attribute.name} must be a bool, not {value!r}")


def _is_play_over(instance: Rules, attribute: attrs.Attribute[PlayOver], value: object) -> None:
    if not isinstance(value, PlayOver):
        raise InvalidStateError(f"Rules.play_over must be a PlayOver, not {value!r}")


def _positive(instance: Rules, attribute: attrs.Attribute[int], value: int) -> None:
    if value <= 0:
        raise InvalidStateError(f"Rules.{attribute.name} must be positive, not {value}")


@attrs.frozen(cache_hash=True)
class Rules:
    """Every parameter of a game of Deep Six.

    >>> Rules().target_score, Rules().lowest_bid
    (500, -410)
    >>> Rules(play_over=PlayOver.BEAT_LED_SUIT).play_over.value
    'beat-led-suit'
    """

    target_score: int = attrs.field(default=500, validator=[_is_int, _positive])
    """The total that ends the game (R-END-1)."""
    end_at_target: bool = attrs.field(default=True, validator=_is_bool)
    """``True``: the game ends when a team has ``target_score`` or more.
    ``False`` (variant): only a total *above* the target ends it."""
    bid_step: int = attrs.field(default=10, validator=[_is_int, _positive])
    """Bids are multiples of this (R-BID-3)."""
    opening_bid_limit: int = attrs.field(default=120, validator=[_is_int, _multiple_of_step])
    """The highest bid allowed: the opening bid is at most this (R-BID-4)."""
    forced_bid: int = attrs.field(default=120, validator=[_is_int, _multiple_of_step])
    """The dealer's only call after three passes (R-BID-7)."""
    lowest_bid: int = attrs.field(default=LOWEST_BID, validator=[_is_int, _multiple_of_step])
    """The lowest legal bid (R-BID-6); see :data:`LOWEST_BID`."""
    failed_bid_score: int = attrs.field(default=200, validator=_is_int)
    """A failed bidding team scores this minus its bid (R-SCORE-3)."""
    pass_size: int = attrs.field(default=3, validator=[_is_int, _positive])
    """How many cards go each way between the bidder and her partner (R-PASS-1, R-PASS-2)."""
    meld_sharing: bool = attrs.field(default=True, validator=_is_bool)
    """``True``: a card copy may serve one meld of *each* family (R-MELD-3).
    ``False`` (variant): a copy serves one meld in all."""
    play_over: PlayOver = attrs.field(default=PlayOver.WIN_TRICK, validator=_is_play_over)
    """The meaning of the play-over rule (R-PLAY-3)."""

    def __attrs_post_init__(self) -> None:
        if not self.lowest_bid <= self.forced_bid <= self.opening_bid_limit:
            raise InvalidStateError(
                "Rules need lowest_bid <= forced_bid <= opening_bid_limit, got "
                f"{self.lowest_bid}, {self.forced_bid}, {self.opening_bid_limit}"
            )
        if self.failed_bid_score < self.opening_bid_limit:
            raise InvalidStateError(
                "Rules need failed_bid_score >= opening_bid_limit so that a failed bid "
                "never records a negative score"
            )
        if self.pass_size > 7:
            raise InvalidStateError(f"Rules.pass_size must be at most 7, not {self.pass_size}")

    @property
    def bid_amounts(self) -> range:
        """Every legal bid amount, highest first."""
        return range(self.opening_bid_limit, self.lowest_bid - 1, -self.bid_step)

    def is_game_over(self, totals: tuple[int, int]) -> bool:
        """Whether these running totals end the game (before breaking ties, R-END-1)."""
        if self.end_at_target:
            return max(totals) >= self.target_score
        return max(totals) > self.target_score
