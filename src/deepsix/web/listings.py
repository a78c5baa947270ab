"""What the lobby lists of a table: its public description
(:class:`deepsix.web.protocol.TableInfo`), made the same way from a live room and from a
stored row.

The one place that says what a listing shows: :func:`listing`; a finished table's, read from
its stored row without rebuilding it: :func:`info_of_row`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from deepsix.web import protocol as p
from deepsix.web.credentials import SEAT_LETTERS
from deepsix.web.holders import advanced, played
from deepsix.web.slots import SeatSlot
from deepsix.web.store import HolderRow, SeatRow, TableRow, TableStatus

__all__ = ["Listed", "info_of_row", "listing"]


class Listed(Protocol):
    """What :func:`listing` reads of a table: a live :class:`deepsix.web.rooms.Room` or a
    stored :class:`deepsix.web.store.TableRow`."""

    @property
    def id(self) -> str: ...
    @property
    def status(self) -> TableStatus: ...
    @property
    def private(self) -> bool: ...
    @property
    def seeded(self) -> bool: ...
    @property
    def seats(self) -> Sequence[SeatSlot | SeatRow]: ...
    @property
    def clock(self) -> float | None: ...
    @property
    def standin(self) -> str: ...
    @property
    def created(self) -> float: ...
    @property
    def next(self) -> str | None: ...
    @property
    def hint(self) -> bool: ...


def listing(  # noqa: PLR0913  # what the table itself does not hold, all keywords
    table: Listed,
    *,
    presence: Sequence[p.Presence],
    standins: Sequence[str | None],
    seq: int,
    phase: str,
    hand_number: int,
    scores: tuple[int, int],
    spectators: int,
    result: p.Result | None,
    holders: Sequence[HolderRow],
) -> p.TableInfo:
    """A table's public description, from a live room
    (:meth:`deepsix.web.rooms.Room.info`) or from its stored row (:func:`info_of_row`): the
    one place that says what the lobby lists.

    ``presence`` and ``standins`` are by seat, N E S W; ``holders`` is the seats' history, up
    to date (:func:`deepsix.web.holders.advanced`); the rest is what a row keeps in its
    result (a live room reads it from its state)."""
    slots: Sequence[SeatSlot | SeatRow] = table.seats
    over = table.status == "finished"
    return p.TableInfo(
        id=table.id,
        status=table.status,
        started=table.status != "waiting",
        private=table.private,
        seeded=table.seeded,
        seq=seq,
        phase=phase,
        hand_number=hand_number,
        scores=scores,
        seats=tuple(
            p.SeatInfo(
                seat=SEAT_LETTERS[index],
                kind=slot.kind,
                bot=slot.bot,
                name=slot.name,
                online=presence[index] == "online",
                presence=presence[index],
                standin=standins[index],
                played=tuple(
                    p.Holder(entry.kind, entry.name)
                    for entry in played(holders, index, seq, finished=over)
                ),
            )
            for index, slot in enumerate(slots)
        ),
        spectators=spectators,
        clock=table.clock,
        standin=table.standin,
        created=table.created,
        result=result,
        next=table.next,
        hint=table.hint,
    )


def info_of_row(row: TableRow) -> p.TableInfo:
    """The public description of a stored (finished) table, without rebuilding it."""
    data: dict[str, Any] = json.loads(row.result) if row.result else {}
    result = None
    if row.result:
        result = p.Result(data.get("winner"), data.get("reason", "closed"), data.get("by"))
    scores = data.get("scores", [0, 0])
    return listing(
        row,
        presence=["online" if s.kind == "bot" else "offline" for s in row.seats],
        standins=[None] * len(row.seats),
        seq=int(data.get("seq", 0)),
        phase=str(data.get("phase", "deal")),
        hand_number=int(data.get("hand_number", 1)),
        scores=(int(scores[0]), int(scores[1])),
        spectators=0,
        result=result,
        holders=advanced(row.holders, row.seats, int(data.get("seq", 0))),
    )
