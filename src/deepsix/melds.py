"""Melds: runs, echoes and wides, their values, and the meld finder.

Three families of meld exist (R-MELD-1):

* **runs** -- consecutive ranks of one suit: grand (8-7-6-5-4, -50), deep
  (8-7-6, -30), shallow (7-6-5, -15); never in the sunk suit (R-MELD-2);
* **echoes** -- both copies of one card: 8s (-20), 7s (-15), 6s "Mark Twain" (-10);
* **wides** -- one card of a rank in each of the four suits: 8s (-30), 7s (-20), 6s (-10).

Sharing (R-MELD-3, a ruling): a physical card copy may belong to at most
one meld of each family, but may serve in melds of *different* families,
as in Pinochle.  So ``8♠ 8♠`` can be an echo and, at the same time, each
8♠ can sit in a different eights-wide.  ``Rules(meld_sharing=False)`` is
the strict variant in which a copy serves one meld in all.

Hands are handled here as *count vectors*: 28 integers 0..2, one per
distinct card (see :mod:`deepsix.cards`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

import attrs

from deepsix.cards import Card, Rank, Suit
from deepsix.errors import ParseError, Reason

if TYPE_CHECKING:
    from deepsix.rules import Rules

__all__ = [
    "ALL_MELDS",
    "Meld",
    "MeldFamily",
    "MeldKind",
    "available_melds",
    "best_meld",
    "can_show",
    "candidate_melds",
    "meld_blocker",
    "meld_value",
    "melded_copies",
]


class MeldFamily(enum.Enum):
    """The three families of meld; a card copy serves at most one meld per family."""

    RUN = "run"
    ECHO = "echo"
    WIDE = "wide"


class MeldKind(enum.Enum):
    """The nine kinds of meld, with their family, ranks, value and short code."""

    GRAND_RUN = ("GR", "grand run", MeldFamily.RUN, (8, 7, 6, 5, 4), -50)
    DEEP_RUN = ("DR", "deep run", MeldFamily.RUN, (8, 7, 6), -30)
    SHALLOW_RUN = ("SR", "shallow run", MeldFamily.RUN, (7, 6, 5), -15)
    DEEP_ECHO = ("DE", "deep echo", MeldFamily.ECHO, (8,), -20)
    SHALLOW_ECHO = ("SE", "shallow echo", MeldFamily.ECHO, (7,), -15)
    MARK_TWAIN = ("MT", "Mark Twain", MeldFamily.ECHO, (6,), -10)
    EIGHTS_WIDE = ("8W", "eights wide", MeldFamily.WIDE, (8,), -30)
    SEVENS_WIDE = ("7W", "sevens wide", MeldFamily.WIDE, (7,), -20)
    SIXES_WIDE = ("6W", "sixes wide", MeldFamily.WIDE, (6,), -10)

    def __init__(
        self, code: str, label: str, family: MeldFamily, ranks: tuple[int, ...], value: int
    ) -> None:
        self.code = code
        self.label = label
        self.family = family
        self.ranks = ranks
        self.points = value

    def __str__(self) -> str:
        return self.label


def _check_suit(instance: Meld, attribute: attrs.Attribute[Suit | None], suit: Suit | None) -> None:
    if instance.kind.family is MeldFamily.WIDE:
        if suit is not None:
            raise ParseError(f"a {instance.kind.label} has no suit")
    elif not isinstance(suit, Suit):
        raise ParseError(f"a {instance.kind.label} needs a Suit, not {suit!r}")


@attrs.frozen(cache_hash=True)
class Meld:
    """One meld: a kind and, for runs and echoes, the suit.

    >>> meld = Meld(MeldKind.DEEP_RUN, Suit.SPADES)
    >>> str(meld), meld.value, [str(c) for c in meld.cards]
    ('deep run ♠', -30, ['6♠', '7♠', '8♠'])
    >>> Meld.parse(meld.code) == meld
    True
    """

    kind: MeldKind = attrs.field(validator=attrs.validators.instance_of(MeldKind))
    """Which of the nine kinds this meld is."""
    suit: Suit | None = attrs.field(default=None, validator=_check_suit)
    """The suit of a run or echo; ``None`` for a wide."""

    @property
    def family(self) -> MeldFamily:
        """Runs, echoes or wides."""
        return self.kind.family

    @property
    def value(self) -> int:
        """The meld's (negative) value in points."""
        return self.kind.points

    @property
    def cards(self) -> tuple[Card, ...]:
        """The card copies the meld is made of, sorted (an echo lists its card twice)."""
        return _MELD_CARDS[self]

    @property
    def code(self) -> str:
        """Short notation: ``GR-S``, ``DE-H``, ``8W`` ..."""
        if self.suit is None:
            return self.kind.code
        return f"{self.kind.code}-{self.suit.letter}"

    def __str__(self) -> str:
        if self.suit is None:
            return self.kind.label
        return f"{self.kind.label} {self.suit.symbol}"

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Read a meld from its code (``DR-S``, ``DR♠``, ``8W``)."""
        if not isinstance(text, str):
            raise ParseError(f"a meld must be given as text, not {type(text).__name__}")
        meld = _MELD_LOOKUP.get(text.strip().upper().replace("-", ""))
        if meld is None:
            raise ParseError(
                f"{text!r} is not a meld: use a code such as GR-S, DR-H, SR-C, DE-S, SE-D, "
                "MT-C, 8W, 7W or 6W"
            )
        return meld


def _cards_of(kind: MeldKind, suit: Suit | None) -> tuple[Card, ...]:
    if kind.family is MeldFamily.RUN:
        assert suit is not None
        return tuple(sorted(Card.of(rank, suit) for rank in kind.ranks))
    if kind.family is MeldFamily.ECHO:
        assert suit is not None
        return (Card.of(kind.ranks[0], suit),) * 2
    return tuple(Card.of(kind.ranks[0], s) for s in Suit)


ALL_MELDS: Final[tuple[Meld, ...]] = tuple(
    Meld(kind, None if kind.family is MeldFamily.WIDE else suit)
    for kind in MeldKind
    for suit in (Suit if kind.family is not MeldFamily.WIDE else (None,))
)
"""Every meld that exists, in the library's canonical order (27 in all)."""

