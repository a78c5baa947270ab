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
from typing import Final, Literal

from deepsix.cards import Seat
from deepsix.events import Event, events
from deepsix.io.wire import dumps
from deepsix.rebuild import history_steps
from deepsix.state import GameState
from deepsix.tricks import trick_winner
from deepsix.views import view
from deepsix.web import protocol as p
from deepsix.web.credentials import SEAT_LETTERS
from deepsix.web.slots import letter

__all__ = ["Deadline", "clock", "history", "moment", "result_json", "result_of"]

_VIEW: Final = p.RawJSON("\x00view\x00")
"""Where a frame's view goes (a raw NUL never appears in encoded JSON: it would be escaped)."""


Deadline = tuple[Seat, float, Literal["turn", "absent"], float]
"""The human to act's deadline: seat, when (``time.monotonic()``), why, and its limit."""


def clock(deadline: Deadline | None) -> p.Clock | None:
    """The clock shown for a deadline, if one runs."""
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


def moment(
    info: p.TableInfo,
    state: GameState,
    seq: int,
    shown_clock: p.Clock | None,
    found: Iterable[Event] = (),
) -> Callable[[Seat | None], str]:
    """The frames of one moment by seat; the parts all seats share are built once."""
    encoded = tuple(p.RawJSON(dumps(event)) for event in found)
    winning = None
    if state.trick:  # public, like the trick itself
        winning = letter(trick_winner(state.trick, state.sunk_suit))

    # Everything but the view is the same for every seat: encode it once.
    shared = p.encode(p.Update(seq, info, _VIEW, encoded, winning, shown_clock))

    def frame(seat: Seat | None) -> str:
        return shared.replace(_VIEW, dumps(view(state, seat)), 1)

    return frame


def history(state: GameState, seq: int, since: int) -> p.History:
    """The events of the steps after ``since`` (up to ``seq``), for a client catching up."""
    steps = []
    if since < seq:
        for number, step in enumerate(history_steps(state), 1):
            if number > since:
                found = events(*step)
                if found:
                    encoded = tuple(p.RawJSON(dumps(event)) for event in found)
                    steps.append(p.HistoryStep(number, encoded))
    return p.History(since, seq, tuple(steps))


def result_of(text: str | None) -> p.Result | None:
    """How a stored table ended (its ``result`` column), if it has."""
    if text is None:
        return None
    data = json.loads(text)
    return p.Result(data.get("winner"), data["reason"], data.get("by"))


def result_json(result: p.Result, state: GameState, seq: int) -> str:
    """How the table ended, with what the lobby shows of a finished table."""
    return json.dumps(
        {
            "winner": result.winner,
            "reason": result.reason,
            "by": result.by,
            "scores": list(state.scores),
            "seq": seq,
            "hand_number": state.hand_number,
            "phase": state.phase.value,
        },
        separators=(",", ":"),
    )
