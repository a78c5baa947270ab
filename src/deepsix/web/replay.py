"""A finished game, after the fact: its record to download, and its positions to step through.

Everything here is for finished games only: a game record holds every deal,
so while a game runs it would show every hidden card.  Once the game is
over the hands may be opened -- the replay page shows any position with
every hand face up, or as one seat saw it.

The positions are drawn on the server by :mod:`deepsix.svg`, the same code
that draws the docs' diagrams and the command line's pictures, so the replay
page shows exactly what the library says the position is.
"""

from __future__ import annotations

from typing import Final

from deepsix import svg
from deepsix.actions import Deal
from deepsix.cards import Seat
from deepsix.engine import apply, new_game
from deepsix.events import events
from deepsix.io.notation import format_action
from deepsix.io.record import record_of, write_record
from deepsix.io.wire import to_wire
from deepsix.rebuild import first_dealer
from deepsix.state import GameState
from deepsix.views import view
from deepsix.web.tables import SEAT_LETTERS, Table, WebError, seat_of

__all__ = ["SIZE", "finished_state", "picture", "record_text", "steps"]

SIZE: Final = 720
"""The width in pixels of a replayed position's picture."""


def finished_state(table: Table) -> GameState:
    """The table's final state; refused (409) while the game is still being played."""
    if not table.state.is_over:
        raise WebError(
            "not-finished",
            "the record and the replay open once the game is over (they show every hand)",
            409,
        )
    return table.state


def _tags(table: Table) -> list[tuple[str, str]]:
    tags = [("Site", "deepsix web table"), ("Table", table.id)]
    for index, slot in enumerate(table.seats):
        who = slot.name or SEAT_LETTERS[index]
        if slot.kind == "bot" and slot.bot:
            who = f"{who} ({slot.bot} bot)"
        tags.append((("North", "East", "South", "West")[index], who))
    return tags


def record_text(table: Table) -> str:
    """The finished game as a game record (:func:`deepsix.write_record`), players tagged."""
    return write_record(record_of(finished_state(table), _tags(table)))


def steps(table: Table) -> dict[str, object]:
    """Every step of the finished game: the action in notation and the events it caused."""
    final = finished_state(table)
    state = new_game(final.rules, first_dealer(final))
    out: list[dict[str, object]] = []
    for seq, action in enumerate(final.history, start=1):
        after = apply(state, action)
        out.append(
            {
                "seq": seq,
                "hand": state.hand_number,
                "phase": state.phase.value,
                "action": "deal" if type(action) is Deal else format_action(action),
                "move": None if type(action) is Deal else to_wire(action),
                "events": [to_wire(event) for event in events(state, action, after)],
            }
        )
        state = after
    return {
        "table": table.info(),
        "steps": out,
        "hands": [to_wire(record) for record in final.completed_hands],
    }


def picture(table: Table, seq: int, seat: str | None) -> str:
    """The position after ``seq`` actions, every hand open (``seat`` None) or as ``seat`` saw it."""
    final = finished_state(table)
    history = final.history
    if type(seq) is not int or not 0 <= seq <= len(history):
        raise WebError("bad-step", f"a step is 0 to {len(history)}", 404)
    state = new_game(final.rules, first_dealer(final))
    for action in history[:seq]:
        state = apply(state, action)
    if seat is None:
        return svg.table(state, size=SIZE)
    viewer: Seat = seat_of(seat)
    return svg.table(view(state, viewer), size=SIZE)
