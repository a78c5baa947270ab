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

The public functions take hands as cards or *count vectors* (28 integers
0..2, one per distinct card); the engine's fast paths take them bit-packed
(see :mod:`deepsix.hands`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final, Optional

import attrs

from deepsix.cards import Card, Rank, Suit
from deepsix.errors import ParseError, Reason, RefusesUnknownValues
from deepsix.hands import BIT, HIGH_BITS, LOW_BITS, counts_of, pack, pack_counts, size

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
    "packed_available_melds",
    "packed_meld_blocker",
    "tied_up_packed",
]


class MeldFamily(RefusesUnknownValues, enum.Enum):
    """The three families of meld; a card copy serves at most one meld per family."""

    RUN = "run"
    ECHO = "echo"
    WIDE = "wide"


class MeldKind(RefusesUnknownValues, enum.Enum):
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

    # Set on each member below, from its value (an enum ``__init__`` does not compile).
    code: str
    """The short code: ``GR``, ``DE``, ``8W`` ..."""
    label: str
    """The name: ``grand run``, ``Mark Twain`` ..."""
    family: MeldFamily
    """Runs, echoes or wides."""
    ranks: tuple[int, ...]
    """The ranks the meld is made of."""
    points: int
    """The meld's value (zero or negative)."""

    def __str__(self) -> str:
        return self.label


for _kind in MeldKind:
    _kind.code, _kind.label, _kind.family, _kind.ranks, _kind.points = _kind.value


def _check_meld(kind: object, suit: object) -> None:
    if not isinstance(kind, MeldKind):
        raise ParseError(f"a meld's kind must be a MeldKind, not {kind!r}")
    if kind.family is MeldFamily.WIDE:
        if suit is not None:
            raise ParseError(f"a {kind.label} has no suit")
    elif not isinstance(suit, Suit):
        raise ParseError(f"a {kind.label} needs a Suit, not {suit!r}")


@attrs.frozen(cache_hash=True)
class Meld:
    """One meld: a kind and, for runs and echoes, the suit.

    >>> meld = Meld(MeldKind.DEEP_RUN, Suit.SPADES)
    >>> str(meld), meld.value, [str(c) for c in meld.cards]
    ('deep run ♠', -30, ['6♠', '7♠', '8♠'])
    >>> Meld.parse(meld.code) == meld
    True
    """

    kind: MeldKind
    """Which of the nine kinds this meld is."""
    suit: "Optional[Suit]" = None  # quoted: the compiled build keeps it as written
    """The suit of a run or echo; ``None`` for a wide."""

    def __attrs_post_init__(self) -> None:
        # Read as anything: the compiled build would refuse a wrong kind with its own TypeError.
        _check_meld(object.__getattribute__(self, "kind"), object.__getattribute__(self, "suit"))

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
        return self.kind.code if self.suit is None else f"{self.kind.code}-{self.suit.letter}"

    def __str__(self) -> str:
        return self.kind.label if self.suit is None else f"{self.kind.label} {self.suit.symbol}"

    @classmethod
    def parse(cls, text: str | object) -> Meld:
        """Read a meld from its code (``DR-S``, ``DR♠``, ``8W``).

        Anything but text raises :class:`~deepsix.errors.ParseError` (``text``
        is typed to take anything, so that the compiled build does too).
        """
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
_MELD_INDEX: Final[dict[Meld, int]] = {meld: i for i, meld in enumerate(ALL_MELDS)}

_MELD_CARDS: Final[dict[Meld, tuple[Card, ...]]] = {m: _cards_of(m.kind, m.suit) for m in ALL_MELDS}
_MELD_NEEDS: Final[dict[Meld, tuple[tuple[int, int], ...]]] = {
    m: tuple((card, m.cards.count(card)) for card in sorted(set(m.cards))) for m in ALL_MELDS
}
_MELD_LOOKUP: Final[dict[str, Meld]] = {}
for _meld in ALL_MELDS:
    _MELD_LOOKUP[_meld.code.replace("-", "")] = _meld
    if _meld.suit is not None:
        _MELD_LOOKUP[f"{_meld.kind.code}{_meld.suit.symbol}"] = _meld


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


# -- packed arithmetic ---------------------------------------------------------
# Counts are handled bit-packed as in :mod:`deepsix.hands`: two bits per card.
# A family's usage never exceeds the hand's counts, so packed sums and
# differences below never carry between cards.

_FAMILY_INDEX: Final = {MeldFamily.RUN: 0, MeldFamily.ECHO: 1, MeldFamily.WIDE: 2}