_MELD_CARDS: Final[dict[Meld, tuple[Card, ...]]] = {m: _cards_of(m.kind, m.suit) for m in ALL_MELDS}
_MELD_NEEDS: Final[dict[Meld, tuple[tuple[int, int], ...]]] = {
    m: tuple((card, m.cards.count(card)) for card in sorted(set(m.cards))) for m in ALL_MELDS
}
_MELD_LOOKUP: Final[dict[str, Meld]] = {}
for _meld in ALL_MELDS:
    _MELD_LOOKUP[_meld.code.replace("-", "")] = _meld
    if _meld.suit is not None:
        _MELD_LOOKUP[f"{_meld.kind.code}{_meld.suit.symbol}"] = _meld
_FAMILIES: Final = tuple(MeldFamily)


def meld_value(melds: Iterable[Meld]) -> int:
    """The total (negative) value of some melds."""
    return sum(meld.kind.points for meld in melds)


def can_show(card: Card, sunk_suit: Suit) -> bool:
    """Whether a card could belong to some meld given the sunk suit (R-INVITE-2).

    6s, 7s and 8s can always be melded (echoes and wides take any suit);
    4s and 5s only in runs, so not in the sunk suit; 2s and 3s never.

    >>> can_show(Card.parse("5S"), Suit.SPADES), can_show(Card.parse("5S"), Suit.HEARTS)
    (False, True)
    """
    rank = card.rank
    return rank >= Rank.SIX or (rank >= Rank.FOUR and card.suit != sunk_suit)


def _usage(melds: Iterable[Meld]) -> dict[MeldFamily, list[int]]:
    usage = {family: [0] * 28 for family in _FAMILIES}
    for meld in melds:
        row = usage[meld.kind.family]
        for card, count in _MELD_NEEDS[meld]:
            row[card] += count
    return usage


def melded_copies(melds: Iterable[Meld], *, sharing: bool = True) -> list[int]:
    """How many copies of each of the 28 cards the melds tie up.

    With sharing, melds of different families may reuse a copy, so a card
    needs as many copies as its busiest family uses; without sharing the
    families' uses add up.
    """
    rows = list(_usage(melds).values())
    combine = max if sharing else sum
    return [combine(row[i] for row in rows) for i in range(28)]


