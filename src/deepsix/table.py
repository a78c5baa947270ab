"""What the players at the table can see or infer about where the cards are.

The state, the per-seat views, the bots and the sampler all need the same
facts -- each team's declared meld, the tricks each team has taken, the
suits a player has shown she is out of, the melded cards still in a hand.
The public ones are computed here, once, from the public parts of a hand
(the melds on the table and the cards played), so that every reader
agrees; :class:`SeatKnowledge` adds what one seat knows besides (its own
hand and the cards it passed or received) and is what the bots and the
sampler read.

>>> from deepsix import Card, Seat, Suit
>>> plays = ((Seat.NORTH, Card("6S")), (Seat.EAST, Card("8S")),
...          (Seat.SOUTH, Card("2D")))
>>> voids([plays])[Seat.SOUTH]
frozenset({<Suit.SPADES: 3>})
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import attrs

from deepsix.cards import Card, Seat, Suit
from deepsix.hands import WHOLE_SUIT, counts_of
from deepsix.melds import Meld, meld_value, melded_copies
from deepsix.rules import PlayOver, Rules
from deepsix.tricks import Trick, legal_plays

__all__ = [
    "Plays",
    "SeatKnowledge",
    "SeatView",
    "absent_cards",
    "known_holdings",
    "played_counts",
    "plays_by_trick",
    "team_meld",
    "tricks_taken",
    "voids",
]

Plays = Sequence[tuple[Seat, Card]]
"""The plays of one trick, in order: ``(seat, card)`` pairs."""


def plays_by_trick(tricks: Iterable[Trick], trick: Plays = ()) -> list[Plays]:
    """The plays of the completed tricks, then of the trick in progress (if any)."""
    plays: list[Plays] = [done.plays for done in tricks]
    if trick:
        plays.append(trick)
    return plays


def played_counts(tricks: Iterable[Plays]) -> list[list[int]]:
    """Per seat, the count vector of the cards it has played (from each trick's plays)."""
    played = [[0] * 28 for _ in range(4)]
    for plays in tricks:
        for seat, card in plays:
            played[seat][card] += 1
    return played


def team_meld(melds: Sequence[Sequence[Meld]]) -> tuple[int, int]:
    """Each team's declared meld total, from the four seats' melds."""
    north, east, south, west = (meld_value(seat_melds) for seat_melds in melds)
    return (north + south, east + west)


def tricks_taken(tricks: Iterable[Trick]) -> tuple[int, int]:
    """How many tricks each team has taken."""
    won = [0, 0]
    for trick in tricks:
        won[trick.winner & 1] += 1
    return (won[0], won[1])


def voids(tricks: Iterable[Plays]) -> tuple[frozenset[Suit], ...]:
    """Per seat, the suits it has shown it no longer holds.

    ``tricks`` are the plays of each trick of the hand so far (see
    :func:`plays_by_trick`).  A seat that did not follow the suit led holds
    no card of that suit from then on (R-PLAY-2).
    """
    void: list[set[Suit]] = [set(), set(), set(), set()]
    for plays in tricks:
        led = plays[0][1].suit
        for seat, card in plays[1:]:
            if card.suit != led:
                void[seat].add(led)
    return tuple(frozenset(suits) for suits in void)


def absent_cards(
    tricks: Iterable[Plays], sunk_suit: Suit | None, play_over: PlayOver
) -> tuple[frozenset[Card], ...]:
    """Per seat, the cards its plays this hand prove it does not hold.

    A seat that did not follow suit holds none of the suit led (R-PLAY-2).
    A seat that followed with a card the play-over rule would have ruled
    out, had it held a higher card, holds none of those higher cards
    (R-PLAY-3): the rule's own :func:`~deepsix.tricks.legal_plays`, asked
    which cards a hand holding the whole suit could play, names them.
    Holdings only shrink during play, so what was true then is true now.
    """
    out: list[set[Card]] = [set(), set(), set(), set()]
    for plays in tricks:
        led = plays[0][1].suit
        every = WHOLE_SUIT[led]
        for position in range(1, len(plays)):
            seat, card = plays[position]
            if card.suit != led:
                out[seat].update(legal_plays(every, (), None))
                continue
            allowed = legal_plays(every, [c for _, c in plays[:position]], sunk_suit, play_over)
            if card not in allowed:
                out[seat].update(allowed)
    return tuple(frozenset(cards) for cards in out)


def known_holdings(
    melds: Sequence[Sequence[Meld]], tricks: Iterable[Plays], *, sharing: bool
) -> list[list[int]]:
    """Per seat, the count vector of card copies everyone knows it still holds.

    Melds are laid on the table and then go back to their owner's hand for
    the play, so a seat's declared melds, less the copies of those cards it
    has played since, are in its hand.
    """
    known = [melded_copies(seat_melds, sharing=sharing) for seat_melds in melds]
    for plays in tricks:
        for seat, card in plays:
            if known[seat][card]:
                known[seat][card] -= 1
    return known


class SeatView(Protocol):
    """What :class:`SeatKnowledge` reads from a seat's view (a :class:`~deepsix.PlayerView`)."""

    @property
    def seat(self) -> Seat | None: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def hand(self) -> tuple[Card, ...]: ...
    @property
    def hand_sizes(self) -> tuple[int, int, int, int]: ...
    @property
    def bidder(self) -> Seat | None: ...
    @property
    def sunk_suit(self) -> Suit | None: ...
    @property
    def passed(self) -> tuple[Card, ...]: ...
    @property
    def received(self) -> tuple[Card, ...]: ...
    @property
    def pass_counts(self) -> tuple[int, int]: ...
    @property
    def melds(self) -> Sequence[Sequence[Meld]]: ...
    @property
    def trick(self) -> tuple[tuple[Seat, Card], ...]: ...
    @property
    def tricks(self) -> tuple[Trick, ...]: ...


Row = tuple[int, ...]
"""A count vector: entry ``i`` is a number of copies of card ``i``."""


@attrs.frozen
class SeatKnowledge:
    """What one seat knows about where every card of the current hand is.

    Built from the seat's own view (:meth:`of`), so it holds nothing the
    seat may not know; a spectator's view gives the public knowledge (no
    hand, no passes).  Rows are count vectors (28 entries, one per card);
    per-seat tables have one row per seat, in seat order.

    >>> from deepsix import new_game, shuffled_deal, view
    >>> state = new_game().apply(shuffled_deal(3))
    >>> east = SeatKnowledge.of(view(state, Seat.EAST))
    >>> sum(east.hand), sum(east.unseen), east.unknown_counts()
    (14, 42, [14, 0, 14, 14])
    """

    seat: Seat | None
    """Whose knowledge this is (``None``: a spectator's)."""
    hand: Row
    """The seat's own cards."""
    played: tuple[Row, ...]
    """Per seat, the cards it has played this hand."""
    unseen: Row
    """Copies of each card the seat has neither in its hand nor seen played."""
    melded: tuple[Row, ...]
    """Per seat, copies everyone knows it still holds: its declared melds, less what it
    has played of them since (:func:`known_holdings`)."""
    passed: tuple[Row, ...]
    """Per seat, copies this seat knows it holds from the passes: the bidder's partner
    knows what she passed (less what came back and what the bidder played since), the
    bidder what she passed back (less what her partner played since) -- each once it
    has arrived (a pass in flight, or one coming back part of the way, proves nothing)."""
    voids: tuple[frozenset[Suit], ...]
    """Per seat, the suits it has shown it no longer holds (:func:`voids`)."""
    plays: tuple[Plays, ...]
    """The plays of this hand, trick by trick (:func:`plays_by_trick`)."""
    hand_sizes: tuple[int, int, int, int]
    """How many cards each seat holds."""

    @classmethod
    def of(cls, view: SeatView) -> SeatKnowledge:
        """The knowledge of the seat whose view ``view`` is."""
        seat = view.seat
        plays = tuple(plays_by_trick(view.tricks, view.trick))
        played = played_counts(plays)
        hand = counts_of(view.hand)
        unseen = [max(0, 2 - hand[i] - sum(row[i] for row in played)) for i in range(28)]
        melded = known_holdings(view.melds, plays, sharing=view.rules.meld_sharing)
        passed = [[0] * 28 for _ in range(4)]
        complete = view.rules.pass_size
        to_bidder, to_partner = view.pass_counts
        if seat == view.bidder:
            arrived = to_partner == complete
        else:  # the partner's own pass has arrived, and the one back is home or not begun
            arrived = to_bidder == complete and to_partner in (0, complete)
        if seat is not None and view.passed and view.bidder is not None and arrived:
            partner = seat.partner
            back = counts_of(view.received) if seat != view.bidder else [0] * 28
            row = passed[partner]
            for index, copies in enumerate(counts_of(view.passed)):
                if copies:
                    row[index] = max(0, copies - back[index] - played[partner][index])
        return cls(
            seat,
            tuple(hand),
            tuple(map(tuple, played)),
            tuple(unseen),
            tuple(map(tuple, melded)),
            tuple(map(tuple, passed)),
            voids(plays),
            plays,
            view.hand_sizes,
        )

    def known(self) -> list[list[int]]:
        """Per seat, the copies this seat knows the others hold (melds and passes; its own
        row is empty).

        A card whose known copies outnumber its unseen ones (a view no state
        has) is treated as known nowhere.
        """
        known = [
            [max(melded, passed) for melded, passed in zip(*rows, strict=True)]
            for rows in zip(self.melded, self.passed, strict=True)
        ]
        if self.seat is not None:
            known[self.seat] = [0] * 28
        for i in range(28):
            if known[0][i] + known[1][i] + known[2][i] + known[3][i] > self.unseen[i]:
                for row in known:
                    row[i] = 0
        return known

    def unknown_counts(self, known: Sequence[Sequence[int]] | None = None) -> list[int]:
        """Per seat, how many of its cards this seat cannot place (0 for its own).

        ``known`` is :meth:`known`, if the caller has it already.
        """
        rows = self.known() if known is None else known
        return [
            0 if other == self.seat else max(0, self.hand_sizes[other] - sum(rows[other]))
            for other in range(4)
        ]

    def absent(self, sunk_suit: Suit | None, play_over: PlayOver) -> tuple[frozenset[Card], ...]:
        """Per seat, the cards its plays this hand prove it lacks (:func:`absent_cards`)."""
        return absent_cards(self.plays, sunk_suit, play_over)
