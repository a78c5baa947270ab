"""A finished table's game, for keeping: its record (the library's format) and its replay.

The record is an ordinary game record (:mod:`deepsix.io.record`) whose tags
say who sat where, the seed of the deals and how the table ended, in the
shape the command line's saved games use -- so ``deepsix replay`` reads it,
and a table of bots plays again, move for move, with
``deepsix watch --seed``.  Both are given only once the game is over:
before that, a record would show every hidden card.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Final

from deepsix._version import __version__
from deepsix.cards import Seat
from deepsix.events import events
from deepsix.io.record import record_of, write_record
from deepsix.io.wire import dumps, to_wire
from deepsix.rebuild import history_start, walk
from deepsix.state import GameState
from deepsix.views import view
from deepsix.web import protocol as p
from deepsix.web.credentials import SEAT_LETTERS, SEAT_NAMES
from deepsix.web.protocol import WebError

if TYPE_CHECKING:
    from deepsix.web.rooms import Room

__all__ = ["MAX_REPLAY_STEPS", "record_text", "replay_page"]

MAX_REPLAY_STEPS: Final = 500
"""The most steps one replay page holds."""


def _finished(room: Room) -> None:
    if room.status != "finished":
        raise WebError(
            "not-finished", "the game is not over: its record would show hidden cards", 409
        )


def record_text(room: Room) -> str:
    """The finished table's game record, in the library's text format."""
    _finished(room)
    created = datetime.datetime.fromtimestamp(room.created, datetime.UTC)
    tags = [
        ("Event", f"deepsix web table {room.id}"),
        ("Date", created.strftime("%Y.%m.%d")),
        ("Program", f"deepsix {__version__}"),
        ("Seed", str(room.seed)),
        ("Seeded", "yes" if room.seeded else "no"),
    ]
    for index, slot in enumerate(room.seats):
        tags.append((SEAT_NAMES[index], slot.bot or "?" if slot.kind == "bot" else slot.kind))
        if slot.kind == "human":
            tags.append((f"{SEAT_NAMES[index]}Player", slot.name))
    if room.result is not None:
        tags.append(("Result", room.result.winner or "none"))
        ending = room.result.reason + (f" by {room.result.by}" if room.result.by else "")
        tags.append(("Termination", ending))
    return write_record(record_of(room.state, tags))


def replay_page(room: Room, whose: str | None, start: int, count: int) -> p.ReplayPage:
    """Steps ``start`` .. ``start + count - 1`` of the finished game, as ``whose`` saw them.

    ``whose`` is a seat letter, ``"open"`` (every hand shown) or ``None``
    (a spectator's view).
    """
    _finished(room)
    if whose is not None and whose != "open" and whose not in SEAT_LETTERS:
        raise WebError("bad-seat", "seat is N, E, S, W, open, or left out (a spectator's view)")
    if not 0 <= start <= 10**6 or not 1 <= count <= MAX_REPLAY_STEPS:
        raise WebError("bad-request", f"start >= 0 and 1 <= count <= {MAX_REPLAY_STEPS}")
    seat = Seat(SEAT_LETTERS.index(whose)) if whose in tuple(SEAT_LETTERS) else None
    open_hands = whose == "open"
    state = room.state
    steps: list[p.ReplayStep] = []
    first = history_start(state)
    if start == 0:
        steps.append(_step(0, first, None, (), seat, open_hands=open_hands))
    for number, step in enumerate(walk(first, state.history), start=1):
        if number >= start + count:
            break
        if number >= start:
            found = tuple(p.RawJSON(dumps(event)) for event in events(*step))
            action = p.RawJSON(dumps(step.action))
            steps.append(_step(number, step.after, action, found, seat, open_hands=open_hands))
    return p.ReplayPage(room.id, whose, len(state.history), tuple(steps))


def _step(  # noqa: PLR0913  # one step's parts
    number: int,
    state: GameState,
    action: object,
    found: tuple[object, ...],
    seat: Seat | None,
    *,
    open_hands: bool,
) -> p.ReplayStep:
    hands = None
    if open_hands:
        hands = tuple(tuple(card.ascii for card in state.hand(s)) for s in Seat)
    return p.ReplayStep(number, action, found, to_wire(view(state, seat)), hands)
