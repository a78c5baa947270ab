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

from deepsix.actions import Action, Bid, Pass
from deepsix.cards import Seat, Team, format_cards
from deepsix.display import plural
from deepsix.events import (
    AuctionWon,
    CardsPassed,
    Event,
    HandDealt,
    HandScored,
    InvitationMade,
    MeldsDeclared,
    SunkSuitNamed,
    TrickWon,
    events,
)
from deepsix.melds import Meld
from deepsix.rebuild import history_steps
from deepsix.scoring import LAST_TRICK_BONUS
from deepsix.state import GameState, HandRecord, Phase

__all__ = ["TranscriptWriter", "format_transcript", "transcript_lines"]


def _signed(value: int) -> str:
    """A signed number with a real minus sign: ``−30``, ``+20``, ``0``."""
    if value < 0:
        return f"\N{MINUS SIGN}{-value}"
    return f"+{value}" if value > 0 else "0"


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
    completes, possibly none (an auction is written once it ends).  The
    lines follow the step's :func:`~deepsix.events.events`, with the hidden
    details (the hands, the passed cards) filled in from the states.
    """

    def __init__(self, *, show_hands: bool = True) -> None:
        self.show_hands = show_hands
        """Whether to list the four hands after each deal."""

    def step(self, before: GameState, action: Action, after: GameState) -> list[str]:
        """The transcript lines completed by ``action`` (taken in ``before``, giving ``after``)."""
        lines: list[str] = []
        for event in events(before, action, after):
            lines.extend(self._lines(event, before, after))
        return lines

    def _lines(self, event: Event, before: GameState, after: GameState) -> list[str]:  # noqa: PLR0911  # one return per kind of event
        if isinstance(event, HandDealt):
            lines = ["", f"Hand {event.number} - dealer {event.dealer}"]
            if self.show_hands:
                lines.extend(f"  {seat}  {format_cards(after.hand(seat))}" for seat in Seat)
            return lines
        if isinstance(event, AuctionWon):
            return [f"  Auction: {_calls(after.bids)}"]
        if isinstance(event, SunkSuitNamed):
            return [f"  {event.bidder} wins the auction at {after.bid} and sinks {event.suit}"]
        if isinstance(event, InvitationMade):
            shown = format_cards(event.cards) if event.cards else "nothing"
            return [f"  {event.bidder} invites with {shown}"]
        if isinstance(event, CardsPassed):
            setup = after.setup
            cards = setup.partner_pass if before.phase is Phase.PARTNER_PASS else setup.bidder_pass
            return [
                f"  {event.giver} passes {event.count} cards to {event.receiver}: "
                f"{format_cards(cards)}"
            ]
        if isinstance(event, MeldsDeclared):
            return [f"  {event.seat} melds {_melds(event.melds)}"]
        if isinstance(event, TrickWon):
            return [_trick_line(event)]
        if isinstance(event, HandScored):
            return hand_summary(event.record)
        return [
            "",
            f"Game over after {plural(len(after.completed_hands), 'hand')}: "
            f"NS {event.scores[0]}, EW {event.scores[1]}. {event.winner} wins (the lower total).",
        ]


def _trick_line(event: TrickWon) -> str:
    points = event.points - LAST_TRICK_BONUS if event.is_last else event.points
    bonus = f" (+{LAST_TRICK_BONUS} last trick)" if event.is_last else ""
    cards = "  ".join(f"{seat} {card!s:<3}" for seat, card in event.trick.plays)
    return f"  Trick {event.number:>2}: {cards} -> {event.winner} takes {points}{bonus}"


def transcript_lines(state: GameState, *, show_hands: bool = True) -> Iterator[str]:
    """The transcript of ``state``'s game so far, line by line, replayed from its history."""
    writer = TranscriptWriter(show_hands=show_hands)
    for step in history_steps(state):
        yield from writer.step(*step)


def format_transcript(state: GameState, *, show_hands: bool = True) -> str:
    """The transcript of ``state``'s game so far as one string."""
    return "\n".join(transcript_lines(state, show_hands=show_hands)).strip("\n") + "\n"
