"""A finished table's game, for keeping: its record (the library's format) and its replay.

The positions of the replay page are drawn on the server by :mod:`deepsix.svg`,
the code that draws the docs' diagrams, so the page shows exactly what the
library says the position is.

The record is an ordinary game record (:mod:`deepsix.io.record`) whose tags
say who sat where, the seed of the deals and how the table ended, in the
shape the command line's saved games use -- so ``deepsix replay`` reads it,
and a table of bots plays again, move for move, with
``deepsix watch --seed``.  Its seat tags name who held each seat for each
hand, from the table's seat history (:mod:`deepsix.web.holders`): a
person's name, or a bot's; ``[East "Bob"]`` then ``[EastHand3 "heuristic"]``
when Bob's seat went to the heuristic bot after hand 2 (see
:func:`deepsix.io.seats.holder_tags`).  The replay data says the same for
each hand.  Both are given only once the game is over:
before that, a record would show every hidden card.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Final

from deepsix import svg
from deepsix._version import __version__
from deepsix.actions import Deal
from deepsix.cards import Seat
from deepsix.events import events
from deepsix.io.notation import format_action
from deepsix.io.record import record_of, write_record
from deepsix.io.seats import holder_tags
from deepsix.io.wire import dumps
from deepsix.rebuild import history_start, history_steps, visit
from deepsix.state import GameState
from deepsix.views import view
from deepsix.web import protocol as p
from deepsix.web.credentials import SEAT_LETTERS, SEAT_NAMES
from deepsix.web.holders import hand_holders
from deepsix.web.protocol import WebError

if TYPE_CHECKING:
    from deepsix.web.rooms import Room

__all__ = [
    "MAX_REPLAY_STEPS",
    "MAX_STEPS",
    "PICTURE_SIZE",
    "picture",
    "record_text",
    "replay_page",
]

MAX_REPLAY_STEPS: Final = 500
"""The most steps one replay page holds with positions."""
MAX_STEPS: Final = 50_000
"""The most steps one replay page holds without positions (a whole game)."""
PICTURE_SIZE: Final = 720
"""The width in pixels of a replayed position's picture."""


def _finished(room: Room) -> GameState:
    """The finished table's last state; refused (409) while the table runs."""
    if room.status != "finished":
        raise WebError(
            "not-finished", "the game is not over: its record would show hidden cards", 409
        )
    return room.state


def record_text(room: Room) -> str:
    """The finished table's game record, in the library's text format."""
    _finished(room)
    created = datetime.datetime.fromtimestamp(room.created, datetime.UTC)
    tags = [
        ("Event", f"deepsix web table {room.id}"),
        ("Site", "deepsix serve"),
        ("Table", room.id),
        ("Date", created.strftime("%Y.%m.%d")),
        ("Program", f"deepsix {__version__}"),
        ("Seed", str(room.seed)),
        ("Seeded", "yes" if room.seeded else "no"),
    ]
    hands = hand_holders(room.seat_history, room.state.history)
    if hands:
        tags.extend(holder_tags([[[e.name for e in seat] for seat in hand] for hand in hands]))
    else:  # not one deal: the seats as they are
        for index, slot in enumerate(room.seats):
            holder = slot.bot or "?" if slot.kind == "bot" else slot.name
            tags.append((SEAT_NAMES[index], holder if slot.kind != "open" else "open"))
    if room.result is not None:
        tags.append(("Result", room.result.winner or "none"))
        ending = room.result.reason + (f" by {room.result.by}" if room.result.by else "")
        tags.append(("Termination", ending))
    return write_record(record_of(room.state, tags))


def replay_page(room: Room, whose: str | None, start: int, count: int | None) -> p.ReplayPage:
    """Steps ``start`` .. ``start + count - 1`` (1 is the first deal) of the finished game.

    ``whose`` adds each step's position: a seat letter (as that seat saw
    it), ``"open"`` (the spectator's view and every hand), or ``None``
    (no positions: the steps alone, light enough to take all at once).
    """
    final = _finished(room)
    if whose is not None and whose != "open" and whose not in SEAT_LETTERS:
        raise WebError("bad-seat", "seat is N, E, S, W, open, or left out (no positions)")
    limit = MAX_REPLAY_STEPS if whose is not None else MAX_STEPS
    count = limit if count is None else count
    if not 1 <= start <= 10**6 or not 1 <= count <= limit:
        raise WebError("bad-request", f"start >= 1 and 1 <= count <= {limit}")
    seat = Seat(SEAT_LETTERS.index(whose)) if whose in tuple(SEAT_LETTERS) else None
    steps: list[p.ReplayStep] = []
    for number, (before, action, after) in enumerate(history_steps(final), 1):
        if number >= start + count:
            break
        if number < start:
            continue
        found = tuple(p.RawJSON(dumps(event)) for event in events(before, action, after))
        dealt = type(action) is Deal
        seen = None if whose is None else p.RawJSON(dumps(view(after, seat)))
        hands = None
        if whose == "open":
            hands = tuple(tuple(card.ascii for card in after.hand(s)) for s in Seat)
        steps.append(
            p.ReplayStep(
                seq=number,
                hand=before.hand_number,
                phase=before.phase.value,
                action="deal" if dealt else format_action(action),
                move=None if dealt else p.RawJSON(dumps(action)),
                events=found,
                view=seen,
                hands=hands,
            )
        )
    records = tuple(p.RawJSON(dumps(record)) for record in final.completed_hands)
    holders = tuple(
        tuple(tuple(p.Holder(entry.kind, entry.name) for entry in seat) for seat in hand)
        for hand in hand_holders(room.seat_history, final.history)
    )
    return p.ReplayPage(
        room.info(), whose, len(final.history), records, tuple(steps), holders=holders
    )


def picture(room: Room, seq: int, whose: str | None) -> str:
    """The position after ``seq`` actions as an SVG picture (:mod:`deepsix.svg`): every hand
    open (``whose`` None) or as seat ``whose`` saw it."""
    final = _finished(room)
    history = final.history
    if not 0 <= seq <= len(history):
        raise WebError("bad-step", f"a step is 0 to {len(history)}", 404)
    state = visit(history_start(final), history[:seq])
    if whose is None:
        return svg.table(state, size=PICTURE_SIZE)
    if whose not in tuple(SEAT_LETTERS):
        raise WebError("bad-seat", "seat is N, E, S or W, or left out (every hand open)")
    return svg.table(view(state, Seat(SEAT_LETTERS.index(whose))), size=PICTURE_SIZE)