_NEED: Final[dict[Meld, int]] = {m: pack(m.cards) for m in ALL_MELDS}
# A meld fits a packed hand ``r`` when every card it needs once is present
# (``present(r) & one == one``) and every card it needs twice is paired.
_ONE: Final[dict[Meld, int]] = {
    m: sum(BIT[c] for c, n in _MELD_NEEDS[m] if n == 1) for m in ALL_MELDS
}
_TWO: Final[dict[Meld, int]] = {
    m: sum(BIT[c] for c, n in _MELD_NEEDS[m] if n == 2) for m in ALL_MELDS
}
# Per meld: (meld, family index, needs, ones, twos), skipping runs in the sunk suit.
_Row = tuple[Meld, int, int, int, int]
_ROWS: Final[dict[Suit | None, tuple[_Row, ...]]] = {
    sunk: tuple(
        (m, _FAMILY_INDEX[m.kind.family], _NEED[m], _ONE[m], _TWO[m])
        for m in ALL_MELDS
        if not (m.kind.family is MeldFamily.RUN and m.suit == sunk)
    )
    for sunk in (None, *Suit)
}


def _usages(melds: Iterable[Meld]) -> list[int]:
    """Packed usage of each family (runs, echoes, wides)."""
    usage = [0, 0, 0]
    for meld in melds:
        usage[_FAMILY_INDEX[meld.kind.family]] += _NEED[meld]
    return usage


def _tied_up(usage: Sequence[int], sharing: bool) -> int:
    """Packed copies the families tie up: their fieldwise max, or their sum."""
    if not sharing:
        return usage[0] + usage[1] + usage[2]
    either = usage[0] | usage[1] | usage[2]
    high = either & HIGH_BITS
    return high | (either & LOW_BITS & ~(high >> 1))


def _fits(remaining: int, ones: int, twos: int) -> bool:
    present = (remaining | (remaining >> 1)) & LOW_BITS
    paired = (remaining >> 1) & LOW_BITS
    return present & ones == ones and paired & twos == twos


def melded_copies(melds: Iterable[Meld], *, sharing: bool = True) -> list[int]:
    """How many copies of each of the 28 cards the melds tie up.

    With sharing, melds of different families may reuse a copy, so a card
    needs as many copies as its busiest family uses; without sharing the
    families' uses add up.
    """
    rows = [[0] * 28 for _ in range(3)]
    for meld in melds:
        row = rows[_FAMILY_INDEX[meld.kind.family]]
        for card, need in _MELD_NEEDS[meld]:
            row[card] += need
    combine = max if sharing else sum
    return [combine(row[i] for row in rows) for i in range(28)]


def tied_up_packed(melds: Iterable[Meld], *, sharing: bool = True) -> int:
    """:func:`melded_copies` bit-packed like a hand (see :mod:`deepsix.hands`).

    Only for declarations some hand can hold (at most two copies of a card
    tied up), as the engine's are; the packed fields would overflow otherwise.
    """
    return _tied_up(_usages(melds), sharing)


def meld_blocker(  # noqa: PLR0913  # public signature; the switches are keywords
    counts: Sequence[int],
    declared: Sequence[Meld],
    meld: Meld | object,
    sunk_suit: Suit | None,
    *,
    sharing: bool = True,
    max_melded: int | None = None,
) -> Reason | None:
    """Why ``meld`` cannot be added to ``declared`` from a hand of ``counts``, or ``None``.

    Anything else than a :class:`Meld` raises :class:`~deepsix.errors.ParseError`
    (``meld`` is typed to take anything, so that the compiled build refuses it
    with that error too, not with its own ``TypeError``).

    ``counts`` gives the copies held of each of the 28 cards.  ``max_melded``
    caps how many card copies the melds may tie up in all (the bidder must
    keep cards to pass back, R-MELD-4).
    """
    if not isinstance(meld, Meld):
        raise ParseError(f"{meld!r} is not a Meld")
    return packed_meld_blocker(
        _checked_hand(counts, declared, sunk_suit, sharing),
        declared,
        meld,
        sunk_suit,
        sharing=sharing,
        max_melded=max_melded,
    )


def packed_meld_blocker(  # noqa: PLR0913  # public signature; the switches are keywords
    packed: int,
    declared: Sequence[Meld],
    meld: Meld,
    sunk_suit: Suit | None,
    *,
    sharing: bool = True,
    max_melded: int | None = None,
) -> Reason | None:
    """:func:`meld_blocker` for a bit-packed hand."""
    if meld.kind.family is MeldFamily.RUN and meld.suit == sunk_suit:
        return Reason.RUN_IN_SUNK_SUIT
    usage = _usages(declared)
    family = _FAMILY_INDEX[meld.kind.family]
    used = usage[family] if sharing else _tied_up(usage, False)
    if not _fits(packed - used, _ONE[meld], _TWO[meld]):
        return Reason.MELD_UNAVAILABLE
    if max_melded is not None:
        usage[family] += _NEED[meld]
        if size(_tied_up(usage, sharing)) > max_melded:
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
    return packed_available_melds(
        _checked_hand(counts, declared, sunk_suit, sharing),
        declared,
        sunk_suit,
        sharing=sharing,
        max_melded=max_melded,
    )


