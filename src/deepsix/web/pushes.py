"""What a room pushes: each seat's frame of a moment, the history a reconnecting client catches
up with, and how a table ended.

Every frame pushed to a connection is built for that connection's seat alone:
``view(state, seat)`` (the public view for a spectator), the step's public
events and the table's public description; everything but the view is
encoded once per moment and the view spliced in per seat.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Final

from deepsix.cards import Seat
from deepsix.events import Event, events
from deepsix.io.wire import dumps
from deepsix.rebuild import history_start, walk
from deepsix.tricks import trick_winner
from deepsix.views import view
from deepsix.web import protocol as p
from deepsix.web.credentials import SEAT_LETTERS
from deepsix.web.slots import letter

if TYPE_CHECKING:
    from deepsix.web.rooms import Room

__all__ = ["clock", "history", "moment", "result_json", "result_of"]

_VIEW: Final = p.RawJSON("\x00view\x00")
"""Where a frame's view goes (a raw NUL never appears in encoded JSON: it would be escaped)."""


def clock(room: Room) -> p.Clock | None:
    """The clock of the seat to act, if one runs."""
    deadline = room.runner.deadline()
    if deadline is None:
        return None
    seat, at, reason, limit = deadline
    now = time.monotonic()
    return p.Clock(
        seat=SEAT_LETTERS[seat],
        limit=round(limit, 3),
        remaining=round(max(0.0, at - now), 3),
        deadline=round(time.time() + (at - now), 3),
        reason=reason,
    )


def moment(room: Room, found: Iterable[Event] = ()) -> Callable[[Seat | None], str]:
    """The frames of one moment by seat; the parts all seats share are built once."""
    info = room.info()
    room.shown_presence = tuple(seat.presence for seat in info.seats)
    encoded = tuple(p.RawJSON(dumps(event)) for event in found)
    shown_clock = clock(room)
    state = room.state
    seq = room.seq
    winning = None
    if state.trick:  # public, like the trick itself
        winning = letter(trick_winner(state.trick, state.sunk_suit))

    # Everything but the view is the same for every seat: encode it once.
    shared = p.encode(p.Update(seq, info, _VIEW, encoded, winning, shown_clock))

    def frame(seat: Seat | None) -> str:
        return shared.replace(_VIEW, dumps(view(state, seat)), 1)

    return frame


def history(room: Room, since: int) -> p.History:
    """The events of the steps after ``since``, for a client catching up."""
    steps = []
    if since < room.seq:
        for number, step in enumerate(walk(history_start(room.state), room.state.history), 1):
            if number > since:
                found = events(*step)
                if found:
                    encoded = tuple(p.RawJSON(dumps(event)) for event in found)
                    steps.append(p.HistoryStep(number, encoded))
    return p.History(since, room.seq, tuple(steps))


def result_of(text: str | None) -> p.Result | None:
    """How a stored table ended (its ``result`` column), if it has."""
    if text is None:
        return None
    data = json.loads(text)
    return p.Result(data.get("winner"), data["reason"], data.get("by"))


def result_json(result: p.Result, room: Room) -> str:
    """How the table ended, with what the lobby shows of a finished table."""
    state = room.state
    return json.dumps(
        {
            "winner": result.winner,
            "reason": result.reason,
            "by": result.by,
            "scores": list(state.scores),
            "seq": room.seq,
            "hand_number": state.hand_number,
            "phase": state.phase.value,
        },
        separators=(",", ":"),
    )