def meld_blocker(
    counts: Sequence[int],
    declared: Sequence[Meld],
    meld: Meld,
    sunk_suit: Suit | None,
    *,
    sharing: bool = True,
    max_melded: int | None = None,
) -> Reason | None:
    """Why ``meld`` cannot be added to ``declared`` from a hand of ``counts``, or ``None``.

    ``max_melded`` caps how many card copies the melds may tie up in all
    (the bidder must keep cards to pass back, R-MELD-4).
    """
    if meld.kind.family is MeldFamily.RUN and meld.suit == sunk_suit:
        return Reason.RUN_IN_SUNK_SUIT
    usage = _usage((*declared, meld))
    rows = list(usage.values())
    total = 0
    for i in range(28):
        need = max(row[i] for row in rows) if sharing else sum(row[i] for row in rows)
        if need > counts[i]:
            return Reason.MELD_UNAVAILABLE
        total += need
    if max_melded is not None and total > max_melded:
        return Reason.TOO_FEW_UNMELDED
    return None


def available_melds(
    counts: Sequence[int],
    declared: Sequence[Meld],
    sunk_suit: Suit | None,
    *,
    sharing: bool = True,
    max_melded: int | None = None,
) -> tuple[Meld, ...]:
    """The melds that could be declared next, in canonical order."""
    return tuple(
        meld
        for meld in _formable(counts, sunk_suit)
        if meld_blocker(
            counts, declared, meld, sunk_suit, sharing=sharing, max_melded=max_melded
        )
        is None
    )


def _formable(counts: Sequence[int], sunk_suit: Suit | None) -> list[Meld]:
    return [
        meld
        for meld in ALL_MELDS
        if not (meld.kind.family is MeldFamily.RUN and meld.suit == sunk_suit)
        and all(counts[card] >= need for card, need in _MELD_NEEDS[meld])
    ]


def _counts_of(cards: Iterable[Card]) -> list[int]:
    counts = [0] * 28
    for card in cards:
        counts[card] += 1
    return counts


def candidate_melds(cards: Iterable[Card], sunk_suit: Suit | None) -> tuple[Meld, ...]:
    """Every meld that ``cards`` could form on its own (each listed once)."""
    return tuple(_formable(_counts_of(cards), sunk_suit))


def best_meld(
    cards: Iterable[Card],
    sunk_suit: Suit | None,
    rules: Rules | None = None,
    *,
    max_melded: int | None = None,
) -> tuple[Meld, ...]:
    """The most valuable declaration the cards allow (most negative total).

    ``rules`` (a :class:`deepsix.Rules`) supplies the sharing rule; ties are
    broken by tying up fewer card copies, then by canonical order.  The
    search is an exact branch and bound over the candidate melds, each
    taken up to twice.

    >>> from deepsix.cards import parse_cards
    >>> hand = parse_cards("8S 8S 7S 6S 8H 8D 8C 2C")
    >>> [m.code for m in best_meld(hand, Suit.HEARTS)]
    ['DR-S', 'DE-S', '8W']
    """
    sharing = True if rules is None else rules.meld_sharing
    counts = _counts_of(cards)
    candidates = sorted(_formable(counts, sunk_suit), key=lambda m: m.kind.points)
    best: list[Meld] = []
    best_key = (0, 0)
    chosen: list[Meld] = []

    def search(index: int, value: int) -> None:
        nonlocal best, best_key
        if index == len(candidates):
            used = sum(melded_copies(chosen, sharing=sharing))
            key = (value, used)
            if key < best_key:
                best, best_key = list(chosen), key
            return
        remaining = 2 * sum(m.kind.points for m in candidates[index:])
        if value + remaining > best_key[0]:
            return
        meld = candidates[index]
        added = 0
        while added < 2 and (
            meld_blocker(counts, chosen, meld, sunk_suit, sharing=sharing, max_melded=max_melded)
            is None
        ):
            chosen.append(meld)
            added += 1
        for _ in range(added + 1):
            search(index + 1, value + meld.kind.points * added)
            if added:
                chosen.pop()
                added -= 1
        return

    search(0, 0)
    order = {meld: i for i, meld in enumerate(ALL_MELDS)}
    return tuple(sorted(best, key=order.__getitem__))

