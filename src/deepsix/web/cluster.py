"""Several servers, one site: every server serves every table of a shared database.

With ``--db postgresql://...`` any number of ``deepsix serve`` processes (on
one machine or several, behind a load balancer) serve the same tables.
Each keeps every live table in memory and takes the moves the others
store from their announcements (:class:`~deepsix.web.store.base.Exchange`):
a move made through one server reaches the players connected to another
within a round trip of the database.  What is not stored -- who is
connected and since when, the stand-ins, the seats that have looked at a
hand's summary, notices -- is announced too.

Exactly one server at a time makes a table's own moves (its deals, its
bots, its clocks): the one holding the table's *lease*.  A new table's
lease goes to the server that made it; every few seconds each server
takes the leases that no live server holds (a server that dies loses them
at once), rebuilds the table's driver from the stored game, and runs it.
Should two servers ever race for one move anyway, the database's unique
``(table, seq)`` keeps one and refuses the other, which shows the stored
move instead (:meth:`~deepsix.web.rooms.Room.catch_up`).

A server alone with an SQLite file has no cluster (:class:`~deepsix.web.services.Alone`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any, Final

from deepsix.cards import Seat
from deepsix.io.wire import action_from_wire
from deepsix.web import protocol as p
from deepsix.web.credentials import SEAT_LETTERS
from deepsix.web.lobby import Lobby
from deepsix.web.rooms import Room
from deepsix.web.services import Remote, sweep_forever
from deepsix.web.slots import letter
from deepsix.web.store.base import Exchange

__all__ = ["PRESENCE_REFRESH", "PRESENCE_TTL", "SWEEP", "Cluster"]

_log = logging.getLogger("deepsix.web")

SWEEP: Final = 2.0
"""Seconds between two looks at the leases (a dead server's tables are taken within this)."""
PRESENCE_REFRESH: Final = 10.0
"""Seconds between two announcements of a table's connections here, while it has some."""
PRESENCE_TTL: Final = 25.0
"""What another server said of its connections counts this long (then: gone with it)."""

_SEATS: Final = {letter: Seat(index) for index, letter in enumerate(SEAT_LETTERS)}


class Cluster:
    """This server's part in a site of several: announcements in and out, and the leases."""

    shared = True

    def __init__(self, lobby: Lobby, exchange: Exchange) -> None:
        self.lobby = lobby
        self.exchange = exchange
        self.owned: set[str] = set()
        """The tables whose lease this server holds."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._told: dict[str, float] = {}
        """When each table's connections here were last announced."""
        self._listener: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None

    # -- life -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Join the site: listen, take the leases nobody holds, run what we own."""
        await self.exchange.open()
        self._listener = asyncio.get_running_loop().create_task(self._listen())
        await self._claim()
        self._sweeper = asyncio.get_running_loop().create_task(
            sweep_forever(self.sweep, SWEEP, "cluster: the sweep")
        )
        _log.info(
            "cluster: server %d of %s runs %d of %d live tables",
            self.exchange.server,
            self.exchange.location,
            len(self.owned),
            sum(1 for room in self.lobby.rooms.values() if room.status != "finished"),
        )

    async def close(self) -> None:
        """Leave the site: stop listening; the leases lapse (another server takes them)."""
        for task in (self._sweeper, self._listener, *self._tasks):
            if task is not None:
                task.cancel()
        for task in (self._sweeper, self._listener, *self._tasks):
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self.owned.clear()
        await self.exchange.close()

    # -- what rooms ask (rooms.Peers) ----------------------------------------------------

    def owns(self, room: Room) -> bool:
        """Whether this server runs the table's deals, bots and clocks."""
        return room.id in self.owned

    def announce(self, room: Room, message: dict[str, object]) -> None:
        """Tell the other servers (in the background: nothing waits for it)."""
        self._spawn(self.exchange.publish({**message, "t": room.id}))

    def presence_changed(self, room: Room) -> None:
        """Tell the other servers who is connected to ``room`` here now."""
        self._told[room.id] = time.monotonic()
        self.announce(room, _presence(room))

    async def adopt(self, room: Room) -> None:
        """Take the lease of a table made here."""
        try:
            self.owned |= await self.exchange.claim([room.id])
        except Exception as error:  # the sweep takes it later
            _log.warning("cluster: the lease of table %s was not taken: %s", room.id, error)

    def _spawn(self, work: Any) -> None:
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:  # no loop: shutting down
            work.close()
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the leases ------------------------------------------------------------------------

    async def _claim(self) -> None:
        """Take the leases of the live tables no live server holds, and run those tables."""
        wanted = [
            room.id
            for room in self.lobby.rooms.values()
            if room.status != "finished" and room.id not in self.owned
        ]
        if not wanted:
            return
        taken = await self.exchange.claim(wanted)
        for table_id in taken - self.owned:
            room = self.lobby.rooms.get(table_id)
            if room is None:
                continue
            async with room.runner.lock:
                await room.catch_up()  # what the server that held it stored last
                room.driver = room.new_driver()
            self.owned.add(table_id)
            room.runner.start()
            room.runner.wake()

    async def _lose_everything(self) -> None:
        """Our connection (so our leases) is gone: stop every table's own moves here."""
        if self.owned:
            _log.error(
                "cluster: the connection to %s is lost; %d tables go to the other servers",
                self.exchange.location,
                len(self.owned),
            )
        lost = [self.lobby.rooms[i] for i in self.owned if i in self.lobby.rooms]
        self.owned.clear()
        for room in lost:
            await room.runner.stop()

    async def sweep(self) -> None:
        """Check our connection; take what nobody runs; refresh and expire presence."""
        if not await self.exchange.alive():
            await self._lose_everything()
            with contextlib.suppress(Exception):
                await self.exchange.close()
                await self.exchange.open()
                _log.warning("cluster: connected again as server %d", self.exchange.server)
            return
        finished = {
            table_id
            for table_id in self.owned
            if table_id not in self.lobby.rooms or self.lobby.rooms[table_id].status == "finished"
        }
        if finished:
            await self.exchange.release(finished)
            self.owned -= finished
        await self._claim()
        now = time.monotonic()
        for room in list(self.lobby.rooms.values()):
            if room.subscribers and now - self._told.get(room.id, 0.0) > PRESENCE_REFRESH:
                self.presence_changed(room)
            stale = [name for name, r in room.remote.items() if now - r.at > PRESENCE_TTL]
            if stale:
                for name in stale:
                    self._forget(room, name)
                room.changed()
                room.runner.wake()

    # -- what the others say ---------------------------------------------------------------

    async def _listen(self) -> None:
        async for message in self.exchange.messages():
            try:
                await self.heard(message)
            except Exception:  # one bad message must not deafen the server
                _log.exception("cluster: an announcement could not be taken: %.200r", message)

    async def heard(self, message: dict[str, Any]) -> None:  # noqa: PLR0912  # one case per kind
        """Take one announcement of another server."""
        kind = message.get("k")
        if kind == "resync":
            await self._resync()
            return
        table_id = message.get("t")
        if type(table_id) is not str:
            return
        room = self.lobby.rooms.get(table_id)
        if kind in ("move", "table"):
            if room is None:
                room = await self.lobby.replica(table_id)
            if room is None:  # finished (or quarantined here): listed, not served
                row = await self.lobby.services.store.table(table_id)
                if row is not None:
                    self.lobby.archived(row)
                return
            if kind == "move":
                await self._move(room, message)
            else:
                row = await self.lobby.services.store.table(table_id)
                if row is not None:
                    async with room.runner.lock:
                        room.take_row(row)
                    if row.status == "finished":
                        self.owned.discard(table_id)
            room.runner.wake()
            return
        if room is None:
            return
        if kind == "chat" and not message.get("cut"):
            seat, name, text, at, seq = message["line"]
            room.push_all(p.encode(p.ChatFrame((p.ChatLine(seat, name, text, at, seq),))))
        elif kind == "notice":
            room.push_all(str(message["frame"]))
        elif kind == "presence":
            self._presence(room, str(message.get("o")), message)
        elif kind == "ready":
            seat = _SEATS.get(str(message.get("seat")))
            if seat is not None and message.get("hand") == len(room.state.completed_hands):
                room.ready.add(seat)
                room.runner.wake()
        elif kind == "standin":
            seat = _SEATS.get(str(message.get("seat")))
            if seat is not None:
                reason = message.get("reason")
                if reason is None:
                    room.standins.pop(seat, None)
                    room.turn_began = time.monotonic()
                else:
                    room.standins[seat] = str(reason)
                room.changed()
                room.runner.wake()

    async def _move(self, room: Room, message: dict[str, Any]) -> None:
        seq = message.get("s")
        if type(seq) is not int:
            return
        async with room.runner.lock:
            if room.seq >= seq:
                return  # ours, or taken already
            if room.seq == seq - 1 and type(message.get("a")) is str:
                room.follow(action_from_wire(json.loads(message["a"])))
            else:  # one was missed (or the announcement was cut): read them
                await room.catch_up()

    def _presence(self, room: Room, origin: str, message: dict[str, Any]) -> None:
        now = time.monotonic()
        seats = message.get("seats") or {}
        heard = {
            _SEATS[key]: now - float(age)
            for key, age in seats.items()
            if key in _SEATS and type(age) in (int, float)
        }
        spectators = message.get("spectators")
        old = room.remote.get(origin)
        if not heard and not spectators:
            if old is not None:
                self._forget(room, origin)
        else:
            room.remote[origin] = Remote(now, heard, int(spectators or 0))
            for seat in set(old.heard if old else ()) - set(heard):
                room.left_at[seat] = now
        room.changed()
        room.runner.wake()

    def _forget(self, room: Room, origin: str) -> None:
        gone = room.remote.pop(origin, None)
        now = time.monotonic()
        if gone is not None:
            for seat in gone.heard:
                room.left_at[seat] = now
        if not room.attended:
            room.unattended_since = now

    async def _resync(self) -> None:
        """Announcements may have been missed: read every table's row and moves again."""
        store = self.lobby.services.store
        live = await store.tables()
        rows = {row.id: row for row in live}
        for room in list(self.lobby.rooms.values()):
            if room.status != "finished" and room.id not in rows:  # finished meanwhile
                row = await store.table(room.id)
                if row is not None:
                    rows[row.id] = row
        for row in rows.values():
            known = self.lobby.rooms.get(row.id)
            if known is None:
                await self.lobby.replica(row.id)
                continue
            async with known.runner.lock:
                known.take_row(row)
                await known.catch_up()
            known.runner.wake()


def _presence(room: Room) -> dict[str, object]:
    """Who is connected to ``room`` here: each seat's silence in seconds, and the spectators."""
    now = time.monotonic()
    seats: dict[str, float] = {}
    spectators = 0
    for subscriber in room.subscribers:
        if subscriber.seat is None:
            spectators += 1
            continue
        key = letter(subscriber.seat)
        age = round(now - subscriber.heard, 3)
        seats[key] = min(age, seats.get(key, age))
    return {"k": "presence", "seats": seats, "spectators": spectators}
