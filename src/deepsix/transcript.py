"""Readable plain-text transcripts of games.

:class:`TranscriptWriter` turns the stream of ``(before, action, after)``
steps of a game into lines of text -- one line per auction, invitation,
exchange, meld declaration and trick, and a score block per hand -- so a
front end can print a game as it is played (``deepsix watch``).
:func:`format_transcript` does the same for a finished (or unfinished)
game by replaying its history.  Transcripts are omniscient: they show every
hand and every passed card.  Only the core library is used (no rich).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from deepsix.actions import (
    Action,
    Bid,
    Deal,
    DeclareMeld,
    Done,
    NameSunkSuit,
    Pass,
    PassCard,
    PlayCard,
    ShowCard,
)
from deepsix.cards import Card, Seat, Team, format_cards
from deepsix.engine import apply, new_game
from deepsix.melds import Meld
from deepsix.state import GameState, HandRecord, Phase
from deepsix.tricks import trick_points, trick_winner

__all__ = ["TranscriptWriter", "format_transcript", "transcript_lines"]


def _signed(value: int) -> str:
    """A signed number with a real minus sign: ``−30``, ``+20``, ``0``."""
    if value < 0:
        return f"\N{MINUS SIGN}{-value}"
    return f"+{value}" if value > 0 else "0"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _calls(calls: Sequence[Bid | Pass]) -> str:
    return ", ".join(
        f"{c.seat} {c.amount}" if isinstance(c, Bid) else f"{c.seat} pass" for c in calls
    )


def _melds(melds: Sequence[Meld]) -> str:
    if not melds:
        return "no meld"
    parts = ", ".join(f"{meld} {_signed(meld.value)}" for meld in melds)
    total = sum(meld.value for meld in melds)
    return parts if len(melds) == 1 else f"{parts} (total {_signed(total)})"


def hand_summary(record: HandRecord) -> list[str]:
    """The score block of one finished hand."""
    team = record.bidder.team
    lines = []
    for side in Team:
        verdict = ""
        if side == team:
            verdict = f", bid {record.bid} {'made' if record.made else 'FAILED'}"
        lines.append(
            f"  {side}: took {record.card_points[side]} points, meld {_signed(record.meld[side])},"
            f" net {record.net[side]}{verdict} -> scores {record.scores[side]}"
        )
    lines.append(
        f"  Totals after hand {record.number}: NS {record.totals[0]}, EW {record.totals[1]}"
    )
    return lines


class TranscriptWriter:
    """Turns game steps into transcript lines.

    Feed it every step with :meth:`step` (``play_game(..., on_action=...)``
    hands them over in the right form); it returns the lines that step
    completes, possibly none (an auction is written once it ends).
    """

    def __init__(self, *, show_hands: bool = True) -> None:
        self.show_hands = show_hands
        """Whether to list the four hands after each deal."""
        self._shown: list[Card] = []
        self._passed: list[Card] = []

    def step(self, before: GameState, action: Action, after: GameState) -> list[str]:
        """The transcript lines completed by ``action`` (taken in ``before``, giving ``after``)."""
        lines: list[str] = []
        if isinstance(action, Deal):
            lines.append("")
            lines.append(f"Hand {after.hand_number} - dealer {after.dealer}")
            if self.show_hands:
                for seat in Seat:
                    lines.append(f"  {seat}  {format_cards(after.hand(seat))}")
        elif isinstance(action, Bid | Pass):
            if after.phase is not Phase.BIDDING:
                lines.append(f"  Auction: {_calls(after.bids)}")
        elif isinstance(action, NameSunkSuit):
            lines.append(f"  {action.seat} wins the auction at {after.bid} and sinks {action.suit}")
        elif isinstance(action, ShowCard):
            self._shown.append(action.card)
        elif isinstance(action, PassCard):
            self._passed.append(action.card)
            if after.phase is not before.phase:
                lines.append(
                    f"  {action.seat} passes {len(self._passed)} cards to {action.seat.partner}: "
                    f"{format_cards(self._passed)}"
                )
                self._passed = []
        elif isinstance(action, Done):
            seat = action.seat
            if before.phase is Phase.INVITATION:
                shown = format_cards(self._shown) if self._shown else "nothing"
                lines.append(f"  {seat} invites with {shown}")
                self._shown = []
            else:
                lines.append(f"  {seat} melds {_melds(after.melds[seat])}")
        elif isinstance(action, PlayCard):
            plays = (*before.trick, (action.seat, action.card))
            if len(plays) == 4:
                lines.append(self._trick_line(before, plays))
        elif not isinstance(action, DeclareMeld):  # pragma: no cover - every action is handled
            raise TypeError(f"not an action: {action!r}")
        if len(after.completed_hands) > len(before.completed_hands):
            lines.extend(hand_summary(after.completed_hands[-1]))
        if after.is_over and not before.is_over:
            winner = after.winner
            lines.append("")
            lines.append(
                f"Game over after {_plural(len(after.completed_hands), 'hand')}: "
                f"NS {after.scores[0]}, "
                f"EW {after.scores[1]}. {winner} wins (the lower total)."
            )
        return lines

    @staticmethod
    def _trick_line(before: GameState, plays: tuple[tuple[Seat, Card], ...]) -> str:
        number = len(before.tricks) + 1
        winner = trick_winner(plays, before.sunk_suit)
        points = trick_points([card for _, card in plays])
        bonus = " (+10 last trick)" if number == 14 else ""
        cards = "  ".join(f"{seat} {card!s:<3}" for seat, card in plays)
        return f"  Trick {number:>2}: {cards} -> {winner} takes {points}{bonus}"


def transcript_lines(state: GameState, *, show_hands: bool = True) -> Iterator[str]:
    """The transcript of ``state``'s game so far, line by line, replayed from its history."""
    first_dealer = state.completed_hands[0].dealer if state.completed_hands else state.dealer
    current = new_game(state.rules, first_dealer)
    writer = TranscriptWriter(show_hands=show_hands)
    for action in state.history:
        following = apply(current, action)
        yield from writer.step(current, action, following)
        current = following


def format_transcript(state: GameState, *, show_hands: bool = True) -> str:
    """The transcript of ``state``'s game so far as one string."""
    return "\n".join(transcript_lines(state, show_hands=show_hands)).strip("\n") + "\n"
