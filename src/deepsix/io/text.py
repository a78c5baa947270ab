"""A position as text: one deterministic string for what a seat sees, one for the table.

The one text renderer: ``print(state)`` and ``print(view)`` (and their
``unicode()``), OpenSpiel's information-state and observation strings, its
state string and PettingZoo's ``render()`` are these texts.  Every card is written in
ASCII (``7S``), every seat by its letter (``N``), actions in the library's
:doc:`notation </notation>`.

>>> from deepsix import new_game, shuffled_deal, view, Seat
>>> state = new_game().apply(shuffled_deal(5))
>>> print(view_text(view(state, Seat.EAST)).splitlines()[0])
seat E | hand 1 | dealer N | scores NS 0 EW 0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from deepsix.cards import CARDS, HAND_SIZE, Card, Seat, Suit
from deepsix.io.notation import format_action
from deepsix.melds import Meld
from deepsix.state import GameState
from deepsix.tricks import Trick, trick_points
from deepsix.views import PlayerView, public_view

__all__ = ["hand_text", "printable", "state_text", "trick_text", "view_text"]

_SEATS: Final = tuple(Seat)
_ASCII: Final = tuple(card.ascii for card in CARDS)
_UNICODE: Final = tuple(str(card) for card in CARDS)
_LETTER: Final = tuple(str(seat) for seat in Seat)


def _cards(cards: Sequence[Card], names: Sequence[str] = _ASCII) -> str:
    """Cards in sorted order, ASCII (or as ``names`` writes them), or ``-`` for none."""
    return " ".join([names[card] for card in sorted(cards)]) if cards else "-"


def _meld_codes(melds: Sequence[Meld]) -> str:
    return " ".join(meld.code for meld in melds) if melds else "-"


def view_text(view: PlayerView, *, unicode: bool = False) -> str:
    """A readable, deterministic text of everything in ``view`` (absolute seats, ASCII cards;
    ``unicode=True`` writes the suits as symbols, ``7♠``).

    Two views give the same text exactly when they hold the same facts that
    matter to the seat: its cards, the auction in order, the invitation, its
    passes, every meld in order, every trick in order, the scores.
    """
    names = _UNICODE if unicode else _ASCII

    def suit(of: Suit) -> str:
        return of.symbol if unicode else of.letter

    who = "spectator" if view.seat is None else "seat " + _LETTER[view.seat]
    to_act = "-" if view.to_act is None else _LETTER[view.to_act]
    lines = [
        f"{who} | hand {view.hand_number} | dealer {_LETTER[view.dealer]}"
        f" | scores NS {view.scores[0]} EW {view.scores[1]}",
        f"phase {view.phase.value} | to act {to_act}",
    ]
    for record in view.completed_hands:
        lines.append(
            f"hand {record.number}: {record.bidder} bid {record.bid} sunk {suit(record.sunk_suit)}"
            f" {'made' if record.made else 'set'} | points {record.card_points[0]}/"
            f"{record.card_points[1]} meld {record.meld[0]}/{record.meld[1]} | scored "
            f"{record.scores[0]}/{record.scores[1]} | totals {record.totals[0]}/{record.totals[1]}"
        )
    if view.seat is not None:
        lines.append(f"cards {_cards(view.hand, names)}")
    lines.append("held " + " ".join([_LETTER[s] + str(n) for s, n in enumerate(view.hand_sizes)]))
    if view.bids:
        lines.append("auction " + " ".join(format_action(call) for call in view.bids))
    if view.sunk_suit is not None:
        lines.append(f"contract {view.bidder} {view.bid} | sunk {suit(view.sunk_suit)}")
    if view.invitation:
        lines.append("invitation " + " ".join([names[card] for card in view.invitation]))
    if any(view.pass_counts):
        mine = ""
        if view.passed or view.received:
            passed = " ".join([names[card] for card in view.passed]) or "-"
            mine = f" | gave {passed} | got {_cards(view.received, names)}"
        lines.append(f"passes {view.pass_counts[0]}/{view.pass_counts[1]}{mine}")
    if any(view.melds):
        lines.append(
            "melds "
            + " | ".join([f"{_LETTER[s]}: {_meld_codes(m)}" for s, m in enumerate(view.melds)])
        )
    for k, trick in enumerate(view.tricks, 1):
        plays = " ".join([_LETTER[seat] + ":" + names[card] for seat, card in trick.plays])
        lines.append(f"trick {k} {plays} > {_LETTER[trick.winner]}")
    if view.trick:
        plays = " ".join([_LETTER[seat] + ":" + names[card] for seat, card in view.trick])
        lines.append(f"trick {len(view.tricks) + 1} {plays}")
    if view.winner is not None:
        lines.append(f"winner {view.winner}")
    return "\n".join(lines)


def state_text(state: GameState, dealt: Sequence[Card] = (), *, unicode: bool = False) -> str:
    """The whole state, hidden cards included: every hand, the passes in flight, the table.

    ``dealt`` is the part of a deal dealt so far (the adapters deal one
    card at a time); seat ``s`` receives cards ``14 * s`` to ``14 * s + 13``.
    ``unicode=True`` writes the suits as symbols.
    """
    names = _UNICODE if unicode else _ASCII
    lines = []
    if dealt:
        lines.append(
            "dealing "
            + " / ".join(
                _cards(dealt[HAND_SIZE * s : HAND_SIZE * s + HAND_SIZE], names)
                for s in range(4)
                if dealt[HAND_SIZE * s : HAND_SIZE * s + HAND_SIZE]
            )
        )
    for seat in _SEATS:
        lines.append(f"{seat}: {_cards(state.hand(seat), names)}")
    setup = state.setup
    if setup.partner_pass or setup.bidder_pass:
        lines.append(
            f"passing {_cards(setup.partner_pass, names)} to the bidder, "
            f"{_cards(setup.bidder_pass, names)} back"
        )
    lines.append(view_text(public_view(state), unicode=unicode))
    return "\n".join(lines)


def hand_text(cards: Sequence[Card], *, unicode: bool = False) -> str:
    """A hand as a player holds it: one line a suit (clubs, diamonds, hearts, spades), the
    ranks in order, ``-`` for a void.

    >>> from deepsix import Card
    >>> print(hand_text([Card.parse(c) for c in ("7S", "2S", "5D", "8H", "8H")], unicode=True))
    ♣ -
    ♦ 5
    ♥ 8 8
    ♠ 2 7
    """
    lines = []
    for suit in Suit:
        ranks = sorted(card.rank for card in cards if card.suit is suit)
        mark = suit.symbol if unicode else suit.letter
        lines.append(f"{mark} {' '.join(str(int(rank)) for rank in ranks) or '-'}")
    return "\n".join(lines)


def trick_text(trick: Trick | Sequence[tuple[Seat, Card]], *, unicode: bool = False) -> str:
    """A trick as the table sees it: one line a play (seat, card, who led and, for a
    completed trick, who took it), then the cards' points.

    ``trick`` is a completed :class:`~deepsix.tricks.Trick` or the plays of the trick in
    progress (``state.trick``).

    >>> from deepsix import Card, Seat
    >>> from deepsix.tricks import Trick
    >>> plays = tuple((seat, Card.parse(c)) for seat, c in zip(Seat, ("7S", "8S", "2S", "5H")))
    >>> print(trick_text(Trick(plays, Seat.EAST)))
    N 7S  led
    E 8S  took it
    S 2S
    W 5H
    points 20
    """
    names = _UNICODE if unicode else _ASCII
    plays = trick.plays if isinstance(trick, Trick) else tuple(trick)
    winner = trick.winner if isinstance(trick, Trick) else None
    lines = []
    for k, (seat, card) in enumerate(plays):
        notes = (["led"] if k == 0 else []) + (["took it"] if seat == winner else [])
        lines.append(f"{_LETTER[seat]} {names[card]}  {', '.join(notes)}".rstrip())
    lines.append(f"points {trick_points([card for _, card in plays])}" if plays else "no cards")
    return "\n".join(lines)


def printable(value: object, *, unicode: bool = False) -> str | None:
    """``str(state)``, ``str(view)`` and their ``unicode()``: the text of a
    :class:`~deepsix.GameState` (every hand open) or a :class:`~deepsix.PlayerView`;
    ``None`` for anything else.

    >>> from deepsix import new_game, shuffled_deal
    >>> print(new_game().apply(shuffled_deal(5)).unicode().splitlines()[0])
    N: 6♣ 7♣ 3♦ 5♦ 7♦ 8♦ 5♥ 7♥ 8♥ 2♠ 3♠ 4♠ 5♠ 8♠
    """
    if isinstance(value, GameState):
        return state_text(value, unicode=unicode)
    if isinstance(value, PlayerView):
        return view_text(value, unicode=unicode)
    return None
