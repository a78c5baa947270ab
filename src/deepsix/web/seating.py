"""Who sits where: joining, bots for open seats, leaving, new credentials, the host's settings.

Each function changes one :class:`~deepsix.web.rooms.Room`'s seats (or
settings) under the room's lock, stores the change *before* it is shown,
and tells the table.  A seat given away (to a bot, or by re-issuing its
credential) closes the connections that held it.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final, Literal, ParamSpec, TypeVar

import attrs

from deepsix.cards import Seat
from deepsix.web import protocol as p
from deepsix.web.credentials import SEAT_NAMES, digest, new_invite, new_secret
from deepsix.web.protocol import WebError
from deepsix.web.rooms import Room
from deepsix.web.slots import SeatSlot, letter

__all__ = ["configure", "fill", "give_to_bot", "join", "new_invite_code", "reissue"]


P = ParamSpec("P")
T = TypeVar("T")
ATTEMPTS: Final = 3
"""How often a change is made again when another server changed the table meanwhile."""


def retried(change: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Make a seat change again when another server of the site changed the table meanwhile.

    The room has then taken the other server's row (see
    :meth:`~deepsix.web.rooms.Room.save`), so the change is checked again
    against the table as it now is; after ``ATTEMPTS`` tries the ``conflict``
    error reaches the caller.
    """

    @functools.wraps(change)
    async def again(*args: P.args, **kwargs: P.kwargs) -> T:
        for _ in range(ATTEMPTS - 1):
            try:
                return await change(*args, **kwargs)
            except WebError as error:
                if error.code != "conflict":
                    raise
        return await change(*args, **kwargs)

    return again


# --------------------------------------------------------------------------------


async def _set_seats(room: Room, seats: list[SeatSlot], **changes: Any) -> None:
    """Store new seats (and other fields), then take them.  Hold the lock."""
    old = room.seats
    room.seats = seats
    try:
        await room.save(room.row(**changes))
    except WebError:
        if room.seats is seats:  # not replaced meanwhile by another server's newer row
            room.seats = old
        raise
    for name, value in changes.items():
        setattr(room, name, value)


@retried
async def join(room: Room, seat: Seat, name: str) -> str:
    """Claim an open seat; returns its new credential."""
    async with room.runner.lock:
        if room.status == "finished":
            raise WebError("finished", "the table has ended")
        if room.seats[seat].kind != "open":
            raise WebError("seat-taken", f"seat {letter(seat)} is taken", 409)
        secret = new_secret()
        seats = list(room.seats)
        seats[seat] = SeatSlot("human", name=name, credential=digest(secret))
        full = all(slot.kind != "open" for slot in seats)
        await _set_seats(room, seats, status="running" if full else room.status)
        room.left_at[seat] = time.monotonic()
    room.changed()
    room.runner.wake()
    return secret


@retried
async def fill(room: Room, bot: str) -> None:
    """Give every open seat to ``bot``: the game starts."""
    async with room.runner.lock:
        if room.status != "waiting":
            raise WebError(
                "finished" if room.status == "finished" else "bad-seat",
                "the table has no open seat to fill",
            )
        seats = [
            SeatSlot("bot", bot=bot, name=SEAT_NAMES[i]) if slot.kind == "open" else slot
            for i, slot in enumerate(room.seats)
        ]
        await _set_seats(room, seats, status="running")
    room.changed()
    room.runner.wake()


@retried
async def give_to_bot(room: Room, seat: Seat, bot: str, *, left: bool = False) -> None:
    """The seat is played by ``bot`` from now on (its credential is void)."""
    async with room.runner.lock:
        if room.status == "finished":
            raise WebError("finished", "the table has ended")
        old = room.seats[seat]
        seats = list(room.seats)
        if room.status == "waiting" and left:
            seats[seat] = SeatSlot("open")
        else:
            seats[seat] = SeatSlot("bot", bot=bot, name=SEAT_NAMES[seat])
        full = all(slot.kind != "open" for slot in seats)
        status = "running" if full and room.status == "waiting" else room.status
        await _set_seats(room, seats, status=status)
        room.standins.pop(seat, None)
    kind: Literal["left", "seat-changed"] = "left" if left else "seat-changed"
    what = "left the table" if left else f"was replaced by the {bot} bot"
    notice = p.Notice(kind, f"{old.name or SEAT_NAMES[seat]} {what}", letter(seat))
    room.close_seat(seat, notice, 1000, kind)
    room.tell(notice)
    room.changed()
    room.runner.wake()


@retried
async def reissue(room: Room, seat: Seat) -> str:
    """A new credential for a human seat; the old one no longer works."""
    async with room.runner.lock:
        if room.seats[seat].kind != "human":
            raise WebError("bad-seat", f"seat {letter(seat)} is not a person's")
        secret = new_secret()
        seats = list(room.seats)
        seats[seat] = attrs.evolve(room.seats[seat], credential=digest(secret))
        await _set_seats(room, seats)
    notice = p.Notice("revoked", "this seat's credential was re-issued", letter(seat))
    room.close_seat(seat, notice, 1008, "revoked")
    return secret


@retried
async def new_invite_code(room: Room) -> str:
    """A new invite code for the table (the host's): links with the old one stop working."""
    async with room.runner.lock:
        code = new_invite()
        await _set_seats(room, list(room.seats), invite=code)
    return code


@retried
async def configure(
    room: Room,
    *,
    private: bool | None = None,
    clock: float | Literal[False] | None = False,
    standin: str | None = None,
) -> None:
    """The host changes the table's settings (``clock=None`` turns the clock off)."""
    async with room.runner.lock:
        changes: dict[str, Any] = {}
        if private is not None:
            changes["private"] = private
        if clock is not False:
            changes["clock"] = clock
        if standin is not None:
            changes["standin"] = standin
        await _set_seats(room, list(room.seats), **changes)
    room.changed()
    room.runner.wake()
