"""What everyone at the table can see or infer: facts from public information only.

The state, the per-seat views, the bots and the sampler all need the same
public facts -- each team's declared meld, the tricks each team has taken,
the suits a player has shown she is out of, the melded cards still in a
hand.  They are computed here, once, from the public parts of a hand (the
melds on the table and the cards played), so that every reader agrees.

>>> from deepsix import Card, Seat, Suit
>>> plays = ((Seat.NORTH, Card("6S")), (Seat.EAST, Card("8S")),
...          (Seat.SOUTH, Card("2D")))
>>> voids([plays])[Seat.SOUTH]
frozenset({<Suit.SPADES: 3>})
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from deepsix.cards import Card, Seat, Suit
from deepsix.hands import WHOLE_SUIT
from deepsix.melds import Meld, meld_value, melded_copies
from deepsix.rules import PlayOver
from deepsix.tricks import Trick, legal_plays

__all__ = [
    "Plays",
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
