"""What the command line shows: cards in colour, hands, auctions, score sheets.

It builds :class:`~deepsix.cli.text.Text` and :class:`~deepsix.cli.text.Table`
values; the :class:`~deepsix.cli.terminal.Terminal` prints them, in colour
with rich or as plain text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from deepsix.actions import Bid, Pass
from deepsix.cards import Card, Seat, Suit
from deepsix.cli.text import Table, Text
from deepsix.melds import Meld
from deepsix.state import HandRecord

__all__ = [
    "SEAT_NAMES",
    "calls_text",
    "card_text",
    "hand_text",
    "meld_list",
    "score_table",
    "suit_text",
    "suited",
    "who",
]

SEAT_NAMES: Final = ("North", "East", "South", "West")
_RED: Final = frozenset((Suit.DIAMONDS, Suit.HEARTS))


def card_text(card: Card, *, style: str = "") -> Text:
    """One card as bold text, red for diamonds and hearts (the terminal's colour otherwise)."""
    colour = "red" if card.suit in _RED else ""
    return Text(str(card), style=" ".join(part for part in ("bold", colour, style) if part))


def suited(line: str) -> Text:
    """A plain line with its suit symbols coloured."""
    text = Text(line)
    for index, char in enumerate(line):
        if char in "♦♥":
            text.stylize("bold red", index - 1 if index else index, index + 1)
        elif char in "♣♠":
            text.stylize("bold", index - 1 if index else index, index + 1)
    return text


def who(seat: Seat, human: Seat | None) -> str:
    """How the narrator names a seat: 'You' for the human."""
    return "You" if seat == human else SEAT_NAMES[seat]


def hand_text(cards: Sequence[Card], legal: set[Card], sunk: Suit | None) -> Text:
    """A hand grouped by suit; cards that are legal now bold, the others dimmed."""
    text = Text()
    for suit in Suit:
        cards_in = [card for card in cards if card.suit == suit]
        if not cards_in:
            continue
        if len(text):
            text.append("   ")
        label = f"{suit.symbol}{' (sunk)' if suit == sunk else ''}:"
        text.append(label, style="red" if suit in _RED else "")
        for card in cards_in:
            text.append(" ")
            style = "" if not legal or card in legal else "dim"
            text.append_text(card_text(card, style=style))
    return text


def calls_text(calls: Sequence[Bid | Pass]) -> str:
    """The auction so far, compactly: 'E 120 · S pass · W 110'."""
    return " · ".join(
        f"{c.seat} {c.amount}" if isinstance(c, Bid) else f"{c.seat} pass" for c in calls
    )


def meld_list(melds: Sequence[Meld]) -> str:
    """Melds with their values, for the table display."""
    return ", ".join(f"{meld} {meld.value}" for meld in melds)


def score_table(records: Sequence[HandRecord], title: str = "Score sheet") -> Table:
    """One row per finished hand: the contract, each team's points + meld -> score, totals."""
    table = Table(title)
    table.add_column("hand", justify="right")
    table.add_column("contract")
    table.add_column("NS: points meld -> score", justify="right")
    table.add_column("EW: points meld -> score", justify="right")
    table.add_column("totals NS-EW", justify="right")
    for r in records:
        verdict = "made" if r.made else "failed"
        teams = [f"{r.card_points[t]} {r.meld[t]} -> {r.scores[t]}" for t in (0, 1)]
        table.add_row(
            str(r.number),
            Text.assemble(f"{r.bidder} {r.bid} ", suit_text(r.sunk_suit), f" {verdict}"),
            teams[0],
            teams[1],
            f"{r.totals[0]}-{r.totals[1]}",
        )
    return table


def suit_text(suit: Suit) -> Text:
    """A suit symbol in its colour."""
    return Text(suit.symbol, style="bold red" if suit in _RED else "bold")
