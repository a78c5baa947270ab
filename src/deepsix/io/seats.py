"""Who held each seat: the seat tags of a game record (``[North "Ann"]``,
``[EastHand3 "heuristic"]``, ``[WestDuringHand3 "random"]``), written by
:func:`holder_tags` and read back, hand by hand, by :func:`seat_holders`.

A seat tag names the holder from hand 1; ``{Seat}Hand{h}`` a new holder from the start of
hand ``h``; ``{Seat}DuringHand{h}`` (then ``_2``, ``_3`` ...) one who took the seat over
during hand ``h``.  The other tags of a record are :mod:`deepsix.io.record`'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from deepsix.actions import Deal
from deepsix.display import plural
from deepsix.io.record import GameRecord, RecordError

__all__ = ["SEAT_TAGS", "HandHolders", "holder_tags", "seat_holders"]

SEAT_TAGS: Final = ("North", "East", "South", "West")
"""The tags naming who held each seat, N E S W (see :func:`holder_tags`)."""
_CHANGE_TAG: Final = re.compile(
    r"(North|East|South|West)(During)?Hand([1-9][0-9]{0,5})(?:_([0-9]{1,4}))?"
)

HandHolders = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""Who held each seat, N E S W, for one hand: each seat's holders in the order they took it
(one, or more if the seat changed hands during the hand; none if the record does not say)."""


def holder_tags(hands: Sequence[Sequence[Sequence[str]]]) -> list[tuple[str, str]]:
    """The seat tags saying who held each seat for each hand.

    ``hands[0]`` is hand 1: four sequences of names, N E S W, each the seat's holders in
    the order they took it that hand (a person's name or a bot's; a seat that changed hands
    during the hand has more than one).  A seat held by one holder throughout gets one tag,
    ``North``; each change adds ``NorthHand{h}`` (from the start of hand ``h``) or
    ``NorthDuringHand{h}`` (during it); :func:`seat_holders` reads them back.

    >>> holder_tags([(("Ann",), ("Bob",), ("Cat",), ("Dan",)),
    ...              (("Ann",), ("heuristic",), ("Cat", "random"), ("Dan",))])
    ... # doctest: +NORMALIZE_WHITESPACE
    [('North', 'Ann'), ('East', 'Bob'), ('EastHand2', 'heuristic'), ('South', 'Cat'),
     ('SouthDuringHand2', 'random'), ('West', 'Dan')]

    Raises :class:`RecordError` if a hand does not name four seats.
    """
    for number, hand in enumerate(hands, 1):
        if isinstance(hand, str) or len(hand) != 4 or any(isinstance(s, str) for s in hand):
            raise RecordError(f"hand {number}: the holders of four seats, N E S W, are needed")
    tags: list[tuple[str, str]] = []
    for index, seat in enumerate(SEAT_TAGS):
        last: str | None = None
        for number, hand in enumerate(hands, 1):
            names = list(hand[index])
            if not names:
                continue
            if last is None and number == 1:
                tags.append((seat, names[0]))
            elif last is None or names[0] != last:
                tags.append((f"{seat}Hand{number}", names[0]))
            for count, name in enumerate(names[1:], 1):
                suffix = "" if count == 1 else f"_{count}"
                tags.append((f"{seat}DuringHand{number}{suffix}", name))
            last = names[-1]
    return tags


def seat_holders(record: GameRecord) -> tuple[HandHolders, ...]:
    """Who held each seat for each hand of ``record`` (one entry a deal), from its seat tags.

    The inverse of :func:`holder_tags`: a seat tag (``East``) names the holder from hand 1,
    ``EastHand3`` a new holder from the start of hand 3, ``EastDuringHand3`` (then
    ``EastDuringHand3_2`` ...) one who took the seat over during hand 3.  A seat the tags do
    not name has no holders.

    >>> from deepsix import new_game, shuffled_deal
    >>> from deepsix.io.record import record_of
    >>> record = record_of(new_game().apply(shuffled_deal(1)), [("North", "Ann")])
    >>> seat_holders(record)
    ((('Ann',), (), (), ()),)

    Raises :class:`RecordError` for a change tag naming a hand the record does not have, a
    ``NorthHand1`` (the first holder is the ``North`` tag's) or a numbered change that
    follows none (``NorthDuringHand3_2`` without ``NorthDuringHand3``).
    """
    if not isinstance(record, GameRecord):
        raise RecordError(f"expected a GameRecord, not {type(record).__name__}")
    hands = sum(1 for action in record.actions if type(action) is Deal)
    starts, during = _change_tags(record, hands)
    result: list[list[tuple[str, ...]]] = [[] for _ in range(hands)]
    for seat, tag in enumerate(SEAT_TAGS):
        holder = record.tag(tag)
        for number in range(1, hands + 1):
            holder = starts.get((seat, number), holder)
            changes = during.get((seat, number), {})
            names = ([] if holder is None else [holder]) + [changes[k] for k in sorted(changes)]
            result[number - 1].append(tuple(names))
            if names:
                holder = names[-1]
    return tuple((hand[0], hand[1], hand[2], hand[3]) for hand in result)


def _change_tags(
    record: GameRecord, hands: int
) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], dict[int, str]]]:
    """The record's change tags, checked: the new holders from the start of a hand, by
    ``(seat, hand)``, and those during a hand, by ``(seat, hand)`` then their order."""
    starts: dict[tuple[int, int], str] = {}
    during: dict[tuple[int, int], dict[int, str]] = {}
    for name, value in record.tags:
        match = _CHANGE_TAG.fullmatch(name)
        if match is None:
            continue
        seat = SEAT_TAGS.index(match.group(1))
        number = int(match.group(3))
        if number > hands:
            raise RecordError(
                f"tag {name} names hand {number}; the record has {plural(hands, 'hand')}"
            )
        if match.group(2) is None:
            if number == 1:
                raise RecordError(f"tag {name}: the first holder is the {match.group(1)} tag's")
            if match.group(4) is not None:
                raise RecordError(
                    f"tag {name}: a hand has one start; the changes during it are"
                    f" {match.group(1)}DuringHand{number}, then _2, _3, ..."
                )
            starts[seat, number] = value
        else:
            count = 1 if match.group(4) is None else int(match.group(4))
            if count < 2 and match.group(4) is not None:
                raise RecordError(f"tag {name}: a second change is _2, a third _3, ...")
            during.setdefault((seat, number), {})[count] = value
    for (seat, number), changes in during.items():
        if sorted(changes) != list(range(1, len(changes) + 1)):
            raise RecordError(
                f"the {SEAT_TAGS[seat]}DuringHand{number} tags skip a number (they go"
                f" {SEAT_TAGS[seat]}DuringHand{number}, then _2, _3, ...)"
            )
    return starts, during
