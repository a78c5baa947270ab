"""Rematches: the next game of a finished table, with the same people and bots.

The first player (or the host) to ask makes it; the others who ask get the
same one.  Seats may move (partners swap: ``seating[old] = new``).  A human
seat of the rematch is stored as a *claim* on the old table's seat
(``claim:N`` where a credential's hash would be), never with the old
credential: only the present holder of the old seat may claim it, and gets a
credential of the new table's own -- so re-issuing a credential at one table
leaves nothing valid at the other.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Final

import attrs

from deepsix.cards import Seat
from deepsix.engine import new_game
from deepsix.web import protocol as p
from deepsix.web.credentials import SEAT_LETTERS, digest, new_invite, new_secret
from deepsix.web.holders import advanced
from deepsix.web.protocol import WebError
from deepsix.web.rooms import Room
from deepsix.web.slots import seat_of
from deepsix.web.store import SeatRow, TableRow, seat_rows

if TYPE_CHECKING:
    from deepsix.web.lobby import Lobby

__all__ = ["CLAIM", "claim", "rematch"]

CLAIM: Final = "claim:"
"""A rematch seat not yet claimed is stored with ``claim:`` and the old table's seat letter
where a credential's hash would be (no credential ever matches it)."""


async def rematch(lobby: Lobby, room: Room, seating: str) -> Room:
    """The rematch of a finished table: the same people and bots, ``seating[old] = new``."""
    if room.status != "finished":
        raise WebError("not-finished", "a rematch follows a finished game", 409)
    if sorted(seating) != sorted(SEAT_LETTERS):
        raise WebError("bad-seat", "seating lists the new seat of N, E, S and W, once each")
    slots = [SeatRow("open")] * 4
    for index, slot in enumerate(room.seats):
        new = seat_of(seating[index])
        kept = slot.row()
        if kept.kind == "human":  # a claim, never the old credential: see claim
            kept = attrs.evolve(kept, credential=CLAIM + SEAT_LETTERS[index])
        slots[new] = kept
    row = TableRow(
        id=secrets.token_urlsafe(6),
        created=time.time(),
        rules=room.row_rules,
        dealer="N",
        seed=secrets.randbits(63),
        seats=seat_rows(slots),
        status="running" if all(slot.kind != "open" for slot in slots) else "waiting",
        private=room.private,
        clock=room.clock,
        standin=room.standin,
        hint=room.hint,
        host=room.host,
        invite=new_invite(),
        holders=advanced((), slots, 0),
    )
    async with room.runner.lock:
        if room.next is not None:  # the first player to ask made it
            return await lobby.room(room.next)
        await lobby.store_new(row)
        room.next = row.id
        try:
            await room.save(room.row())
        except WebError:
            room.next = None
            raise
    new_room = Room(lobby.services, row, room.rules, new_game(room.rules))
    lobby.add(new_room)
    await lobby.services.peers.adopt(new_room)
    new_room.runner.start()
    room.tell(p.Notice("rematch", "a rematch is ready", None, row.id))
    room.changed()
    lobby.services.changed(new_room)
    return new_room


async def claim(
    lobby: Lobby, room: Room, secret: str | None
) -> tuple[Room, Seat | None, str | None]:
    """The rematch of ``room`` as the holder of ``secret`` there joins it: her seat in it,
    and a credential of its own (``None`` when that seat was claimed already -- by her,
    in another tab: the browser holds it).

    A rematch seat is stored as a *claim* on the old table's seat (``claim:N``), never
    with the old credential: re-issuing a credential at one table leaves nothing valid
    at the other, and only the present holder of the old seat may claim the new one.
    """
    if room.next is None:
        raise WebError("not-finished", "no rematch was made for this table", 409)
    new = await lobby.room(room.next)
    old_seat = room.seat_holding(secret)
    if old_seat is None:
        return new, None, None
    claim = CLAIM + SEAT_LETTERS[old_seat]
    async with new.runner.lock:
        for index, slot in enumerate(new.seats):
            if slot.kind == "human" and slot.credential == claim:
                fresh = new_secret()
                seats = list(new.seats)
                seats[index] = attrs.evolve(slot, credential=digest(fresh))
                old = new.seats
                new.seats = seats
                try:
                    await new.save(new.row())
                except WebError:
                    if new.seats is seats:
                        new.seats = old
                    raise
                return new, Seat(index), fresh
    for index, slot in enumerate(new.seats):  # claimed already: the same player again?
        if slot.kind == "human" and slot.name == room.seats[old_seat].name:
            return new, Seat(index), None
    return new, None, None
