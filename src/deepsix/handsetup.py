"""What the auction, the passes and the melds of the current hand settled.

A :class:`HandSetup` is one field of :class:`~deepsix.GameState`, rebuilt
at each step of the hand before the play (the auction, the sunk suit, the
invitation, the passes, the melds) and carried unchanged through the play.
Like the state, it spells out its construction and value methods for the
compiled build, generated from its fields by ``tools/value_methods.py``.
"""

from __future__ import annotations

from typing import Final, Optional, TypeAlias, Union, cast

import attr
import attrs

from deepsix.actions import Bid, Pass
from deepsix.cards import Card, Seat, Suit
from deepsix.compiled import COMPILED, fast_new, keep_annotations
from deepsix.melds import Meld
from deepsix.typecheck import check_kinds

__all__ = ["EMPTY_SETUP", "HandSetup", "SeatMelds"]

SeatMelds: TypeAlias = tuple[tuple[Meld, ...], tuple[Meld, ...], tuple[Meld, ...], tuple[Meld, ...]]
"""Each seat's declared melds, indexed by seat (N, E, S, W)."""


@attr.s(frozen=True, slots=True, auto_attribs=True, init=False, eq=False, repr=False)
class HandSetup:
    """What the auction, the passes and the melds of the current hand settled.

    ``HandSetup(...)`` refuses a value of the wrong kind (a list for a tuple,
    melds not given for four seats, a bid that is not an int) with
    :class:`~deepsix.errors.WrongTypeError`, as :class:`GameState` does.
    """

    bids: "tuple[Union[Bid, Pass], ...]" = ()
    """The auction so far: every call in order."""
    bidder: "Optional[Seat]" = None
    """The high bidder so far (the bid winner once the auction ends)."""
    bid: "Optional[int]" = None
    """The standing (finally, the winning) bid."""
    sunk_suit: "Optional[Suit]" = None
    """The sunk suit, once named."""
    invitation: "tuple[Card, ...]" = ()
    """The bidder's invitation: the cards she laid face up, in order."""
    partner_pass: "tuple[Card, ...]" = ()
    """The cards the partner passed to the bidder (in flight until all are passed)."""
    bidder_pass: "tuple[Card, ...]" = ()
    """The cards the bidder passed back (in flight until all are passed)."""
    melds: "SeatMelds" = ((), (), (), ())
    """Each seat's declared melds, indexed by seat."""

    # <generated: value methods, repr>
    # fmt: off
    def __new__(  # noqa: PLR0913, PLR0917  # one parameter per field
        cls, bids: tuple[Union[Bid, Pass], ...] = (), bidder: Optional[Seat] = None,
        bid: Optional[int] = None, sunk_suit: Optional[Suit] = None,
        invitation: tuple[Card, ...] = (), partner_pass: tuple[Card, ...] = (),
        bidder_pass: tuple[Card, ...] = (), melds: SeatMelds = ((), (), (), ()),
    ) -> HandSetup:
        """Build a HandSetup from its fields, unchecked (the engine's path)."""
        self = object.__new__(cls)
        object.__setattr__(self, "bids", bids)
        object.__setattr__(self, "bidder", bidder)
        object.__setattr__(self, "bid", bid)
        object.__setattr__(self, "sunk_suit", sunk_suit)
        object.__setattr__(self, "invitation", invitation)
        object.__setattr__(self, "partner_pass", partner_pass)
        object.__setattr__(self, "bidder_pass", bidder_pass)
        object.__setattr__(self, "melds", melds)
        return self

    def __init__(  # noqa: PLR0913, PLR0917  # one parameter per field
        self, bids: tuple[Union[Bid, Pass], ...] = (), bidder: Optional[Seat] = None,
        bid: Optional[int] = None, sunk_suit: Optional[Suit] = None,
        invitation: tuple[Card, ...] = (), partner_pass: tuple[Card, ...] = (),
        bidder_pass: tuple[Card, ...] = (), melds: SeatMelds = ((), (), (), ()),
    ) -> None:
        """The fields, set by ``__new__``; ``HandSetup(...)`` also checks their kinds."""

    def _fields(self) -> tuple[object, ...]:
        return (self.bids, self.bidder, self.bid, self.sunk_suit, self.invitation,
            self.partner_pass, self.bidder_pass, self.melds)

    def __eq__(self, other: object) -> bool:
        if type(other) is not HandSetup:
            return NotImplemented
        return self._fields() == other._fields()

    def __ne__(self, other: object) -> bool:
        if type(other) is not HandSetup:
            return NotImplemented
        return self._fields() != other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[object, ...]:
        return (HandSetup, self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __repr__(self) -> str:
        return (
        f"HandSetup(bids={self.bids!r}, "
        f"bidder={self.bidder!r}, "
        f"bid={self.bid!r}, "
        f"sunk_suit={self.sunk_suit!r}, "
        f"invitation={self.invitation!r}, "
        f"partner_pass={self.partner_pass!r}, "
        f"bidder_pass={self.bidder_pass!r}, "
        f"melds={self.melds!r})"
        )
    # fmt: on
    # </generated>


EMPTY_SETUP: Final = HandSetup()


# -- how HandSetup(...) is wired in each build (as GameState(...), see deepsix.state) ---


# <generated: constructors of HandSetup>
# fmt: off
def _checked_new_HandSetup(  # noqa: PLR0913, PLR0917  # one parameter per field
    cls: type[HandSetup], bids: object = (), bidder: object = None, bid: object = None,
    sunk_suit: object = None, invitation: object = (), partner_pass: object = (),
    bidder_pass: object = (), melds: object = ((), (), (), ()),
) -> HandSetup:
    """``HandSetup.__new__`` as called from outside in the compiled build: check, then build."""
    check_kinds(HandSetup, (
        bids, bidder, bid, sunk_suit, invitation, partner_pass, bidder_pass, melds,
    ))
    return HandSetup.__new__(
        cls, cast("tuple[Union[Bid, Pass], ...]", bids), cast("Optional[Seat]", bidder),
        cast("Optional[int]", bid), cast("Optional[Suit]", sunk_suit),
        cast("tuple[Card, ...]", invitation), cast("tuple[Card, ...]", partner_pass),
        cast("tuple[Card, ...]", bidder_pass), cast("SeatMelds", melds)
    )


def _checking_init_HandSetup(  # noqa: PLR0913, PLR0917  # one parameter per field
    self: HandSetup, bids: object = (), bidder: object = None, bid: object = None,
    sunk_suit: object = None, invitation: object = (), partner_pass: object = (),
    bidder_pass: object = (), melds: object = ((), (), (), ()),
) -> None:
    """The pure build's ``HandSetup.__init__``: refuse values of the wrong kind."""
    check_kinds(HandSetup, (
        bids, bidder, bid, sunk_suit, invitation, partner_pass, bidder_pass, melds,
    ))
# fmt: on
# </generated>


keep_annotations(
    HandSetup,
    {
        "bids": "tuple[Union[Bid, Pass], ...]",
        "invitation": "tuple[Card, ...]",
        "partner_pass": "tuple[Card, ...]",
        "bidder_pass": "tuple[Card, ...]",
    },
)

if COMPILED:
    setattr(HandSetup, "__new__", staticmethod(_checked_new_HandSetup))  # noqa: B010  # see above
else:
    setattr(HandSetup, "__new__", staticmethod(fast_new(HandSetup)))  # noqa: B010  # see above
    setattr(HandSetup, "__init__", _checking_init_HandSetup)  # noqa: B010  # see above
