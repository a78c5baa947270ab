"""Trick play: who wins a trick, and which cards a player may play.

Winning (R-PLAY-4 to R-PLAY-6): a trick goes to the highest card of the
*last suit introduced* to it.  Sunk-suit cards count as if the sunk suit
had been introduced before every other suit, so they never beat a card of
another suit: a trick led in the sunk suit goes to the last other suit
introduced to it (with sunk diamonds, 2♦ 5♥ 3♣ 4♦ goes to the 3♣).  Of two
identical cards the one played later is higher.

Playing (R-PLAY-2, R-PLAY-3): follow the suit led if you can; a player who
follows must "play over" if able -- by default, play a card that would win
the trick as it stands (:attr:`PlayOver.WIN_TRICK`); the variant
:attr:`PlayOver.BEAT_LED_SUIT` asks only to beat the highest card of the
led suit so far.  A player who cannot follow may play anything.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Final, cast

import attr
import attrs

from deepsix.cards import CARD_POINTS, Card, Seat, Suit
from deepsix.compiled import COMPILED, keep_annotations
from deepsix.errors import InvalidStateError
from deepsix.hands import SUIT_MASK, SUIT_SHIFT, suit_block, suit_cards
from deepsix.hands import distinct_cards as all_cards
from deepsix.rules import PlayOver
from deepsix.typecheck import check_kinds

_WIN_TRICK: Final = PlayOver.WIN_TRICK

__all__ = [
    "Trick",
    "all_cards",
    "legal_plays",
    "play_window",
    "suit_cards",
    "trick_points",
    "trick_winner",
    "winning_position",
]


def winning_position(cards: Sequence[Card], sunk_suit: Suit | int | None) -> int:
    """The position (0-based, in play order) of the card that wins ``cards`` so far.

    >>> from deepsix.cards import parse_cards
    >>> winning_position([Card.parse(c) for c in ("6S", "8S", "2S", "5D")], Suit.HEARTS)
    3
    """
    first: int = cards[0]  # ints, not Cards: the compiled build does native arithmetic on them
    winning_suit = first // 7
    best = first
    position = 0
    introduced = 1 << winning_suit
    for i in range(1, len(cards)):
        card: int = cards[i]
        suit = card // 7
        if suit == winning_suit:
            if card >= best:
                best, position = card, i
        elif suit != sunk_suit and not introduced & (1 << suit):
            introduced |= 1 << suit
            winning_suit, best, position = suit, card, i
    return position


def trick_winner(plays: Sequence[tuple[Seat, Card]], sunk_suit: Suit | None) -> Seat:
    """The seat that wins a (possibly partial) trick given as ``(seat, card)`` pairs.

    >>> from deepsix.cards import Seat
    >>> plays = [(Seat(0), Card.parse("6S")), (Seat(1), Card.parse("8S")),
    ...          (Seat(2), Card.parse("2S")), (Seat(3), Card.parse("5H"))]
    >>> trick_winner(plays, Suit.HEARTS)
    <Seat.EAST: 1>
    """
    if not plays:
        raise InvalidStateError("an empty trick has no winner")
    return plays[winning_position([card for _, card in plays], sunk_suit)][0]


def trick_points(cards: Sequence[Card]) -> int:
    """The card points in some cards: 20 per 2, 10 per 3 (R-SCORE-1)."""
    total = 0
    for card in cards:
        total += CARD_POINTS[card]
    return total


def play_window(
    packed_hand: int,
    trick: Sequence[Card],
    sunk_suit: Suit | int | None,
    play_over: PlayOver = PlayOver.WIN_TRICK,
) -> tuple[int, int] | None:
    """Which cards the play rules allow: ``None`` for any card in hand, else
    ``(suit, lowest)`` -- the cards of ``suit`` from ``lowest`` upwards.

    This is R-PLAY-2 and R-PLAY-3 in one place; :func:`legal_plays` and the
    engine both read it.
    """
    if not trick:
        return None
    lead: int = trick[0]  # ints, not Cards: the compiled build does native arithmetic on them
    led = lead // 7
    block = suit_block(packed_hand, led)
    if not block:
        return None
    following = suit_cards(led, block)
    bar: int
    if len(trick) == 1:
        bar = lead
    elif play_over is _WIN_TRICK:
        bar = trick[winning_position(trick, sunk_suit)]
        if bar // 7 != led:
            return (led, following[0])
    else:
        bar = max(card for card in trick if card // 7 == led)
    highest: int = following[-1]
    if highest < bar:
        return (led, following[0])
    return (led, bar)


def legal_plays(
    packed_hand: int,
    trick: Sequence[Card],
    sunk_suit: Suit | int | None,
    play_over: PlayOver = PlayOver.WIN_TRICK,
) -> tuple[Card, ...]:
    """The distinct cards a player holding ``packed_hand`` may play to ``trick``, low to high.

    >>> from deepsix.hands import pack
    >>> from deepsix.cards import parse_cards
    >>> hand = pack(parse_cards("2S 3S 6S 8S 4S 5H"))
    >>> [str(c) for c in legal_plays(hand, [Card.parse("6S")], Suit.HEARTS)]
    ['6♠', '8♠']
    """
    window = play_window(packed_hand, trick, sunk_suit, play_over)
    if window is None:
        return all_cards(packed_hand)
    suit, lowest = window
    following = suit_cards(suit, (packed_hand >> SUIT_SHIFT[suit]) & SUIT_MASK)
    return following[bisect_left(following, lowest) :]


@attr.s(frozen=True, slots=True, auto_attribs=True, init=False, eq=False, repr=False)
class Trick:
    """A completed trick: who led, the four plays in order, and who won it.

    ``Trick(plays, winner)``; ``plays`` must be a tuple (else
    :class:`~deepsix.errors.WrongTypeError`).  The methods that attrs would
    write are written out, so that the compiled build makes the class native
    (see :class:`deepsix.GameState`).
    """

    plays: "tuple[tuple[Seat, Card], ...]"  # quoted: the compiled build keeps it as written
    """The four ``(seat, card)`` plays in play order; the first is the lead."""
    winner: Seat
    """The seat that took the trick."""

    @property
    def leader(self) -> Seat:
        """The seat that led."""
        return self.plays[0][0]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The four cards in play order."""
        return tuple(card for _, card in self.plays)

    @property
    def points(self) -> int:
        """Card points in the trick (not counting the last-trick bonus)."""
        return trick_points(self.cards)

    def __str__(self) -> str:
        plays = " ".join(f"{seat}:{card}" for seat, card in self.plays)
        return f"{plays} -> {self.winner}"

    # <generated: value methods, repr>
    # fmt: off
    def __new__(  # one parameter per field
        cls, plays: tuple[tuple[Seat, Card], ...], winner: Seat,
    ) -> Trick:
        """Build a Trick from its fields, unchecked (the engine's path)."""
        self = object.__new__(cls)
        object.__setattr__(self, "plays", plays)
        object.__setattr__(self, "winner", winner)
        return self

    def __init__(  # one parameter per field
        self, plays: tuple[tuple[Seat, Card], ...], winner: Seat,
    ) -> None:
        """The fields, set by ``__new__``; ``Trick(...)`` also checks their kinds."""

    def _fields(self) -> tuple[object, ...]:
        return (self.plays, self.winner)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Trick:
            return NotImplemented
        return self._fields() == other._fields()

    def __ne__(self, other: object) -> bool:
        if type(other) is not Trick:
            return NotImplemented
        return self._fields() != other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[object, ...]:
        return (Trick, self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __repr__(self) -> str:
        return (
        f"Trick(plays={self.plays!r}, "
        f"winner={self.winner!r})"
        )
    # fmt: on
    # </generated>


# <generated: constructors of Trick>
# fmt: off
def _checked_new_Trick(  # one parameter per field
    cls: type[Trick], plays: object, winner: object,
) -> Trick:
    """``Trick.__new__`` as called from outside in the compiled build: check, then build."""
    check_kinds(Trick, (
        plays, winner,
    ))
    return Trick.__new__(
        cls, cast("tuple[tuple[Seat, Card], ...]", plays), cast("Seat", winner)
    )


def _checking_init_Trick(  # one parameter per field
    self: Trick, plays: object, winner: object,
) -> None:
    """The pure build's ``Trick.__init__``: refuse values of the wrong kind."""
    check_kinds(Trick, (
        plays, winner,
    ))
# fmt: on
# </generated>


keep_annotations(Trick, {"plays": "tuple[tuple[Seat, Card], ...]"})

# As for GameState: from outside, Trick(...) checks its argument in both builds
# (the compiled one through __new__, before mypyc's own checks could refuse it
# with a bare TypeError); the engine's calls build it unchecked.
if COMPILED:
    setattr(Trick, "__new__", staticmethod(_checked_new_Trick))  # noqa: B010  # see above
else:
    setattr(Trick, "__init__", _checking_init_Trick)  # noqa: B010  # see above