def _checked_hand(
    counts: Sequence[int], declared: Sequence[Meld], sunk_suit: Suit | None, sharing: bool
) -> int:
    """The packed hand, once the arguments are known to make sense and the declared melds to fit."""
    given: Sequence[object] = declared  # as anything: the compiled build must not refuse first
    if not all(isinstance(meld, Meld) for meld in given):
        raise ParseError("the declared melds must all be Meld values")
    _check_sunk_suit(sunk_suit)
    packed = pack_counts(counts)
    if any(m > n for m, n in zip(melded_copies(declared, sharing=sharing), counts, strict=True)):
        raise ParseError("the declared melds need more cards than the hand holds")
    return packed


def packed_available_melds(
    packed: int,
    declared: Sequence[Meld],
    sunk_suit: Suit | None,
    *,
    sharing: bool = True,
    max_melded: int | None = None,
) -> tuple[Meld, ...]:
    """:func:`available_melds` for a bit-packed hand."""
    usage = _usages(declared)
    if sharing:
        remaining = [packed - usage[0], packed - usage[1], packed - usage[2]]
    else:
        remaining = [packed - _tied_up(usage, False)] * 3
    present = [(r | (r >> 1)) & LOW_BITS for r in remaining]
    paired = [(r >> 1) & LOW_BITS for r in remaining]
    found: list[Meld] = []
    for meld, family, need, ones, twos in _ROWS[sunk_suit]:
        if present[family] & ones != ones or paired[family] & twos != twos:
            continue
        if max_melded is not None:
            usage[family] += need
            too_many = size(_tied_up(usage, sharing)) > max_melded
            usage[family] -= need
            if too_many:
                continue
        found.append(meld)
    return tuple(found)


def _check_sunk_suit(sunk_suit: object) -> None:
    if sunk_suit is not None and not isinstance(sunk_suit, Suit):
        raise ParseError(f"{sunk_suit!r} is not a Suit (or None)")


def _formable(counts: Sequence[int], sunk_suit: Suit | None) -> list[Meld]:
    return list(packed_available_melds(pack_counts(counts), (), sunk_suit))


def _counts_of(cards: Iterable[Card]) -> list[int]:
    """The count vector of ``cards``, refusing non-cards and a third copy of a card."""
    cards = list(cards)
    for card in cards:
        if type(card) is not Card:
            raise ParseError(f"{card!r} is not a Card")
    row = counts_of(cards)
    if max(row) > 2:
        raise ParseError("a hand holds at most two copies of a card")
    return row


def candidate_melds(cards: Iterable[Card], sunk_suit: Suit | None) -> tuple[Meld, ...]:
    """Every meld that ``cards`` could form on its own (each listed once)."""
    _check_sunk_suit(sunk_suit)
    return tuple(_formable(_counts_of(cards), sunk_suit))


def best_meld(
    cards: Iterable[Card],
    sunk_suit: Suit | None,
    rules: Rules | None = None,
    *,
    max_melded: int | None = None,
) -> tuple[Meld, ...]:
    """The most valuable declaration the cards allow (most negative total).

    ``rules`` (a :class:`deepsix.Rules`) supplies the sharing rule.  The
    answer is fully determined: among declarations of the same total, the
    one tying up the fewest card copies wins (it leaves the most cards free
    to pass), and among those, the one whose melds come first in
    :data:`ALL_MELDS` order (the smallest list of indices, compared in
    order).  The search is an exact branch and bound over the candidate
    melds, each taken up to twice.

    >>> from deepsix.cards import parse_cards
    >>> hand = parse_cards("8S 8S 7S 6S 8H 8D 8C 2C")
    >>> [m.code for m in best_meld(hand, Suit.HEARTS)]
    ['DR-S', 'DE-S', '8W']
    """
    _check_sunk_suit(sunk_suit)
    sharing = True if rules is None else rules.meld_sharing
    packed = pack_counts(_counts_of(cards))
    candidates = sorted(
        packed_available_melds(packed, (), sunk_suit, sharing=sharing), key=lambda m: m.kind.points
    )
    best: list[Meld] = []
    best_key = (0, 0)
    chosen: list[Meld] = []

    def search(index: int, value: int) -> None:
        nonlocal best, best_key
        if index == len(candidates):
            used = size(tied_up_packed(chosen, sharing=sharing))
            key = (value, used)
            if key < best_key or (key == best_key and _in_order(chosen) < _in_order(best)):
                best, best_key = list(chosen), key
            return
        remaining = 2 * sum(m.kind.points for m in candidates[index:])
        if value + remaining > best_key[0]:
            return
        meld = candidates[index]
        added = 0
        while added < 2 and (
            packed_meld_blocker(
                packed, chosen, meld, sunk_suit, sharing=sharing, max_melded=max_melded
            )
            is None
        ):
            chosen.append(meld)
            added += 1
        for _ in range(added + 1):
            search(index + 1, value + meld.kind.points * added)
            if added:
                chosen.pop()
                added -= 1

    search(0, 0)
    return tuple(sorted(best, key=_MELD_INDEX.__getitem__))


def _in_order(melds: Iterable[Meld]) -> list[int]:
    """The melds' :data:`ALL_MELDS` indices, ascending: ``best_meld``'s last tie-break."""
    return sorted(_MELD_INDEX[meld] for meld in melds)
