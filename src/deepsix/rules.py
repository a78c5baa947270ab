"""Game parameters and house-rule switches.

``Rules()`` is the standard game as the rulings define it.  Every number
and every switch the rules text leaves to the table lives here, so a
variant is a value, not a fork of the code.
"""

from __future__ import annotations

import enum
from typing import Any, Final

import attrs

from deepsix.errors import InvalidStateError, RefusesUnknownValues

__all__ = [
    "LARGEST_PARTNERSHIP_MELD",
    "LOWEST_BID",
    "MAX_CALLS",
    "MAX_TOTAL",
    "MOST_CARD_POINTS",
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


class PlayOver(RefusesUnknownValues, enum.Enum):
    """What "play over" means for a player who follows suit (R-PLAY-3)."""

    WIN_TRICK = "win-trick"
    """Default: play a card that would win the trick as it stands, if you hold one."""
    BEAT_LED_SUIT = "beat-led-suit"
    """Variant: beat the highest card of the led suit played so far, if you can."""


MOST_CARD_POINTS: Final = 250
"""Every card point of a hand and the last trick (``scoring.TOTAL_CARD_POINTS``): no net
can exceed it, so no contract needs to be higher."""

MAX_TOTAL: Final = 10_000
"""The largest target score and failed-bid score: far past any real game, small enough that
no number in a game grows without bound."""

MAX_CALLS: Final = (MOST_CARD_POINTS - LARGEST_PARTNERSHIP_MELD) // 5 + 2
"""The most calls any seat can have in an auction under any valid ``Rules``: every bid
from the highest to the lowest in the smallest step (5), and the pass (134)."""


def _check_field(instance: Rules, attribute: attrs.Attribute[Any], value: object) -> None:
    """A field holds its type and lies within its documented bounds (``metadata``)."""
    kind = attribute.metadata.get("type", type(attribute.default))
    if type(value) is not kind:
        raise InvalidStateError(f"Rules.{attribute.name} must be {_KIND[kind]}, not {value!r}")
    bounds = attribute.metadata.get("bounds")
    if bounds is not None:
        low, high = bounds
        assert isinstance(value, int)
        if not low <= value <= high:
            raise InvalidStateError(
                f"Rules.{attribute.name} must be from {low} to {high}, not {_short(value)}"
            )
        step = attribute.metadata.get("multiple_of")
        if step is not None and value % step:
            raise InvalidStateError(
                f"Rules.{attribute.name} must be a multiple of {step}, not {value}"
            )


_KIND: Final[dict[type, str]] = {int: "an int", bool: "a bool", PlayOver: "a PlayOver"}


def _short(value: int) -> str:
    return str(value) if value.bit_length() < 64 else f"a number of {value.bit_length()} bits"


def _bounds(low: int, high: int, *, multiple_of: int | None = None) -> dict[str, object]:
    """The metadata of an int field: its bounds, checked at construction, listed in the docs."""
    metadata: dict[str, object] = {"bounds": (low, high), "type": int}
    if multiple_of is not None:
        metadata["multiple_of"] = multiple_of
    return metadata


@attrs.frozen(cache_hash=True)
class Rules:
    """Every parameter of a game of Deep Six.

    Every number has bounds, checked when the rules are made (a value out of
    bounds raises :class:`~deepsix.InvalidStateError`): no set of rules can
    make an auction longer than :data:`MAX_CALLS` calls, and no number in a
    game grows past :data:`MAX_TOTAL`.  :meth:`bounds` lists them.

    >>> Rules().target_score, Rules().lowest_bid
    (500, -410)
    >>> Rules(play_over=PlayOver.BEAT_LED_SUIT).play_over.value
    'beat-led-suit'
    >>> Rules(lowest_bid=-10**8)
    Traceback (most recent call last):
    ...
    deepsix.errors.InvalidStateError: Rules.lowest_bid must be from -410 to 250, not -100000000
    """

    target_score: int = attrs.field(
        default=500, validator=_check_field, metadata=_bounds(1, MAX_TOTAL)
    )
    """The total that ends the game (R-END-1)."""
    end_at_target: bool = attrs.field(default=True, validator=_check_field)
    """``True``: the game ends when a team has ``target_score`` or more.
    ``False`` (variant): only a total *above* the target ends it."""
    bid_step: int = attrs.field(
        default=10, validator=_check_field, metadata=_bounds(5, MOST_CARD_POINTS, multiple_of=5)
    )
    """Bids are multiples of this (R-BID-3).  Melds are worth multiples of 5 and
    card points multiples of 10, so a finer step would change nothing."""
    opening_bid_limit: int = attrs.field(
        default=120,
        validator=_check_field,
        metadata=_bounds(LARGEST_PARTNERSHIP_MELD, MOST_CARD_POINTS),
    )
    """The highest bid allowed: the opening bid is at most this (R-BID-4)."""
    forced_bid: int = attrs.field(
        default=120,
        validator=_check_field,
        metadata=_bounds(LARGEST_PARTNERSHIP_MELD, MOST_CARD_POINTS),
    )
    """The dealer's only call after three passes (R-BID-7)."""
    lowest_bid: int = attrs.field(
        default=LOWEST_BID,
        validator=_check_field,
        metadata=_bounds(LARGEST_PARTNERSHIP_MELD, MOST_CARD_POINTS),
    )
    """The lowest legal bid (R-BID-6); see :data:`LOWEST_BID`.  A bid below the
    largest partnership meld could never be made."""
    failed_bid_score: int = attrs.field(
        default=200, validator=_check_field, metadata=_bounds(LARGEST_PARTNERSHIP_MELD, MAX_TOTAL)
    )
    """A failed bidding team scores this minus its bid (R-SCORE-3)."""
    pass_size: int = attrs.field(default=3, validator=_check_field, metadata=_bounds(1, 7))
    """How many cards go each way between the bidder and her partner (R-PASS-1,
    R-PASS-2).  The bidder must keep that many unmelded of her 14 + ``pass_size``."""
    meld_sharing: bool = attrs.field(default=True, validator=_check_field)
    """``True``: a card copy may serve one meld of *each* family (R-MELD-3).
    ``False`` (variant): a copy serves one meld in all."""
    play_over: PlayOver = attrs.field(default=PlayOver.WIN_TRICK, validator=_check_field)
    """The meaning of the play-over rule (R-PLAY-3)."""

    def __attrs_post_init__(self) -> None:
        for name in ("opening_bid_limit", "forced_bid", "lowest_bid"):
            if getattr(self, name) % self.bid_step:
                raise InvalidStateError(
                    f"Rules.{name}={getattr(self, name)} is not a multiple of bid_step"
                )
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

    @classmethod
    def bounds(cls) -> dict[str, tuple[int, int]]:
        """Each number's bounds: ``{name: (lowest, highest)}`` (both allowed)."""
        return {
            field.name: field.metadata["bounds"]
            for field in attrs.fields(cls)
            if "bounds" in field.metadata
        }

    @property
    def bid_amounts(self) -> range:
        """Every legal bid amount, highest first."""
        return range(self.opening_bid_limit, self.lowest_bid - 1, -self.bid_step)

    def is_game_over(self, totals: tuple[int, int]) -> bool:
        """Whether these running totals end the game (before breaking ties, R-END-1)."""
        if self.end_at_target:
            return max(totals) >= self.target_score
        return max(totals) > self.target_score
